"""Two killmod processes recording on one game file at once: exactly one records, the other is
told why not, and nothing is half-written.

Every check that allows a step runs inside the step's ``BEGIN IMMEDIATE``: the second
process, which saw the game before the first recorded, checks again once it holds the lock.
The moments are made certain, not timed: a local board holds both tallies' first page
until both have asked for it (both planned on the same state); for steps without a
thread, the first process pauses inside its step and the second is let go only once it
is about to begin its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from killmod.game.store import Game
from tests.support.gamefiles import TID, deadline, ok, vote_thread
from tests.support.gamesteps import (
    KILLMOD,
    ROLES,
    ballots_for,
    everyone_votes,
    game_12,
    record_day,
    rows,
    vote_url,
)
from tests.support.pagebuilder import Response, discuz_x_site

# Process tests (killmod processes racing): run by CI and the full suite, left out of the
# inner loop (-m "not slow").
pytestmark = pytest.mark.slow

# A killmod that pauses inside its step (after its checks, at its first write) until told,
# or says when it is about to begin its step.
PAUSING = """
import os, sys
from killmod.game import store
if os.environ["PAUSE"] == "in_step":
    original = store.Game.record
    def paused(self, *args, **kwargs):
        if not getattr(paused, "done", False):
            paused.done = True
            print("IN_STEP", flush=True)
            sys.stdin.readline()
        return original(self, *args, **kwargs)
    store.Game.record = paused
else:
    original = store.unwritable
    def announced(path):
        print("AT_BEGIN", flush=True)
        return original(path)
    store.unwritable = announced
from killmod.commands.cli import main
sys.argv = ["killmod", *sys.argv[1:]]
main()
"""


def environment(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONIOENCODING": "utf-8",
        "XDG_CACHE_HOME": str(tmp_path / "cache-home"),
        "KILLMOD_BUSY_SECONDS": "60",  # the second waits for the first, however long
    }


def pausing(mode: str, args: list[object], tmp_path: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", PAUSING, *(str(arg) for arg in args)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**environment(tmp_path), "PAUSE": mode},
    )


def race(first: list[object], second: list[object], tmp_path: Path):
    """``first`` pauses inside its step; ``second`` reaches its own; then ``first`` goes on."""
    one = pausing("in_step", first, tmp_path)
    assert one.stdout.readline().strip() == "IN_STEP"
    two = pausing("at_begin", second, tmp_path)
    assert two.stdout.readline().strip() == "AT_BEGIN"
    out_one, err_one = one.communicate("\n", timeout=120)
    out_two, err_two = two.communicate(timeout=120)
    return (one.returncode, out_one, err_one), (two.returncode, out_two, err_two)


def assert_refused(outcome, message: str) -> None:
    code, out, err = outcome
    assert code == 2, err
    assert message in err and "Traceback" not in err
    assert out.strip() in ("", "AT_BEGIN")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return game_12(tmp_path)


def test_two_deals_at_once_deal_once(tmp_path):
    db = game_12(tmp_path, dict.fromkeys(ROLES))
    args = ["deal", "--db", db, "--notices"]
    first, second = race([*args, tmp_path / "a"], [*args, tmp_path / "b"], tmp_path)
    assert first[0] == 0, first[2]
    assert_refused(second, "本局已经发过身份了")
    assert len(Game.open(db).events("deal")) == 1
    assert not (tmp_path / "b").exists() or not list((tmp_path / "b").iterdir())


def test_two_nights_of_one_round_at_once_record_one(db, tmp_path):
    args = ["night", "--round", 1, "--db", db, "--kill"]
    first, second = race([*args, 5], [*args, 6], tmp_path)
    assert first[0] == 0, first[2]
    assert_refused(second, "第 1 轮的夜晚已经记录过")
    (recorded,) = Game.open(db).events("night")
    assert recorded.data["kill"] == 5


def test_two_lotteries_of_one_tie_at_once_make_one(db, tmp_path, serve_site):
    tie = {seat: 15 for seat in range(1, 8)} | {seat: 16 for seat in range(8, 15)}
    ok(record_day(db, vote_url(serve_site, tie | {15: 16, 16: 15}, 1), 1))
    args = ["lottery", "make", "--round", 1, "--db", db]
    first, second = race(args, args, tmp_path)
    assert first[0] == 0, first[2]
    assert_refused(second, "第 1 轮已经做过签了")
    assert len(Game.open(db).events("lottery")) == 1


def test_a_step_waiting_on_the_step_that_ends_the_game_is_refused(tmp_path):
    db = game_12(tmp_path, out=(2, 3, *range(8, 17)))  # 1 (a killer), 4, 5, 6 and 7 left
    first, second = race(
        ["night", "--round", 1, "--kill", 5, "--db", db],  # four left, one a killer
        ["sub", 6, "新人", "--db", db],
        tmp_path,
    )
    assert first[0] == 0, first[2]
    assert "游戏结束" in first[1]
    assert_refused(second, "游戏已经结束")
    assert [e.seat for e in Game.open(db).events("substitution")] == []


# --- two tallies of one round, from a slow board ----------------------------------------------


class GatedSite:
    """A board that holds every request until ``gate`` is open, counting who asked."""

    def __init__(self, site) -> None:
        self.site = site
        self.gate = threading.Event()
        self.asked = 0
        self.lock = threading.Lock()

    def __call__(self, path: str) -> Response:
        with self.lock:
            self.asked += 1
        self.gate.wait(timeout=60)
        return self.site(path)


def gated(serve_site, ballots, day: int) -> tuple[str, GatedSite]:
    """A vote thread of ``ballots`` on a board that waits for ``gate``."""
    site = GatedSite(discuz_x_site(vote_thread(ballots_for(ballots), day)))
    return f"{serve_site(site)}/forum.php?mod=viewthread&tid={TID}", site


def wait_for(condition, what: str) -> None:
    for _ in range(6000):
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"never happened: {what}")


def test_two_tallies_of_one_round_at_once_record_it_once(db, tmp_path, serve_site):
    url, site = gated(serve_site, everyone_votes(16), 1)
    command = [KILLMOD, "tally", url, "--db", db, "--deadline", deadline(1), "--record"]
    runs = [
        subprocess.Popen(
            [str(arg) for arg in command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(tmp_path),
        )
        for _ in range(2)
    ]
    wait_for(lambda: site.asked >= 2, "both tallies read the board")  # both planned already
    site.gate.set()
    outputs = [run.communicate(timeout=120) for run in runs]
    outcomes = sorted((run.returncode, *out) for run, out in zip(runs, outputs, strict=True))
    (won, post, _), lost = outcomes
    assert won == 0 and "已记录为第 1 轮" in post
    assert_refused(lost, "第 1 轮的投票已经记录过")
    game = Game.open(db)
    assert len(game.tallies()) == 1
    assert [e.seat for e in game.events("death")] == [16]  # one death, not two


def test_a_tally_is_refused_when_another_step_was_recorded_while_it_read(db, tmp_path, serve_site):
    url, site = gated(serve_site, everyone_votes(16), 1)
    command = [KILLMOD, "tally", url, "--db", db, "--deadline", deadline(1), "--record"]
    counting = subprocess.Popen(
        [str(arg) for arg in command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(tmp_path),
    )
    wait_for(lambda: site.asked >= 1, "the tally read the board")
    before = rows(db)
    done = subprocess.run(
        [str(KILLMOD), "sub", "5", "新人", "--db", str(db)],
        capture_output=True,
        text=True,
        env=environment(tmp_path),
    )
    assert done.returncode == 0, done.stderr
    site.gate.set()
    out, err = counting.communicate(timeout=120)
    assert counting.returncode == 1, err
    assert "另一个 killmod 在游戏文件" in err and "5号的替补：新人 接替 玩家5" in err
    assert "本次没有记录：请重新运行这条命令" in err and out == ""
    assert Game.open(db).tallies() == []
    assert rows(db) != before  # the substitution, and nothing of the tally
