"""The 1.2 rules (“杀人游戏”标准化规则 1.2): roles, tally policy, penalties, reveals.

Each function cites the sentence of the rule text it implements; decisions
where the text leaves room are written in docs/rules/1.2.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

from killmod.core.errors import BadInput
from killmod.core.model import GameOver, Player, Roster
from killmod.rules.base import NightChoice, NightPlay, NightRights, NightSkill, OutPlay, RuleSet
from killmod.rules.policy import JudgeOut, TallyPolicy

NAME = "1.2"
PLAYERS = 16
# 一、游戏人数及角色安排: 杀手 3人, 水民 12人, 检查官 1人.
ROLES = {"杀手": 3, "水民": 12, "检查官": 1}
KILLER = "杀手"
# “检查官 … 拥有一次否决权，可以在游戏中的任何一轮使用”.
VETO_ROLE = "检查官"
# What each role's notice says it may do, in the rule text's words (一、游戏人数及角色安排;
# the killers' list: 补充说明 一.3).
POWERS: dict[str, tuple[str, ...]] = {
    "杀手": (
        "杀手：属杀手方，拥有杀人的权利，每轮可杀一人；迷惑好人以隐藏自己，参与投票。",
        "权利行使轮，特殊身份的玩家向法官提交杀人名单。",
    ),
    "水民": ("水民：属好人方，拥有投票的权利，负责找出杀手。",),
    "检查官": (
        "检查官：属好人方，拥有一次否决权，可以在游戏中的任何一轮使用；其他权利和作用等同水民。",
        "否决权只有一次使用机会，可在任意一轮向法官递交行使权力对象的名单，"
        "被行使权力的玩家直接宣布出局并按规则公布身份。",
    ),
}

# 补充说明 4: “可弃权，但不投票者视为自投，并被警告一次，二次换替补，无替补出局”;
# 四 “允许改票，但必须重新发帖”; 二.5 “无该轮投票权的正式玩家在投票贴内发言按犯规处理。
# 具有投票权的正式玩家在投票贴内作出非正式投票内容的发言按犯规处理”.
TALLY_POLICY = TallyPolicy(
    non_voter="self",
    warn_non_voters=True,
    ballots="last",
    violations=frozenset({"dead", "no_vote"}),
)

# The rule text's own words on the day vote, for the vote thread's opening post (killmod
# open), by the vote's phase: 四、关于投票, 补充说明 一.4 (1)–(5), 二.5 (docs/rules/1.2.md,
# “The opening post”: 「SOHU论坛」 is read as the board the game is played on).
VOTE_RULES = {
    "vote": (
        "投票方式：采用明投，得票最高者由法官宣布死亡。规定时间内，在专门的投票帖投票；"
        "允许改票，但必须重新发帖。",
        "允许改票，但需另外发帖，不得在原帖中进行修改。",
        "玩家可以投弃权票，弃权票也视为一次投票或改票。",
        "所有存活玩家投票。可弃权，但不投票者视为自投，并被警告一次，二次换替补，无替补出局。",
        "所有时间以论坛中记录的发贴时间为准，例：22:00投票截止则精确到22:00.00秒有效，超时无效。",
        "投票不允许代投，如出现特殊情况（如论坛故障），法官会酌情延长投票截止时间。",
        "平票处理：同一轮投票过程中出现2人以上平票的，通过抽签确定。抽签过程必须在投票帖中进行。",
        "投票贴中只允许法官、法官助理、参与游戏管理的执行版主及本届游戏中仍然具有投票权利的"
        "玩家发言。玩家发言只能为正式投票。",
        "无该轮投票权的正式玩家在投票贴内发言按犯规处理。具有投票权的正式玩家在投票贴内作出"
        "非正式投票内容的发言按犯规处理。",
    ),
}

# 五: “游戏在法官宣布死亡开始后的24小时可以诈尸” (docs/rules/1.2.md, 诈尸: with the 即 clause).
ZHASHI = timedelta(hours=24)

# 二.6 特殊说明: “严禁玩家私下交流……不得对其他玩家有侮辱性的语言。一旦触犯上述规定，立判出局。”
JUDGE_OUTS = {"conduct": JudgeOut("立判出局")}
# 补充说明 二.3–二.5: “取消该玩家所在阵营所有特殊权利一轮，或为对立阵营增加特殊权力一轮”.
PENALTIES = ("cancel", "extra")

# 二.2 潜水: “每位玩家每轮游戏发言不能少于三次”.
MIN_POSTS = 3
# 二.2.2: the judge contacts a lurker first; what he answers decides the warning
# (``killmod lurkers`` writes the message, the warning stays the judge's ``--record``).
LURKER_CONTACT = (
    "出现了潜水的玩家后，法官可以和玩家联系。如果玩家表示能够继续参加游戏，则给一次警告。"
    "如果玩家表示不能够继续参加游戏，就由其他玩家替换。"
)
# 二.1 请假: “最多请假一天” — read as one day per player per game.
MAX_LEAVE_DAYS = 1


def camp(role: str | None) -> str | None:
    """五、身份公布: “杀手方人员公布为杀手；好人方人员公布为好人” (None when unknown)."""
    if role is None:
        return None
    return "杀手" if role == KILLER else "好人"


def opposing_camp(camp_name: str) -> str:
    """The other camp: 杀手 ↔ 好人."""
    return "好人" if camp_name == "杀手" else "杀手"


def judge_out_post(seat: int, camp_name: str | None) -> str:
    """二.6 特殊说明 “一旦触犯上述规定，立判出局”, the camp announced as for any death (五)."""
    shown = f"身份：{camp_name}。" if camp_name else ""
    return f"{seat}号触犯游戏规定，立判出局。{shown}"


def warning_action(total: int, substitutes_left: int) -> str:
    """“警告一次，二次换替补，无替补出局”: warn, then substitute, else out (淹死)."""
    if total < 2:
        return "warn"
    return "substitute" if substitutes_left > 0 else "out"


def win_check(players: Iterable[Player]) -> str | None:
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


def check_win(players: Iterable[Player]) -> GameOver | None:
    """``win_check`` with the condition met, as every rule set's check_win gives it."""
    winner = win_check(players)
    if winner is None:
        return None
    reason = "投出所有杀手。" if winner == "好人" else "剩余 4 人中至少有 1 名杀手。"
    return GameOver(winner, reason)


def role_table(players: int) -> dict[str, int]:
    """一、游戏人数及角色安排: 16 players, no other count."""
    if players != PLAYERS:
        raise BadInput(
            f"1.2 规则需要 {PLAYERS} 名玩家（3 杀手、12 水民、1 检查官），名单有 {players} 人"
        )
    return dict(ROLES)


def table_row(players: int) -> dict:
    """The role table as every rule set gives it: ``inspectors`` is the 检查官."""
    roles = role_table(players)
    return {
        "players": players,
        "civilians": roles["水民"],
        "police": 0,
        "killers": roles[KILLER],
        "inspectors": roles[VETO_ROLE],
    }


def table() -> list[dict]:
    """Every row of the role table: the one 16-player row."""
    return [table_row(PLAYERS)]


def deal(seats: Iterable[int], rng: random.Random) -> dict:
    """Roles by seat: the 16 cards shuffled with ``rng``."""
    from killmod.rules.shared import deal_cards  # what other sets share: not a 1.2 count's

    order = sorted(set(seats))
    return deal_cards(order, role_table(len(order)), rng)


def summary(players: int | None = None) -> list[str]:
    """The rule set in Chinese lines, for ``killmod rules 1.2``."""
    lines = [
        "1.2 规则（“杀人游戏”标准化规则 1.2）",
        "人数：16 人；杀手 3 人，水民 12 人，检查官 1 人。",
        "夜晚（权利行使轮）：杀手每轮可杀一人；检查官全局有一次否决权，被行使者直接出局。",
        "白天：在投票帖明投，截止时间精确到秒；允许改票，但必须另发新帖；可以弃权。",
        "不投票视为自投并警告一次；第二次警告换替补，无替补则出局（淹死）。",
        "平票：抽签决定出局者（killmod lottery）。",
        "身份公布：出局者只公布阵营（杀手 / 好人）。",
        "胜负：投出所有杀手，好人胜；剩余 4 人中至少有 1 名杀手，杀手胜。",
        f"潜水：每轮发言不少于 {MIN_POSTS} 次；每人最多请假 {MAX_LEAVE_DAYS} 天"
        "（请假当天不投票不警告）。",
        "犯规：取消犯规方阵营特殊权利一轮，或为对立阵营增加特殊权力一轮（在下一个夜晚执行）。",
        "诈尸：宣布死亡后 24 小时内，且在下一名同类死者（被杀 / 被投出局）公布之前。",
    ]
    if players is not None:
        row = table_row(players)
        lines.append(
            f"{players} 人局：杀手 {row['killers']} 人，水民 {row['civilians']} 人，"
            f"检查官 {row['inspectors']} 人。"
        )
    return lines


# ---------------------------------------------------------------- the night (权利行使轮)

CAUSES = (("killed", "被杀"), ("vetoed", "被行使否决权"))


def check_kills(kills: tuple[int, ...], rights: NightRights, round_no: int) -> None:
    """“杀 手……每轮可杀一人”, none or two as the night's penalties say."""
    if len(set(kills)) != len(kills):
        raise BadInput("两次 --kill 是同一个座位")
    if len(kills) <= rights.kills:
        return
    cancelled = rights.cancelled.get(KILLER)
    if cancelled is not None and rights.kills == 0:
        raise BadInput(f"第 {round_no} 轮夜晚杀手方的特殊权利已被取消：{cancelled}。这一夜不能杀人")
    if rights.kills == 1:
        raise BadInput(
            f"杀手每轮只能杀一人，--kill 给了 {len(kills)} 次：只有对立阵营选择"
            "「为对立阵营增加特殊权力一轮」的处罚（killmod penalty --kind extra）落在这一夜时，"
            "杀手方才能多杀一人"
        )
    given = len(kills)
    raise BadInput(f"第 {round_no} 轮夜晚杀手方最多杀 {rights.kills} 人，--kill 给了 {given} 次")


def split_vetoes(vetoes: tuple[int, ...], rights: NightRights) -> tuple[int | None, int | None]:
    """Which veto is the 检查官's one-time veto and which the 好人方's extra one.

    Decision (docs/rules/1.2.md, 二.3–二.5): an extra veto is used before the
    one-time veto, which the camp keeps for a later round.
    """
    if len(set(vetoes)) != len(vetoes):
        raise BadInput("两次 --veto 是同一个座位")
    extra = vetoes[-1] if vetoes and rights.extra_vetoes else None
    own = [seat for seat in vetoes if seat != extra]
    if len(own) > 1:
        raise BadInput("检查官的否决权只有一次使用机会：--veto 只能给一次")
    return (own[0] if own else None), extra


def check_target(roster: Roster, seat: int, what: str) -> None:
    """A chosen seat must exist and be alive."""
    player = roster.seat(seat)
    if player is None:
        raise BadInput(f"没有 {seat} 号座位，不能{what}")
    if not player.alive:
        raise BadInput(f"{seat}号 {player.name} 已出局，不能{what}")


def check_veto(roster: Roster, veto: int | None, rights: NightRights, round_no: int) -> None:
    """“否决权只有一次使用机会”; a 检查官 who is out has no veto (when roles are known);
    a cancelled 好人方 has none this night."""
    if veto is None:
        return
    if not rights.veto:
        why = rights.cancelled[opposing_camp(KILLER)]
        raise BadInput(f"第 {round_no} 轮夜晚好人方的特殊权利已被取消：{why}。这一夜不能行使否决权")
    if rights.veto_spent is not None:
        spent_round, spent_seat = rights.veto_spent
        raise BadInput(f"否决权只有一次使用机会：第 {spent_round} 轮已经对 {spent_seat}号 用过")
    if all(player.role is not None for player in roster.players):
        holders = [player for player in roster.players if player.role == VETO_ROLE]
        if not any(player.alive for player in holders):
            raise BadInput("检查官已出局，不能再行使否决权")


def night_causes(
    kills: tuple[int, ...], vetoes: tuple[int, ...]
) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Who goes out and why: the killed seats, then the vetoed ones (one death per seat)."""
    chosen = {"killed": kills, "vetoed": vetoes}
    return tuple(
        (seat, tuple(cause for cause, _ in CAUSES if seat in chosen[cause]))
        for seat in dict.fromkeys((*kills, *vetoes))
    )


# ---------------------------------------------------------------- the rule set


class R12Rules(RuleSet):
    """“杀人游戏”标准化规则 1.2: its state is the roster the store derives; a tie goes to
    the lottery; its night is the killers' kill and the 检查官's one-time veto."""

    NAME = NAME
    ROLES = tuple(ROLES)
    POWERS = POWERS
    TALLY_POLICY = TALLY_POLICY
    VOTE_RULES = VOTE_RULES
    JUDGE_OUTS = JUDGE_OUTS
    # 五、身份公布: “杀手方人员公布为杀手；好人方人员公布为好人”: the camp of the out is announced.
    REVEAL_CAMP = True
    PENALTIES = PENALTIES
    VETO_ROLE = VETO_ROLE
    ZHASHI = ZHASHI
    MIN_POSTS = MIN_POSTS
    LURKER_CONTACT = LURKER_CONTACT
    MAX_LEAVE_DAYS = MAX_LEAVE_DAYS
    state_is_roster = True
    lottery = True
    night_options = frozenset({"kill", "extra_kills", "veto"})

    def table(self) -> list[dict]:
        """The one 16-player row."""
        return table()

    def table_row(self, players: int) -> dict:
        """The row for ``players`` (16 only)."""
        return table_row(players)

    def summary(self, players: int | None = None) -> list[str]:
        """The 1.2 rules in Chinese lines."""
        return summary(players)

    def deal(self, seats: Iterable[int], rng: random.Random) -> dict[int, str]:
        """The 16 cards shuffled with ``rng``."""
        return deal(seats, rng)

    def camp(self, role: str | None) -> str | None:
        """五、身份公布: 杀手 or 好人."""
        return camp(role)

    def warning_action(self, total: int, substitutes_left: int) -> str:
        """“警告一次，二次换替补，无替补出局”."""
        return warning_action(total, substitutes_left)

    def start(self, players: Sequence[Player]) -> Any:
        """Never replayed: the roster the store derives is the state (``state_is_roster``)."""
        raise NotImplementedError("1.2 的状态就是名单，不需要重放")

    def vote_out(self, state: Roster, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """The roster is updated by the recorded death itself."""
        return OutPlay(state, seats)

    def night_name(self, night_no: int) -> str:
        """1.2 names a night by its round: ``第 2 轮的夜晚``."""
        return f"第 {night_no} 轮的夜晚"

    def night(
        self,
        state: Roster,
        choice: NightChoice,
        night_no: int,
        rights: NightRights | None = None,
    ) -> NightPlay:
        """补充说明 一.3 权利行使轮: the killers' kill (“每轮可杀一人”) and the 检查官's veto
        (“被行使权力的玩家直接宣布出局并按规则公布身份”), as the night's ``rights`` allow;
        each death's camp is announced (五). ``state`` is the roster."""
        rights = rights or NightRights()
        kills = choice.kills
        check_kills(kills, rights, night_no)
        veto, extra_veto = split_vetoes(choice.veto, rights)
        for seat in kills:
            check_target(state, seat, "被杀")
        for seat in choice.veto:
            check_target(state, seat, "被行使否决权")
        check_veto(state, veto, rights, night_no)
        causes = night_causes(kills, choice.veto)
        camps = tuple((seat, camp(state.seat(seat).role)) for seat, _ in causes)
        shown = tuple((seat, side) for seat, side in camps if side)
        document = {
            "schema": "killmod.night/1",
            "round": night_no,
            "kill": kills[0] if kills else None,
            "veto": veto,
            **({"kills": list(kills)} if len(kills) > 1 else {}),
            **({"extra_veto": extra_veto} if extra_veto is not None else {}),
            "out": [seat for seat, _ in causes],
            "camps": {str(seat): side for seat, side in shown},
        }
        record = {
            "kill": kills[0] if kills else None,
            "kills": list(kills),
            "veto": veto,
            "extra_veto": extra_veto,
        }
        out = tuple(seat for seat, _ in causes)
        return NightPlay(state, out, document, shown=shown, causes=causes, record=record)

    def dawn_document(self, night_no: int, play: NightPlay) -> dict[str, Any]:
        """Everything of a 1.2 night is public: the choices, who is out, their camps."""
        return dict(play.document)

    def night_skills(
        self, state: Roster, rights: NightRights | None = None
    ) -> tuple[NightSkill, ...]:
        """补充说明 一.3 “权利行使轮，特殊身份的玩家向法官提交杀人名单”: the living killers'
        one list, and the living 检查官's veto (一次, 任意一轮); a camp whose power a
        penalty cancels tonight has none, and the veto once used is gone for good.

        Decision (docs/rules/1.2.md, “Night actions by 站内短信”): the rule text names one
        list, not how killers who send different ones are settled; killmod takes the kill
        only when every killer who named one named the same seat, else the judge decides.
        """
        rights = rights or NightRights()
        living = state.living
        killers = tuple(p.seat for p in living if p.role == KILLER and rights.kills)
        vetoing = rights.veto and rights.veto_spent is None
        veto = tuple(p.seat for p in living if p.role == VETO_ROLE and vetoing)
        return (
            NightSkill("kill", killers, "agree", "特殊身份的玩家向法官提交杀人名单"),
            NightSkill("veto", veto),
        )

    def verdict(self, state: Roster) -> GameOver | None:
        """三、胜利条件 over the roster's players."""
        return check_win(state.players)

    def judge_out(self, state: Roster, seat: int, reason: str) -> OutPlay:
        """二.6 “一旦触犯上述规定，立判出局”: out, the camp announced as for any death (五)."""
        if reason not in JUDGE_OUTS:
            raise BadInput(f"1.2 规则没有「{reason}」这种出局。")
        player = state.seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位。")
        if not player.alive:
            raise BadInput(f"{seat}号 {player.name} 已出局。")
        side = camp(player.role)
        shown = ((seat, side),) if side else ()
        return OutPlay(state, (seat,), shown, (judge_out_post(seat, side),))
