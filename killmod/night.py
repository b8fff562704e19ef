"""The 1.2 night (权利行使轮): the killers' kill and the 检查官's one-time veto → the 尸体 post.

One step: the night, its deaths and the win check after them are all written, or
nothing is; every check that allows it (the next round's night, roles dealt, the
game not over) runs inside it.  Recording the latest night again (``replace``)
voids the old night's events (kept in the file), as re-recording a tally does; the
choices are checked against the game without the old night.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from killmod.deadline import parse_deadline
from killmod.errors import BadInput
from killmod.gamestate import flow_of
from killmod.guards import expect_night, refuse_if_over, refuse_unless_latest, require_dealt
from killmod.model import GameOver, Roster
from killmod.record import already_recorded, check_win
from killmod.rules import r12
from killmod.store import Delivery, Event, Game
from killmod.times import format_iso

SCHEMA = "killmod.night/1"
# 五、身份公布: “游戏在法官宣布死亡开始后的24小时可以诈尸”.
ZHASHI = timedelta(hours=24)
# ``--at`` without a date is the nearest such time: at most this far from now.
NEAREST = timedelta(hours=12)


@dataclass(frozen=True)
class Death:
    """A seat out this night; ``causes`` are ``killed`` and/or ``vetoed``."""

    seat: int
    name: str
    camp: str | None
    causes: tuple[str, ...]


@dataclass(frozen=True)
class Night:
    """A recorded night: the choices, who went out, the 诈尸 window, the winner if any."""

    round: int
    kill: int | None
    veto: int | None
    deaths: tuple[Death, ...]
    announced_at: datetime
    zhashi_until: datetime | None
    winner: GameOver | None


def record_night(
    game: Game,
    round_no: int,
    *,
    kill: int | None,
    veto: int | None,
    at_text: str | None = None,
    replace: bool = False,
    now: datetime | None = None,
    deliver: Callable[[Night], Delivery] | None = None,
) -> Night:
    """Check and record the night of ``round_no``, its deaths, then the win check."""
    with game.transaction(f"第 {round_no} 轮的夜晚", kind="night", round_no=round_no) as step:
        roster = game.roster()
        if roster.rules != r12.NAME:
            raise BadInput(f"killmod night 只支持 1.2 规则，本局是 {roster.rules} 规则")
        announced = announcement_time(at_text, ZoneInfo(roster.timezone), now)
        until = announced + ZHASHI if kill is not None or veto is not None else None
        existing = standing_night(game, round_no)
        if existing and not replace:
            raise already_recorded(f"第 {round_no} 轮的夜晚", existing.recorded_at, roster.timezone)
        if existing:
            refuse_unless_latest(game, existing.step, f"第 {round_no} 轮的夜晚", "一夜")
        else:
            refuse_if_over(game)
        expect_night(game, flow_of(roster), round_no)
        require_dealt(game)
        night_id = game.record(
            round_no,
            "night",
            None,
            {
                "kill": kill,
                "veto": veto,
                "announced_at": format_iso(announced),
                "zhashi_until": format_iso(until) if until else None,
            },
        )
        if existing:
            void_old_night(game, existing, night_id)
        refuse_if_over(game)
        roster = game.roster()
        _check_target(roster, kill, "被杀")
        _check_target(roster, veto, "被行使否决权")
        _check_veto(game, roster, veto, night_id)
        deaths = _deaths(roster, kill, veto)
        for death in deaths:
            data = {"how": death.causes[0], "causes": list(death.causes), "night_id": night_id}
            game.record(round_no, "death", death.seat, data)
        winner = check_win(game, round_no, {"night_id": night_id})
        night = Night(round_no, kill, veto, deaths, announced, until, winner)
        if deliver is not None:
            step.deliver(deliver(night))
    return night


def announcement_time(at_text: str | None, tz: ZoneInfo, now: datetime | None = None) -> datetime:
    """When the judge announces the deaths: ``--at`` or now, in the roster's timezone.

    A time without a date (``22:30``) is the nearest such time to now.
    """
    now = (now or datetime.now(tz)).astimezone(tz).replace(microsecond=0)
    if at_text is None:
        return now
    return parse_deadline(at_text, tz, now - NEAREST)


def night_json(night: Night) -> dict:
    """The ``killmod.night/1`` document: public facts only (camps, never roles)."""
    return {
        "schema": SCHEMA,
        "round": night.round,
        "kill": night.kill,
        "veto": night.veto,
        "out": [death.seat for death in night.deaths],
        "camps": {str(death.seat): death.camp for death in night.deaths if death.camp},
        "announced_at": format_iso(night.announced_at),
        "zhashi_until": format_iso(night.zhashi_until) if night.zhashi_until else None,
        "winner": night.winner.winner if night.winner else None,
    }


def standing_night(game: Game, round_no: int) -> Event | None:
    """The round's recorded night, if any (voided ones do not count)."""
    nights = [e for e in game.events("night") if e.round == round_no]
    return nights[-1] if nights else None


def void_old_night(game: Game, existing: Event, night_id: int) -> None:
    """Void the old night and everything it caused; record that it was replaced."""
    old = [existing.id] + [e.id for e in game.events() if e.data.get("night_id") == existing.id]
    game.void_events(old)
    game.record(
        existing.round,
        "night_replaced",
        None,
        {"old": existing.id, "new": night_id, "voided_events": old},
    )


def _check_target(roster: Roster, seat: int | None, what: str) -> None:
    """A chosen seat must exist and be alive."""
    if seat is None:
        return
    player = roster.seat(seat)
    if player is None:
        raise BadInput(f"没有 {seat} 号座位，不能{what}")
    if not player.alive:
        raise BadInput(f"{seat}号 {player.name} 已出局，不能{what}")


def _check_veto(game: Game, roster: Roster, veto: int | None, night_id: int) -> None:
    """“否决权只有一次使用机会”; and a 检查官 who is out has no veto (when roles are known)."""
    if veto is None:
        return
    used = [e for e in game.events("night") if e.id != night_id and e.data.get("veto")]
    if used:
        raise BadInput(
            f"否决权只有一次使用机会：第 {used[0].round} 轮已经对 {used[0].data['veto']}号 用过"
        )
    if all(player.role is not None for player in roster.players):
        holders = [player for player in roster.players if player.role == r12.VETO_ROLE]
        if not any(player.alive for player in holders):
            raise BadInput("检查官已出局，不能再行使否决权")


def _deaths(roster: Roster, kill: int | None, veto: int | None) -> tuple[Death, ...]:
    """Who goes out: the killed seat, then the vetoed one (one death if they are the same)."""
    deaths = []
    for seat in dict.fromkeys(s for s in (kill, veto) if s is not None):
        player = roster.seat(seat)
        causes = tuple(
            cause for cause, chosen in (("killed", kill), ("vetoed", veto)) if chosen == seat
        )
        deaths.append(Death(seat, player.name, r12.camp(player.role), causes))
    return tuple(deaths)
