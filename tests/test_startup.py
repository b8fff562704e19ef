"""A command imports what it uses, nothing more: no SQLite library without a game file, no
Jinja2 for JSON, no HTTP library for saved pages, no rule set or profile it does not use
(nor what other sets share, for a 1.2 count).

Each case runs the command in a fresh Python process and lists the modules it loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from tests.support.pagebuilder import DEMO_ROSTER_TOML, demo_thread, render_discuz_x_page

# Process tests (a fresh Python for each command): run by CI and the full suite, left out
# of the inner loop (-m "not slow").
pytestmark = pytest.mark.slow

# Runs the command, then prints which of the watched modules it loaded.
PROBE = """
import json, sys
from killmod.commands.cli import main
watched = json.loads(sys.argv.pop(1))
code = 0
try:
    main()
except SystemExit as done:
    code = done.code or 0
print(json.dumps([code, sorted(m for m in watched if m in sys.modules)]), file=sys.stderr)
"""
WATCHED = [
    "sqlite3",
    "sqlite_utils",
    "jinja2",
    "requests",
    "urllib3",
    "dateparser",
    "lxml",
    "scrapers.profile",
    "killmod.rules.r10",
    "killmod.rules.r12",
    "killmod.rules.shared",
    "killmod.game.store",
    "killmod.usecases.tally",
    "killmod.announce.views",
    "killmod.announce.tallyviews",
    "tinycss2",
]


def loaded(*args: str) -> set[str]:
    """The watched modules ``killmod ARGS`` loads (it must succeed)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(WATCHED), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    code, modules = json.loads(done.stderr.strip().splitlines()[-1])
    assert code == 0, done.stderr
    return set(modules)


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Path, Path]:
    """A one-page saved vote thread (every time with its exact title) and its roster."""
    thread = replace(demo_thread(), per_page=40)
    thread.posts = [replace(post, time_style="auto") for post in thread.posts]
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "page-1.html").write_bytes(render_discuz_x_page(thread, 1))
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    return folder, roster


def test_help_loads_no_use_case():
    assert loaded("--help") == set()


def test_a_saved_json_tally_loads_neither_sqlite_nor_jinja2_nor_http(saved):
    """Nor the templates' views when the notes have nothing to say, nor the CSS reader (no
    post has a style)."""
    folder, roster = saved
    args = ["tally", str(folder), "--roster", str(roster), "--deadline", "22:00"]
    modules = loaded(*args, "--format", "json")
    assert modules == {"lxml", "killmod.rules.r12", "killmod.usecases.tally"}


def test_an_announcement_loads_jinja2_but_no_sqlite(saved):
    """And the tally's views, not every other command's."""
    folder, roster = saved
    args = ["tally", str(folder), "--roster", str(roster), "--deadline", "22:00"]
    modules = loaded(*args)
    assert {"jinja2", "killmod.announce.tallyviews"} <= modules
    assert not modules & {"sqlite_utils", "killmod.game.store", "requests", "scrapers.profile"}
    assert "killmod.announce.views" not in modules


def test_a_game_file_loads_sqlite(saved, tmp_path):
    folder, roster = saved
    db = tmp_path / "game.db"
    assert loaded("init", "--roster", str(roster), "--db", str(db)) >= {"sqlite_utils"}
    args = ["tally", str(folder), "--db", str(db), "--deadline", "22:00", "--format", "json"]
    assert "sqlite_utils" in loaded(*args)
