"""The vote count during the day (临时票型): the ballots standing as of a floor or a time.

A provisional count is the final count at its cut-off, seen as the vote stands: the
ballots cast so far, the players who have not voted yet (never their self votes: the
deadline has not come), the invalid ballots — no warning, no outcome, never recorded.
It is counted by the same pure tally (``killmod.ballots.count``): as of a time ``T`` the thread
is counted as if ``T`` were the deadline; as of floor ``N`` the posts up to floor ``N``
are counted at the vote's deadline.  So the count it shows is always what the final
count at the same cut-off gives, less the self votes of those who have not voted
(README, “The vote count during the day”; tested as a property).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from killmod.ballots.deadline import parse_deadline
from killmod.core.errors import BadInput
from killmod.core.model import Ballot, Count, Rejection, Roster, TallyResult

if TYPE_CHECKING:
    from killmod.ballots.count import TallyOptions
    from killmod.fetch.thread import Thread
    from killmod.usecases.day import DayPlan

NOW = "now"
_FLOOR = re.compile(r"(?:#|第)?\s*(\d+)\s*(?:楼|[Ff])?")
# What a voter posted that was meant as a ballot and did not count (chatter, a post of
# someone without a vote, is not a ballot).
INVALID_BALLOTS = frozenset(
    {
        "late",
        "proxy",
        "ambiguous",
        "unknown_target",
        "invalid_target",
        "edited",
        "repeat_ballot",
        "time_ambiguous",
    }
)


@dataclass(frozen=True)
class Cut:
    """Where a provisional count stops: after floor ``floor``, or at ``time``."""

    floor: int | None = None
    time: datetime | None = None


@dataclass(frozen=True)
class Provisional:
    """The count as of ``cut`` (``result`` is the final count at that cut-off), the vote's
    ``deadline``, and ``made_at``: when the count was made (the time left runs from it)."""

    result: TallyResult
    cut: Cut
    deadline: datetime
    made_at: datetime

    @property
    def remaining(self) -> timedelta:
        """The time left to the deadline (negative once it passed)."""
        return self.deadline - self.made_at

    @property
    def standing(self) -> tuple[Ballot, ...]:
        """The ballots cast so far (votes and abstentions), in seat order."""
        return tuple(b for b in self.result.ballots if b.kind != "self")

    @property
    def not_voted(self) -> tuple[Ballot, ...]:
        """The living players with no ballot yet (not self votes: the vote is still open)."""
        return tuple(b for b in self.result.ballots if b.kind == "self")

    @property
    def counts(self) -> tuple[Count, ...]:
        """Votes for each player from the ballots cast so far: by votes, then seat."""
        return tuple(c for c in _without_self_votes(self.result) if c.votes)

    @property
    def invalid(self) -> tuple[Rejection, ...]:
        """The ballots of living voters that do not count, with the reason (a post after a
        cut-off time is not late: it is not counted yet)."""
        living = {b.seat for b in self.result.ballots}
        return tuple(
            r
            for r in self.result.rejected
            if r.seat in living
            and r.reason in INVALID_BALLOTS
            and not (self.cut.time is not None and r.reason == "late")
        )

    @property
    def only_invalid(self) -> tuple[Rejection, ...]:
        """The last invalid ballot of each player who has not voted validly yet."""
        waiting = {b.seat for b in self.not_voted}
        last: dict[int, Rejection] = {}
        for rejection in self.invalid:
            if rejection.seat in waiting:
                last[rejection.seat] = rejection
        return tuple(last[seat] for seat in sorted(last))


def parse_cut(text: str) -> str | int:
    """``--as-of``: ``now``, a floor (``25``, ``25楼``, ``#25``) or a time as ``--deadline``."""
    text = unicodedata.normalize("NFKC", text).strip()
    if text.lower() == NOW:
        return NOW
    match = _FLOOR.fullmatch(text)
    if match:
        floor = int(match[1])
        if floor < 1:
            raise BadInput("--as-of 的楼层从 1 开始")
        return floor
    return text


def provisional_count(
    thread: Thread,
    roster: Roster,
    *,
    deadline: datetime,
    as_of: str | int,
    now: datetime,
    round_no: int = 1,
    options: TallyOptions | None = None,
    plan: DayPlan | None = None,
) -> Provisional:
    """The provisional count of ``thread`` as of ``as_of`` (a floor, ``now`` or a time text;
    a time after the deadline is the deadline)."""
    from killmod.usecases.tally import tally_thread

    tz = ZoneInfo(roster.timezone)
    if isinstance(as_of, int):
        cut, counted, until = Cut(floor=as_of), _up_to_floor(thread, as_of), deadline
    else:
        opening = thread.posts[0].posted_at if thread.posts else None
        moment = now if as_of == NOW else parse_deadline(as_of, tz, opening)
        until = min(moment, deadline)
        cut, counted = Cut(time=until), thread
    result = tally_thread(
        counted, roster, deadline=until, round_no=round_no, options=options, plan=plan
    )
    return Provisional(result, cut, deadline, now.astimezone(tz))


def _up_to_floor(thread: Thread, floor: int) -> Thread:
    """The thread's posts up to and including ``floor``."""
    if any(post.floor is None for post in thread.posts):
        raise BadInput(
            "这个投票帖的页面不显示楼层（如打印本页）：--as-of 请给时间（如 21:30）或 now。"
        )
    last = max((post.floor for post in thread.posts), default=0)
    if floor > last:
        raise BadInput(f"投票帖现在只有 {last} 楼，没有第 {floor} 楼：--as-of 请给 1 到 {last}。")
    return replace(thread, posts=tuple(post for post in thread.posts if post.floor <= floor))


def _without_self_votes(result: TallyResult) -> tuple[Count, ...]:
    """The final count's counts less the self votes (a self vote is a non-voter's)."""
    own = {b.seat for b in result.ballots if b.kind == "self"}
    counts = []
    for count in result.counts:
        voters = tuple(seat for seat in count.voters if seat not in own)
        counts.append(replace(count, votes=len(voters), voters=voters))
    return tuple(sorted(counts, key=lambda count: (-count.votes, count.seat)))
