"""The judge's page: ``killmod serve``, all of killmod in the browser.

A second door into the same house as ``killmod/commands/``: each page parses its form,
calls the use case the command calls, and shows what the command would print (rendered
by ``killmod.announce``, so the text is the same to the byte).  It holds no rule, no
guard and no SQL; it imports nothing below the use cases but ``killmod.core`` (the
contract in pyproject.toml, and ``tests/test_web_layer.py``).
"""
