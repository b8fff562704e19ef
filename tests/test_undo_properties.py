"""Undo, over random games: any sequence of recorded steps followed by as many undos gives back
the first ``status`` — and every undo in between gives back the status before its step.

Hypothesis plays a 1.2 game on a real game file (roles dealt first): nights, days counted
from vote threads of random ballots, re-recorded days, substitutions, leaves, penalties and
lotteries, in any order.  A step the guards refuse must leave the file as it was; a step
recorded is one more to undo.  Runs are deterministic (``derandomize``) and bounded.
"""

from __future__ import annotations

import random
import tempfile
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings

from killmod.announce.render import render_public
from killmod.announce.views import status_view
from killmod.core.errors import BadInput
from killmod.core.model import Post
from killmod.fetch.thread import Thread
from killmod.game.guards import next_day
from killmod.game.store import Game
from killmod.rules.base import NightChoice
from killmod.usecases.day import plan_day
from killmod.usecases.deal import deal
from killmod.usecases.lottery import make_lottery, reveal_lottery, standing_lottery
from killmod.usecases.lurkers import record_leave
from killmod.usecases.night import record_night
from killmod.usecases.out import record_out
from killmod.usecases.penalty import record_penalty
from killmod.usecases.record import record_tally
from killmod.usecases.status import game_status
from killmod.usecases.sub import substitute
from killmod.usecases.tally import tally_thread
from killmod.usecases.undo import undo
from tests.support.gamefiles import ok, roster_toml, run
from tests.support.gamesteps import rows

# Property tests: run by CI and the full suite, left out of the inner loop (-m "not slow").
pytestmark = pytest.mark.slow

SHANGHAI = ZoneInfo("Asia/Shanghai")
SEATS = range(1, 17)


def status_text(game: Game) -> str:
    return render_public("status.text.j2", None, status_view(game_status(game)))


def day_thread(game: Game, round_no: int, seed: int) -> tuple[Thread, datetime]:
    """The vote thread of ``round_no``: each living player votes for a random living seat."""
    rng = random.Random(seed)
    living = [player for player in game.roster().living]
    deadline = datetime(2024, 3, round_no, 22, 0, 0, tzinfo=SHANGHAI)
    opening = deadline.replace(hour=19)
    posts = [Post(round_no * 1000, 1, "法官", 900, opening, "second", "投票帖")]
    for n, player in enumerate(living, 1):
        target = rng.choice(living).seat
        at = deadline.replace(hour=20, second=n)
        posts.append(
            Post(round_no * 1000 + n, n + 1, player.name, player.uid, at, "second", f"投{target}号")
        )
    return Thread(f"vote-thread-{round_no}-{seed}", "投票帖", 1, tuple(posts), "test"), deadline


def record_a_day(game: Game, seed: int, *, replace: bool = False) -> None:
    round_no = next_day(game)
    if replace:
        recorded = [e.round for e in game.events("day")]
        if not recorded:
            raise BadInput("没有可以重新记录的一轮")
        round_no = recorded[-1]
    plan = plan_day(game, round_no, phase=None, recording=True, replacing=replace)
    existing = game.tally_record(round_no) if replace else None
    roster = game.roster(without_tally=existing["id"]) if existing else game.roster()
    thread, deadline = day_thread(game, round_no, seed)
    result = tally_thread(thread, roster, deadline=deadline, round_no=round_no, plan=plan)
    record_tally(game, thread, result, replace=replace)


def lottery(game: Game, lot: int) -> None:
    pending = game_status(game).pending_lottery
    if pending is None:
        raise BadInput("没有待抽签的平票")
    if standing_lottery(game, pending) is None:
        make_lottery(game, pending, seed=lot)
    else:
        reveal_lottery(game, pending, lot)


def act(game: Game, action: tuple[str, int]) -> None:
    """Try one step; the guards may refuse it (BadInput)."""
    kind, n = action
    if kind == "night":
        rounds = [e.round for e in game.events() if e.kind in ("day", "night")]
        record_night(
            game, max(rounds, default=0) + 1, NightChoice(kill=n), at_text="2024-03-01 23:00"
        )
    elif kind == "day":
        record_a_day(game, n)
    elif kind == "replace":
        record_a_day(game, n, replace=True)
    elif kind == "sub":
        substitute(game, n, f"替补{n}", at_text="2024-03-01 12:00")
    elif kind == "leave":
        record_leave(game, n, f"2024-03-{n:02d}")
    elif kind == "penalty":
        record_penalty(game, n, round_no=1, kind=("cancel", "extra")[n % 2], choice="一轮")
    elif kind == "out":
        record_out(game, n, "conduct", round_no=None, at=datetime(2024, 3, 1, 12, tzinfo=SHANGHAI))
    elif kind == "lottery":
        lottery(game, n)


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ("night", "day", "day", "replace", "sub", "leave", "penalty", "lottery", "out")
        ),
        st.integers(min_value=1, max_value=16),
    ),
    min_size=1,
    max_size=9,
)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(actions=ACTIONS, seed=st.integers(min_value=0, max_value=1000))
def test_any_steps_then_as_many_undos_give_back_the_first_status(actions, seed):
    with tempfile.TemporaryDirectory() as folder:
        roster = Path(folder) / "roster.toml"
        roster.write_text(
            roster_toml("1.2", dict.fromkeys(SEATS), extra='substitutes = ["替补甲"]'),
            encoding="utf-8",
        )
        db = Path(folder) / "game.db"
        ok(run("init", "--roster", roster, "--db", db))
        with Game.open(db) as game:
            first = status_text(game)
            deal(game, seed)
            statuses = [first]
            for action in actions:
                before = rows(db)
                statuses.append(status_text(game))
                try:
                    act(game, action)
                except BadInput:
                    assert rows(db) == before, f"{action} was refused but changed the file"
                    statuses.pop()
            for earlier in reversed(statuses):
                undo(game)
                assert status_text(game) == earlier
            assert status_text(game) == first
