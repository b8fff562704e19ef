"""A substitute takes over a seat by the judge's hand (``killmod sub``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from killmod.ballots.deadline import parse_deadline
from killmod.core.errors import SEAT, BadInput, about
from killmod.core.model import Roster
from killmod.core.names import fold
from killmod.core.times import format_iso, format_local
from killmod.game.guards import refuse_if_over
from killmod.game.store import Delivery, Game


@dataclass(frozen=True)
class Substitution:
    """A substitution recorded: the seat, who left it, who holds it from ``at`` on, and the
    game's seats after it (the substitute in the seat, its role unchanged)."""

    seat: int
    old: str
    new: str
    at: datetime
    roster: Roster


def substitute_uid(roster: Roster, name: str, uid: int | None) -> int | None:
    """The uid ``name`` takes the seat with: ``uid`` as given, else the roster's for him.

    A uid is one forum account: one the game gives to someone else — a player, a seat's
    former holder, a judge, another substitute — is refused (his ballots would be read as
    that person's), as is one that differs from the roster's for this substitute.
    """
    listed = roster.substitute_uids.get(name)
    if uid is None:
        return listed
    if listed is not None and listed != uid:
        raise BadInput(
            f"名单里替补 {name} 的 uid 是 {listed}，--uid 给的是 {uid}：哪个对？"
            f"不写 --uid 就用名单里的 {listed}。什么也没有记录。"
        )
    for owner, owned in _uid_owners(roster, name):
        if owned == uid:
            raise BadInput(
                f"uid {uid} 已经是 {owner} 的论坛帐号，不能给替补 {name}：一个帐号只代表一个人，"
                "他的帖子会被当成那个人的。请核对替补的 uid。什么也没有记录。"
            )
    return uid


def refuse_unsendable(game: Game, name: str, uid: int | None) -> None:
    """Before a substitution whose notice goes out by 站内短信 (``sub --send``): the roles
    must be dealt (the notice is the seat's role), and the substitute's uid known
    (``--uid``, or the roster's), as messages go by uid only."""
    roster = game.roster()
    if any(player.role is None for player in roster.players):
        raise BadInput(
            "本局还没有发身份，替补还没有站内短信可发：不用 --send 记录替补，"
            "发身份（killmod deal）时他会收到这个座位的短信。什么也没有记录。",
            option="--send",
        )
    if substitute_uid(roster, name, uid) is None:
        raise BadInput(
            "--send 要给替补的论坛 uid（--uid，或名单的 substitutes 里写 uid）："
            "站内短信只按 uid 发。什么也没有记录。",
            option="--uid",
        )


def _uid_owners(roster: Roster, name: str) -> list[tuple[str, int]]:
    """Everyone the game gives a uid, but the substitute ``name``: who, and the uid."""
    owners = [(f"法官 {judge}", uid) for judge, uid in roster.judge_uids.items()]
    for player in roster.players:
        if player.uid is not None:
            owners.append((f"{player.seat}号 {player.name}", player.uid))
        owners += [
            (f"{player.seat}号以前的 {f.name}", f.uid) for f in player.former if f.uid is not None
        ]
    owners += [
        (f"替补 {other}", uid) for other, uid in roster.substitute_uids.items() if other != name
    ]
    return owners


def substitute(
    game: Game,
    seat: int,
    name: str,
    *,
    uid: int | None = None,
    at_text: str | None = None,
    now: datetime | None = None,
    deliver: Callable[[Substitution], Delivery] | None = None,
) -> Substitution:
    """Record that ``name`` holds ``seat`` from ``at`` on; ``deliver`` renders the public
    post and the substitute's notice, written before the step is committed."""
    with game.transaction(kind="sub") as step:
        refuse_if_over(game)
        roster = game.roster()
        player = roster.seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位", option=SEAT)
        if not player.alive:
            raise BadInput(f"{seat}号 {player.name} 已出局，不能替补", option=SEAT)
        # Names compare folded (case, width, traditional and simplified): the tally could
        # not tell the substitute from a player named or nicknamed alike.
        if any(fold(name) in {fold(n) for n in (p.name, *p.aliases)} for p in roster.players):
            raise BadInput(f"{name} 已经在本局的座位上", option="替补")
        if name in roster.judges:
            raise BadInput(f"{name} 是本局的法官，不能替补", option="替补")
        # A replaced player's posts are his old seat's former holder's (replaced) from then
        # on: brought back, none of his ballots would count.
        replaced = next(
            ((p, f) for p in roster.players for f in p.former if fold(f.name) == fold(name)),
            None,
        )
        if replaced is not None:
            old_seat, holder = replaced
            raise BadInput(
                f"{name} 是 {old_seat.seat}号以前的玩家，"
                f"{format_local(holder.until, ZoneInfo(roster.timezone))} 起已被换下："
                "被换下的玩家不能再作为替补回到游戏，他之后的帖子不会计入任何座位。"
                "要让他回到原座位，请撤销那次替补（killmod undo）。什么也没有记录。",
                option="替补",
            )
        uid = substitute_uid(roster, name, uid)
        tz = ZoneInfo(roster.timezone)
        now = (now or datetime.now(tz)).astimezone(tz)
        with about("--at"):
            at = parse_deadline(at_text, tz, now) if at_text else now.replace(microsecond=0)
        step.describe(f"{seat}号的替补：{name} 接替 {player.name}")
        game.record(
            None,
            "substitution",
            seat,
            {
                "old": player.name,
                "old_uid": player.uid,
                "new": name,
                "new_uid": uid,
                "at": format_iso(at),
                "by": "judge",
            },
        )
        done = Substitution(seat, player.name, name, at, game.roster())
        if deliver is not None:
            step.deliver(deliver(done))
    return done
