"""The 2.0 rules (标准游戏 2.0版): roles, pointing, the knife, suicide, night, win check.

Pure functions over frozen dataclasses: no I/O, no clock; randomness only
through an injected ``random.Random``. Each function cites the sentence of the
rule text it implements; decisions where the text leaves room are written in
docs/rules/2.0.md, each with the test that holds it.

The day (pointing → defence → 动刀) is 1.0's, with the half taken of the
players other than the defender: the shared parts come from
``killmod.rules.r10``. The night (kill by majority, police check answered by a
gesture) is X's: ``team_choice`` and ``feedback`` come from
``killmod.rules.x``. The 花样玩法 live in ``killmod.rules.variants``.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from killmod.core.errors import BadInput
from killmod.core.model import GameOver, KnifeCount, Player, Stage
from killmod.rules.base import Check, NightChoice, NightPlay, NightRights, NightSkill, OutPlay
from killmod.rules.policy import JudgeOut, TallyPolicy
from killmod.rules.shared import (
    POINT,
    PointingRules,
    PointStage,
    PointStep,
    PoliceFeedback,
    SeatsState,
    check_deal,
    check_player_count,
    deal_cards,
    dealt_roles,
    feedback,
    knife_count,
    knife_result_post,
    out_at_start,
    pointing_step,
    team_choice,
    with_document,
)
from killmod.rules.x import CIVILIAN, KILLER, POLICE

NAME = "2.0"
ROLES = (POLICE, KILLER, CIVILIAN)
# What each role's notice says it may do, in the rule text's words (2．基本原则; the
# killers' suicide: 四注意事项 g)).
POWERS: dict[str, tuple[str, ...]] = {
    POLICE: ("警察：夜晚确认出杀手并在白天带领平民杀掉杀手。",),
    KILLER: (
        "杀手：夜晚找出警察并将其杀死。",
        "杀手自杀时必须是轮到自己辩解时方可亮牌自杀。",
    ),
    CIVILIAN: ("平民：帮助警察找出杀手。",),
}

# 三游戏胜负判定方法 d) “平民的胜负与警察相同”.
GOOD_CAMP = "警民"
KILLER_CAMP = "杀手"

# 1．参加人数及警匪配置.
MIN_PLAYERS = 12
MAX_PLAYERS = 18

# 3.k “按牌上数字为开始发言者顺时针方向指认”: everyone points; no self vote, no warning.
TALLY_POLICY = TallyPolicy(non_voter="none", warn_non_voters=False)
# The judge's own decisions (``killmod out``): m) “游戏中误睁眼的玩家需主动申请出局，如本人未
# 主动要求，则裁判有权判其退出本轮游戏”; n) “任何时候裁判有权令违反规则者退出本轮游戏”;
# e) “玩家（除平民外）在全部同伴同意下有权选择投降”.
JUDGE_OUTS = {
    "peeked": JudgeOut("误睁眼，退出本轮游戏"),
    "removed": JudgeOut("违反规则，由裁判判其退出本轮游戏"),
    "surrender": JudgeOut("投降", surrender=True),
}

# The rule text's own words on the day vote, for the vote thread's opening post (killmod
# open), by the vote's phase: 3.k)–3.m) (docs/rules/2.0.md, “The opening post”).
VOTE_RULES = {
    "point": (
        "按牌上数字为开始发言者顺时针方向指认。",
        "被指票数最多者出来辩解。",
    ),
    "knife": (
        "辩解完毕后从辩解者逆时针开始动刀，当超过除去辩解者在内的半数游戏者动刀时，辩解者则被判为"
        "死亡，反之当以辩解者开始一圈未满半数人动刀时，辩解者则被判为存活。（动刀：指杀辩解者，"
        "过：指不杀辩解者）如果辩解者存活，就从辩解者开始顺时针从新指认。",
    ),
}

__all__ = [
    "CIVILIAN",
    "GOOD_CAMP",
    "JUDGE_OUTS",
    "KILLER",
    "KILLER_CAMP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "POINT",
    "POLICE",
    "POWERS",
    "ROLES",
    "TALLY_POLICY",
    "VOTE_RULES",
    "DayResult",
    "KnifeCount",
    "NightResult",
    "PointStage",
    "PointStep",
    "PoliceFeedback",
    "R20Rules",
    "R20State",
    "SuicideResult",
    "after_suicide",
    "camp",
    "check_win",
    "count_knives",
    "deal",
    "judge_out",
    "knife_post",
    "new_game",
    "night_team",
    "pointing_step",
    "police_count",
    "resolve_night",
    "side_verdict",
    "suicide",
    "summary",
    "surrender",
    "surrender_verdict",
    "table",
    "table_row",
    "team_choice",
    "vote_out",
]


def police_count(players: int) -> int:
    """1．“玩家数在12~15人为3警3匪配置，16~18人为4警4匪配置”."""
    check_player_count(players, MIN_PLAYERS, MAX_PLAYERS, "2.0 标准游戏")
    return 3 if players <= 15 else 4


def table_row(players: int) -> dict:
    """The role table for ``players`` (12–18): players, civilians, police, killers."""
    police = police_count(players)
    return {
        "players": players,
        "civilians": players - 2 * police,
        "police": police,
        "killers": police,
    }


def table() -> list[dict]:
    """Every row of the role table."""
    return [table_row(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]


def camp(role: str | None) -> str | None:
    """杀手 is its own side; 警察 and 平民 win together (None when unknown).

    Only the three base roles: for the 花样玩法 roles use ``variants.camp``.
    """
    if role is None:
        return None
    _check_role(role)
    return KILLER_CAMP if role == KILLER else GOOD_CAMP


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise BadInput(f"「{role}」不是 2.0 标准游戏的身份（可用：{'、'.join(ROLES)}）。")


def deal(seats: Iterable[int], rng: random.Random) -> dict:
    """3.a “裁判将洗好的牌……给大家抽取”: roles by seat, shuffled with ``rng``."""
    order = sorted(set(seats))
    row = table_row(len(order))
    counts = {POLICE: row["police"], KILLER: row["killers"], CIVILIAN: row["civilians"]}
    return deal_cards(order, counts, rng)


# ---------------------------------------------------------------- game state


@dataclass(frozen=True)
class R20State(SeatsState):
    """A 2.0 game: roles by seat and the dead in the order they died."""

    def check_role(self, role: str) -> None:
        """Refuse a role 2.0 does not have."""
        _check_role(role)


def new_game(roles: Mapping[int, str]) -> R20State:
    """A game's first state; the dealt ``roles`` must match the table row."""
    row = table_row(len(roles))
    for role in roles.values():
        _check_role(role)
    expected = {POLICE: row["police"], KILLER: row["killers"], CIVILIAN: row["civilians"]}
    check_deal(roles, expected, "")
    return R20State(roles)


def _living(state: R20State, seat: int, what: str) -> int:
    if seat not in state.roles:
        raise BadInput(f"没有 {seat} 号玩家，不能{what}。")
    if seat in state.deaths:
        raise BadInput(f"{seat} 号已出局，不能{what}。")
    return seat


# ---------------------------------------------------------------- the day


def count_knives(ballots: Mapping[int, str], living: Collection[int], defender: int) -> KnifeCount:
    """3.m “当超过除去辩解者在内的半数游戏者动刀时，辩解者则被判为死亡”.

    The half is of the living players other than the defender; players who do
    not knife count as 过 (“以辩解者开始一圈未满半数人动刀时，辩解者则被判为存活”).
    """
    return knife_count(ballots, living, defender)


def knife_post(count: KnifeCount) -> str:
    """3.m “如果辩解者存活，就从辩解者开始顺时针从新指认”."""
    return knife_result_post(count, clockwise=True)


@dataclass(frozen=True)
class DayResult:
    """A player out by day (the knife, the judge): the new state, 遗言 or not, the posts."""

    state: R20State
    seat: int
    last_words: bool
    posts: tuple[str, ...]


# 3.n “此时辩解者可留遗言……（杀手无此权利）”, said to every knifed player alike, and in
# words that name no role: the post must not read as telling the card.
LAST_WORDS_LINE = "有遗言权利的辩解者请留遗言。"


def vote_out(state: R20State, seat: int) -> DayResult:
    """3.n “当辩解者被判死亡时，此时辩解者可留遗言……（杀手无此权利）”.

    Decision (docs/rules/2.0.md, “Out by the knife”): no card is shown (f) “严禁
    亮牌”), and the post invites 遗言 in the same words whatever the card: a
    killer knows he has no 遗言, and the judge's post does not tell it.
    """
    _living(state, seat, "被动刀出局")
    new = replace(state, deaths=(*state.deaths, seat))
    words = state.roles[seat] != KILLER
    return DayResult(new, seat, words, (f"{seat}号被判死亡。{LAST_WORDS_LINE}",))


def judge_out(state: R20State, seat: int, reason: str) -> DayResult:
    """m) 误睁眼 and n) a broken rule: the judge puts the player out (退出本轮游戏).

    Decision: no card is shown (f)) and no 遗言 (3.n gives it to the knifed
    defender only); the day goes on where it was.
    """
    if reason not in JUDGE_OUTS or JUDGE_OUTS[reason].surrender:
        raise BadInput(f"2.0 标准游戏没有「{reason}」这种出局。")
    _living(state, seat, "出局")
    new = replace(state, deaths=(*state.deaths, seat))
    return DayResult(new, seat, False, (f"{seat}号{JUDGE_OUTS[reason].words}。",))


def surrender_verdict(seat: int, side: str) -> GameOver:
    """e) 投降: the side of ``seat`` (``GOOD_CAMP`` or ``KILLER_CAMP``) loses."""
    if side == KILLER_CAMP:
        return GameOver(GOOD_CAMP, f"{seat}号代表杀手一方投降，杀手一方负。")
    return GameOver(KILLER_CAMP, f"{seat}号代表警察一方投降，警察一方负。")


def surrender(state: R20State, seat: int) -> GameOver:
    """e) “玩家（除平民外）在全部同伴同意下有权选择投降”: the seat's side loses.

    Decision: a 警察 or a 杀手, alive, may surrender for his side; the judge
    records it once every partner has agreed (killmod cannot see that).
    """
    _living(state, seat, "投降")
    role = state.roles[seat]
    if role == CIVILIAN:
        raise BadInput(f"{seat} 号是平民：平民不能投降。")
    return surrender_verdict(seat, camp(role))


@dataclass(frozen=True)
class SuicideResult:
    """A killer's suicide (自杀): the new state, what comes next, the posts.

    ``next`` is ``night`` (the day ends as after a knife) or ``point``
    (pointing starts again from ``point_from``, with no night).
    """

    state: R20State
    seat: int
    next: Literal["night", "point"]
    point_from: int | None
    posts: tuple[str, ...]


def suicide(state: R20State, seat: int, defending: bool) -> SuicideResult:
    """注意事项 f), g): a killer may show his card and kill himself only in his own defence.

    “杀手自杀时必须是轮到自己辩解时方可亮牌自杀。提前亮牌者裁判将视为主动放弃游戏，
    将不进入黑夜，直接从翻牌者顺时针方向重新开始指认继续游戏。”
    Decision: both are out (the early one “放弃游戏”); after a suicide in his
    defence the day ends and the night follows, as after a knife. Only a killer
    may show his card (“游戏中严禁亮牌（除杀手自杀外）”); killers leave no 遗言.
    """
    _living(state, seat, "自杀")
    if state.roles[seat] != KILLER:
        raise BadInput(f"{seat} 号不是杀手：只有杀手可以亮牌自杀，其他人亮牌违规，由法官处理。")
    new = replace(state, deaths=(*state.deaths, seat))
    if defending:
        posts = (f"{seat}号在辩解时亮牌自杀，翻牌：杀手。杀手没有遗言。", after_suicide(seat, True))
        return SuicideResult(new, seat, "night", None, posts)
    posts = (
        f"{seat}号未到自己辩解时提前亮牌，视为主动放弃游戏，翻牌：杀手。",
        after_suicide(seat, False),
    )
    return SuicideResult(new, seat, "point", seat, posts)


def after_suicide(seat: int, defending: bool) -> str:
    """What follows a suicide (注意事项 g): the night, or pointing again from him, no night."""
    if defending:
        return "天黑了，请大家闭眼。"
    return f"不进入黑夜，从{seat}号开始按顺时针方向重新指认。"


# ---------------------------------------------------------------- the night


def night_team(state: R20State, role: str) -> tuple[int, ...]:
    """Who takes part in the night's choice for ``role`` (杀手 or 警察), the dead included.

    注意事项 l) “被判死亡的玩家……（特殊牌可继续参与夜晚的指认和暗杀）”. Feed it to
    ``team_choice`` with the members' opinions.
    """
    if role not in (KILLER, POLICE):
        raise BadInput(f"夜晚只有杀手和警察行动，不是「{role}」。")
    return tuple(seat for seat in sorted(state.roles) if state.roles[seat] == role)


@dataclass(frozen=True)
class NightResult:
    """A night: the new state, the victim and the card shown, the police's feedback, posts."""

    state: R20State
    victim: int
    shown: str
    feedback: PoliceFeedback | None
    posts: tuple[str, ...]


def resolve_night(state: R20State, kill: int, check: int | None = None) -> NightResult:
    """3.p–3.w: the killers kill ``kill``; the police check ``check``; the dead is shown.

    “抽到杀手牌的杀手睁眼暗杀一名杀手所认为的警察”; “警察睁眼确认一名警察所认为的
    杀手，并等待裁判给予手势”; “裁判将宣布哪位游戏者在天黑时被杀手暗杀，此游戏者不能
    留遗言并翻牌判死亡”. The first night (3.d–3.j) has no kill: call this from
    the second night on. Decision: the check tells the card, as X's gesture
    does; a check not made gives no feedback.
    """
    if not state.holders(KILLER):
        raise BadInput("杀手已全部出局，游戏应已结束。")
    _living(state, kill, "被杀")
    result = None
    if check is not None:
        if not state.holders(POLICE):
            raise BadInput("警察已全部出局，不能验人。")
        _living(state, check, "被验")
        result = feedback(check, state.roles[check])
    role = state.roles[kill]
    new = replace(state, deaths=(*state.deaths, kill))
    posts = (
        "天亮了，请大家睁眼。",
        f"昨夜被杀的是{kill}号，翻牌：{role}。被杀者没有遗言。",
        f"从{kill}号开始按顺时针方向指认。",
    )
    return NightResult(new, kill, role, result, posts)


# ---------------------------------------------------------------- win, lose, draw


def side_verdict(killers: int, police: int, civilians: int) -> GameOver | None:
    """三游戏胜负判定方法 over the living counts; None while the game goes on.

    a) “杀手一方全部死亡，则警察一方获胜”; b) “警察一方全部死亡，则杀手一方获胜”;
    c) “平民全部死亡，则杀手一方获胜”. Both sides wiped out at once is a draw
    (the 花样玩法's rule D; plain 2.0 kills one player at a time).
    """
    good_lost = police == 0 or civilians == 0
    if killers == 0 and good_lost:
        who = "警察" if police == 0 else "平民"
        return GameOver(None, f"杀手与{who}同时全部出局，平局。")
    if killers == 0:
        return GameOver(GOOD_CAMP, "杀手全部出局，警察一方（及平民）获胜。")
    if police == 0:
        return GameOver(KILLER_CAMP, "警察全部出局，杀手一方获胜。")
    if civilians == 0:
        return GameOver(KILLER_CAMP, "平民全部出局，杀手一方获胜。")
    return None


def check_win(state: R20State) -> GameOver | None:
    """The 2.0 win check after every death."""
    return side_verdict(
        len(state.holders(KILLER)), len(state.holders(POLICE)), len(state.holders(CIVILIAN))
    )


def summary(players: int | None = None) -> list[str]:
    """The rule set in Chinese lines, for ``killmod rules 2.0``."""
    lines = [
        "2.0 标准游戏（警察 + 杀手 + 平民）",
        f"人数：{MIN_PLAYERS}–{MAX_PLAYERS} 人；12–15 人 3 警 3 匪，16–18 人 4 警 4 匪，"
        "其余为平民。",
        "第一夜：杀手、警察分别睁眼确认同伴，不杀人、不验人。",
        "白天：裁判随机抽座位号定首位，顺时针依次指认；被指认最多者辩解；平票者再指认一轮，"
        "仍选不出则废票重指。",
        "动刀：辩解后从辩解者逆时针动刀或过，超过除辩解者以外存活人数的半数即死亡；"
        "否则从辩解者顺时针重新指认。",
        "遗言：被动刀处死者可留遗言（杀手无此权利），公告对谁都说“有遗言权利的辩解者请留遗言”；"
        "被动刀处死者不亮牌。",
        "夜晚：杀手暗杀一人（意见不一取多数）；警察验一人，裁判以手势告知身份；"
        "死去的杀手、警察仍可参与夜晚的暗杀和验人。",
        "天亮：宣布被杀者并翻牌，被杀者没有遗言。",
        "自杀：杀手只能在自己辩解时亮牌自杀；提前亮牌视为放弃游戏，不进入黑夜，"
        "从翻牌者顺时针重新指认。",
        "胜负：杀手全部死亡，警民胜；警察全部死亡或平民全部死亡，杀手胜。",
        "计票：未指认者不计票，也不警告；动刀时未表态按过计。",
        "法官判定：误睁眼、违反规则者退出本轮游戏；警察或杀手经全部同伴同意可投降，己方负。",
    ]
    if players is not None:
        row = table_row(players)
        lines.append(
            f"{players} 人局：警察 {row['police']} 人，杀手 {row['killers']} 人，"
            f"平民 {row['civilians']} 人。"
        )
    return lines


# ---------------------------------------------------------------- the rule set

# i) “无法统一意见时，裁判将遵循少数服从多数”.
MAJORITY = "无法统一意见时，裁判将遵循少数服从多数"


class R20Rules(PointingRules):
    """标准游戏 2.0版: the knife's half is of the others; night kill and check; suicide."""

    NAME = NAME
    ROLES = ROLES
    POWERS = POWERS
    TALLY_POLICY = TALLY_POLICY
    VOTE_RULES = VOTE_RULES
    JUDGE_OUTS = JUDGE_OUTS

    # 注意事项 f) “游戏中严禁亮牌（除杀手自杀外）”: only the night's dead “翻牌判死亡” (3.w), and a
    # killer's suicide. Decision: a player out by the knife or by the judge shows no card.
    REVEAL_CAMP = False
    night_options = frozenset({"kill", "check"})
    # 3.d–3.j: on the first night the killers, then the police, see each other.
    teams = (frozenset({KILLER}), frozenset({POLICE}))
    first_night = 2  # 3.d–3.j: the first night only shows the teams to each other

    def table(self) -> list[dict]:
        """Every row of the role table."""
        return table()

    def table_row(self, players: int) -> dict:
        """The role table's row for ``players`` (12–18)."""
        return table_row(players)

    def summary(self, players: int | None = None) -> list[str]:
        """The 2.0 rules in Chinese lines."""
        return summary(players)

    def deal(self, seats: Iterable[int], rng: random.Random) -> dict[int, str]:
        """3.a: roles by seat, shuffled with ``rng``."""
        return deal(seats, rng)

    def camp(self, role: str | None) -> str | None:
        """杀手 is its own side; 警察 and 平民 win together."""
        return camp(role)

    def start(self, players: Sequence[Player]) -> R20State:
        """The dealt roles against the table."""
        return replace(new_game(dealt_roles(players)), deaths=out_at_start(players))

    def knife_post(self, count: KnifeCount) -> str:
        """3.m: pointing again clockwise from the defender."""
        return knife_post(count)

    def night_skills(
        self, state: R20State, rights: NightRights | None = None
    ) -> tuple[NightSkill, ...]:
        """3.q and 3.t: the killers kill, the police check, the dead among them too
        (注意事项 l), ``night_team``), each team by majority (i))."""
        return (
            NightSkill("kill", night_team(state, KILLER), "majority", MAJORITY),
            NightSkill("check", night_team(state, POLICE), "majority", MAJORITY),
        )

    def night(
        self,
        state: R20State,
        choice: NightChoice,
        night_no: int,
        rights: NightRights | None = None,
    ) -> NightPlay:
        """3.p–3.w: the required kill, turned at dawn; the check answered by a gesture."""
        result = resolve_night(state, choice.required_kill(), choice.single_check())
        answer = result.feedback
        checks = () if answer is None else (Check(answer.seat, answer.identity, answer.gesture),)
        play = NightPlay(
            result.state,
            (result.victim,),
            {},
            shown=((result.victim, result.shown),),
            posts=result.posts,
            checks=checks,
        )
        return with_document(play, night_no)

    def vote_out(self, state: R20State, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """3.n: out by the knife, no card shown (f)), 遗言 offered as the rule says."""
        (seat,) = seats
        result = vote_out(state, seat)
        return OutPlay(result.state, seats, posts=result.posts)

    def judge_out(self, state: R20State, seat: int, reason: str) -> OutPlay:
        """m) 误睁眼, n) a broken rule: out, no card, no 遗言."""
        result = judge_out(state, seat, reason)
        return OutPlay(result.state, (seat,), posts=result.posts)

    def surrender(self, state: R20State, seat: int) -> GameOver:
        """e) 投降: the seat's side loses."""
        return surrender(state, seat)

    def suicide(self, state: R20State, seat: int, defending: bool) -> OutPlay:
        """注意事项 g): in his own defence the night follows; before it, pointing restarts."""
        result = suicide(state, seat, defending)
        following = None if result.next == "night" else Stage("point")
        return OutPlay(result.state, (seat,), ((seat, KILLER),), result.posts, following)

    def verdict(self, state: R20State) -> GameOver | None:
        """三游戏胜负判定方法."""
        return check_win(state)
