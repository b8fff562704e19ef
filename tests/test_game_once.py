"""A command opens the game file once and closes it; it reads and replays the event log
once for each state of the file.

A command asks the game for its roster and its rule set's state many times (each check,
each use case); ``Game.derived`` works them out once and again only after the file
changed: a row written here, a step rolled back, another killmod's commit.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod import status, tally, undo
from killmod.commands.cli import main
from killmod.game.roster import parse_roster
from killmod.game.state import state_for
from killmod.game.store import Game
from tests.support.pagebuilder import DEMO_ROSTER_TOML

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_PAGES = str(ROOT / "examples" / "day1")
DEADLINE = "2019-05-12 22:00"


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    db = tmp_path / "killmod.db"
    Game.create(db, parse_roster(DEMO_ROSTER_TOML)).close()
    return db


def log_reads(game: Game) -> list[str]:
    """The statements that read the whole event log on ``game``'s connection, from now on."""
    reads: list[str] = []

    def seen(sql: str) -> None:
        if sql.lstrip().lower().startswith("select * from events"):
            reads.append(sql)

    game.db.conn.set_trace_callback(seen)
    return reads


def test_a_tally_recorded_reads_the_event_log_once(game_file):
    with Game.open(game_file) as game:
        reads = log_reads(game)
        tally(EXAMPLE_PAGES, deadline=DEADLINE, game=game, round_no=1, record=True)
        assert len(reads) == 1
        assert [e.seat for e in game.events("death")] == [5]  # and the step is all there


def test_the_status_reads_the_event_log_once(game_file):
    with Game.open(game_file) as game:
        tally(EXAMPLE_PAGES, deadline=DEADLINE, game=game, round_no=1, record=True)
    with Game.open(game_file) as game:
        reads = log_reads(game)
        status(game)
        assert len(reads) == 1


def test_undo_reads_the_log_again_only_after_voiding_the_step(game_file):
    with Game.open(game_file) as game:
        tally(EXAMPLE_PAGES, deadline=DEADLINE, game=game, round_no=1, record=True)
    with Game.open(game_file) as game:
        reads = log_reads(game)
        undo(game)
        assert len(reads) == 2
        assert game.events("death") == [] and game.roster().seat(5).alive


def test_the_state_after_a_write_holds_the_write(game_file):
    with Game.open(game_file) as game:
        assert game.roster().seat(3).alive
        with game.transaction("死亡", kind="death"):
            game.record(1, "death", 3, {"how": "night"})
            assert not game.roster().seat(3).alive
        assert not game.roster().seat(3).alive
        assert not state_for(game).roster.seat(3).alive


def test_a_step_rolled_back_leaves_no_trace_in_the_state(game_file):
    with Game.open(game_file) as game:
        assert game.roster().seat(3).alive
        with pytest.raises(ZeroDivisionError), game.transaction("死亡", kind="death"):
            game.record(1, "death", 3, {"how": "night"})
            assert not game.roster().seat(3).alive
            1 / 0  # noqa: B018
        assert game.roster().seat(3).alive
        assert game.events("death") == []


def test_another_killmods_commit_is_seen_at_once(game_file):
    with Game.open(game_file) as ours, Game.open(game_file) as theirs:
        reads = log_reads(ours)
        assert ours.roster().seat(3).alive and ours.roster().seat(4).alive
        assert len(reads) == 1
        with theirs.transaction("死亡", kind="death"):
            theirs.record(1, "death", 3, {"how": "night"})
        assert not ours.roster().seat(3).alive
        assert len(reads) == 2


def open_files_of(path: Path) -> list[str]:
    """This process's descriptors open on ``path`` (or its journal)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(path)):
            found.append(target)
    return found


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc (Linux)")
def test_every_command_closes_the_game_file_it_opened(game_file):
    db = str(game_file)
    commands = [
        ["status", "--db", db],
        ["tally", EXAMPLE_PAGES, "--deadline", DEADLINE, "--db", db, "--round", "1"],
        ["tally", EXAMPLE_PAGES, "--deadline", DEADLINE, "--db", db, "--round", "1", "--record"],
        ["tally", EXAMPLE_PAGES, "--deadline", DEADLINE, "--db", db, "--round", "1", "--record"],
        ["history", "--db", db],
        ["night", "--round", "1", "--kill", "3", "--db", db],
        ["undo", "--db", db],
        ["lottery", "show", "--round", "1", "--db", db],
    ]
    codes = []
    gc.disable()  # a connection left open in a reference cycle stays open to be seen
    try:
        for args in commands:
            codes.append(CliRunner().invoke(main, args).exit_code)
            assert open_files_of(game_file) == [], args
    finally:
        gc.enable()
    assert codes == [0, 0, 0, 2, 0, 2, 0, 2]  # the refusals close it too
