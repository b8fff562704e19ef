"""1.2's penalties for a violation (犯规), recorded and then enforced on the next night.

补充说明 二.3–二.5: “玩家游戏犯规，取消该玩家所在阵营所有特殊权利一轮，或为对立阵营增加特殊
权力一轮。具体方案由犯规方对立阵营作出选择。” ``killmod penalty`` records the violation, the
kind the opposing camp chose (``cancel`` or ``extra``) and its choice in its own words, as a
``violation`` event; the night the penalty falls on is fixed when it is recorded (the first
night not recorded yet), and ``killmod night`` of that night reads it (``night_powers``):
a cancelled camp's powers are refused, an extra power is allowed.

The special powers of 1.2 are the killers' kill (“每轮可杀一人”) and the 检查官's veto
(好人方). Decision (docs/rules/1.2.md, 二.3–二.5): the extra power is one more of the camp's
own: a second kill for the killers, one more veto for the 好人方 (besides the 检查官's
one-time veto, which it does not use up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from killmod.core.errors import BadInput
from killmod.game.guards import refuse_if_over
from killmod.game.store import Game
from killmod.rules import r12, rule_set_of

Kind = Literal["cancel", "extra"]


@dataclass(frozen=True)
class Penalty:
    """A recorded violation and the penalty the opposing camp chose.

    ``camp`` is the violator's camp (杀手 or 好人); ``night`` the round whose night
    the penalty falls on.
    """

    round: int | None
    seat: int
    name: str
    kind: Kind
    choice: str
    reason: str | None
    recorded_at: str
    camp: str | None = None
    night: int | None = None

    @property
    def punished_camp(self) -> str | None:
        """The camp whose powers change: the violator's (cancel) or the opposing one (extra)."""
        if self.camp is None:
            return None
        return self.camp if self.kind == "cancel" else r12.opposing_camp(self.camp)


@dataclass(frozen=True)
class NightPowers:
    """What each camp may do on one 1.2 night once the penalties are applied.

    ``kills`` is how many seats the killers may kill (0, 1 or 2); ``veto`` whether
    the 检查官's one-time veto may be used this night (if still unused);
    ``extra_vetoes`` how many more vetoes the 好人方 has. ``cancelled`` and ``extra``
    are the penalties that made it so, by camp.
    """

    kills: int
    veto: bool
    extra_vetoes: int
    cancelled: dict[str, Penalty]
    extra: dict[str, Penalty]


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
            event.data.get("camp"),
            event.data.get("night"),
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
    """Record a player's violation and the penalty the opposing camp chose (1.2 only).

    ``kind`` is ``cancel`` (取消犯规方阵营所有特殊权利一轮) or ``extra`` (为对立阵营
    增加特殊权力一轮); ``choice`` is the camp's choice in its own words. The penalty
    falls on the first night after both the violation's round and every night
    recorded so far.
    """
    if kind not in r12.PENALTIES:
        raise BadInput(f"处罚方式应为 {'、'.join(r12.PENALTIES)}，收到 {kind}")
    if not choice.strip():
        raise BadInput("请用 --choice 写明对立阵营选择的处罚")
    with game.transaction(kind="penalty", round_no=round_no) as step:
        refuse_if_over(game)
        roster = game.roster()
        if not rule_set_of(roster).PENALTIES:
            raise BadInput(
                f"killmod penalty 是 1.2 规则的处罚（取消特殊权利、增加特殊权力），"
                f"本局是 {roster.rules} 规则"
            )
        player = roster.seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位")
        step.describe(f"第 {round_no} 轮 {seat}号 {player.name} 的犯规处罚")
        camp = r12.camp(player.role)
        if camp is None:
            raise BadInput(f"{seat}号 {player.name} 还没有身份：先发身份，才知道处罚哪个阵营")
        nights = [event.round for event in game.events("night")]
        night = max([round_no, *nights]) + 1
        data = {
            "name": player.name,
            "penalty": kind,
            "choice": choice.strip(),
            "reason": reason,
            "camp": camp,
            "night": night,
        }
        game.record(round_no, "violation", seat, data)
    return penalties(game, round_no)[-1]


def night_powers(game: Game, round_no: int) -> NightPowers:
    """The powers of night ``round_no`` under the penalties that fall on it.

    A cancelled camp has none of its own (the killers no kill, the 检查官 no
    veto); an extra power adds one more (a second kill, one more veto).
    """
    cancelled: dict[str, Penalty] = {}
    extra: dict[str, Penalty] = {}
    for penalty in penalties(game):
        camp = penalty.punished_camp
        if penalty.night != round_no or camp is None:
            continue
        (cancelled if penalty.kind == "cancel" else extra).setdefault(camp, penalty)
    killers, good = r12.KILLER, r12.opposing_camp(r12.KILLER)
    return NightPowers(
        kills=(0 if killers in cancelled else 1) + (1 if killers in extra else 0),
        veto=good not in cancelled,
        extra_vetoes=1 if good in extra else 0,
        cancelled=cancelled,
        extra=extra,
    )
