"""The violations audit (犯规) and the penalties the opposing camp chose.

1.2 names three violations this module finds from the game file and threads:

- 补充说明 二.5: “无该轮投票权的正式玩家在投票贴内发言按犯规处理。具有投票权的正式玩家
  在投票贴内作出非正式投票内容的发言按犯规处理。” — the recorded tallies' ``dead``
  and ``no_vote`` verdicts;
- 二.4: “出局玩家在诈尸时间结束后，禁止在游戏帖中出现” — a dead player's post in
  the game thread more than 24 hours (``killmod.night.ZHASHI``) after the death
  was announced.  The announcement is ``--announced`` when given, else the
  night's recorded announcement (尸体 post) for a night's death, else the time
  the death was recorded (the tally or lottery that put the player out);
- and the penalty: “取消该玩家所在阵营所有特殊权利一轮，或为对立阵营增加特殊权力一轮。
  具体方案由犯规方对立阵营作出选择” — recorded with ``killmod penalty`` as a
  ``violation`` event and listed by the audit.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

from killmod.count import AuthorIndex
from killmod.deadline import parse_deadline
from killmod.errors import BadInput
from killmod.fetch import FetchOptions
from killmod.guards import refuse_if_over
from killmod.lurkers import Window, read_game_thread, recorded_window
from killmod.model import Player, Post, Roster
from killmod.night import ZHASHI
from killmod.redact import redact_url
from killmod.store import Event, Game

# Verdicts of the vote thread that are violations (补充说明 二.5).
VOTE_THREAD_VIOLATIONS = ("dead", "no_vote")
PENALTIES = ("cancel", "extra")


@dataclass(frozen=True)
class VotePost:
    """A vote-thread post that breaks the 投票贴 rule, from a recorded tally."""

    round: int
    floor: int | None
    author: str
    seat: int | None
    posted_at: datetime
    reason: str
    notes: tuple[str, ...]


@dataclass(frozen=True)
class GhostPost:
    """A dead player's game-thread post after their 诈尸 time ended (``until``)."""

    floor: int | None
    author: str
    seat: int
    posted_at: datetime
    until: datetime


@dataclass(frozen=True)
class Penalty:
    """A recorded violation and the penalty the opposing camp chose."""

    round: int | None
    seat: int
    name: str
    kind: Literal["cancel", "extra"]
    choice: str
    reason: str | None
    recorded_at: str


@dataclass(frozen=True)
class GameThreadCheck:
    """The game thread's dead players' posts; ``unknown`` seats have no known death time."""

    source: str
    title: str | None
    posts: tuple[GhostPost, ...]
    unknown: tuple[Player, ...]


@dataclass(frozen=True)
class Audit:
    """What ``killmod audit`` prints."""

    round: int | None
    vote_posts: tuple[VotePost, ...]
    game_thread: GameThreadCheck | None
    penalties: tuple[Penalty, ...]


def audit(
    game: Game,
    *,
    round_no: int | None = None,
    game_thread: str | None = None,
    announced: dict[int, str] | None = None,
    forum: str | None = None,
    profile: Path | None = None,
    fetching: FetchOptions | None = None,
) -> Audit:
    """Violations of the game (or of round ``round_no``) and the recorded penalties.

    ``announced`` maps a seat to the time its death was announced (the judge's
    text), over what the game file says.
    """
    check = None
    if game_thread is not None:
        check = check_game_thread(
            game,
            game_thread,
            round_no=round_no,
            announced=announced or {},
            forum=forum,
            profile=profile,
            fetching=fetching,
        )
    elif announced:
        raise BadInput("--announced 用于检查游戏帖：请同时用 --game-thread 给出游戏帖")
    return Audit(round_no, vote_posts(game, round_no), check, penalties(game, round_no))


# --- the vote threads ---------------------------------------------------------------------


def vote_posts(game: Game, round_no: int | None) -> tuple[VotePost, ...]:
    """The violations in the recorded tallies (of every round, or of ``round_no``)."""
    rounds = sorted({e.round for e in game.events("day")}) if round_no is None else [round_no]
    found = []
    for number in rounds:
        row = game.tally_record(number)
        if row is None:
            continue
        for verdict in json.loads(row["result"])["verdicts"]:
            blocked = "banned" in verdict.get("notes", ())  # the board hid it: no violation
            if verdict["verdict"] in VOTE_THREAD_VIOLATIONS and not blocked:
                found.append(_vote_post(number, verdict))
    return tuple(found)


def _vote_post(round_no: int, verdict: dict) -> VotePost:
    return VotePost(
        round_no,
        verdict["floor"],
        verdict["author"],
        verdict["seat"],
        datetime.fromisoformat(verdict["posted_at"]),
        verdict["verdict"],
        tuple(verdict["notes"]),
    )


# --- the game thread ----------------------------------------------------------------------


def check_game_thread(
    game: Game,
    source: str,
    *,
    round_no: int | None,
    announced: dict[int, str],
    forum: str | None,
    profile: Path | None,
    fetching: FetchOptions | None,
) -> GameThreadCheck:
    """Read the game thread and find the dead players' posts after their 诈尸 time."""
    roster = game.roster()
    tz = ZoneInfo(roster.timezone)
    given = {seat: _announcement(seat, text, tz) for seat, text in announced.items()}
    _check_seats(roster, given)
    thread = read_game_thread(source, tz=tz, forum=forum, profile=profile, fetching=fetching)
    until = zhashi_ends(game, roster, given)
    window = recorded_window(game, round_no) if round_no is not None else Window(None, None)
    unknown = tuple(p for p in roster.players if not p.alive and p.seat not in until)
    return GameThreadCheck(
        redact_url(thread.source),
        thread.title,
        ghost_posts(thread.posts, roster, until, window),
        unknown,
    )


def parse_announced(items: Iterable[str]) -> dict[int, str]:
    """``--announced`` values ``SEAT=TIME`` as seat → the time's text."""
    announced = {}
    for item in items:
        seat, _, text = item.partition("=")
        if not seat.strip().isdigit() or not text.strip():
            raise BadInput(
                f"--announced 的写法应为 座位号=时间，如 6=2019-05-12 22:05，收到「{item}」"
            )
        announced[int(seat)] = text.strip()
    return announced


def _announcement(seat: int, text: str, tz: ZoneInfo) -> datetime:
    """A death's announcement time as the judge wrote it (with its date)."""
    try:
        return parse_deadline(text, tz, None)
    except BadInput as error:
        raise BadInput(f"--announced {seat}={text}：{error.message}") from None


def _check_seats(roster: Roster, given: dict[int, datetime]) -> None:
    for seat in given:
        player = roster.seat(seat)
        if player is None:
            raise BadInput(f"--announced：没有 {seat} 号座位")
        if player.alive:
            raise BadInput(f"--announced：{seat}号 {player.name} 没有出局")


def zhashi_ends(game: Game, roster: Roster, given: dict[int, datetime]) -> dict[int, datetime]:
    """When each dead seat's 诈尸 time ends: 24 h after its death was announced.

    ``given`` (seat → announcement) wins; else a night's death counts from the
    night's announcement, any other from when the death was recorded.  A seat
    out since the roster, with no death recorded, has no known end.
    """
    nights = {e.id: e for e in game.events("night")}
    announced = {e.seat: _announced(e, nights) for e in game.events("death")}
    announced.update(given)
    return {
        player.seat: announced[player.seat] + ZHASHI
        for player in roster.players
        if not player.alive and player.seat in announced
    }


def _announced(death: Event, nights: dict[int, Event]) -> datetime:
    night = nights.get(death.data.get("night_id"))
    if night is not None and night.data.get("announced_at"):
        return datetime.fromisoformat(night.data["announced_at"])
    return datetime.fromisoformat(death.recorded_at)


def ghost_posts(
    posts: tuple[Post, ...], roster: Roster, until: dict[int, datetime], window: Window
) -> tuple[GhostPost, ...]:
    """Dead players' posts in ``window`` after their 诈尸 time (a pure function)."""
    authors = AuthorIndex(roster)
    found = []
    for post in sorted(posts, key=lambda post: (post.posted_at, post.pid)):
        standing, player = authors.identify(post)
        if standing != "player" or player.alive or not window.holds(post.posted_at):
            continue
        end = until.get(player.seat)
        if end is not None and post.posted_at > end:
            found.append(GhostPost(post.floor, post.author, player.seat, post.posted_at, end))
    return tuple(found)


# --- penalties ----------------------------------------------------------------------------


def penalties(game: Game, round_no: int | None = None) -> tuple[Penalty, ...]:
    """The recorded violations with their penalties (of every round, or of ``round_no``)."""
    return tuple(
        Penalty(
            event.round,
            event.seat,
            event.data["name"],
            event.data["penalty"],
            event.data["choice"],
            event.data.get("reason"),
            event.recorded_at,
        )
        for event in game.events("violation")
        if round_no is None or event.round == round_no
    )


def record_penalty(
    game: Game,
    seat: int,
    *,
    round_no: int,
    kind: str,
    choice: str,
    reason: str | None = None,
) -> Penalty:
    """Record a player's violation and the penalty the opposing camp chose.

    ``kind`` is ``cancel`` (取消犯规方阵营所有特殊权利一轮) or ``extra`` (为对立阵营
    增加特殊权力一轮); ``choice`` is the camp's choice in its own words.
    """
    if kind not in PENALTIES:
        raise BadInput(f"处罚方式应为 {'、'.join(PENALTIES)}，收到 {kind}")
    if not choice.strip():
        raise BadInput("请用 --choice 写明对立阵营选择的处罚")
    with game.transaction(kind="penalty", round_no=round_no) as step:
        refuse_if_over(game)
        player = game.roster().seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位")
        step.describe(f"第 {round_no} 轮 {seat}号 {player.name} 的犯规处罚")
        data = {"name": player.name, "penalty": kind, "choice": choice.strip(), "reason": reason}
        game.record(round_no, "violation", seat, data)
    return penalties(game, round_no)[-1]
