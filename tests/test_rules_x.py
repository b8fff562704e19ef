"""The X game rules (标准游戏规则（X游戏）, docs/rules/x.md), one rule at a time.

The standard game here is the seed's own example, 12 players: seats 1–3 警察,
4–6 杀手, 7–12 平民.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from killmod.core.errors import BadInput
from killmod.core.model import Outcome
from killmod.rules import RULE_SETS as RULES
from killmod.rules import rule_set, x
from killmod.rules.policy import TallyPolicy
from killmod.rules.shared import feedback, team_choice
from killmod.rules.x import (
    CIVILIAN,
    KILLER,
    POLICE,
    VOTE,
    TieStage,
    XState,
    check_first_kill,
    check_win,
    first_kill_allowed,
    last_words_post,
    new_game,
    resolve_night,
    table_row,
    tie_stage,
    vote_out,
)

P1, P2, P3, K1, K2, K3, C1, C2, C3, C4, C5, C6 = range(1, 13)
POLICE_SEATS = (P1, P2, P3)
KILLER_SEATS = (K1, K2, K3)
CIVILIAN_SEATS = (C1, C2, C3, C4, C5, C6)
SEATS = (
    dict.fromkeys(POLICE_SEATS, POLICE)
    | dict.fromkeys(KILLER_SEATS, KILLER)
    | dict.fromkeys(CIVILIAN_SEATS, CIVILIAN)
)


def game(*dead: int) -> XState:
    """The 12-player game with ``dead`` out, in that order."""
    return XState(SEATS, dead)


def rejected(call: Callable[..., object], *args: object) -> str:
    """The Chinese message of the ``BadInput`` that ``call(*args)`` raises (exit code 2)."""
    with pytest.raises(BadInput) as caught:
        call(*args)
    assert caught.value.exit_code == 2
    return caught.value.message


def eliminated(seat: int) -> Outcome:
    return Outcome("eliminated", seat=seat)


def tie(*seats: int) -> Outcome:
    return Outcome("tie", seats=seats)


# ---------------------------------------------------------------- 1. 参加人数及警匪配置


@pytest.mark.parametrize(
    ("players", "police", "civilians"),
    [
        (8, 2, 4),
        (9, 2, 5),
        (10, 2, 6),
        (11, 3, 5),
        (12, 3, 6),
        (14, 3, 8),
        (15, 4, 7),
        (16, 4, 8),
    ],
)
def test_police_and_killers_by_player_count(players, police, civilians):
    """1. “8~10人为2警2匪，11~14人为3警3匪，15~16人为4警4匪配置”; the rest are 平民."""
    assert table_row(players) == {
        "players": players,
        "civilians": civilians,
        "police": police,
        "killers": police,
        "last_words": police,
    }


@pytest.mark.parametrize("players", [0, 7, 17, 25, "12", True])
def test_player_count_outside_eight_to_sixteen_is_rejected(players):
    """1. “参加人数限定在8~16人范围内”."""
    assert "8–16 人局" in rejected(table_row, players)


def test_table_lists_every_size():
    assert [row["players"] for row in x.table()] == list(range(8, 17))


def test_deal_follows_the_table_and_the_seed():
    """3.1 the judge shuffles the cards; the same seed deals the same table."""
    first = x.deal(range(1, 13), random.Random(7))
    assert first == x.deal(range(1, 13), random.Random(7))
    assert sorted(first.values()).count(POLICE) == 3
    assert list(first.values()).count(KILLER) == 3
    assert new_game(first).roles == first


def test_new_game_rejects_a_deal_that_is_not_the_row():
    roles = dict(SEATS) | {C1: KILLER}
    assert "杀手 4 名（应为 3）" in rejected(new_game, roles)


# ---------------------------------------------------------------- the module's interface


def test_rule_set_interface():
    assert x.NAME == "x"
    assert x.NAME in RULES
    assert x.ROLES == ("警察", "杀手", "平民")


@pytest.mark.parametrize(
    ("role", "expected"), [(POLICE, "警民"), (CIVILIAN, "警民"), (KILLER, "杀手"), (None, None)]
)
def test_civilians_win_and_lose_with_the_police(role, expected):
    """4.4) “平民的胜负与警察相同”."""
    assert x.camp(role) == expected


def test_unknown_role_is_rejected():
    assert "「水民」不是 X 游戏的身份" in rejected(x.camp, "水民")


def test_non_voters_abstain_and_are_not_warned():
    """3.18 “每个人只有一次投票机会，也可弃权不投”."""
    policy = x.TALLY_POLICY
    assert policy == TallyPolicy(
        non_voter="none", warn_non_voters=False, ballots="first", follow_invalid=True
    )
    assert policy.violations == frozenset()  # 1.2's 犯规 of 二.5 is not X's
    assert rule_set("x").warning_action(2, 0) == "warn"


def test_no_card_is_shown_when_a_player_is_out():
    """注意事项 6) “游戏中严禁亮牌”."""
    assert rule_set("x").REVEAL_CAMP is False
    assert rule_set("x").announced_camp(KILLER) is None


def test_summary_is_chinese_and_shows_the_row():
    lines = x.summary(12)
    assert lines[0].startswith("X 游戏")
    assert lines[-1] == "12 人局：警察 3 人，杀手 3 人，平民 6 人；前 3 个死者有遗言。"


# ---------------------------------------------------------------- the night


def test_killers_majority_wins_and_silence_agrees():
    """3.6 “由裁判取其中多数人的意见（不给任何意见者将被裁判视为同意其他人的意见）”."""
    assert team_choice({K1: C1, K2: C1, K3: C2}, KILLER_SEATS) == C1
    assert team_choice({K1: C2, K2: None}, KILLER_SEATS) == C2


def test_killers_split_evenly_must_agree():
    """Decision: a tie among the killers' opinions is no majority (注意事项 7)."""
    assert "意见平票" in rejected(team_choice, {K1: C1, K2: C2}, KILLER_SEATS)
    assert "没有人给出意见" in rejected(team_choice, {K1: None}, KILLER_SEATS)


def test_only_the_team_gives_opinions():
    assert "7号不在本方" in rejected(team_choice, {C1: P1}, KILLER_SEATS)


def test_night_kill_is_announced_with_last_words():
    """3.15 “裁判宣布这一轮谁被杀，同时，裁判指示被杀者留遗言”."""
    result = resolve_night(game(), kill=C1, check=K1)
    assert result.victim == C1
    assert result.state.deaths == (C1,)
    assert result.posts == ("天亮了，请大家睁眼。", "本轮被杀的是7号。", "请留第1个遗言。")


@pytest.mark.parametrize(
    ("target", "identity", "gesture"),
    [(K1, "杀手", "竖起右手拇指"), (C1, "平民", None), (P2, "警察", None)],
)
def test_police_learn_the_exact_identity(target, identity, gesture):
    """3.11 “由裁判给出相应的手势……来告知警察被指认人的准确身份”."""
    result = resolve_night(game(), kill=C2, check=target)
    assert result.feedback is not None
    assert result.feedback.identity == identity
    assert result.feedback.gesture == gesture
    assert f"{target}号的身份是{identity}" in result.feedback.text


def test_killer_gesture_is_the_thumb():
    """入门技巧 1) “裁判给了杀手的手势（同时可模仿裁判手势竖起右手拇指配合发言）”."""
    assert feedback(K1, KILLER).text == "请看裁判手势（竖起右手拇指）：4号的身份是杀手。"


def test_check_reads_the_card_of_the_player_killed_the_same_night():
    """Decision: kill and check are the same night; the check still answers."""
    result = resolve_night(game(), kill=C1, check=C1)
    assert result.feedback is not None and result.feedback.identity == CIVILIAN


def test_the_check_is_optional():
    """Decision: a check not made gives no feedback."""
    assert resolve_night(game(), kill=C1).feedback is None


@pytest.mark.parametrize(
    ("state", "kill", "check", "message"),
    [
        (game(C1), C1, None, "7 号已出局，不能被杀"),
        (game(), 13, None, "没有 13 号玩家"),
        (game(C1), C2, C1, "7 号已出局，不能被验"),
        (game(P1, P2, P3), C1, C2, "警察已全部出局"),
        (game(K1, K2, K3), C1, None, "杀手已全部出局"),
    ],
)
def test_illegal_night_is_rejected(state, kill, check, message):
    assert message in rejected(resolve_night, state, kill, check)


# ---------------------------------------------------------------- 遗言


@pytest.mark.parametrize(
    ("death_no", "police", "post"),
    [
        (1, 3, "请留第1个遗言。"),
        (2, 3, "请留第2个遗言。"),
        (3, 3, "请留第3个（最后一个）遗言。"),
        (4, 3, None),
        (2, 2, "请留第2个（最后一个）遗言。"),
        (3, 2, None),
        (4, 4, "请留第4个（最后一个）遗言。"),
    ],
)
def test_the_first_n_deaths_leave_last_words(death_no, police, post):
    """3.21 “留遗言人数与警匪人数相同……前面3个死人（包括被杀者和被公决者）可留遗言”."""
    assert last_words_post(death_no, police) == post


def test_last_words_count_night_and_day_deaths_together():
    """3.21 “（包括被杀者和被公决者）”: the 4th death of a 3-police game has none."""
    state = resolve_night(game(), kill=C1).state
    state = vote_out(state, C2).state
    state = resolve_night(state, kill=C3).state
    out = vote_out(state, K1)
    assert out.last_words is False
    assert out.posts == ("4号被公决出局。", "4号没有遗言。")


def test_third_death_is_the_last_last_words():
    out = vote_out(game(C1, C2), K1)
    assert out.last_words is True
    assert out.posts[-1] == "请留第3个（最后一个）遗言。"


# ---------------------------------------------------------------- 注意事项 8


@pytest.mark.parametrize(
    ("victim", "previous", "allowed"),
    [
        ("meer", None, True),
        ("meer", "nbe-1", True),
        ("meer", "meer", False),
        ("MEER", "meer", False),
        ("ｍｅｅｒ", "meer", False),
    ],
)
def test_no_same_first_round_victim_in_two_consecutive_games(victim, previous, allowed):
    """注意事项 8) “不允许连续两局第一轮杀同一个人” (by forum name, folded)."""
    assert first_kill_allowed(victim, previous) is allowed


def test_repeated_first_victim_is_rejected():
    assert "不允许连续两局第一轮杀同一个人" in rejected(check_first_kill, "meer", "meer")


# ---------------------------------------------------------------- the vote and its ties


def test_most_votes_is_out():
    """3.19 “得票最多者视为被公决出局”."""
    step = tie_stage(VOTE, eliminated(K2))
    assert (step.stage, step.out, step.draw) == (None, K2, False)


def test_first_tie_the_tied_speak_and_are_voted_again():
    """4.5) “由平票者进行再一轮的发言，发言过后再次对平票人进行投票，得票多的人出局”."""
    step = tie_stage(VOTE, tie(C2, K1))
    assert step.stage == TieStage("tied_revote", (K1, C2))
    assert step.out is None and not step.draw
    assert step.posts == ("4号与8号平票。", "请4号与8号开始辩。", "现在对4号与8号再次投票。")


def test_three_way_tie_uses_the_count_phrase():
    """Judge's phrase 17 “现在有N人票数相同”."""
    step = tie_stage(VOTE, tie(1, 4, 7))
    assert step.posts[0] == "现在有3人票数相同：1号、4号、7号。"


def test_second_tie_the_others_speak_then_vote_again():
    """4.5) “若再次出现平票，则由平票人以外的其他人逐一发言，之后投票，得票多的人出局”."""
    step = tie_stage(TieStage("tied_revote", (K1, C2)), tie(K1, C2))
    assert step.stage == TieStage("final_revote", (K1, C2))
    assert step.posts[1] == "请除4号与8号以外的人开始发言。"


def test_third_tie_is_a_forced_draw():
    """4.5) “若仍然平票，则本局将被系统硬性判定为平局”."""
    step = tie_stage(TieStage("final_revote", (K1, C2)), tie(K1, C2))
    assert (step.stage, step.out, step.draw) == (None, None, True)
    assert step.posts == ("仍然平票，本局硬性判定为平局。",)


@pytest.mark.parametrize("kind", ["tied_revote", "final_revote"])
def test_a_revote_that_picks_one_puts_them_out(kind):
    step = tie_stage(TieStage(kind, (K1, C2)), eliminated(C2))
    assert (step.stage, step.out, step.draw) == (None, C2, False)


def test_a_revote_is_among_the_players_tied_before_it():
    """Decision: each re-vote narrows to the players tied in the vote before it."""
    step = tie_stage(TieStage("tied_revote", (1, 4, 7)), tie(4, 7))
    assert step.stage == TieStage("final_revote", (4, 7))


def test_a_revote_for_someone_not_tied_is_rejected():
    assert "9号不在其中" in rejected(tie_stage, TieStage("tied_revote", (K1, C2)), eliminated(C3))


def test_no_vote_in_a_revote_leaves_everyone_tied():
    """Decision: in a re-vote, no vote at all is a tie of everyone still tied."""
    step = tie_stage(TieStage("tied_revote", (K1, C2)), Outcome("none"))
    assert step.stage == TieStage("final_revote", (K1, C2))


def test_no_vote_at_all_puts_nobody_out():
    """Decision: the day's first vote with no vote at all: nobody is out."""
    step = tie_stage(VOTE, Outcome("none"))
    assert (step.stage, step.out, step.draw) == (None, None, False)


def test_voting_out_a_dead_player_is_rejected():
    assert "7 号已出局" in rejected(vote_out, game(C1), C1)


# ---------------------------------------------------------------- 4. 游戏胜负判定方法


@pytest.mark.parametrize(
    ("dead", "winner", "reason"),
    [
        ((), None, None),
        (KILLER_SEATS, "警民", "杀手全部出局"),
        (POLICE_SEATS, "杀手", "警察全部出局"),
        (CIVILIAN_SEATS, None, "平民全部出局，平局"),
        ((*CIVILIAN_SEATS[:5], *KILLER_SEATS), "警民", "杀手全部出局"),
    ],
)
def test_win_lose_and_draw(dead, winner, reason):
    """4.1) 杀手全部死去 → 警察胜; 4.2) 警察全部死去 → 杀手胜; 4.3) 平民全部死去 → 平局."""
    verdict = check_win(game(*dead))
    if reason is None:
        assert verdict is None
    else:
        assert verdict is not None
        assert verdict.winner == winner
        assert reason in verdict.reason


def test_civilians_all_out_is_a_draw_even_with_police_alive():
    """4.3) “平民全部死去为平局”."""
    verdict = check_win(game(*CIVILIAN_SEATS))
    assert verdict is not None and verdict.draw
    assert verdict.as_json() == {"winner": None, "draw": True, "reason": "平民全部出局，平局。"}


# ---------------------------------------------------------------- the judge's own decisions


def test_a_confession_is_out_as_by_the_vote_with_last_words_in_death_order():
    """用语 22 “某某认匪，不用投票出局”; 3.21 遗言 for the first N deaths, every death counted."""
    state = game(C1)
    result = x.judge_out(state, K1, "confessed")
    assert result.posts == (f"{K1}号认匪，不用投票出局。", "请留第2个遗言。")
    assert result.state.deaths == (C1, K1)
    assert x.judge_out(state, C2, "peeked").posts[0] == f"{C2}号误睁眼出局。"
    assert "没有「surrender」这种出局" in rejected(x.judge_out, state, K1, "surrender")


def test_surrender_only_by_the_last_of_his_role():
    """注意事项 5) “己方尚有同伴活着的时候严禁投降”; 术语 25 “一旦投降，则其一方自动为输”."""
    assert "严禁投降" in rejected(x.surrender, game(), K1)
    assert x.surrender(game(K2, K3), K1).winner == x.GOOD_CAMP
    assert x.surrender(game(P1, P2), P3).winner == x.KILLER_CAMP
    assert "平民不能投降" in rejected(x.surrender, game(), C1)
