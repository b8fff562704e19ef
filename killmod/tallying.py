"""The tally use case: from a vote thread and a roster (or the game file) to the day's result.

``from killmod import tally`` gives the same function the ``killmod tally``
command calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from killmod.count import TallyOptions, count_votes
from killmod.deadline import parse_deadline
from killmod.errors import BadInput
from killmod.model import Roster, Source, TallyResult
from killmod.roster import load_roster
from killmod.rules import rule_set
from killmod.rulings import Ruling, load_rulings
from killmod.thread import Thread, read_thread
from scrapers.profile import Profile, load_profile


def tally(
    source: str,
    *,
    deadline: str | datetime,
    roster: Roster | str | Path | None = None,
    game: str | Path | None = None,
    round_no: int | None = None,
    record: bool = False,
    replace_record: bool = False,
    edits: str = "strict",
    ambiguous_time: str = "count",
    rulings: Mapping[int, Ruling] | str | Path | None = None,
    forum: str | None = None,
    jobs: int = 4,
    profile: Profile | str | Path | None = None,
) -> TallyResult:
    """Read the vote thread at ``source`` and tally it under the rules.

    Seats come from ``roster`` (a Roster or a roster file) or, without one,
    from the ``game`` file, which ``record`` writes the result into.
    ``deadline`` is an aware datetime or the judge's text (``22:00``,
    ``今晚22点``…; a form without a date is the first such time after the
    thread's opening post).  ``profile`` (a Profile or a profile file) reads a
    board no built-in format knows.
    """
    from killmod.store import Game

    opened = None
    if roster is None:
        if game is None:
            raise BadInput("请用 --roster 指定名单，或用 --db 指定游戏文件")
        opened = Game.open(Path(game))
        round_no = round_no or _next_day(opened)
        roster = _state_before_day(opened, round_no, replacing=record and replace_record)
    elif not isinstance(roster, Roster):
        roster = load_roster(Path(roster))
    if record and opened is None:
        raise BadInput("--record 要写进游戏文件：请用 --db 指定游戏文件，不要同时给 --roster")
    if rulings is not None and not isinstance(rulings, Mapping):
        rulings = load_rulings(Path(rulings))
    if profile is not None and not isinstance(profile, Profile):
        profile = load_profile(Path(profile))
    tz = ZoneInfo(roster.timezone)
    thread = read_thread(source, tz=tz, forum=forum, jobs=jobs, profile=profile)
    options = TallyOptions(edits=edits, ambiguous_time=ambiguous_time, rulings=rulings or {})
    result = tally_thread(
        thread, roster, deadline=deadline, round_no=round_no or 1, options=options
    )
    if record:
        from killmod.record import record_tally

        result = replace(
            result, recorded=record_tally(opened, thread, result, replace=replace_record)
        )
    return result


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


def _state_before_day(game, round_no: int, *, replacing: bool) -> Roster:
    """The roster a day is counted on: re-recording a day counts it on the state before it."""
    existing = game.tally_record(round_no)
    if existing is None or not replacing:
        return game.roster()
    later = [e.round for e in game.events("day") if e.round and e.round > round_no]
    if later:
        raise BadInput(f"第 {max(later)} 轮已经记录，只能重新记录最近的一轮（第 {max(later)} 轮）")
    return game.roster(without_tally=existing["id"])


def _next_day(game) -> int:
    """The round whose day comes next: the last night's round, or the one after the last day."""
    days = {event.round for event in game.events("day")}
    nights = {event.round for event in game.events("night")}
    latest = max(days | nights, default=0)
    return latest if latest in nights and latest not in days else latest + 1
