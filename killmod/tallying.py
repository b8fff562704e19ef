"""The tally use case: from a vote thread and a roster to the day's result.

``from killmod import tally`` gives the same function the ``killmod tally``
command calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from killmod.count import TallyOptions, count_votes
from killmod.deadline import parse_deadline
from killmod.model import Roster, Source, TallyResult
from killmod.roster import load_roster
from killmod.rules import rule_set
from killmod.rulings import Ruling, load_rulings
from killmod.thread import Thread, read_thread


def tally(
    source: str,
    *,
    deadline: str | datetime,
    roster: Roster | str | Path,
    round_no: int = 1,
    edits: str = "strict",
    ambiguous_time: str = "count",
    rulings: Mapping[int, Ruling] | str | Path | None = None,
    forum: str | None = None,
    jobs: int = 4,
) -> TallyResult:
    """Read the vote thread at ``source`` and tally it under the roster's rules.

    ``deadline`` is an aware datetime or the judge's text (``22:00``,
    ``今晚22点``…; a form without a date is the first such time after the
    thread's opening post).
    """
    if not isinstance(roster, Roster):
        roster = load_roster(Path(roster))
    if rulings is not None and not isinstance(rulings, Mapping):
        rulings = load_rulings(Path(rulings))
    tz = ZoneInfo(roster.timezone)
    thread = read_thread(source, tz=tz, forum=forum, jobs=jobs)
    return tally_thread(
        thread,
        roster,
        deadline=deadline,
        round_no=round_no,
        options=TallyOptions(edits=edits, ambiguous_time=ambiguous_time, rulings=rulings or {}),
    )


def tally_thread(
    thread: Thread,
    roster: Roster,
    *,
    deadline: str | datetime,
    round_no: int = 1,
    options: TallyOptions | None = None,
) -> TallyResult:
    """Tally posts already read (the pure part of :func:`tally`)."""
    tz = ZoneInfo(roster.timezone)
    if isinstance(deadline, str):
        opening = thread.posts[0].posted_at if thread.posts else None
        deadline = parse_deadline(deadline, tz, opening)
    source = Source(thread.source, thread.title, thread.pages, len(thread.posts))
    return count_votes(
        thread.posts,
        roster,
        deadline,
        rules=rule_set(roster.rules),
        source=source,
        round_no=round_no,
        options=options,
    )
