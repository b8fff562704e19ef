"""1.2's penalty for a violation (犯规) recorded by the judge (``killmod penalty``).

补充说明 二.3–二.5: the opposing camp chooses the penalty; it falls on the first night not
recorded yet, where ``killmod night`` enforces it (``killmod.game.penalties``).
"""

from __future__ import annotations

from killmod.core.errors import SEAT, BadInput
from killmod.game.guards import refuse_if_over
from killmod.game.penalties import Penalty, penalties
from killmod.game.store import Game
from killmod.rules import r12, rule_set_of


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
        raise BadInput(f"处罚方式应为 {'、'.join(r12.PENALTIES)}，收到 {kind}", option="--kind")
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
            raise BadInput(f"没有 {seat} 号座位", option=SEAT)
        step.describe(f"第 {round_no} 轮 {seat}号 {player.name} 的犯规处罚")
        camp = r12.camp(player.role)
        if camp is None:
            raise BadInput(
                f"{seat}号 {player.name} 还没有身份：先发身份，才知道处罚哪个阵营", option=SEAT
            )
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


def penalty_kinds(game: Game) -> tuple[str, ...]:
    """The penalties the game's rule set lets the opposing camp choose (none: no ``penalty``)."""
    return tuple(rule_set_of(game.roster()).PENALTIES)
