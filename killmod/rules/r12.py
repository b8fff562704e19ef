"""The 1.2 rules (“杀人游戏”标准化规则 1.2): roles, tally policy, penalties, reveals.

Each function cites the sentence of the rule text it implements; decisions
where the text leaves room are written in docs/rules/1.2.md.
"""

from __future__ import annotations

from killmod.errors import BadInput
from killmod.rules.policy import TallyPolicy

NAME = "1.2"
PLAYERS = 16
# 一、游戏人数及角色安排: 杀手 3人, 水民 12人, 检查官 1人.
ROLES = {"杀手": 3, "水民": 12, "检查官": 1}
KILLER = "杀手"
# “检查官 … 拥有一次否决权，可以在游戏中的任何一轮使用”.
VETO_ROLE = "检查官"

# 补充说明 4: “可弃权，但不投票者视为自投，并被警告一次，二次换替补，无替补出局”.
TALLY_POLICY = TallyPolicy(non_voter="self", warn_non_voters=True)

# 二.2 潜水: “每位玩家每轮游戏发言不能少于三次”.
MIN_POSTS = 3
# 二.1 请假: “最多请假一天” — read as one day per player per game.
MAX_LEAVE_DAYS = 1


def camp(role: str | None) -> str | None:
    """五、身份公布: “杀手方人员公布为杀手；好人方人员公布为好人” (None when unknown)."""
    if role is None:
        return None
    return "杀手" if role == KILLER else "好人"


def warning_action(total: int, substitutes_left: int) -> str:
    """“警告一次，二次换替补，无替补出局”: warn, then substitute, else out (淹死)."""
    if total < 2:
        return "warn"
    return "substitute" if substitutes_left > 0 else "out"


def win_check(players) -> str | None:
    """三、胜利条件: “好人方胜利条件: 投出所有杀手。杀手方胜利条件: 剩余4人至少有1杀手。”

    ``players`` are all the seats; returns 好人, 杀手 or None (the game goes on,
    or a role is unknown so nothing can be decided).
    """
    if any(player.role is None for player in players):
        return None
    living = [player for player in players if player.alive]
    killers = sum(1 for player in living if player.role == KILLER)
    if killers == 0:
        return "好人"
    if len(living) <= 4:
        return "杀手"
    return None


def role_table(players: int) -> dict[str, int]:
    """一、游戏人数及角色安排: 16 players, no other count."""
    if players != PLAYERS:
        raise BadInput(
            f"1.2 规则需要 {PLAYERS} 名玩家（3 杀手、12 水民、1 检查官），名单有 {players} 人"
        )
    return dict(ROLES)
