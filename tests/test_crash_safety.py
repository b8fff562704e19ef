"""Crash safety of the game file: killed at any moment, locked by another killmod.

- ``killmod tally --record`` (the installed console script, against a local board) is
  killed with SIGKILL at random moments, many times within a time budget: the game file
  is every time either as before or fully recorded — the ``tallies``, ``posts`` and
  ``events`` tables unchanged or holding exactly the whole new record — and SQLite's
  ``PRAGMA integrity_check`` is ``ok``.  A kill landing inside the write transaction is
  also made certain once, by a recording slowed down in the middle of its transaction.
- ``killmod undo`` killed at random moments: the undo is done whole or not at all;
  ``killmod notices`` killed: the game file is untouched, every notice placed is whole.
- Two killmod processes on one game file: while another process holds a write
  transaction, a recording command waits ``KILLMOD_BUSY_SECONDS``, then fails with the
  game-locked message (exit 1, no traceback) and writes nothing; once the other process
  is done, the same command records.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from killmod.game.store import Game
from tests.support.pagebuilder import (
    DEMO_ROSTER_TOML,
    DEMO_TID,
    big_roster_toml,
    big_thread,
    discuz_x_site,
)

# Crash tests: run by CI and the full suite, left out of the inner loop (-m "not slow").
pytestmark = pytest.mark.slow

KILLMOD = Path(sys.executable).parent / "killmod"
BUDGET = 15.0  # seconds of random kills
MAX_KILLS = 30


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "XDG_CACHE_HOME": str(tmp_path / "cache-home"),
        "PYTHONIOENCODING": "utf-8",
        **extra,
    }


def state(db: Path) -> tuple:
    """What a step changes: the tallies, posts, events and steps (timestamps left out)."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        tallies = conn.execute("select id, round, deadline, source, result, void from tallies")
        posts = conn.execute("select tally_id, pid, author, body from posts order by pid")
        events = conn.execute("select id, round, kind, seat, data, void from events order by id")
        steps = conn.execute("select id, kind, round, title, void from steps order by id")
        return (tallies.fetchall(), posts.fetchall(), events.fetchall(), steps.fetchall())
    finally:
        conn.close()


@pytest.fixture
def board(serve_site):
    """A local board serving a 10-page vote thread (100 posts to record)."""
    base = serve_site(discuz_x_site(big_thread(pages=10)))
    return f"{base}/forum.php?mod=viewthread&tid=8001"


@pytest.fixture
def fresh_game(tmp_path: Path) -> Path:
    """A game file of the big thread's roster, closed (no WAL beside it)."""
    roster = tmp_path / "roster.toml"
    roster.write_text(big_roster_toml(), encoding="utf-8")
    from killmod.game.roster import load_roster

    path = tmp_path / "fresh.db"
    Game.create(path, load_roster(roster)).close()
    assert not Path(f"{path}-wal").exists()
    return path


def record_command(url: str, db: Path) -> list[str]:
    return [
        str(KILLMOD), "tally", url, "--deadline", "22:00", "--db", str(db), "--record",
        "--round", "1", "--format", "json",
    ]  # fmt: skip


def copy_game(source: Path, target: Path) -> Path:
    for suffix in ("-journal", "-wal", "-shm"):  # a killed step's journal: not the copy's
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(source, target)
    os.chmod(target, 0o600)
    return target


def kill_at_random(
    command: list[str], source: Path, tmp_path: Path, seed: int, budget: float = BUDGET
) -> tuple[tuple, tuple, dict[str, int]]:
    """Run ``command`` on copies of the game file ``source``, killed with SIGKILL at random
    moments: every time the copy is either as before or fully done.  Returns the two
    states and how the runs ended."""
    env = environment(tmp_path)
    before = state(source)
    # the full step, and how long a whole run takes
    full = copy_game(source, tmp_path / "full.db")
    started = time.monotonic()
    done = subprocess.run(
        [str(arg).replace("{db}", str(full)) for arg in command],
        capture_output=True,
        env=env,
        timeout=120,
    )
    duration = time.monotonic() - started
    assert done.returncode == 0, done.stderr.decode()
    after = state(full)
    rng = random.Random(seed)
    outcomes = {"as before": 0, "fully done": 0, "finished": 0}
    deadline = time.monotonic() + budget
    for n in range(MAX_KILLS):
        if time.monotonic() > deadline:
            break
        db = copy_game(source, tmp_path / "killed.db")
        process = subprocess.Popen(
            [str(arg).replace("{db}", str(db)) for arg in command],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        # most kills late in the run, where the fetching ends and the writing happens
        time.sleep(duration * rng.uniform(0.3, 1.1) if n % 4 else rng.uniform(0, duration))
        process.send_signal(signal.SIGKILL)
        code = process.wait(timeout=60)
        now = state(db)
        assert now in (before, after), f"kill {n}: a half-written game file"
        if code == 0:
            outcomes["finished"] += 1
        else:
            assert code == -signal.SIGKILL
            outcomes["as before" if now == before else "fully done"] += 1
        # the file stays usable: a later step, or the one done, reads back
        assert Game.open(db).roster().players
    print(f"random kills of {command[1]}: {outcomes}")  # shown with pytest -s
    return before, after, outcomes


def test_killed_at_any_moment_the_game_file_is_as_before_or_fully_recorded(
    board, fresh_game, tmp_path
):
    before, after, outcomes = kill_at_random(
        record_command(board, Path("{db}")), fresh_game, tmp_path, seed=20190512
    )
    assert after != before and len(after[1]) == 100  # the whole snapshot
    assert sum(outcomes.values()) >= 8, outcomes
    assert outcomes["as before"] >= 1, outcomes


@pytest.fixture
def recorded_game(board, fresh_game, tmp_path) -> Path:
    """The fresh game with its day recorded (the step undo takes back)."""
    path = copy_game(fresh_game, tmp_path / "recorded.db")
    done = subprocess.run(
        record_command(board, path), capture_output=True, env=environment(tmp_path), timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()
    return path


def test_killed_at_any_moment_an_undo_is_done_whole_or_not_at_all(recorded_game, tmp_path):
    command = [str(KILLMOD), "undo", "--db", "{db}"]
    before, after, outcomes = kill_at_random(command, recorded_game, tmp_path, seed=13, budget=8)
    assert before != after  # the undo voided the recorded day
    assert sum(outcomes.values()) >= 5, outcomes


def test_killed_at_any_moment_notices_leave_the_game_file_and_no_half_notice(
    recorded_game, tmp_path
):
    out = tmp_path / "notices"
    command = [str(KILLMOD), "notices", "--out", str(out), "--db", "{db}"]
    env = environment(tmp_path)
    done = subprocess.run(
        [arg.replace("{db}", str(recorded_game)) for arg in command], env=env, timeout=120
    )
    assert done.returncode == 0
    whole = {path.name: path.read_bytes() for path in out.iterdir()}
    rng = random.Random(29)
    for _ in range(10):
        shutil.rmtree(out, ignore_errors=True)
        db = copy_game(recorded_game, tmp_path / "killed.db")
        before = state(db)
        process = subprocess.Popen(
            [arg.replace("{db}", str(db)) for arg in command],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        time.sleep(rng.uniform(0, 0.6))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        assert state(db) == before  # notices only read the game file
        for path in out.iterdir() if out.exists() else ():
            if not path.name.startswith("."):  # a notice placed is a whole notice
                assert path.read_bytes() == whole[path.name], path.name


SLOW_RECORD = """
import sys, time
from killmod.game.store import Game
original = Game.record
calls = []
def slow(self, *args, **kwargs):
    calls.append(1)
    if len(calls) == 2:  # the transaction is open, the tally and one event written
        print("IN_TRANSACTION", flush=True)
        time.sleep(60)
    return original(self, *args, **kwargs)
Game.record = slow
from killmod.commands.cli import main
sys.argv = ["killmod", *sys.argv[1:]]
main()
"""


def test_killed_inside_the_write_transaction_the_game_file_is_as_before(
    board, fresh_game, tmp_path
):
    db = copy_game(fresh_game, tmp_path / "game.db")
    before = state(db)
    process = subprocess.Popen(
        [sys.executable, "-c", SLOW_RECORD, *record_command(board, db)[1:]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(tmp_path),
        text=True,
    )
    try:
        assert process.stdout.readline().strip() == "IN_TRANSACTION"
        # the other connection sees nothing of the open transaction
        assert state(db) == before
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
    assert state(db) == before
    # and the file records normally afterwards (SQLite rolled the transaction back)
    done = subprocess.run(
        record_command(board, db), capture_output=True, env=environment(tmp_path), timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()
    assert len(state(db)[1]) == 100


# --- two killmod processes on one game file ---------------------------------------------------


HOLD = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("LOCKED", flush=True)
sys.stdin.readline()  # hold the write lock until told
conn.execute("ROLLBACK")
"""


@pytest.fixture
def demo_game(tmp_path: Path) -> Path:
    from killmod.game.roster import parse_roster

    path = tmp_path / "game.db"
    Game.create(path, parse_roster(DEMO_ROSTER_TOML)).close()
    return path


def hold_lock(db: Path) -> subprocess.Popen:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "LOCKED"
    return holder


@pytest.mark.parametrize(
    "command",
    [
        ["tally", "{url}", "--deadline", "22:00", "--record", "--round", "1"],
        ["sub", "3", "新人", "--at", "2019-05-12 12:00"],
        ["night", "--round", "1", "--kill", "3", "--at", "2019-05-12 23:00"],
    ],
)
def test_a_second_killmod_waits_then_fails_clearly_and_writes_nothing(
    serve_site, demo_game, tmp_path, command
):
    from tests.support.pagebuilder import demo_thread

    url = f"{serve_site(discuz_x_site(demo_thread()))}/forum.php?mod=viewthread&tid={DEMO_TID}"
    args = [str(KILLMOD), *(a.format(url=url) for a in command), "--db", str(demo_game)]
    env = environment(tmp_path, KILLMOD_BUSY_SECONDS="1")
    before = state(demo_game)
    holder = hold_lock(demo_game)
    try:
        started = time.monotonic()
        done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
        waited = time.monotonic() - started
    finally:
        holder.communicate("\n", timeout=30)
    assert done.returncode == 1, done.stderr
    assert waited >= 1.0  # it waited for the other process before giving up
    assert "游戏文件正被另一个 killmod 使用，等了 1 秒仍未释放" in done.stderr
    assert str(demo_game) in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert state(demo_game) == before
    # the other process done, the same command records
    again = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert again.returncode == 0, again.stderr
    assert state(demo_game) != before


def test_the_busy_timeout_defaults_to_ten_seconds_and_reads_the_environment(monkeypatch):
    from killmod.game import store

    monkeypatch.delenv("KILLMOD_BUSY_SECONDS", raising=False)
    assert store.busy_seconds() == 10
    monkeypatch.setenv("KILLMOD_BUSY_SECONDS", "0.5")
    assert store.busy_seconds() == 0.5
    monkeypatch.setenv("KILLMOD_BUSY_SECONDS", "soon")
    assert store.busy_seconds() == 10
