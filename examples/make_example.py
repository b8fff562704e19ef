"""Writes the bundled example (saved vote-thread pages and the roster) with the test page builder.

    python -m examples.make_example

(run from the repository's folder: as a module, it finds the tests' page builder)

The pages are the demo thread of ``tests/support/pagebuilder.py`` as a Discuz! X3.4
board renders it; ``tests/test_example.py`` checks that the files here are
exactly what this script writes.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.pagebuilder import DEMO_ROSTER_TOML, demo_thread, render_discuz_x_page

HERE = Path(__file__).resolve().parent


def example_files() -> dict[Path, bytes]:
    """Every file of the example, by path relative to ``examples/``."""
    thread = demo_thread()
    files = {
        Path("day1") / f"page-{n}.html": render_discuz_x_page(thread, n)
        for n in range(1, thread.page_count + 1)
    }
    files[Path("roster.toml")] = DEMO_ROSTER_TOML.encode("utf-8")
    return files


def main() -> None:
    for relative, content in example_files().items():
        path = HERE / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        print(path.relative_to(HERE.parent))


if __name__ == "__main__":
    main()
