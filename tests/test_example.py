"""The bundled example is exactly what the page builder makes (no copied pages)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_example_files_are_built_by_the_page_builder():
    spec = importlib.util.spec_from_file_location("make_example", EXAMPLES / "make_example.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files = module.example_files()
    assert files, "the example has files"
    for relative, content in files.items():
        assert (EXAMPLES / relative).read_bytes() == content, relative
