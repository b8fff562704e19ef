"""The violations audit (犯规) and the penalties the opposing camp chose.

1.2 names three violations this module finds from the game file and threads:

- 补充说明 二.5: “无该轮投票权的正式玩家在投票贴内发言按犯规处理。具有投票权的正式玩家
  在投票贴内作出非正式投票内容的发言按犯规处理。” — the recorded tallies' verdicts the
  rule set's tally policy names as violations (1.2: ``dead`` and ``no_vote``; no other
  set has this rule);
- 二.4: “出局玩家在诈尸时间结束后，禁止在游戏帖中出现” — a dead player's post in
  the game thread after his 诈尸 window closed (``zhashi_ends``);
- and the penalty (``killmod.game.penalties``), listed by the audit.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from killmod.ballots.count import AuthorIndex
from killmod.ballots.deadline import parse_deadline
from killmod.core.errors import BadInput
from killmod.core.model import Player, Post, Roster
from killmod.core.redact import redact_url
from killmod.fetch.http import FetchOptions
from killmod.fetch.thread import read_game_thread
from killmod.game.penalties import Penalty, penalties
from killmod.game.store import Event, Game
from killmod.rules import r12, rule_set
from killmod.usecases.lurkers import Window, recorded_window

# How a death was announced, for 五's 即 clause: killed at night (被杀死的), or by the vote
# (被投死的); any other death (淹死, the judge's) has only the 24 hours.
NIGHT_DEATHS = ("killed", "vetoed", "night")
VOTE_DEATHS = ("voted", "lottery")


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
    """The violations in the recorded tallies (of every round, or of ``round_no``).

    Only the verdicts the rule set's tally policy calls violations (1.2's 二.5).
    """
    violations = rule_set(game.roster().rules).TALLY_POLICY.violations
    rounds = sorted({e.round for e in game.events("day")}) if round_no is None else [round_no]
    found = []
    for number in rounds:
        row = game.tally_record(number)
        if row is None:
            continue
        for verdict in json.loads(row["result"])["verdicts"]:
            blocked = "banned" in verdict.get("notes", ())  # the board hid it: no violation
            if verdict["verdict"] in violations and not blocked:
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
    """When each dead seat's 诈尸 window closes.

    五 “游戏在法官宣布死亡开始后的24小时可以诈尸，即：被杀死的在另一个被杀之前可以随便诈；
    被投死的在另一个被投死的之前可以随便诈，超过这个时间可就按诈尸算了”. Decision
    (docs/rules/1.2.md, 诈尸): the window opens when the death is announced
    (``announced_at``) and closes 24 hours later, or at the announcement of the next
    death of the same kind (killed at night / voted out) if that comes first. ``given``
    (seat → announcement) wins over the game file. A seat out since the roster, with
    no death recorded, has no known end.
    """
    announced = {e.seat: (death_kind(e), announced_at(game, e)) for e in game.events("death")}
    for seat, when in given.items():
        announced[seat] = (announced.get(seat, (None, when))[0], when)
    ends = {}
    for player in roster.players:
        if player.alive or player.seat not in announced:
            continue
        kind, when = announced[player.seat]
        later = [at for other, at in announced.values() if kind and other == kind and at > when]
        ends[player.seat] = min([when + r12.ZHASHI, *later])
    return ends


def death_kind(death: Event) -> str | None:
    """``killed`` (a night's death), ``voted`` (the vote or its lottery), or None (any other)."""
    how = death.data.get("how")
    if how in NIGHT_DEATHS:
        return "killed"
    return "voted" if how in VOTE_DEATHS else None


def announced_at(game: Game, death: Event) -> datetime:
    """When a recorded death was announced.

    The time the step recorded (``at``: the judge's out, a drowning by the lurkers'
    count), else the night's 尸体 post (``--at``), else the deadline of the vote that
    put the player out (a lottery: when its result was recorded), else when the death
    was recorded.
    """
    data = death.data
    if data.get("at"):
        return datetime.fromisoformat(data["at"])
    night = _event(game, data.get("night_id"), "night")
    if night is not None and night.data.get("announced_at"):
        return datetime.fromisoformat(night.data["announced_at"])
    if data.get("tally_id") and data.get("how") != "lottery":
        row = game.db.execute(
            "select deadline from tallies where id = ?", [data["tally_id"]]
        ).fetchone()
        if row is not None:
            return datetime.fromisoformat(row[0])
    return datetime.fromisoformat(death.recorded_at)


def _event(game: Game, event_id: int | None, kind: str) -> Event | None:
    if event_id is None:
        return None
    return next((e for e in game.events(kind) if e.id == event_id), None)


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
