"""The watch use case: follow a vote thread until the deadline, then give the final count.

Every ``every`` seconds the thread is read again — from the mobile API, one small page
(``killmod.fetch.plan.poll``: the one holding the last post known, the new posts with their
edits); else the pages before the last one known from the cache, the rest from the board
(``--refresh``: everything on the first read) — and counted as of now: the provisional
count (``killmod.usecases.provisional``: no self votes, no warnings, no outcome); an update is given
whenever a new ballot arrived.  At the deadline plus ``grace`` the thread is tallied as
``killmod tally`` does (every page afresh, times in the deadline's minute settled) for the
final update — with ``record``, recorded as ``tally --record`` records it: the same guards,
in the same one step.
The clock is injected (``now``, ``sleep``), so the loop runs in tests without waiting.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from zoneinfo import ZoneInfo

from killmod.ballots.count import TallyOptions
from killmod.core.errors import BadInput, TallyFailed
from killmod.core.model import Roster, TallyResult, Verdict
from killmod.fetch.http import Fetcher, FetchOptions
from killmod.fetch.plan import poll
from killmod.fetch.thread import Thread, read_thread
from killmod.game.guards import next_day
from killmod.game.roster import load_roster
from killmod.usecases.day import DayPlan, roster_plan, vote_to_count
from killmod.usecases.provisional import NOW, Provisional, provisional_count
from killmod.usecases.tally import (
    check_recordable,
    deadline_or_opened,
    edits_needed,
    resolve_deadline,
    tally,
    vote_thread_or_remembered,
)
from scrapers.profile import Profile, load_profile

if TYPE_CHECKING:
    from killmod.game.store import Delivery
    from killmod.game.store import Game as OpenGame

BALLOTS = ("counted", "superseded")


@dataclass(frozen=True)
class Update:
    """One thing to tell the judge while watching.

    ``running``: the provisional count now (``provisional``, whose ``result`` is the
    count at this moment), with the ballots new since the last update (none on the
    first); ``failed``: a poll failed (``message``), the watch goes on; ``final``: the
    final count (recorded when the watch records).  ``remaining`` is the time left to the
    deadline (negative after it).
    """

    kind: Literal["running", "failed", "final"]
    now: datetime
    deadline: datetime | None
    result: TallyResult | None = None
    new: tuple[Verdict, ...] = ()
    message: str = ""
    provisional: Provisional | None = None

    @property
    def remaining(self) -> timedelta | None:
        return self.deadline - self.now if self.deadline else None


def watch(
    source: str | None,
    *,
    deadline: str | datetime | None,
    roster: Roster | str | Path | None = None,
    game: str | Path | None = None,
    round_no: int | None = None,
    options: TallyOptions | None = None,
    forum: str | None = None,
    profile: Profile | str | Path | None = None,
    fetching: FetchOptions | None = None,
    every: float = 60.0,
    grace: float = 60.0,
    now: Callable[[], datetime],
    sleep: Callable[[float], None],
    record: bool = False,
    deliver: Callable[[TallyResult], Delivery] | None = None,
) -> Iterator[Update]:
    """Updates while the vote thread at ``source`` runs, ending with the ``final`` one.

    Seats come from ``roster`` or, without one, from the ``game`` file, whose round's vote
    thread and deadline are taken when ``source`` or ``deadline`` is None.  The first read
    must succeed (a wrong address or a login page ends the watch); a later failed poll
    is reported and the watch goes on.  ``record`` records the final count in the game
    file as ``killmod tally --record`` does (checked before the watch starts, and again
    in the step); ``deliver`` renders what the judge gets, written before the commit.
    """
    from_game = roster is None
    from killmod.game.store import Game

    with Game.using(game if from_game else None) as opened:
        yield from _watch(
            source,
            deadline=deadline,
            roster=roster,
            game=opened,
            round_no=round_no,
            options=options,
            forum=forum,
            profile=profile,
            fetching=fetching,
            every=every,
            grace=grace,
            now=now,
            sleep=sleep,
            record=record,
            deliver=deliver,
        )


def _watch(
    source: str | None,
    *,
    deadline: str | datetime | None,
    roster: Roster | str | Path | None,
    game: OpenGame | None,
    round_no: int | None,
    options: TallyOptions | None,
    forum: str | None,
    profile: Profile | str | Path | None,
    fetching: FetchOptions | None,
    every: float,
    grace: float,
    now: Callable[[], datetime],
    sleep: Callable[[float], None],
    record: bool,
    deliver: Callable[[TallyResult], Delivery] | None,
) -> Iterator[Update]:
    from_game = roster is None
    if record and not from_game:
        raise BadInput("--record 要写进游戏文件：请用 --db 指定游戏文件，不要同时给 --roster")
    roster, round_no, plan = _day(roster, game, round_no)
    if record:
        check_recordable(game, round_no, replacing=False)
    source = vote_thread_or_remembered(game, source, round_no)
    deadline = deadline_or_opened(game, deadline, round_no)
    if profile is not None and not isinstance(profile, Profile):
        profile = load_profile(Path(profile))
    tz = ZoneInfo(roster.timezone)
    fetching = fetching or FetchOptions()
    seen: frozenset[int] | None = None
    end: datetime | None = None
    needed = edits_needed(
        roster, deadline, round_no=round_no, options=options or TallyOptions(), plan=plan
    )
    thread: Thread | None = None
    with Fetcher(replace(fetching, refresh=False)) as fetcher:
        while end is None or now() < end:
            # --refresh: the first read takes nothing from the cache.
            tail = end is not None or not fetching.refresh
            try:
                # A thread read from the mobile API is followed on its last page alone.
                followed = poll(thread, fetcher, tz=tz) if thread is not None else None
                thread = followed or read_thread(
                    source,
                    tz=tz,
                    forum=forum,
                    profile=profile,
                    fetcher=fetcher,
                    tail=tail,
                    edits=needed,
                )
            except TallyFailed as error:
                if end is None:
                    raise
                yield Update("failed", now().astimezone(tz), deadline, message=error.message)
            else:
                deadline = resolve_deadline(deadline, thread, tz)
                end = deadline + timedelta(seconds=grace)
                if now() >= end:
                    break
                moment = now().astimezone(tz)
                counted = provisional_count(
                    thread,
                    roster,
                    deadline=deadline,
                    as_of=NOW,
                    now=moment,
                    round_no=round_no,
                    options=options,
                    plan=plan,
                )
                ballots = _ballots(counted.result)
                if ballots != seen:
                    new = () if seen is None else _new(counted.result, seen)
                    yield Update(
                        "running", moment, deadline, counted.result, new, provisional=counted
                    )
                    seen = ballots
            wait = (end - now()).total_seconds()
            if wait > 0:
                sleep(min(every, wait))
    options = options or TallyOptions()
    final = tally(
        source,
        deadline=deadline,
        roster=None if from_game else roster,
        game=game if from_game else None,
        round_no=round_no,
        edits=options.edits,
        ambiguous_time=options.ambiguous_time,
        rulings=options.rulings,
        forum=forum,
        profile=profile,
        fetching=fetching,
        now=now(),
        record=record,
        deliver=deliver,
    )
    yield Update("final", now().astimezone(tz), final.deadline, final)


def _day(
    roster: Roster | str | Path | None, game: OpenGame | None, round_no: int | None
) -> tuple[Roster, int, DayPlan]:
    """The seats, the round and the vote to count: from the roster, else the game file."""
    if roster is not None:
        if not isinstance(roster, Roster):
            roster = load_roster(Path(roster))
        return roster, round_no or 1, roster_plan(roster, None)
    if game is None:
        raise BadInput("请用 --roster 指定名单，或用 --db 指定游戏文件")
    round_no = round_no or next_day(game)
    vote = vote_to_count(game, round_no, phase=None, recording=False, replacing=False)
    return vote.roster, round_no, vote.plan


def _ballots(result: TallyResult) -> frozenset[int]:
    """The pids of the accepted ballots (counted or superseded)."""
    return frozenset(v.pid for v in result.verdicts if v.verdict in BALLOTS)


def _new(result: TallyResult, seen: frozenset[int]) -> tuple[Verdict, ...]:
    return tuple(v for v in result.verdicts if v.verdict in BALLOTS and v.pid not in seen)
