"""killmod's tests (a package, so that ``tests.support`` is found by name)."""
