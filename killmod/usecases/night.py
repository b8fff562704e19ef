"""The 1.2 night (权利行使轮): the killers' kill and the 检查官's one-time veto → the 尸体 post.

One step: the night, its deaths and the win check after them are all written, or
nothing is; every check that allows it (the next round's night, roles dealt, the
game not over, the penalties that fall on the night) runs inside it.  Recording the
latest night again (``replace``) voids the old night's events (kept in the file), as
re-recording a tally does; the choices are checked against the game without the old
night.  The penalties (``killmod.game.penalties``) are enforced: a cancelled camp's power
is refused, an extra power allows a second kill or one more veto.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from killmod.ballots.deadline import parse_deadline
from killmod.core.errors import BadInput
from killmod.core.model import GameOver, Roster
from killmod.core.times import format_iso
from killmod.game.effects import record_if_over
from killmod.game.guards import (
    already_recorded,
    expect_night,
    refuse_if_over,
    refuse_unless_latest,
    require_dealt,
)
from killmod.game.penalties import NightPowers, Penalty, night_powers
from killmod.game.state import flow_of
from killmod.game.store import Delivery, Event, Game
from killmod.rules import r12

SCHEMA = "killmod.night/1"
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
    """A recorded night: the choices, who went out, the 诈尸 window, the winner if any.

    ``kills`` are the killers' victims (two with an extra power); ``veto`` the
    检查官's one-time veto, ``extra_veto`` the 好人方's extra one; ``penalties``
    the penalties that fell on this night.
    """

    round: int
    kills: tuple[int, ...]
    veto: int | None
    extra_veto: int | None
    deaths: tuple[Death, ...]
    announced_at: datetime
    zhashi_until: datetime | None
    winner: GameOver | None
    penalties: tuple[Penalty, ...] = ()

    @property
    def kill(self) -> int | None:
        """The (first) seat the killers killed."""
        return self.kills[0] if self.kills else None


def record_night(
    game: Game,
    round_no: int,
    *,
    kills: tuple[int, ...] = (),
    vetoes: tuple[int, ...] = (),
    at_text: str | None = None,
    replace: bool = False,
    now: datetime | None = None,
    deliver: Callable[[Night], Delivery] | None = None,
) -> Night:
    """Check and record the night of ``round_no``, its deaths, then the win check.

    ``kills`` and ``vetoes`` are the seats chosen (one each, or as the night's
    penalties allow).
    """
    with game.transaction(f"第 {round_no} 轮的夜晚", kind="night", round_no=round_no) as step:
        roster = game.roster()
        if roster.rules != r12.NAME:
            raise BadInput(f"killmod night 只支持 1.2 规则，本局是 {roster.rules} 规则")
        announced = announcement_time(at_text, ZoneInfo(roster.timezone), now)
        until = announced + r12.ZHASHI if kills or vetoes else None
        existing = standing_night(game, round_no)
        if existing and not replace:
            raise already_recorded(f"第 {round_no} 轮的夜晚", existing.recorded_at, roster.timezone)
        if existing:
            refuse_unless_latest(game, existing.step, f"第 {round_no} 轮的夜晚", "一夜")
        else:
            refuse_if_over(game)
        expect_night(game, flow_of(roster), round_no)
        require_dealt(game)
        powers = night_powers(game, round_no)
        _check_kills(kills, powers, round_no)
        veto, extra_veto = _split_vetoes(vetoes, powers)
        night_id = game.record(
            round_no,
            "night",
            None,
            {
                "kill": kills[0] if kills else None,
                "kills": list(kills),
                "veto": veto,
                "extra_veto": extra_veto,
                "announced_at": format_iso(announced),
                "zhashi_until": format_iso(until) if until else None,
            },
        )
        if existing:
            void_old_night(game, existing, night_id)
        refuse_if_over(game)
        roster = game.roster()
        for seat in kills:
            _check_target(roster, seat, "被杀")
        for seat in vetoes:
            _check_target(roster, seat, "被行使否决权")
        _check_veto(game, roster, veto, powers, night_id, round_no)
        deaths = _deaths(roster, kills, vetoes)
        for death in deaths:
            cause = {"how": death.causes[0], "causes": list(death.causes), "night_id": night_id}
            game.record(round_no, "death", death.seat, cause)
        winner = record_if_over(game, round_no, {"night_id": night_id})
        applied = (*powers.cancelled.values(), *powers.extra.values())
        night = Night(
            round_no, kills, veto, extra_veto, deaths, announced, until, winner, tuple(applied)
        )
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
        **({"kills": list(night.kills)} if len(night.kills) > 1 else {}),
        **({"extra_veto": night.extra_veto} if night.extra_veto is not None else {}),
        "out": [death.seat for death in night.deaths],
        "camps": {str(death.seat): death.camp for death in night.deaths if death.camp},
        "announced_at": format_iso(night.announced_at),
        "zhashi_until": format_iso(night.zhashi_until) if night.zhashi_until else None,
        "winner": night.winner.winner if night.winner else None,
    }


def veto_used(game: Game) -> bool:
    """Whether the 检查官's one-time veto (否决权只有一次使用机会) was used on a recorded night."""
    return any(event.data.get("veto") for event in game.events("night"))


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


def _check_kills(kills: tuple[int, ...], powers: NightPowers, round_no: int) -> None:
    """“杀 手……每轮可杀一人”, none or two as the night's penalties say."""
    if len(set(kills)) != len(kills):
        raise BadInput("两次 --kill 是同一个座位")
    if len(kills) <= powers.kills:
        return
    cancelled = powers.cancelled.get(r12.KILLER)
    if cancelled is not None and powers.kills == 0:
        raise BadInput(
            f"第 {round_no} 轮夜晚杀手方的特殊权利已被取消：{_penalty_text(cancelled)}。"
            "这一夜不能杀人"
        )
    if powers.kills == 1:
        raise BadInput(
            f"杀手每轮只能杀一人，--kill 给了 {len(kills)} 次：只有对立阵营选择"
            "「为对立阵营增加特殊权力一轮」的处罚（killmod penalty --kind extra）落在这一夜时，"
            "杀手方才能多杀一人"
        )
    given = len(kills)
    raise BadInput(f"第 {round_no} 轮夜晚杀手方最多杀 {powers.kills} 人，--kill 给了 {given} 次")


def _split_vetoes(vetoes: tuple[int, ...], powers: NightPowers) -> tuple[int | None, int | None]:
    """Which veto is the 检查官's one-time veto and which the 好人方's extra one.

    Decision (docs/rules/1.2.md, 二.3–二.5): an extra veto is used before the
    one-time veto, which the camp keeps for a later round.
    """
    if len(set(vetoes)) != len(vetoes):
        raise BadInput("两次 --veto 是同一个座位")
    extra = vetoes[-1] if vetoes and powers.extra_vetoes else None
    own = [seat for seat in vetoes if seat != extra]
    if len(own) > 1:
        raise BadInput("检查官的否决权只有一次使用机会：--veto 只能给一次")
    return (own[0] if own else None), extra


def _check_veto(
    game: Game,
    roster: Roster,
    veto: int | None,
    powers: NightPowers,
    night_id: int,
    round_no: int,
) -> None:
    """“否决权只有一次使用机会”; a 检查官 who is out has no veto (when roles are known);
    a cancelled 好人方 has none this night."""
    if veto is None:
        return
    if not powers.veto:
        penalty = powers.cancelled[r12.opposing_camp(r12.KILLER)]
        raise BadInput(
            f"第 {round_no} 轮夜晚好人方的特殊权利已被取消：{_penalty_text(penalty)}。"
            "这一夜不能行使否决权"
        )
    used = [e for e in game.events("night") if e.id != night_id and e.data.get("veto")]
    if used:
        raise BadInput(
            f"否决权只有一次使用机会：第 {used[0].round} 轮已经对 {used[0].data['veto']}号 用过"
        )
    if all(player.role is not None for player in roster.players):
        holders = [player for player in roster.players if player.role == r12.VETO_ROLE]
        if not any(player.alive for player in holders):
            raise BadInput("检查官已出局，不能再行使否决权")


def _penalty_text(penalty: Penalty) -> str:
    """Where a penalty comes from, for the refusal."""
    who = f"第 {penalty.round} 轮 {penalty.seat}号 {penalty.name} 犯规"
    return f"{who}，对立阵营选择「{penalty.choice}」"


def _deaths(roster: Roster, kills: tuple[int, ...], vetoes: tuple[int, ...]) -> tuple[Death, ...]:
    """Who goes out: the killed seats, then the vetoed ones (one death per seat)."""
    deaths = []
    for seat in dict.fromkeys((*kills, *vetoes)):
        player = roster.seat(seat)
        causes = tuple(
            cause for cause, chosen in (("killed", kills), ("vetoed", vetoes)) if seat in chosen
        )
        deaths.append(Death(seat, player.name, r12.camp(player.role), causes))
    return tuple(deaths)
