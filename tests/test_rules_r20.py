"""The 2.0 rules (标准游戏 2.0版, docs/rules/2.0.md), one rule at a time.

The standard game is the seed's example, 12 players: seats 1–3 警察,
4–6 杀手, 7–12 平民.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from killmod.core.errors import BadInput
from killmod.core.model import Outcome
from killmod.rules import RULE_SETS as RULES
from killmod.rules import r20, rule_set, shared
from killmod.rules.policy import TallyPolicy
from killmod.rules.r20 import (
    CIVILIAN,
    KILLER,
    POINT,
    POLICE,
    R20State,
    check_win,
    count_knives,
    knife_post,
    new_game,
    night_team,
    pointing_step,
    resolve_night,
    side_verdict,
    suicide,
    table_row,
    team_choice,
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
LIVING = tuple(SEATS)


def game(*dead: int) -> R20State:
    """The 12-player game with ``dead`` out, in that order."""
    return R20State(SEATS, dead)


def rejected(call: Callable[..., object], *args: object) -> str:
    """The Chinese message of the ``BadInput`` that ``call(*args)`` raises (exit code 2)."""
    with pytest.raises(BadInput) as caught:
        call(*args)
    assert caught.value.exit_code == 2
    return caught.value.message


# ---------------------------------------------------------------- 1. 参加人数及警匪配置


@pytest.mark.parametrize(
    ("players", "police"), [(12, 3), (13, 3), (14, 3), (15, 3), (16, 4), (17, 4), (18, 4)]
)
def test_three_or_four_police_and_as_many_killers(players, police):
    """1. “玩家数在12~15人为3警3匪配置，16~18人为4警4匪配置”."""
    assert table_row(players) == {
        "players": players,
        "civilians": players - 2 * police,
        "police": police,
        "killers": police,
    }


@pytest.mark.parametrize("players", [11, 19, 8])
def test_player_count_outside_twelve_to_eighteen_is_rejected(players):
    """1. “参加人数限定在12~18人范围内”."""
    assert "12–18 人局" in rejected(table_row, players)


def test_table_lists_every_size():
    assert [row["players"] for row in r20.table()] == list(range(12, 19))


def test_deal_follows_the_table_and_the_seed():
    first = r20.deal(range(1, 17), random.Random(5))
    assert first == r20.deal(range(1, 17), random.Random(5))
    assert list(first.values()).count(POLICE) == 4
    assert new_game(first).roles == first


def test_new_game_rejects_a_wrong_deal():
    assert "警察 2 名（应为 3）" in rejected(new_game, dict(SEATS) | {P1: CIVILIAN})


# ---------------------------------------------------------------- the module's interface


def test_rule_set_interface():
    assert r20.NAME == "2.0"
    assert r20.NAME in RULES
    assert r20.ROLES == ("警察", "杀手", "平民")


@pytest.mark.parametrize(
    ("role", "expected"), [(POLICE, "警民"), (CIVILIAN, "警民"), (KILLER, "杀手"), (None, None)]
)
def test_civilians_win_and_lose_with_the_police(role, expected):
    """三 d) “平民的胜负与警察相同，即，警察胜则平民胜，警察负则平民负”."""
    assert r20.camp(role) == expected


def test_variant_roles_belong_to_the_variants_module():
    assert "「鬼匪」不是 2.0 标准游戏的身份" in rejected(r20.camp, "鬼匪")


def test_non_pointers_are_not_counted_nor_warned():
    """Decision: 3.k sets no self vote and no penalty; silent players in the knife count as 过."""
    policy = r20.TALLY_POLICY
    assert policy == TallyPolicy(non_voter="none", warn_non_voters=False)
    assert rule_set("2.0").warning_action(2, 0) == "warn"


def test_summary_is_chinese_and_shows_the_row():
    lines = r20.summary(16)
    assert lines[0].startswith("2.0 标准游戏")
    assert lines[-1] == "16 人局：警察 4 人，杀手 4 人，平民 8 人。"


# ---------------------------------------------------------------- 3.k–3.m the day


def test_the_most_pointed_defends():
    """3.l “被指票数最多者出来辩解” (the tie rule is 1.0's, docs/rules/2.0.md)."""
    assert pointing_step(POINT, Outcome("eliminated", seat=K1)).defender == K1
    assert pointing_step(POINT, Outcome("tie", seats=(K1, C1))).stage == shared.PointStage(
        "repoint", (K1, C1)
    )


@pytest.mark.parametrize(
    ("living", "knives", "out"),
    [
        (12, 6, True),  # 11 others: more than half is 6
        (12, 5, False),
        (11, 5, False),  # 10 others: 5 is exactly half
        (11, 6, True),
        (9, 5, True),  # 8 others
        (9, 4, False),
    ],
)
def test_out_with_more_than_half_of_the_others(living, knives, out):
    """3.m “当超过除去辩解者在内的半数游戏者动刀时，辩解者则被判为死亡”."""
    seats = tuple(range(1, living + 1))
    defender = seats[-1]
    count = count_knives(dict.fromkeys(seats[:knives], "knife"), seats, defender)
    assert count.base == living - 1
    assert count.out is out


def test_pass_when_less_than_half_and_point_again_clockwise():
    """3.m “以辩解者开始一圈未满半数人动刀时，辩解者则被判为存活……从辩解者开始顺时针从新指认”."""
    count = count_knives(dict.fromkeys((1, 2, 3, 4, 5), "knife"), LIVING, C6)
    assert not count.out
    assert count.needed == 1
    post = knife_post(count)
    assert post.startswith(
        "动刀 5 人，过 0 人，未表态 6 人（按过计）；除辩解者外存活 11 人，超过半数须至少 6 刀。"
    )
    assert post.endswith("请从12号开始按顺时针方向重新指认。")


def test_the_knife_count_is_the_shared_one():
    """One helper (shared.knife_count) serves 1.0 and 2.0."""
    ballots = {1: "knife", 2: "pass"}
    assert count_knives(ballots, LIVING, C6) == shared.knife_count(ballots, LIVING, C6)


def test_a_knifed_civilian_leaves_last_words():
    """3.n “当辩解者被判死亡时，此时辩解者可留遗言”."""
    out = vote_out(game(), C1)
    assert out.last_words is True
    assert out.posts == ("7号被判死亡。有遗言权利的辩解者请留遗言。",)


def test_cards_the_knifed_card_is_not_shown_and_the_post_is_the_same_for_a_killer():
    """f) “游戏中严禁亮牌（除杀手自杀外）”; 3.n “（杀手无此权利）”: Decision: no card, and
    the post offers 遗言 in the rule's words whatever the card, so it does not tell."""
    out = vote_out(game(), K1)
    assert out.last_words is False
    assert out.posts == ("4号被判死亡。有遗言权利的辩解者请留遗言。",)
    civilian = vote_out(game(), C1).posts[0]
    assert out.posts[0].replace("4号", "") == civilian.replace("7号", "")
    assert rule_set("2.0").REVEAL_CAMP is False
    assert rule_set("2.0").announced_camp(KILLER) is None


# ---------------------------------------------------------------- 注意事项 f), g) suicide


def test_a_killer_may_kill_himself_in_his_own_defence():
    """g) “杀手自杀时必须是轮到自己辩解时方可亮牌自杀”; Decision: the night follows."""
    result = suicide(game(), K2, defending=True)
    assert result.state.deaths == (K2,)
    assert (result.next, result.point_from) == ("night", None)
    assert result.posts[0] == "5号在辩解时亮牌自杀，翻牌：杀手。杀手没有遗言。"


def test_an_early_reveal_gives_up_and_pointing_restarts_from_him():
    """g) “提前亮牌者裁判将视为主动放弃游戏，将不进入黑夜，直接从翻牌者顺时针方向重新开始指认”."""
    result = suicide(game(), K2, defending=False)
    assert result.state.deaths == (K2,)
    assert (result.next, result.point_from) == ("point", K2)
    assert result.posts[1] == "不进入黑夜，从5号开始按顺时针方向重新指认。"


def test_only_a_killer_may_show_his_card():
    """f) “游戏中严禁亮牌（除杀手自杀外）”."""
    assert "只有杀手可以亮牌自杀" in rejected(suicide, game(), C1, True)


def test_the_last_killer_suicide_ends_the_game():
    result = suicide(game(K1, K2), K3, defending=True)
    verdict = check_win(result.state)
    assert verdict is not None and verdict.winner == "警民"


# ---------------------------------------------------------------- 3.p–3.w the night


def test_the_night_dead_is_shown_without_last_words():
    """3.w “此游戏者不能留遗言并翻牌判死亡”; 3.x pointing starts from the victim."""
    result = resolve_night(game(), kill=P1, check=K1)
    assert result.victim == P1
    assert result.shown == POLICE
    assert result.posts == (
        "天亮了，请大家睁眼。",
        "昨夜被杀的是1号，翻牌：警察。被杀者没有遗言。",
        "从1号开始按顺时针方向指认。",
    )


def test_the_police_see_the_gesture():
    """3.t–3.u “等待裁判给予手势”; Decision: the card is told, as in X."""
    result = resolve_night(game(), kill=C1, check=K3)
    assert result.feedback is not None
    assert result.feedback.identity == KILLER
    assert result.feedback.gesture == "竖起右手拇指"


def test_dead_killers_and_police_still_take_part_at_night():
    """注意事项 l) “特殊牌可继续参与夜晚的指认和暗杀”."""
    state = game(K1, P1)
    assert night_team(state, KILLER) == KILLER_SEATS
    assert night_team(state, POLICE) == POLICE_SEATS
    assert team_choice({K1: C1, K2: C1, K3: C2}, night_team(state, KILLER)) == C1


def test_majority_decides_a_split_team():
    """注意事项 i) “如此方玩家无法统一意见时，裁判将遵循少数服从多数”."""
    assert team_choice({P1: K1, P2: K2, P3: K2}, POLICE_SEATS) == K2


def test_night_team_is_only_killers_or_police():
    assert "夜晚只有杀手和警察行动" in rejected(night_team, game(), CIVILIAN)


@pytest.mark.parametrize(
    ("state", "kill", "check", "message"),
    [
        (game(C1), C1, None, "7 号已出局，不能被杀"),
        (game(), C1, 13, "没有 13 号玩家，不能被验"),
        (game(*POLICE_SEATS), C1, C2, "警察已全部出局"),
        (game(*KILLER_SEATS), C1, None, "杀手已全部出局"),
    ],
)
def test_illegal_night_is_rejected(state, kill, check, message):
    assert message in rejected(resolve_night, state, kill, check)


# ---------------------------------------------------------------- 三 游戏胜负判定方法


@pytest.mark.parametrize(
    ("dead", "winner", "reason"),
    [
        ((), None, None),
        (KILLER_SEATS, "警民", "杀手全部出局"),
        (POLICE_SEATS, "杀手", "警察全部出局"),
        (CIVILIAN_SEATS, "杀手", "平民全部出局"),
        ((K1, K2, C1, C2, C3, C4, C5), None, None),
    ],
)
def test_win_rules(dead, winner, reason):
    """三 a) 杀手全部死亡 → 警察胜; b) 警察全部死亡 → 杀手胜; c) 平民全部死亡 → 杀手胜."""
    verdict = check_win(game(*dead))
    if reason is None:
        assert verdict is None
    else:
        assert verdict is not None
        assert verdict.winner == winner
        assert reason in verdict.reason


def test_both_sides_wiped_out_together_is_a_draw():
    """Shared with the 花样玩法's rule D (plain 2.0 cannot get there: one death at a time)."""
    verdict = side_verdict(killers=0, police=0, civilians=3)
    assert verdict is not None and verdict.draw


def test_the_check_is_optional():
    """Decision (as X): a check not made gives no feedback."""
    assert resolve_night(game(), kill=C1).feedback is None
