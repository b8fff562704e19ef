"""The tally use case: from a vote thread and a roster (or the game file) to the day's result.

``from killmod import tally`` gives the same function the ``killmod tally``
command calls.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from contextlib import nullcontext
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from killmod.ballots.count import AuthorIndex, TallyOptions, count_votes
from killmod.ballots.deadline import parse_deadline
from killmod.ballots.rulings import Ruling, load_rulings, resolve
from killmod.ballots.uids import pin_uids
from killmod.core.errors import BadInput, about
from killmod.core.model import Post, Roster, Source, TallyResult
from killmod.core.redact import redact_url
from killmod.fetch.http import Fetcher, FetchOptions
from killmod.fetch.seconds import confirm_seconds
from killmod.fetch.thread import Thread, read_thread
from killmod.game.guards import (
    expect_day,
    next_day,
    refuse_early,
    refuse_if_over,
    refuse_other_rules,
    thread_problems,
)
from killmod.game.roster import load_roster
from killmod.rules import rule_set
from killmod.usecases.provisional import NOW, Provisional, provisional_count
from killmod.usecases.recount import compare_with_record, replace_refusal

if TYPE_CHECKING:
    from killmod.game.store import Delivery, Game
    from killmod.usecases.day import DayPlan
    from scrapers.profile import Profile

logger = logging.getLogger("killmod.tally")


def tally(
    source: str | None,
    *,
    deadline: str | datetime | None,
    roster: Roster | str | Path | None = None,
    game: Game | str | Path | None = None,
    round_no: int | None = None,
    record: bool = False,
    replace_record: bool = False,
    early: bool = False,
    edits: str = "strict",
    ambiguous_time: str = "count",
    rulings: Iterable[Ruling] | Mapping[int, Ruling] | str | Path | None = None,
    forum: str | None = None,
    jobs: int = 4,
    profile: Profile | str | Path | None = None,
    fetching: FetchOptions | None = None,
    phase: str | None = None,
    now: datetime | None = None,
    deliver: Callable[[TallyResult], Delivery] | None = None,
    evidence_at: str | None = None,
) -> TallyResult:
    """Read the vote thread at ``source`` and tally it under the rules.

    Seats come from ``roster`` (a Roster or a roster file) or, without one,
    from the ``game`` file (an open ``Game`` or its path), which ``record`` writes
    the result into.
    ``deadline`` is an aware datetime or the judge's text (``22:00``,
    ``今晚22点``…; a form without a date is the first such time after the
    thread's opening post).  With a game file, ``source`` and ``deadline`` may be None:
    the round's vote thread and deadline as the file remembers them (``killmod open``,
    ``killmod thread``).  ``profile`` (a Profile or a profile file) reads a
    board no built-in format knows.  ``fetching`` says how pages are fetched (default:
    ``jobs`` at once, no cache).  A ballot shown to the minute in the deadline's minute
    is confirmed to the second from the board's archiver when it can be
    (``killmod.fetch.seconds``).
    The vote counted is the round's next one under the rule set (``killmod.usecases.day``):
    ``phase`` (``point``/``knife``, 1.0 and 2.0) must be its phase when given.
    ``rulings`` (rulings or a rulings file) by floor are resolved to their posts against
    what the judge saw: the round's recorded snapshot when the game file has one, else
    the thread as read (``killmod.ballots.rulings.resolve``).

    Recording is refused before the deadline (``now``, default the clock) unless
    ``early``, and for a thread that cannot be this vote's (README, “The game file”);
    ``deliver`` renders what the judge receives from the recorded result, written
    before the step is committed.  A recorded vote keeps its evidence (its count document,
    ``killmod.usecases.evidence``), whose SHA-256 the announcement prints with where the
    judge publishes the bundle (``evidence_at``: an address, 本帖附件…; None: ask him).
    """
    if roster is None:  # the SQLite library is imported only for a game file
        from killmod.game.store import Game

        using = Game.using(game)
    else:
        using = nullcontext(None)
    with using as opened:
        return _tally(
            source,
            deadline=deadline,
            roster=roster,
            game=opened,
            round_no=round_no,
            record=record,
            replace_record=replace_record,
            early=early,
            options=TallyOptions(edits=edits, ambiguous_time=ambiguous_time),
            rulings=rulings,
            forum=forum,
            profile=profile,
            fetching=fetching or FetchOptions(jobs=jobs),
            phase=phase,
            now=now,
            deliver=deliver,
            evidence_at=evidence_at,
        )


def _tally(
    source: str | None,
    *,
    deadline: str | datetime | None,
    roster: Roster | str | Path | None,
    game: Game | None,
    round_no: int | None,
    record: bool,
    replace_record: bool,
    early: bool,
    options: TallyOptions,
    rulings: Iterable[Ruling] | Mapping[int, Ruling] | str | Path | None,
    forum: str | None,
    profile: Profile | str | Path | None,
    fetching: FetchOptions,
    phase: str | None,
    now: datetime | None,
    deliver: Callable[[TallyResult], Delivery] | None,
    evidence_at: str | None,
) -> TallyResult:
    thread, roster, plan, head, deadline, round_no, recorded = _read_vote(
        source,
        deadline=deadline,
        roster=roster,
        game=game,
        round_no=round_no,
        record=record,
        replace_record=replace_record,
        options=options,
        phase=phase,
        forum=forum,
        profile=profile,
        fetching=fetching,
    )
    tz = ZoneInfo(roster.timezone)
    now = (now or datetime.now(tz)).astimezone(tz)
    before = refuse_early(deadline, now, early=early) if record else now < deadline
    options = _with_rulings(options, rulings, game, round_no, thread)
    result = tally_thread(
        thread, roster, deadline=deadline, round_no=round_no or 1, options=options, plan=plan
    )
    result = replace(result, early=before)
    _check_thread(thread, result, recording=record)
    if recorded is None or record or not _pinned_by(game, recorded, result):
        _show_pins(result, recording=record, game=game is not None)
    if recorded is not None:  # the vote counted again: as recorded, or not?
        blocked = None if record else replace_refusal(game, round_no)
        again = compare_with_record(result, recorded, replacing=record, blocked=blocked)
        result = replace(result, recount=again)
    if record:
        from killmod.usecases.evidence import count_document
        from killmod.usecases.record import record_tally

        document = count_document(thread, result, options=options, plan=plan, read_at=now)
        recorded = record_tally(
            game,
            thread,
            result,
            replace=replace_record,
            based_on=head,
            deliver=deliver,
            evidence=document,
            published=evidence_at,
        )
        result = replace(result, recorded=recorded)
    return result


def _pinned_by(game: Game, recorded: Mapping, result: TallyResult) -> bool:
    """Whether the uids a recount read from the board are those its record kept: then
    there is nothing new to tell."""
    kept = {
        (event.seat, event.data["uid"])
        for event in game.events("uid")
        if event.data.get("tally_id") == recorded["id"]
    }
    return {(pin.seat, pin.uid) for pin in result.pinned} == kept


def _show_pins(result: TallyResult, *, recording: bool, game: bool) -> None:
    """Tell the judge the uids this read took from the board, and whether they are kept."""
    if not result.pinned:
        return
    shown = "、".join(f"{pin.seat}号 {pin.name}（uid {pin.uid}）" for pin in result.pinned)
    if recording:
        kept = "随这一步记入游戏文件"
    elif game:
        kept = "加 --record 时随这一步记入游戏文件"
    else:
        kept = "写进名单文件（uid = …）就不必每次再读"
    logger.warning(
        f"名单里没有 uid 的玩家，从论坛帖子的作者读到了 uid：{shown}。{kept}；"
        "以后名字相似而 uid 不同的帐号不算本人。"
    )


def count_so_far(
    source: str | None,
    *,
    as_of: str | int,
    deadline: str | datetime | None = None,
    roster: Roster | str | Path | None = None,
    game: Game | str | Path | None = None,
    round_no: int | None = None,
    edits: str = "strict",
    ambiguous_time: str = "count",
    rulings: Iterable[Ruling] | Mapping[int, Ruling] | str | Path | None = None,
    forum: str | None = None,
    profile: Profile | str | Path | None = None,
    fetching: FetchOptions | None = None,
    phase: str | None = None,
    now: datetime | None = None,
) -> Provisional:
    """The vote count during the day (临时票型) of the vote thread at ``source``, as of
    ``as_of``: a floor, ``"now"`` or a time (``killmod.usecases.provisional``).  Read as
    :func:`tally` reads; never recorded."""
    if roster is None:  # the SQLite library is imported only for a game file
        from killmod.game.store import Game

        using = Game.using(game)
    else:
        using = nullcontext(None)
    options = TallyOptions(edits=edits, ambiguous_time=ambiguous_time)
    with using as opened:
        thread, roster, plan, _, deadline, round_no, recorded = _read_vote(
            source,
            deadline=deadline,
            roster=roster,
            game=opened,
            round_no=round_no,
            record=False,
            replace_record=False,
            options=options,
            phase=phase,
            forum=forum,
            profile=profile,
            fetching=fetching or FetchOptions(),
        )
        tz = ZoneInfo(roster.timezone)
        options = _with_rulings(options, rulings, opened, round_no, thread)
        counted = provisional_count(
            thread,
            roster,
            deadline=deadline,
            as_of=as_of,
            now=(now or datetime.now(tz)).astimezone(tz),
            round_no=round_no or 1,
            options=options,
            plan=plan,
        )
        _check_thread(thread, counted.result, recording=False)
        if recorded is not None:  # the vote counted again: compared when it is the final count
            final = as_of == NOW and counted.remaining.total_seconds() <= 0
            blocked = replace_refusal(opened, round_no)
            again = compare_with_record(counted.result, recorded, final=final, blocked=blocked)
            counted = replace(counted, result=replace(counted.result, recount=again))
        return counted


def _read_vote(
    source: str | None,
    *,
    deadline: str | datetime | None,
    roster: Roster | str | Path | None,
    game: Game | None,
    round_no: int | None,
    record: bool,
    replace_record: bool,
    options: TallyOptions,
    phase: str | None,
    forum: str | None,
    profile: Profile | str | Path | None,
    fetching: FetchOptions,
) -> tuple[Thread, Roster, DayPlan, int | None, datetime, int | None, Mapping | None]:
    """The vote to count: its thread read (times in the deadline's minute settled), the
    seats, the day's plan, the file's head, the deadline, the round, and the round's
    recorded tally when this count is that vote counted again (on the state it was
    counted on: ``killmod.usecases.day.vote_to_count``)."""
    from killmod.usecases.day import roster_plan, vote_to_count

    if roster is None:
        if game is None:
            raise BadInput("请用 --roster 指定名单，或用 --db 指定游戏文件")
        round_no = round_no or next_day(game)
        if record:
            check_recordable(game, round_no, replacing=replace_record)
    elif not isinstance(roster, Roster):
        roster = load_roster(Path(roster))
    if record and game is None:
        raise BadInput("--record 要写进游戏文件：请用 --db 指定游戏文件，不要同时给 --roster")
    source = vote_thread_or_remembered(game, source, round_no)
    if game is not None:
        _check_part(game, source, round_no, recording=record)
    deadline = deadline_or_opened(game, deadline, round_no)
    recorded = None
    if game is None:
        plan = roster_plan(roster, phase)
    else:
        replacing = record and replace_record
        vote = vote_to_count(game, round_no, phase=phase, recording=record, replacing=replacing)
        roster, plan, recorded = vote.roster, vote.plan, vote.recorded
    head = game.head() if game is not None else None
    if profile is not None:
        from scrapers.profile import Profile, load_profile

        if not isinstance(profile, Profile):
            profile = load_profile(Path(profile))
    tz = ZoneInfo(roster.timezone)
    needed = edits_needed(roster, deadline, round_no=round_no or 1, options=options, plan=plan)
    with Fetcher(fetching) as fetcher:
        thread = read_thread(
            source, tz=tz, forum=forum, profile=profile, fetcher=fetcher, edits=needed
        )
        if game is not None:
            refuse_other_rules(thread.title, roster.rules, game.path)
        deadline = resolve_deadline(deadline, thread, tz)
        thread = confirm_seconds(thread, deadline, fetcher, tz=tz, wanted=players_posts(roster))
    return thread, roster, plan, head, deadline, round_no, recorded


def vote_thread_or_remembered(game: Game | None, source: str | None, round_no: int | None) -> str:
    """``source``, else the round's vote thread the game file remembers."""
    if source:
        return source
    if game is None:
        raise BadInput(f"请给出第 {round_no or 1} 轮的投票帖（网址、保存的网页或文件夹）。")
    from killmod.game.threads import VOTE, thread_or_remembered

    return thread_or_remembered(game, source, thread=VOTE, round_no=round_no)


def deadline_or_opened(
    game: Game | None, deadline: str | datetime | None, round_no: int | None
) -> str | datetime:
    """The deadline given, else for a round whose day is over the deadline its last vote
    was recorded with (it is counted again), else the one ``killmod open`` recorded for
    the round's vote."""
    if deadline is not None:
        return deadline
    from killmod.game.state import day_goes_on
    from killmod.usecases.open import opened_deadline

    recorded = game.tally_record(round_no) if game is not None and round_no else None
    if recorded is not None and not day_goes_on(game, round_no):
        return datetime.fromisoformat(recorded["deadline"])
    opened = opened_deadline(game, round_no) if game is not None and round_no else None
    if opened is None:
        where = f"第 {round_no} 轮的这次投票" if round_no else "这次投票"
        raise BadInput(
            f"请用 --deadline 给出截止时间（游戏文件里没有{where}的截止时间："
            "killmod open 会记下它）。",
            option="--deadline",
        )
    return opened


def _with_rulings(
    options: TallyOptions,
    rulings: Iterable[Ruling] | Mapping[int, Ruling] | str | Path | None,
    game: Game | None,
    round_no: int | None,
    thread: Thread,
) -> TallyOptions:
    """The rulings (a file is read) by floor resolved against what the judge saw."""
    if isinstance(rulings, str | Path):
        rulings = load_rulings(Path(rulings))
    seen = _recorded_floors(game, round_no) if game is not None else None
    if seen is None:
        seen = ((post.pid, post.floor) for post in thread.posts)
    return replace(options, rulings=tuple(resolve(rulings or (), seen).values()))


def recount_hint(game: Game, source: str | None, round_no: int | None) -> str | None:
    """After a step that changes how ballots read (``killmod alias``): what the judge runs
    to count again when there is nothing to count here — the round's tally is recorded
    (it is counted again by recording it anew), or no vote thread is known — and None
    when the vote can be counted again (``source``, or the round's remembered thread)."""
    from killmod.core.times import local_text
    from killmod.game.state import day_rounds
    from killmod.game.threads import remembered

    round_no = round_no or next_day(game)
    recorded = game.tally_record(round_no)
    if recorded is None and (source or remembered(game).vote(round_no)):
        return None
    if recorded is None:
        days = day_rounds(game)
        recorded = game.tally_record(max(days)) if days else None
    if recorded is None:
        return (
            f"游戏文件里没有记下第 {round_no} 轮的投票帖，所以没有重新计票："
            "请运行 killmod tally 投票帖 --deadline 截止时间。"
        )
    deadline = local_text(recorded["deadline"], game.roster().timezone)
    command = f'killmod tally --round {recorded["round"]} --deadline "{deadline}"'
    return (
        f"第 {recorded['round']} 轮的计票已经记录：按新的别名重新计票、与记录比较，请运行 "
        f"{command}（按记录它时的状态计，不记录）；要记录新的结果，运行 "
        f"{command} --record --replace"
    )


def check_recordable(game: Game, round_no: int, *, replacing: bool) -> None:
    """Before the thread is read: the file can be written, the round can be recorded."""
    from killmod.game.dbfile import unwritable  # SQLite's library, for a game file only

    problem = unwritable(game.path)
    if problem:
        raise BadInput(problem)
    if not replacing:
        refuse_if_over(game)
    expect_day(game, round_no, replacing=replacing)


def _check_part(game: Game, source: str, round_no: int | None, *, recording: bool) -> None:
    """Before the thread is read: a thread the game file knows in another part (the game
    thread, another round's vote thread) is refused for a recording, warned for a count."""
    from killmod.game.threads import part_of, refuse_other_part

    if recording:
        refuse_other_part(game, source, round_no)
    elif (part := part_of(game, source, round_no)) is not None:
        logger.warning(f"这个帖子是游戏文件记下的{part}，不是第 {round_no} 轮的投票帖。")


def _check_thread(thread: Thread, result: TallyResult, *, recording: bool) -> None:
    """A thread that cannot be this vote's: a recording is refused, a count warned."""
    problems = thread_problems(thread, result)
    if problems and recording:
        raise BadInput("没有记录：" + "".join(problems))
    for problem in problems:
        logger.warning(problem)


def tally_thread(
    thread: Thread,
    roster: Roster,
    *,
    deadline: str | datetime,
    round_no: int = 1,
    options: TallyOptions | None = None,
    plan: DayPlan | None = None,
) -> TallyResult:
    """Tally posts already read (the pure part of :func:`tally`).

    Posts whose time was settled from the archiver say so in their verdict's notes.  The
    uids of players the roster gives none are taken from the posts signed with their names
    (``killmod.ballots.uids.pin_uids``): ``result.pinned``.
    ``plan`` is the vote under the rule set's day (``killmod.usecases.day``): whom it may
    name, who is silenced, how posts are read, and what the count leads to.
    """
    deadline = resolve_deadline(deadline, thread, ZoneInfo(roster.timezone))
    source = Source(
        redact_url(thread.source), thread.title, thread.pages, len(thread.posts), thread.views
    )
    roster, pins = pin_uids(roster, thread.posts)
    result = count_votes(
        thread.posts,
        roster,
        deadline,
        rules=rule_set(roster.rules),
        source=source,
        round_no=round_no,
        options=options,
        reader=plan.reader(roster) if plan else None,
        scope=plan.scope() if plan else None,
    )
    result = plan.settle(result) if plan else result
    return replace(_note_settled(result, set(thread.confirmed)), pinned=pins)


# Verdicts the tally gives before it looks at an edit (``killmod.ballots.count``): such a post is
# rejected whether or not it was edited.  Every other post's edits may change the count.
_DECIDED_BEFORE_EDITS = frozenset(
    {
        "judge",
        "not_player",
        "replaced",
        "dead",
        "ignored",
        "earlier_vote",
        "late",
        "time_ambiguous",
        "proxy",
        "no_vote",
        "ambiguous",
        "unknown_target",
        "invalid_target",
        "hidden_text",
    }
)


def edits_needed(
    roster: Roster,
    deadline: str | datetime,
    *,
    round_no: int,
    options: TallyOptions,
    plan: DayPlan | None,
) -> Callable[[tuple[Post, ...]], list[int]]:
    """Which posts' edits the tally needs, from the posts as read (their edits not yet
    known): the ballots it would count or supersede — a post it rejects for another reason
    is rejected, edited or not (where a view shows no edit notices, ``killmod.fetch.editcheck``
    reads those of these posts only)."""

    def needed(posts: tuple[Post, ...]) -> list[int]:
        thread = Thread("", None, 1, posts, "")
        unruled = replace(options, rulings=())  # a ruling only ever skips the edit check
        result = tally_thread(
            thread, roster, deadline=deadline, round_no=round_no, options=unruled, plan=plan
        )
        return [v.pid for v in result.verdicts if v.verdict not in _DECIDED_BEFORE_EDITS]

    return needed


def resolve_deadline(deadline: str | datetime, thread: Thread, tz: ZoneInfo) -> datetime:
    """The deadline as an aware datetime; a text without a date follows the opening post."""
    if isinstance(deadline, datetime):
        return deadline
    opening = thread.posts[0].posted_at if thread.posts else None
    with about("--deadline"):
        return parse_deadline(deadline, tz, opening)


def players_posts(roster: Roster) -> Callable[[Post], bool]:
    """Whether a post is by a player of ``roster`` (the posts worth settling)."""
    authors = AuthorIndex(roster)
    return lambda post: authors.identify(post)[0] == "player"


def _note_settled(result: TallyResult, settled: set[int]) -> TallyResult:
    if not settled:
        return result
    verdicts = tuple(
        replace(v, notes=(*v.notes, "settled_by_archiver")) if v.pid in settled else v
        for v in result.verdicts
    )
    return replace(result, verdicts=verdicts)


def _recorded_floors(game, round_no: int | None) -> list[tuple[int, int | None]] | None:
    """The (pid, floor) of the posts of the round's recorded snapshot, if it has one: what
    the judge saw when writing rulings by floor for a tally recorded again."""
    existing = game.tally_record(round_no) if round_no else None
    if existing is None:
        return None
    rows = game.db.query("select pid, floor from posts where tally_id = ?", [existing["id"]])
    return [(row["pid"], row["floor"]) for row in rows]
