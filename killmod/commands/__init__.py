"""The ``killmod`` subcommands, one module each: options in, one use case, output out."""
