"""A 1.2 game file taken through every kind of recorded step, for the game-file tests.

Players are ``玩家N`` (uid 5000+N): killers 1, 2 and 3, the 检查官 4, the rest 水民; the
judge is 法官; one substitute, 替补甲.  Vote threads are built from ballots with
``gamefiles`` and served by the local board.  ``console`` runs the installed ``killmod``
program in its own process, as a judge does; ``rows`` reads a game file with plain
SQLite, so that what is compared is what the file holds.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from tests.support.forumserver import BaseUrl
from tests.support.gamefiles import deadline, new_game, run, serve, votes
from tests.support.pagebuilder import Site

KILLMOD = Path(sys.executable).parent / "killmod"
ROLES = {seat: "杀手" if seat <= 3 else "检查官" if seat == 4 else "水民" for seat in range(1, 17)}
SUBSTITUTE = 'substitutes = ["替补甲"]'


def game_12(tmp_path: Path, roles: Mapping[int, str | None] = ROLES, **more) -> Path:
    """A 1.2 game file (``killmod init``) of 16 players with ``roles``."""
    return new_game(tmp_path, "1.2", roles, extra=more.pop("extra", SUBSTITUTE), **more)


def ballots_for(ballots: Mapping[int, int | str]) -> list[tuple[int, str, str]]:
    """Vote posts from 20:00, a second apart: ``{seat: target seat or text}``."""
    texts = {seat: f"投{b}号" if isinstance(b, int) else b for seat, b in ballots.items()}
    return votes("20:00:00", texts)


def everyone_votes(target: int, living: range | list[int] = range(1, 17)) -> dict[int, int]:
    """Every living seat but the target votes for ``target``; the target votes for 16."""
    return {seat: (target if seat != target else 16 if target != 16 else 15) for seat in living}


def vote_url(serve_site: Callable[[Site], BaseUrl], ballots: Mapping[int, int | str], day: int):
    """A served vote thread of March ``day`` with ``ballots``; its deadline is 22:00 that day."""
    return serve(serve_site, ballots_for(ballots), day)


def record_day(db: Path, url: str, day: int, *extra: object):
    """``killmod tally --record`` of the vote of March ``day`` (in process, CliRunner)."""
    return run("tally", url, "--db", db, "--deadline", deadline(day), "--record", *extra)


def console(*args: object, env: Mapping[str, str] | None = None, **options):
    """The installed ``killmod`` program in its own process; ``options`` go to
    ``subprocess.run`` (stdout and stderr are captured as text unless they say otherwise)."""
    settings = {"text": True, "timeout": 120}
    if "stdout" not in options:
        settings["capture_output"] = True
    return subprocess.run(
        [str(KILLMOD), *(str(arg) for arg in args)],
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})},
        **(settings | options),
    )


def rows(db: Path) -> tuple:
    """What the file records, timestamps left out: steps, events, tallies, posts."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        queries = (
            "select id, kind, round, title, void from steps order by id",
            "select id, round, kind, seat, data, void, step_id from events order by id",
            "select id, round, deadline, source, snapshot_sha256, void, step_id from tallies",
            "select tally_id, pid, author, body from posts order by tally_id, pid",
            "select seat, name, uid, alive, role from players order by seat",
        )
        return tuple(tuple(conn.execute(query).fetchall()) for query in queries)
    finally:
        conn.close()


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes (a file left untouched keeps it)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def status(db: Path) -> str:
    """``killmod status`` of the game file."""
    done = run("status", "--db", db)
    assert done.exit_code == 0, done.output
    return done.output
