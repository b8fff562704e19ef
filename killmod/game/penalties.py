"""1.2's penalties for a violation (犯规), recorded and then enforced on the next night.

补充说明 二.3–二.5: “玩家游戏犯规，取消该玩家所在阵营所有特殊权利一轮，或为对立阵营增加特殊
权力一轮。具体方案由犯规方对立阵营作出选择。” ``killmod penalty`` records the violation, the
kind the opposing camp chose (``cancel`` or ``extra``) and its choice in its own words, as a
``violation`` event (``killmod.usecases.penalty``); the night the penalty falls on is fixed
when it is recorded (the first night not recorded yet), and ``killmod night`` of that night
reads it (``night_powers``):
a cancelled camp's powers are refused, an extra power is allowed.

The special powers of 1.2 are the killers' kill (“每轮可杀一人”) and the 检查官's veto
(好人方). Decision (docs/rules/1.2.md, 二.3–二.5): the extra power is one more of the camp's
own: a second kill for the killers, one more veto for the 好人方 (besides the 检查官's
one-time veto, which it does not use up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from killmod.game.store import Game
from killmod.rules import r12

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
