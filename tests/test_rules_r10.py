"""The 1.0 rules (初级游戏 1.0版, docs/rules/1.0.md), one rule at a time.

Also the day procedure 1.0 shares with 2.0: pointing (指认) and the knife
(动刀) count a forum tally uses. The standard game is the seed's example,
8 players: seats 1–2 杀手, 3–8 平民.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from killmod.core.errors import BadInput
from killmod.core.model import Outcome
from killmod.rules import RULE_SETS as RULES
from killmod.rules import r10, rule_set
from killmod.rules.policy import TallyPolicy
from killmod.rules.r10 import (
    CIVILIAN,
    KILLER,
    R10State,
    check_win,
    count_knives,
    knife_post,
    new_game,
    table_row,
    vote_out,
)
from killmod.rules.shared import POINT, PointStage, knife_count, pointing_step, seat_order

K1, K2, C1, C2, C3, C4, C5, C6 = range(1, 9)
SEATS = {K1: KILLER, K2: KILLER} | dict.fromkeys((C1, C2, C3, C4, C5, C6), CIVILIAN)
LIVING = tuple(SEATS)


def game(*out: int) -> R10State:
    """The 8-player game with ``out`` gone, in round order (cards not shown)."""
    return R10State(SEATS, out)


def rejected(call: Callable[..., object], *args: object) -> str:
    """The Chinese message of the ``BadInput`` that ``call(*args)`` raises (exit code 2)."""
    with pytest.raises(BadInput) as caught:
        call(*args)
    assert caught.value.exit_code == 2
    return caught.value.message


# ---------------------------------------------------------------- 1. 参加人数以及角色配置


@pytest.mark.parametrize(
    ("players", "killers", "options"),
    [(6, 2, [2]), (7, 2, [2, 3]), (8, 2, [2, 3]), (9, 3, [2, 3]), (10, 3, [2, 3])],
)
def test_killer_count_by_player_count(players, killers, options):
    """1. “人数：6-10人 角色：其中杀手2-3人，剩余则是平民”; Decision: 6–8 → 2, 9–10 → 3."""
    assert table_row(players) == {
        "players": players,
        "civilians": players - killers,
        "police": 0,
        "killers": killers,
        "killer_options": options,
    }


def test_the_judge_may_choose_the_other_killer_count():
    assert table_row(8, killers=3)["civilians"] == 5


def test_six_players_cannot_deal_three_killers():
    """Decision: 3 killers against 3 civilians would have won at the deal (5.1)."""
    assert "6 人局的杀手只能是 2 人" in rejected(table_row, 6, 3)


@pytest.mark.parametrize("players", [5, 11, 0, "8"])
def test_player_count_outside_six_to_ten_is_rejected(players):
    assert "6–10 人局" in rejected(table_row, players)


def test_table_lists_every_size():
    assert [row["players"] for row in r10.table()] == list(range(6, 11))


def test_deal_follows_the_table_and_the_seed():
    """4.1 “每个玩家从裁判手中抽取一张牌”; the same seed deals the same cards."""
    first = r10.deal(range(1, 9), random.Random(3))
    assert first == r10.deal(range(1, 9), random.Random(3))
    assert list(first.values()).count(KILLER) == 2
    assert new_game(first).roles == first


def test_new_game_rejects_a_deal_outside_the_table():
    assert "6 人局的杀手只能是 2 人" in rejected(
        new_game, {1: KILLER, 2: KILLER, 3: KILLER, 4: CIVILIAN, 5: CIVILIAN, 6: CIVILIAN}
    )


# ---------------------------------------------------------------- the module's interface


def test_rule_set_interface():
    assert r10.NAME == "1.0"
    assert r10.NAME in RULES
    assert r10.ROLES == ("杀手", "平民")


@pytest.mark.parametrize(("role", "expected"), [(KILLER, "杀手"), (CIVILIAN, "平民"), (None, None)])
def test_camps(role, expected):
    """2. 游戏原则: 杀手 and 平民 are the two sides."""
    assert r10.camp(role) == expected


def test_there_are_no_police_in_one_point_zero():
    assert "「警察」不是 1.0 初级游戏的身份" in rejected(r10.camp, "警察")


def test_non_pointers_are_not_counted_nor_warned():
    """Decision: the text sets no self vote and no penalty for not pointing."""
    policy = r10.TALLY_POLICY
    assert policy == TallyPolicy(non_voter="none", warn_non_voters=False)
    assert rule_set("1.0").warning_action(3, 0) == "warn"


def test_no_night_kill():
    """Decision: 4.5 the killers only “确认同伴”."""
    assert not rule_set("1.0").night_options
    assert rule_set("1.0").night_of_round(1) is None


def test_summary_is_chinese_and_shows_the_row():
    lines = r10.summary(8)
    assert lines[0].startswith("1.0 初级游戏")
    assert lines[-1] == "8 人局：杀手 2 人（可选 2或3 人），平民 6 人。"


# ---------------------------------------------------------------- 4.7–4.9 pointing


def test_the_most_pointed_defends():
    """4.8 “让被投票票数最多1名玩家出来辩论发言”."""
    step = pointing_step(POINT, Outcome("eliminated", seat=C2))
    assert (step.defender, step.stage) == (C2, None)
    assert step.posts == ("4号被指认最多，请4号出来辩解。",)


def test_a_tie_is_pointed_again_among_the_tied():
    """4.9 “如果有出现平票情况，则以平票者为对象再进行一轮选票。这轮选票中必须选出一名玩家”."""
    step = pointing_step(POINT, Outcome("tie", seats=(C3, K1)))
    assert step.defender is None
    assert step.stage == PointStage("repoint", (K1, C3))


def test_the_repoint_picks_the_defender():
    step = pointing_step(PointStage("repoint", (K1, C3)), Outcome("eliminated", seat=K1))
    assert step.defender == K1


@pytest.mark.parametrize("outcome", [Outcome("tie", seats=(K1, C3)), Outcome("none")])
def test_a_repoint_without_one_player_is_void(outcome):
    """4.9 “否则裁判有权宣布废票，将重新进行新一轮投票”."""
    step = pointing_step(PointStage("repoint", (K1, C3)), outcome)
    assert (step.defender, step.stage) == (None, POINT)
    assert "废票" in step.posts[0]


def test_nobody_pointed_is_void_too():
    """Decision: a pointing round in which nobody points is void."""
    step = pointing_step(POINT, Outcome("none"))
    assert (step.defender, step.stage) == (None, POINT)


def test_a_repoint_outside_the_tied_is_rejected():
    message = rejected(
        pointing_step, PointStage("repoint", (K1, C3)), Outcome("eliminated", seat=2)
    )
    assert "2号不在其中" in message


@pytest.mark.parametrize(
    ("start", "clockwise", "order"),
    [(3, True, (3, 5, 8, 1)), (3, False, (3, 1, 8, 5)), (1, False, (1, 8, 5, 3))],
)
def test_seat_order_around_the_table(start, clockwise, order):
    """Decision: seats sit in seat-number order; 顺时针 is ascending, 逆时针 descending."""
    assert seat_order((1, 3, 5, 8), start, clockwise) == order


# ---------------------------------------------------------------- 4.10–4.11 the knife


@pytest.mark.parametrize(
    ("knives", "living", "out", "needed"),
    [
        (4, 8, True, 0),  # 7 others: more than half of 7 is 4
        (3, 8, False, 1),
        (4, 9, False, 1),  # 8 others: exactly half is not more than half
        (5, 9, True, 0),
        (3, 6, True, 0),  # 5 others
        (2, 6, False, 1),
    ],
)
def test_out_with_more_than_half_of_the_others_as_in_2_0(knives, living, out, needed):
    """4.10 “超过半数以上，则该玩家将直接出局”; Decision: half of the living players other than
    the defender, whose own hand never counts (docs/rules/1.0.md, the knife's arithmetic)."""
    seats = tuple(range(1, living + 1))
    defender = seats[-1]
    ballots = dict.fromkeys(seats[:knives], "knife") | dict.fromkeys(seats[knives:-1], "pass")
    count = count_knives(ballots, seats, defender)
    assert count.base == living - 1
    assert count.out is out
    assert count.needed == needed


def test_the_docs_example_eight_players_four_knives_put_the_defender_out():
    """docs/rules/1.0.md: 8 alive, defender 3号, 7 others: 4 knives out, 3 not."""
    four = count_knives(dict.fromkeys((K1, K2, C2, C3), "knife"), LIVING, C1)
    three = count_knives(dict.fromkeys((K1, K2, C2), "knife"), LIVING, C1)
    assert (four.base, four.threshold, four.out) == (7, 4, True)
    assert (three.threshold, three.out, three.needed) == (4, False, 1)


def test_the_defender_never_knifes_himself():
    """Decision: the defender's own hand is ignored."""
    count = count_knives({C1: "knife", K1: "knife"}, LIVING, C1)
    assert count.ignored == (C1,)
    assert count.knives == (K1,)


def test_silent_players_count_as_pass_and_the_post_says_the_gap_in_words():
    """The post speaks the rule text's words (超过半数), never a forum label like L-2."""
    count = count_knives({K1: "knife", K2: "knife"}, LIVING, C1)
    assert count.silent == (C2, C3, C4, C5, C6)
    assert (count.threshold, count.needed) == (4, 2)
    assert not count.settled
    assert count.text == (
        "动刀 2 人，过 0 人，未表态 5 人（按过计）；除辩解者外存活 7 人，超过半数须至少 4 刀。"
        "动刀未超过半数：3号存活。"
    )
    assert "L-" not in count.text


def test_a_count_that_cannot_reach_the_threshold_is_settled():
    ballots = {K1: "knife", K2: "pass", C2: "pass", C3: "pass", C4: "pass"}
    count = count_knives(ballots, LIVING, C1)
    assert count.settled and not count.out
    assert count.text.endswith("动刀未超过半数：3号存活。")


def test_not_out_points_again_counterclockwise_from_the_defender():
    """4.11 “如果没有超过半数，那将从该名玩家开始按逆时针方向重新开始一轮投票”."""
    count = count_knives(dict.fromkeys((K1, K2, C2, C3, C4, C5, C6), "pass"), LIVING, C1)
    assert knife_post(count).endswith("请从3号开始按逆时针方向重新指认。")


def test_knife_count_as_json():
    count = count_knives({K1: "knife"}, LIVING, C1)
    assert count.as_json() == {
        "defender": C1,
        "base": 7,
        "threshold": 4,
        "knives": [K1],
        "passes": [],
        "silent": [K2, C2, C3, C4, C5, C6],
        "ignored": [],
        "out": False,
        "settled": False,
        "needed": 3,
    }


@pytest.mark.parametrize(
    ("ballots", "living", "defender", "message"),
    [
        ({K1: "kill"}, LIVING, C1, "应为 knife（动刀）或 pass（过）"),
        ({9: "knife"}, LIVING, C1, "9 号不在存活名单里"),
        ({}, LIVING, 9, "辩解者 9 号不在存活名单里"),
    ],
)
def test_bad_knife_ballots_are_rejected(ballots, living, defender, message):
    assert message in rejected(count_knives, ballots, living, defender)


def test_one_shared_knife_count_for_1_0_and_2_0():
    """1.0 and 2.0 take the half of the same players: the living other than the defender."""
    ballots = dict.fromkeys((1, 2, 3, 4), "knife")
    living = tuple(range(1, 9))
    assert knife_count(ballots, living, 8) == count_knives(ballots, living, 8)
    assert knife_count(ballots, living, 8).out


# ---------------------------------------------------------------- 4.10–4.14 reveals


def test_round_one_out_shows_no_card_and_leaves_last_words():
    """4.10 “直接出局并可留下遗言，然后退出本局游戏。（不可亮底牌）”."""
    out = vote_out(game(), C1)
    assert out.shown == ()
    assert out.posts == ("第 1 轮：3号出局（不亮底牌），请留遗言。",)
    assert out.state.out == (C1,)


def test_round_two_out_shows_the_card():
    """4.13 “超过半数将直接出局并将自己的真实身份告诉大家。出局无论什么身份均可留下遗言”."""
    out = vote_out(game(C1), C2)
    assert out.shown == ((C2, CIVILIAN),)
    assert out.posts == ("第 2 轮：4号出局，亮底牌：平民。请留遗言。",)


def test_a_killer_in_round_two_makes_the_first_out_show_too():
    """4.14 “如果第二轮出局的玩家亮出底牌是杀手，则第一个出局者需亮出底牌”."""
    out = vote_out(game(C1), K1)
    assert out.shown == ((K1, KILLER), (C1, CIVILIAN))
    assert out.posts[1] == "本轮出局者是杀手，第一个出局的3号需亮底牌：平民。"
    assert out.state.revealed == {K1, C1}


def test_two_killers_shown_end_the_game_for_the_civilians():
    """4.14 “如第一个出局者的底牌也是杀手，则游戏结束平民获胜”."""
    out = vote_out(game(K1), K2)
    assert out.shown == ((K2, KILLER), (K1, KILLER))
    verdict = check_win(out.state)
    assert verdict is not None and verdict.winner == "平民"


def test_a_later_killer_shows_the_first_out_card_once():
    """Decision: round three on is “流程与第二轮相同”, so a killer there shows the first too."""
    out = vote_out(game(C1, C2), K1)
    assert out.shown == ((K1, KILLER), (C1, CIVILIAN))
    again = vote_out(R10State(SEATS, (C1, C2, K1), {C2, K1, C1}), C3)
    assert again.shown == ((C3, CIVILIAN),)


def test_a_civilian_in_round_two_leaves_the_first_card_hidden():
    """4.14 “如果……第二轮出局的玩家亮出的底牌是平民牌，则游戏进入第三轮”."""
    out = vote_out(game(C1), C2)
    assert C1 not in out.state.revealed


@pytest.mark.parametrize(("state", "seat"), [(game(C1), C1), (game(), 9)])
def test_out_twice_or_unknown_is_rejected(state, seat):
    rejected(vote_out, state, seat)


# ---------------------------------------------------------------- 5. 胜利条件


@pytest.mark.parametrize(
    ("out", "winner"),
    [
        ((), None),
        ((C1, C2, C3), None),
        ((C1, C2, C3, C4), "杀手"),  # 2 killers, 2 civilians
        ((K1, C1, C2, C3, C4, C5), "杀手"),  # 1 killer, 1 civilian
        ((K1, K2), "平民"),
        ((C1, K1, C2, K2), "平民"),
    ],
)
def test_killers_win_at_parity_civilians_when_killers_are_out(out, winner):
    """5.1 “活着的杀手人数与平民人数相同……判为杀手胜利”; 5.2 平民 “将杀手全部推出局”."""
    verdict = check_win(game(*out))
    assert (verdict.winner if verdict else None) == winner


def test_parity_verdict_says_why():
    verdict = check_win(game(C1, C2, C3, C4))
    assert verdict is not None
    assert verdict.reason == "存活杀手 2 人，平民 2 人，杀手胜利。"


def test_with_three_killers_two_shown_killers_do_not_end_the_game():
    """Decision: 4.14's “游戏结束平民获胜” is the 2-killer example; the game ends at 5.2."""
    roles = {1: KILLER, 2: KILLER, 3: KILLER} | dict.fromkeys(range(4, 11), CIVILIAN)
    out = vote_out(R10State(roles, (1,)), 2)
    assert out.shown == ((2, KILLER), (1, KILLER))
    assert check_win(out.state) is None
