"""The bundled example is exactly what the page builder makes (no copied pages)."""

from __future__ import annotations

from pathlib import Path

from examples.make_example import example_files

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_example_files_are_built_by_the_page_builder():
    files = example_files()
    assert files, "the example has files"
    for relative, content in files.items():
        assert (EXAMPLES / relative).read_bytes() == content, relative
