"""What the tests share: the page builder and local board, game files, fake boards."""
