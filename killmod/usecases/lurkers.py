"""Lurking (潜水) and leave (请假): posts per living player in the game thread over a round.

1.2, 二.2: “每位玩家每轮游戏发言不能少于三次” — a player with fewer posts than the
rule set's ``MIN_POSTS`` in the round's window is lurking.  Recording warns each
lurker; a second warning brings the next substitute or, with none left, the
player drowns (淹死): the ladder the tally applies to non-voters
(``killmod.game.effects.record_warning``).  二.1: “最多请假一天” — a player on leave on
a day the window touches is exempt, and a player may take leave once a game.

A round's window runs from the previous round's recorded vote deadline
(exclusive; round 1: from the thread's first post) to the round's own recorded
deadline (inclusive); ``--from``/``--to`` give or override either end.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from pathlib import Path
from types import ModuleType
from typing import Literal
from zoneinfo import ZoneInfo

from killmod.ballots.count import AuthorIndex, next_warnings
from killmod.ballots.deadline import parse_deadline
from killmod.core.errors import SEAT, BadInput, about
from killmod.core.model import GameOver, GameWarning, Player, Post, Roster
from killmod.core.names import fold
from killmod.core.redact import redact_url
from killmod.fetch.http import FetchOptions
from killmod.fetch.thread import read_game_thread
from killmod.game.effects import record_if_over, record_warning
from killmod.game.guards import refuse_if_over
from killmod.game.store import Delivery, Game
from killmod.rules import rule_set

# Deaths of a round's own day (the vote, its lottery, drowning, the judge's decision): the
# player was alive during its window.  Any other death of the round (the night's kill or
# veto) came before it.
DAY_DEATHS = ("voted", "lottery", "drowned", "out")
_DAY = re.compile(r"(?:(?P<y>\d{4})[-/.年])?(?P<m>\d{1,2})[-/.月](?P<d>\d{1,2})[日号]?")


@dataclass(frozen=True)
class Window:
    """Posts after ``start`` up to and including ``end``; None is an open end."""

    start: datetime | None
    end: datetime | None

    def holds(self, moment: datetime) -> bool:
        return (self.start is None or moment > self.start) and (
            self.end is None or moment <= self.end
        )

    def touches_day(self, day: date, tz: ZoneInfo) -> bool:
        """Whether the calendar day ``day`` (in ``tz``) overlaps the window."""
        day_start = datetime.combine(day, time(), tzinfo=tz)
        return (self.end is None or day_start < self.end) and (
            self.start is None or day_start + timedelta(days=1) > self.start
        )


@dataclass(frozen=True)
class Leave:
    """A player's recorded day of leave."""

    seat: int
    name: str
    day: date
    note: str | None = None


@dataclass(frozen=True)
class PostCount:
    """One holder's posts in the window (a seat's holder, or, when the seat changed hands
    in the window, each of its holders over his own part), and what they make of him.

    ``since``/``until``: the part of the window he held the seat, where it is not all of
    it.  ``warnable`` is False for a lurker who has since gone out or been replaced:
    nobody is left to warn.
    """

    seat: int
    name: str
    posts: int
    status: Literal["ok", "lurking", "leave"]
    leave: Leave | None = None
    warnable: bool = True
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True)
class LurkerRecord:
    """What ``--record`` wrote: the warnings, the drowned players' camps, the game's end."""

    warnings: tuple[GameWarning, ...]
    camps: dict[int, str | None]
    winner: GameOver | None


@dataclass(frozen=True)
class LurkerReport:
    """The round's post counts (what ``killmod lurkers`` prints)."""

    round: int | None
    window: Window
    minimum: int
    source: str
    title: str | None
    counts: tuple[PostCount, ...]
    recorded: LurkerRecord | None = None

    @property
    def lurkers(self) -> tuple[PostCount, ...]:
        return tuple(count for count in self.counts if count.status == "lurking")


def lurkers(
    game: Game,
    source: str,
    *,
    round_no: int | None,
    from_text: str | None = None,
    to_text: str | None = None,
    minimum: int | None = None,
    record: bool = False,
    forum: str | None = None,
    profile: Path | None = None,
    fetching: FetchOptions | None = None,
    deliver: Callable[[LurkerReport], Delivery] | None = None,
) -> LurkerReport:
    """Count the living players' posts in the game thread at ``source`` over a round.

    The game thread is long and only grows at its end: pages before the last one the
    cache knows are taken from the cache (``fetching.refresh`` reads them all again).
    ``record`` warns the lurkers in one step; ``deliver`` renders what the judge gets
    from the recorded report, written before the step is committed.
    """
    roster = game.roster()
    rules = rule_set(roster.rules)
    minimum = minimum if minimum is not None else _rule_minimum(rules)
    if record and round_no is None:
        raise BadInput("记录潜水警告需要指明轮次：请加 --round")
    if record:
        refuse_if_over(game)
    head = game.head()
    tz = ZoneInfo(roster.timezone)
    thread = read_game_thread(source, tz=tz, forum=forum, profile=profile, fetching=fetching)
    opening = thread.posts[0].posted_at if thread.posts else None
    window = round_window(game, round_no, from_text, to_text, tz=tz, opening=opening)
    counts = count_posts(
        thread.posts,
        roster,
        players_in_round(game, round_no),
        window,
        minimum=minimum,
        leaves=leaves(game),
    )
    report = LurkerReport(
        round_no, window, minimum, redact_url(thread.source), thread.title, counts
    )
    if record:
        return record_lurkers(game, report, rules, based_on=head, deliver=deliver)
    return report


def _rule_minimum(rules: ModuleType) -> int:
    minimum = rules.MIN_POSTS
    if minimum is None:
        raise BadInput(f"{rules.NAME} 规则没有规定每轮最少发言次数：请用 --min 指定")
    return minimum


# --- the window ---------------------------------------------------------------------------


def recorded_deadline(game: Game, round_no: int) -> datetime | None:
    """The vote deadline of round ``round_no``'s recorded tally, if one is recorded."""
    row = game.tally_record(round_no)
    return datetime.fromisoformat(row["deadline"]) if row else None


def recorded_window(game: Game, round_no: int) -> Window:
    """Round ``round_no`` as far as the game file knows it; an unrecorded end is open."""
    start = recorded_deadline(game, round_no - 1) if round_no > 1 else None
    return Window(start, recorded_deadline(game, round_no))


def round_window(
    game: Game,
    round_no: int | None,
    from_text: str | None,
    to_text: str | None,
    *,
    tz: ZoneInfo,
    opening: datetime | None,
) -> Window:
    """The window to count: the round's recorded one, with ``--from``/``--to`` over either end.

    Times without a date are read as the tally reads a deadline: the first such
    time after the thread's opening post.
    """
    known = recorded_window(game, round_no) if round_no is not None else Window(None, None)
    with about("--from"):
        start = parse_deadline(from_text, tz, opening) if from_text else known.start
    with about("--to"):
        end = parse_deadline(to_text, tz, opening) if to_text else known.end
    if end is None:
        raise BadInput(_missing_end(round_no), option="--to")
    if start is None and (round_no is None or round_no > 1):
        raise BadInput(_missing_start(round_no), option="--from")
    if start is not None and start >= end:
        raise BadInput("统计时间段的开始（--from）必须早于结束（--to）")
    return Window(start, end)


def _missing_end(round_no: int | None) -> str:
    if round_no is None:
        return "请用 --round 指明轮次，或用 --from 和 --to 给出统计时间段"
    return (
        f"第 {round_no} 轮的投票还没有记录（killmod tally … --record），"
        "不知道本轮何时结束：请用 --to 给出本轮截止时间"
    )


def _missing_start(round_no: int | None) -> str:
    if round_no is None:
        return "没有 --round 时请同时给出 --from 和 --to"
    return (
        f"第 {round_no - 1} 轮的投票还没有记录，不知道第 {round_no} 轮何时开始："
        "请用 --from 给出本轮开始时间（上一轮投票截止时间）"
    )


# --- who is counted -----------------------------------------------------------------------


def players_in_round(game: Game, round_no: int | None) -> tuple[Player, ...]:
    """The players alive during the round's day: alive now, or out since then.

    Without a round, the players alive now.
    """
    roster = game.roster()
    if round_no is None:
        return roster.living
    since = {
        event.seat
        for event in game.events("death")
        if event.round is not None
        and (
            event.round > round_no
            or (event.round == round_no and event.data.get("how") in DAY_DEATHS)
        )
    }
    return tuple(player for player in roster.players if player.alive or player.seat in since)


def count_posts(
    posts: Iterable[Post],
    roster: Roster,
    players: Iterable[Player],
    window: Window,
    *,
    minimum: int,
    leaves: Iterable[Leave],
) -> tuple[PostCount, ...]:
    """Each of ``players``' posts in ``window``, in seat order (a pure function).

    Authors are matched as the tally matches voters (uid, then name).  A seat counts the
    posts of whoever held it when each was made: a former holder's until the substitution,
    the current holder's from then on — one count for each holder of the window, each
    over his own part of it (docs/rules/1.2.md, 潜水).
    """
    authors = AuthorIndex(roster)
    tally = Counter(
        held
        for post in posts
        if window.holds(post.posted_at) and (held := _holder_of(post, authors)) is not None
    )
    tz = ZoneInfo(roster.timezone)
    on_leave = {
        (leave.seat, leave.name): leave for leave in leaves if window.touches_day(leave.day, tz)
    }
    return tuple(
        _post_count(player, holder, tally[player.seat, holder.name], minimum, on_leave, window)
        for player in sorted(players, key=lambda player: player.seat)
        for holder in _holders_in(player, window)
    )


@dataclass(frozen=True)
class _Holding:
    """Someone who held a seat from ``since`` until ``until`` (None: open ends)."""

    name: str
    since: datetime | None
    until: datetime | None


def _holders_in(player: Player, window: Window) -> list[_Holding]:
    """The seat's holders whose time in the seat overlaps the window, earliest first."""
    starts = [None, *(former.until for former in player.former)]
    ends = [*(former.until for former in player.former), None]
    names = [*(former.name for former in player.former), player.name]
    return [
        _Holding(name, since, until)
        for name, since, until in zip(names, starts, ends, strict=True)
        if (until is None or window.start is None or until > window.start)
        and (since is None or window.end is None or since < window.end)
    ]


def _holder_of(post: Post, authors: AuthorIndex) -> tuple[int, str] | None:
    """The seat a post counts for and who held it then, or None (a judge, an outsider, a
    holder writing outside his time in the seat)."""
    standing, player = authors.identify(post)
    if standing != "player":
        return None
    if not player.former or _by_holder(post, player.uid, player.name):
        if player.former and post.posted_at <= player.former[-1].until:
            return None  # the substitute, before taking the seat over
        return player.seat, player.name
    since = None
    for former in player.former:
        if _by_holder(post, former.uid, former.name):
            return (player.seat, former.name) if since is None or post.posted_at > since else None
        since = former.until
    return None


def _by_holder(post: Post, uid: int | None, name: str) -> bool:
    """Whether the holder ``name`` (``uid``) wrote ``post`` (uid when both are known)."""
    if post.uid is not None and uid is not None:
        return post.uid == uid
    return fold(post.author) == fold(name)


def _post_count(
    player: Player,
    holder: _Holding,
    posts: int,
    minimum: int,
    on_leave: dict[tuple[int, str], Leave],
    window: Window,
) -> PostCount:
    leave = on_leave.get((player.seat, holder.name))
    status = "leave" if leave is not None else "lurking" if posts < minimum else "ok"
    current = holder.until is None
    return PostCount(
        player.seat,
        holder.name,
        posts,
        status,
        leave,
        warnable=player.alive and current,
        since=holder.since if holder.since and window.holds(holder.since) else None,
        until=holder.until if holder.until and window.holds(holder.until) else None,
    )


# --- recording ----------------------------------------------------------------------------


def record_lurkers(
    game: Game,
    report: LurkerReport,
    rules: ModuleType,
    *,
    based_on: int | None = None,
    deliver: Callable[[LurkerReport], Delivery] | None = None,
) -> LurkerReport:
    """Warn the round's lurkers in one step (refused if the round's are recorded, or if
    the game file changed since ``based_on``, the head the posts were counted on)."""
    round_no = report.round
    title = f"第 {round_no} 轮的潜水警告"
    with game.transaction(title, kind="lurkers", round_no=round_no, based_on=based_on) as step:
        refuse_if_over(game)
        recorded = game.events("warning")
        if any(e.round == round_no and e.data.get("reason") == "lurking" for e in recorded):
            raise BadInput(f"第 {round_no} 轮的潜水警告已经记录过")
        roster = game.roster()
        warnable = [count for count in report.lurkers if count.warnable]
        warnings = next_warnings([(c.seat, c.name) for c in warnable], roster, rules)
        for warning, count in zip(warnings, warnable, strict=True):
            record_warning(
                game,
                round_no,
                warning,
                reason="lurking",
                at=report.window.end,
                cause={"posts": count.posts, "minimum": report.minimum},
            )
        drowned = [w.seat for w in warnings if w.action == "out"]
        winner = record_if_over(game, round_no, {"reason": "lurking"}) if drowned else None
        camps = {seat: rules.announced_camp(roster.seat(seat).role) for seat in drowned}
        recorded = replace(report, recorded=LurkerRecord(warnings, camps, winner))
        if deliver is not None:
            step.deliver(deliver(recorded))
    return recorded


# --- leave --------------------------------------------------------------------------------


def leaves(game: Game) -> tuple[Leave, ...]:
    """Every recorded day of leave, in the order recorded."""
    return tuple(
        Leave(
            event.seat,
            event.data["name"],
            date.fromisoformat(event.data["day"]),
            event.data.get("note"),
        )
        for event in game.events("leave")
    )


def record_leave(game: Game, seat: int, day_text: str, *, note: str | None = None) -> Leave:
    """Record that the player in ``seat`` is on leave on the day ``day_text`` names.

    Refused for a seat that is out, and past the rule set's ``MAX_LEAVE_DAYS``
    for the same player (a substitute in the seat is another player).
    """
    with game.transaction(kind="leave") as step:
        refuse_if_over(game)
        roster = game.roster()
        player = roster.seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位", option=SEAT)
        if not player.alive:
            raise BadInput(f"{seat}号 {player.name} 已出局，不能请假", option=SEAT)
        tz = ZoneInfo(roster.timezone)
        with about("--day"):
            day = parse_day(day_text, datetime.now(tz).date())
        rules = rule_set(roster.rules)
        limit = rules.MAX_LEAVE_DAYS
        taken = [leave for leave in leaves(game) if (leave.seat, leave.name) == (seat, player.name)]
        if limit is not None and len(taken) >= limit:
            days = "、".join(leave.day.isoformat() for leave in taken)
            raise BadInput(
                f"{seat}号 {player.name} 已经请过假（{days}）："
                f"{rules.NAME} 规则最多请假 {limit} 天",
                option=SEAT,
            )
        leave = Leave(seat, player.name, day, note)
        step.describe(f"{seat}号 {player.name} 请假（{day.isoformat()}）")
        game.record(
            None,
            "leave",
            seat,
            {"name": player.name, "uid": player.uid, "day": day.isoformat(), "note": note},
        )
    return leave


def parse_day(text: str, today: date) -> date:
    """A calendar day: 2019-05-12, 2019/5/12, 05-12, 5月12日 (without a year: ``today``'s)."""
    match = _DAY.fullmatch(unicodedata.normalize("NFKC", text).strip())
    try:
        if match is None:
            raise ValueError(text)
        year = int(match["y"]) if match["y"] else today.year
        return date(year, int(match["m"]), int(match["d"]))
    except ValueError:
        raise BadInput(
            f"无法识别的日期：「{text}」。可用格式：2019-05-12、05-12、5月12日"
        ) from None
