"""The X game rules (标准游戏规则（X游戏）): roles, night, last words, ties, win check.

Pure functions over frozen dataclasses: no I/O, no clock; randomness only
through an injected ``random.Random``. Each function cites the sentence of the
rule text it implements; decisions where the text leaves room are written in
docs/rules/x.md, each with the test that holds it.

The night's team choice and the police's answer are shared with 2.0
(``killmod.rules.shared``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from killmod.core.errors import BadInput
from killmod.core.model import DayStep, GameOver, KnifeCount, Outcome, Player, Stage
from killmod.core.names import fold
from killmod.rules.base import (
    Check,
    NightChoice,
    NightPlay,
    NightRights,
    NightSkill,
    OutPlay,
    RuleSet,
)
from killmod.rules.policy import JudgeOut, TallyPolicy
from killmod.rules.shared import (
    PoliceFeedback,
    SeatsState,
    check_deal,
    check_player_count,
    deal_cards,
    dealt_roles,
    feedback,
    out_at_start,
    seats_text,
    with_document,
)

NAME = "x"

POLICE = "警察"
KILLER = "杀手"
CIVILIAN = "平民"
ROLES = (POLICE, KILLER, CIVILIAN)
# What each role's notice says it may do, in the rule text's words (专业术语 14)、20) and
# 2．基本原则 3)).
POWERS: dict[str, tuple[str, ...]] = {
    POLICE: (
        "警察：游戏中的特殊身份者，每轮可验证某一人的身份并从裁判处得到答案，"
        "要带领平民公决所有杀手而获得胜利。",
    ),
    KILLER: (
        "杀手：游戏中的特殊身份者，每轮可杀一人，在游戏中自始至终需要努力隐藏身份，"
        "要杀光警察而获得胜利。",
    ),
    CIVILIAN: ("平民：帮助警察公决出杀手。任何时候平民都不得故意帮助杀手。",),
}

# 4．游戏胜负判定方法 4) “平民的胜负与警察相同”: police and civilians win or lose together.
GOOD_CAMP = "警民"
KILLER_CAMP = "杀手"

# 1．参加人数及警匪配置.
MIN_PLAYERS = 8
MAX_PLAYERS = 16

# 3.18 “每个人只有一次投票机会，也可弃权不投”: not voting is abstaining, no warning, and the
# first ballot stands; 注意事项 11) “不得跟票或补票。跟票或补票将被记为无效票”: a later one is
# ``repeat_ballot``, and a ballot that says 跟票 or 补票 is ``follow_vote`` (it is the
# voter's one ballot, and invalid).
TALLY_POLICY = TallyPolicy(
    non_voter="none", warn_non_voters=False, ballots="first", follow_invalid=True
)

# The rule text's own words on the day vote, for the vote thread's opening post (killmod
# open): 3.18、3.19、4.5、注意事项 11 and the judge's phrase 13 (docs/rules/x.md, “The
# opening post”).
VOTE_RULES = {
    "vote": (
        "每个人只有一次投票机会，也可弃权不投。",
        "投票时应事先做好决定，不得跟票或补票。跟票或补票将被记为无效票。",
        "投票完毕后，得票最多者视为被公决出局。",
        "在投票过程中，如出现得最多票数者达到一人以上，则由平票者进行再一轮的发言，发言过后"
        "再次对平票人进行投票，得票多的人出局；若再次出现平票，则由平票人以外的其他人逐一发言，"
        "之后投票，得票多的人出局；若仍然平票，则本局将被系统硬性判定为平局。",
        "现在开始投票，请不要跟票。",
    ),
}

# The judge's own decisions (``killmod out``): 裁判标准用语 22 “某某认匪，不用投票出局”;
# 注意事项 16) and 用语 21 “N号误睁眼出局”; 17) “任何时候裁判都有权令违反规则的玩家出局”;
# 5) and 术语 25 投降 “一旦投降，则其一方自动为输”.
JUDGE_OUTS = {
    "confessed": JudgeOut("认匪", ends_day=True),
    "peeked": JudgeOut("误睁眼出局"),
    "removed": JudgeOut("违反规则，由裁判判其出局"),
    "surrender": JudgeOut("投降", surrender=True),
}


def police_count(players: int) -> int:
    """1．“玩家数在8~10人为2警2匪，11~14人为3警3匪，15~16人为4警4匪配置”."""
    check_player_count(players, MIN_PLAYERS, MAX_PLAYERS, "X 游戏")
    if players <= 10:
        return 2
    return 3 if players <= 14 else 4


def table_row(players: int) -> dict:
    """The role table for ``players`` (8–16), with ``last_words`` = how many deaths get 遗言."""
    police = police_count(players)
    return {
        "players": players,
        "civilians": players - 2 * police,
        "police": police,
        "killers": police,
        "last_words": police,
    }


def table() -> list[dict]:
    """Every row of the role table."""
    return [table_row(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]


def camp(role: str | None) -> str | None:
    """杀手 is its own side; 警察 and 平民 win together (None when unknown)."""
    if role is None:
        return None
    _check_role(role)
    return KILLER_CAMP if role == KILLER else GOOD_CAMP


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise BadInput(f"「{role}」不是 X 游戏的身份（可用：{'、'.join(ROLES)}）。")


def deal(seats: Iterable[int], rng: random.Random) -> dict:
    """3.1 “裁判将洗好的12张牌……交大家抽取”: roles by seat, shuffled with ``rng``."""
    order = sorted(set(seats))
    row = table_row(len(order))
    counts = {POLICE: row["police"], KILLER: row["killers"], CIVILIAN: row["civilians"]}
    return deal_cards(order, counts, rng)


# ---------------------------------------------------------------- game state


@dataclass(frozen=True)
class XState(SeatsState):
    """An X game: roles by seat and the dead in the order they died."""

    def check_role(self, role: str) -> None:
        """Refuse a role X does not have."""
        _check_role(role)

    @property
    def police_dealt(self) -> int:
        """How many police the game was dealt (= how many deaths get 遗言)."""
        return list(self.roles.values()).count(POLICE)


def new_game(roles: Mapping[int, str]) -> XState:
    """A game's first state; the dealt ``roles`` must match the table row."""
    row = table_row(len(roles))
    for role in roles.values():
        _check_role(role)
    expected = {POLICE: row["police"], KILLER: row["killers"], CIVILIAN: row["civilians"]}
    check_deal(roles, expected, "")
    return XState(roles)


def _living(state: XState, seat: int, what: str) -> int:
    if seat not in state.roles:
        raise BadInput(f"没有 {seat} 号玩家，不能{what}。")
    if seat in state.deaths:
        raise BadInput(f"{seat} 号已出局，不能{what}。")
    return seat


# ---------------------------------------------------------------- last words (遗言)


def last_words_post(death_no: int, police: int) -> str | None:
    """3.21 “留遗言人数与警匪人数相同……前面3个死人（包括被杀者和被公决者）可留遗言”.

    ``death_no`` counts every death of the game from 1. Judge's phrase 11:
    “请留第N个（最后一个）遗言”. None when this death has no last words.
    """
    if death_no < 1:
        raise BadInput(f"死亡顺序应从 1 开始，不是 {death_no}。")
    if death_no > police:
        return None
    if death_no == police:
        return f"请留第{death_no}个（最后一个）遗言。"
    return f"请留第{death_no}个遗言。"


# ---------------------------------------------------------------- the night


@dataclass(frozen=True)
class NightResult:
    """A night: the new state, who was killed, the police's feedback and the morning posts."""

    state: XState
    victim: int
    feedback: PoliceFeedback | None
    posts: tuple[str, ...]


def resolve_night(state: XState, kill: int, check: int | None = None) -> NightResult:
    """3.3–3.16: the killers kill ``kill``; the police check ``check`` and see a gesture.

    “杀手请杀人 —— 杀手在规定时间内需要杀某一个人”: the kill is required.
    Decision: the police's check is optional (a check not made gives no
    feedback). Kill and check are made on the same night: the check reads the
    target's card even when the killers chose the same player.
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
    new = XState(state.roles, (*state.deaths, kill))
    posts = ["天亮了，请大家睁眼。", f"本轮被杀的是{kill}号。"]
    words = last_words_post(len(new.deaths), state.police_dealt)
    posts.append(words or f"{kill}号没有遗言。")
    return NightResult(new, kill, result, tuple(posts))


def first_kill_allowed(victim: str, previous_first_victim: str | None) -> bool:
    """注意事项 8) “不允许连续两局第一轮杀同一个人”.

    Seats change between games, so players are compared by forum name
    (folded: case, width and spacing do not matter).
    """
    return previous_first_victim is None or fold(victim) != fold(previous_first_victim)


def check_first_kill(victim: str, previous_first_victim: str | None) -> None:
    """``BadInput`` when the first-round kill repeats the previous game's first victim."""
    if not first_kill_allowed(victim, previous_first_victim):
        raise BadInput(f"不允许连续两局第一轮杀同一个人：上一局第一轮被杀的就是「{victim}」。")


# ---------------------------------------------------------------- the day vote


@dataclass(frozen=True)
class TieStage:
    """Which vote of the day is running.

    ``vote`` the day's vote; ``tied_revote`` after the tied players spoke, a
    vote among them; ``final_revote`` after everyone else spoke, a last vote
    among the players tied again.
    """

    kind: Literal["vote", "tied_revote", "final_revote"] = "vote"
    tied: tuple[int, ...] = ()


VOTE = TieStage()


@dataclass(frozen=True)
class TieStep:
    """What follows a vote: the next vote (or None), who is out, whether it is a draw, posts."""

    stage: TieStage | None
    out: int | None
    draw: bool
    posts: tuple[str, ...]


def tie_stage(previous_stage: TieStage, outcome: Outcome) -> TieStep:
    """4.5) the tie procedure as a state machine over the day's votes.

    “如出现得最多票数者达到一人以上，则由平票者进行再一轮的发言，发言过后再次对平票人
    进行投票，得票多的人出局；若再次出现平票，则由平票人以外的其他人逐一发言，之后
    投票，得票多的人出局；若仍然平票，则本局将被系统硬性判定为平局。”

    ``outcome`` is the tally of the vote ``previous_stage`` names. Decisions:
    each re-vote is among the players tied in the vote before it; in a re-vote,
    no vote at all leaves everyone tied; a day's first vote with no vote at all
    puts nobody out.
    """
    stage = previous_stage
    if stage.kind != "vote":
        _within(outcome, stage.tied)
    if outcome.kind == "eliminated":
        assert outcome.seat is not None
        return TieStep(None, outcome.seat, False, (f"{outcome.seat}号得票最多，被公决出局。",))
    if stage.kind == "vote" and outcome.kind == "none":
        return TieStep(None, None, False, ("无人得票，本轮无人出局。",))
    tied = tuple(sorted(outcome.seats)) if outcome.kind == "tie" else stage.tied
    names = _tied_names(tied)
    if stage.kind == "vote":
        return TieStep(
            TieStage("tied_revote", tied),
            None,
            False,
            (_tie_line(tied), f"请{names}开始辩。", f"现在对{names}再次投票。"),
        )
    if stage.kind == "tied_revote":
        return TieStep(
            TieStage("final_revote", tied),
            None,
            False,
            (
                f"再次平票：{_tie_line(tied)}",
                f"请除{names}以外的人开始发言。",
                f"现在对{names}再次投票。",
            ),
        )
    return TieStep(None, None, True, ("仍然平票，本局硬性判定为平局。",))


def _tied_names(tied: tuple[int, ...]) -> str:
    return "与".join(f"{seat}号" for seat in tied) if len(tied) == 2 else seats_text(tied)


def _tie_line(tied: tuple[int, ...]) -> str:
    """Judge's phrase 17 “现在有N人票数相同（或A与B平票）”."""
    if len(tied) == 2:
        return f"{tied[0]}号与{tied[1]}号平票。"
    return f"现在有{len(tied)}人票数相同：{seats_text(tied)}。"


def _within(outcome: Outcome, tied: tuple[int, ...]) -> None:
    seats = (outcome.seat,) if outcome.kind == "eliminated" else outcome.seats
    stray = [seat for seat in seats if seat not in tied]
    if stray:
        raise BadInput(f"这一轮只对 {seats_text(tied)} 投票，{seats_text(stray)}不在其中。")


@dataclass(frozen=True)
class DayResult:
    """A player voted out: the new state and the judge's posts (遗言 when due)."""

    state: XState
    seat: int
    last_words: bool
    posts: tuple[str, ...]


def vote_out(state: XState, seat: int) -> DayResult:
    """3.19 “得票最多者视为被公决出局，留遗言后退出本局游戏” (while 遗言 remain).

    Also for judge's phrase 22 “某某认匪，不用投票出局”: a confessed killer is out
    the same way.
    """
    _living(state, seat, "被公决")
    new = XState(state.roles, (*state.deaths, seat))
    words = last_words_post(len(new.deaths), state.police_dealt)
    posts = (f"{seat}号被公决出局。", words or f"{seat}号没有遗言。")
    return DayResult(new, seat, words is not None, posts)


# ---------------------------------------------------------------- the judge's decisions


def judge_out(state: XState, seat: int, reason: str) -> DayResult:
    """A player the judge puts out: 认匪, 误睁眼 or a broken rule, with 遗言 while they last.

    用语 22 “某某认匪，不用投票出局”, “如某人承认自己是匪，可不经投票判其被公决”: the same
    as :func:`vote_out`; 用语 21 “N号误睁眼出局”; 注意事项 17) “任何时候裁判都有权令违反规则的
    玩家出局”. Decision: every death counts in the 遗言 order of 3.21 (“前面3个死人”).
    No card is shown (注意事项 6).
    """
    if reason not in JUDGE_OUTS or JUDGE_OUTS[reason].surrender:
        raise BadInput(f"X 游戏没有「{reason}」这种出局。")
    _living(state, seat, JUDGE_OUTS[reason].words)
    new = XState(state.roles, (*state.deaths, seat))
    words = last_words_post(len(new.deaths), state.police_dealt)
    head = {
        "confessed": f"{seat}号认匪，不用投票出局。",
        "peeked": f"{seat}号误睁眼出局。",
        "removed": f"{seat}号违反规则，由裁判判其出局。",
    }[reason]
    return DayResult(new, seat, words is not None, (head, words or f"{seat}号没有遗言。"))


def surrender(state: XState, seat: int) -> GameOver:
    """注意事项 5) and 术语 25: a 警察 or 杀手 left alone gives up; his side loses.

    “玩家（平民除外）有权选择投降，但己方尚有同伴活着的时候严禁投降”; “投降：游戏中特殊身份者
    在同伴全部出局只剩下自己而又感觉无望时可以使用的放弃游戏的方法。一旦投降，则其一方自动为输。”
    """
    _living(state, seat, "投降")
    role = state.roles[seat]
    if role == CIVILIAN:
        raise BadInput(f"{seat} 号是平民：平民不能投降。")
    partners = [s for s in state.holders(role) if s != seat]
    if partners:
        raise BadInput(f"{seat} 号的同伴 {seats_text(partners)}还活着：己方尚有同伴活着时严禁投降")
    if role == KILLER:
        return GameOver(GOOD_CAMP, f"{seat}号（杀手）投降，杀手一方自动为输。")
    return GameOver(KILLER_CAMP, f"{seat}号（警察）投降，警察一方自动为输。")


# ---------------------------------------------------------------- win, lose, draw


def check_win(state: XState) -> GameOver | None:
    """4．游戏胜负判定方法; None while the game goes on.

    1) “杀手一方全部死去，则警察一方获胜”; 2) “警察一方全部死去，则杀手一方获胜”;
    3) “平民全部死去为平局”; 4) “平民的胜负与警察相同”. Decision: the draw of 3)
    comes first (one death at a time cannot meet two conditions, but a state
    given by hand can).
    """
    police, killers = state.holders(POLICE), state.holders(KILLER)
    if not state.holders(CIVILIAN):
        return GameOver(None, "平民全部出局，平局。")
    if not killers and not police:
        return GameOver(None, "警察与杀手同时全部出局，平局。")
    if not killers:
        return GameOver(GOOD_CAMP, "杀手全部出局，警察一方（及平民）获胜。")
    if not police:
        return GameOver(KILLER_CAMP, "警察全部出局，杀手一方获胜。")
    return None


def summary(players: int | None = None) -> list[str]:
    """The rule set in Chinese lines, for ``killmod rules x``."""
    lines = [
        "X 游戏（标准游戏规则，面杀）",
        f"人数：{MIN_PLAYERS}–{MAX_PLAYERS} 人；8–10 人 2 警 2 匪，11–14 人 3 警 3 匪，"
        "15–16 人 4 警 4 匪，其余为平民。",
        "夜晚：杀手杀一人（意见不一取多数，不表态视为同意）；警察验一人，裁判以手势告知准确身份。",
        "白天：宣布被杀者；发言后投票，可弃权；得票最多者出局。",
        "平票：平票者发言后再投；再平则其他人发言后再投；仍平则本局平局。",
        "遗言：前 N 个死者（N = 警察人数，含被杀和被公决）可留遗言，之后没有遗言。",
        "亮牌：严禁亮牌，出局不公布身份。",
        "胜负：杀手全部出局，警民胜；警察全部出局，杀手胜；平民全部出局，平局。",
        "连续两局的第一轮不得杀同一个人。",
        "计票：不投票视为弃权，不警告；每人只有一次投票机会，之后的票（跟票、补票）无效。",
        "法官判定：认匪不用投票出局；误睁眼出局；违反规则出局；同伴全部出局的警察或杀手可投降，己方负。",
    ]
    if players is not None:
        row = table_row(players)
        lines.append(
            f"{players} 人局：警察 {row['police']} 人，杀手 {row['killers']} 人，"
            f"平民 {row['civilians']} 人；前 {row['last_words']} 个死者有遗言。"
        )
    return lines


# ---------------------------------------------------------------- the rule set

# 3.6 “如果意见无法完全统一，则由裁判取其中多数人的意见”.
MAJORITY = "如果意见无法完全统一，则由裁判取其中多数人的意见"


class XRules(RuleSet):
    """标准游戏规则（X游戏）: night kill and check, 遗言 for the first deaths, the staged ties.

    Decision (docs/rules/x.md, “In the commands”): each vote of a tie's procedure
    is one recorded tally of the round; the stage it reached is kept in the game
    file with it.
    """

    NAME = NAME
    ROLES = ROLES
    POWERS = POWERS
    TALLY_POLICY = TALLY_POLICY
    VOTE_RULES = VOTE_RULES
    JUDGE_OUTS = JUDGE_OUTS

    # 注意事项 6) “游戏中严禁亮牌”; 3.16 the dead leave after 遗言 without showing a card.
    REVEAL_CAMP = False
    night_options = frozenset({"kill", "check"})
    teams = (frozenset({KILLER}), frozenset({POLICE}))

    def table(self) -> list[dict]:
        """Every row of the role table."""
        return table()

    def table_row(self, players: int) -> dict:
        """The role table's row for ``players`` (8–16)."""
        return table_row(players)

    def summary(self, players: int | None = None) -> list[str]:
        """The X rules in Chinese lines."""
        return summary(players)

    def deal(self, seats: Iterable[int], rng: random.Random) -> dict[int, str]:
        """3.1: roles by seat, shuffled with ``rng``."""
        return deal(seats, rng)

    def camp(self, role: str | None) -> str | None:
        """杀手 is its own side; 警察 and 平民 win together."""
        return camp(role)

    def start(self, players: Sequence[Player]) -> XState:
        """The dealt roles against the table."""
        return replace(new_game(dealt_roles(players)), deaths=out_at_start(players))

    def night(
        self,
        state: XState,
        choice: NightChoice,
        night_no: int,
        rights: NightRights | None = None,
    ) -> NightPlay:
        """3.3–3.16: the required kill and the police's check, answered by a gesture."""
        result = resolve_night(state, choice.required_kill(), choice.single_check())
        answer = result.feedback
        checks = () if answer is None else (Check(answer.seat, answer.identity, answer.gesture),)
        play = NightPlay(result.state, (result.victim,), {}, posts=result.posts, checks=checks)
        return with_document(play, night_no)

    def night_skills(
        self, state: XState, rights: NightRights | None = None
    ) -> tuple[NightSkill, ...]:
        """3.6 and 3.11: the living killers kill, the living police check, each team as
        one by majority (``team_choice``)."""
        return (
            NightSkill("kill", state.holders(KILLER), "majority", MAJORITY),
            NightSkill("check", state.holders(POLICE), "majority", MAJORITY),
        )

    def check_first_kill(self, victim: str, previous: dict[str, Any] | None) -> None:
        """注意事项 8): not the previous X game's first victim (by forum name)."""
        if previous is not None and previous.get("rules") == NAME:
            check_first_kill(victim, previous.get("first_victim"))

    def vote_out(self, state: XState, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """3.19: out after 遗言 while they last."""
        (seat,) = seats
        result = vote_out(state, seat)
        return OutPlay(result.state, seats, posts=result.posts)

    def judge_out(self, state: XState, seat: int, reason: str) -> OutPlay:
        """认匪, 误睁眼, a broken rule: out as by the vote, 遗言 while they last, no card."""
        result = judge_out(state, seat, reason)
        return OutPlay(result.state, (seat,), posts=result.posts)

    def surrender(self, state: XState, seat: int) -> GameOver:
        """注意事项 5) 投降: the last 警察 or 杀手 gives up; his side loses."""
        return surrender(state, seat)

    def day(
        self,
        state: XState,
        stage: Stage,
        outcome: Outcome,
        round_no: int,
        knife: KnifeCount | None,
    ) -> DayStep:
        """4.5) ``tie_stage`` over the round's votes: out, the next re-vote, or a draw."""
        step = tie_stage(TieStage(stage.kind, stage.candidates), outcome)
        if step.out is not None:
            return self.out_step(state, stage, (step.out,), round_no)
        following = step.stage
        return DayStep(
            stage,
            next=None if following is None else Stage(following.kind, following.tied),
            posts=step.posts,
            over=GameOver(None, step.posts[-1]) if step.draw else None,
        )

    def verdict(self, state: XState) -> GameOver | None:
        """4．游戏胜负判定方法."""
        return check_win(state)
