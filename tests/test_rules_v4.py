"""The V4.0 rules (官方规则 S03 暨杀人游戏 V4.0, docs/rules/v4.md), one rule at a time.

Every test is a state, the night's actions (or a vote-out) and the expected
result. The standard game here is the 11-player row (04C13): seats 1–3 杀手,
4 警察, 5 医生, 6 狙击手, 7 花蝴蝶, 8 森林老人, 9–11 平民.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from killmod.core.errors import BadInput
from killmod.rules import RULE_SETS as RULES
from killmod.rules import rule_set, v4
from killmod.rules.policy import TallyPolicy
from killmod.rules.v4 import (
    BUTTERFLY,
    CIVILIAN,
    DOCTOR,
    KILLER,
    OLD_MAN,
    POLICE,
    ROLE_TABLE,
    SNIPER,
    Elimination,
    NightActions,
    NightResult,
    PoliceCheck,
    V4State,
    camp,
    check_win,
    counts_vote,
    decode,
    new_game,
    night_json,
    resolve_night,
    table_row,
    vote_out,
)

K1, K2, K3, POL, DOC, SNI, BUT, OLD, C1, C2, C3 = range(1, 12)
KILLERS = (K1, K2, K3)
CIVILIANS = (C1, C2, C3)
SPECIALS = (POL, DOC, SNI, BUT, OLD)
SEATS = {
    K1: KILLER,
    K2: KILLER,
    K3: KILLER,
    POL: POLICE,
    DOC: DOCTOR,
    SNI: SNIPER,
    BUT: BUTTERFLY,
    OLD: OLD_MAN,
    C1: CIVILIAN,
    C2: CIVILIAN,
    C3: CIVILIAN,
}


def game(lose: str = "00", **fields) -> V4State:
    """The standard 11-player game with civilian lose condition ``lose``."""
    return V4State(SEATS, lose, **fields)


def night(state: V4State | None = None, **actions: int) -> NightResult:
    """Resolve one night of ``state`` (default: a fresh game) with ``actions``."""
    return resolve_night(state or game(), NightActions(**actions))


def rejected(call: Callable[..., object], *args: object) -> str:
    """The Chinese message of the ``BadInput`` that ``call(*args)`` raises (exit code 2)."""
    with pytest.raises(BadInput) as caught:
        call(*args)
    assert caught.value.exit_code == 2
    return caught.value.message


def codes(result: NightResult) -> list[tuple[int, str, tuple[int, ...]]]:
    """The night's explanation as (step, code, seats)."""
    return [(event.step, event.code, event.seats) for event in result.events]


# ---------------------------------------------------------------- role table and version codes


@pytest.mark.parametrize("row", ROLE_TABLE.values(), ids=lambda row: f"{row.players}人")
def test_every_row_adds_up_to_the_player_count(row):
    """身份分配 + “另有……医生、狙击手、花蝴蝶、森林老人各一人”."""
    assert row.civilians + row.police + row.killers + 4 == row.players
    assert sum(row.role_counts().values()) == row.players


@pytest.mark.parametrize("row", ROLE_TABLE.values(), ids=lambda row: row.code)
def test_every_reference_code_decodes_back_to_its_row(row):
    assert decode(row.code) == table_row(row.players)


@pytest.mark.parametrize("row", ROLE_TABLE.values(), ids=lambda row: row.code)
def test_code_suffix_is_players_minus_ten_and_killers(row):
    """用语定义: “后缀……第一位等于玩家数-10，第二位等于杀手数”."""
    assert int(row.code[3], 16) == row.players - 10
    assert int(row.code[4], 16) == row.killers


@pytest.mark.parametrize("row", ROLE_TABLE.values(), ids=lambda row: f"{row.players}人")
def test_killers_are_zero_to_two_fewer_than_civilians(row):
    """平衡原则: “满足杀手人数比平民人数少0~2人即可”."""
    assert 0 <= row.civilians - row.killers <= 2


def test_table_covers_eleven_to_twenty_five_players():
    assert list(ROLE_TABLE) == list(range(11, 26))


def test_table_row_json():
    assert table_row(16) == {
        "players": 16,
        "civilians": 6,
        "police": 1,
        "killers": 5,
        "code": "64C65",
        "lose_condition": "01",
    }


@pytest.mark.parametrize(
    ("code", "lose"),
    [
        ("04C13", "00"),
        ("44C23", "01"),
        ("84C33", "10"),
        ("A4C54", "10"),
        ("64C65", "01"),
        ("24CA7", "00"),
    ],
)
def test_lose_condition_is_the_top_two_bits_of_the_prefix(code, lose):
    """用语定义: “前缀3位十六进制数代表的二进制中高2位对应胜负判定”."""
    assert decode(code)["lose_condition"] == lose


def test_code_may_pick_another_lose_condition_for_a_table_size():
    """Decision: the code's own top bits rule, the table's code is only a reference."""
    assert decode("04C65") == table_row(16) | {"code": "04C65", "lose_condition": "00"}


def test_code_is_read_in_any_case_and_trimmed():
    assert decode(" 64c65 ")["code"] == "64C65"


@pytest.mark.parametrize(
    ("code", "fragment"),
    [
        ("", "5 位十六进制"),
        ("64C6", "5 位十六进制"),
        ("64C655", "5 位十六进制"),
        ("G4C65", "5 位十六进制"),
        ("C4C65", "高 2 位是 11"),
        ("64C03", "10 人局"),
        ("64C64", "16 人局按身份表是 5 名杀手"),
    ],
)
def test_invalid_code_is_rejected(code, fragment):
    assert fragment in rejected(decode, code)


@pytest.mark.parametrize("players", [10, 26, 0, -1, True, "16"])
def test_player_count_outside_the_table_is_rejected(players):
    assert "11–25 人局" in rejected(table_row, players)


# ---------------------------------------------------------------- the module's interface


def test_rule_set_interface():
    assert v4.NAME == "v4"
    assert v4.NAME in RULES
    assert v4.KILLER == "杀手"
    assert v4.ROLES == ("杀手", "平民", "警察", "医生", "狙击手", "花蝴蝶", "森林老人")


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        (KILLER, "杀手阵营"),
        (CIVILIAN, "平民阵营"),
        (POLICE, "平民阵营"),
        (DOCTOR, "平民阵营"),
        (SNIPER, "平民阵营"),
        (BUTTERFLY, "平民阵营"),
        (OLD_MAN, "平民阵营"),
        (None, None),
    ],
)
def test_killers_are_the_killer_camp_and_everyone_else_the_civilian_camp(role, expected):
    """身份阵营: “杀手属于〖杀手阵营〗，其他身份均属于〖平民阵营〗”."""
    assert camp(role) == expected


def test_unknown_role_is_rejected():
    assert "「水民」不是 V4.0 的身份" in rejected(camp, "水民")


def test_non_voters_are_neither_self_votes_nor_warned():
    """Decision: 游戏流程 13–14 set no self vote and no penalty for not voting."""
    policy = v4.TALLY_POLICY
    assert policy == TallyPolicy(non_voter="none", warn_non_voters=False)


@pytest.mark.parametrize(("total", "substitutes"), [(1, 1), (2, 1), (2, 0), (5, 0)])
def test_warning_never_leads_to_a_substitute_or_out(total, substitutes):
    assert rule_set("v4").warning_action(total, substitutes) == "warn"


def test_identities_are_not_revealed_when_a_player_is_out():
    """Decision: 11 “判定出局，并通知准备遗言”; 16 “宣布胜利阵营并揭秘” only at the end."""
    assert rule_set("v4").REVEAL_CAMP is False
    assert rule_set("v4").announced_camp(KILLER) is None


# ---------------------------------------------------------------- game state


def test_new_game_takes_its_lose_condition_from_the_code():
    assert new_game(SEATS, "04C13") == game("00")
    assert new_game(SEATS, "84C13").lose_condition == "10"


@pytest.mark.parametrize(
    ("roles", "code", "fragment"),
    [
        (SEATS, "44C23", "12 人局，名单有 11 人"),
        (SEATS | {C3: KILLER}, "04C13", "杀手 4 名（应为 3），平民 2 名（应为 3）"),
        (SEATS | {C3: "水民"}, "04C13", "不是 V4.0 的身份"),
    ],
)
def test_new_game_checks_the_deal_against_the_code(roles, code, fragment):
    assert fragment in rejected(new_game, roles, code)


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"lose_condition": "11"}, "判负条件"),
        ({"roles": SEATS | {C3: DOCTOR}}, "2 名医生"),
        ({"roles": SEATS | {0: CIVILIAN}}, "座位号应为正整数"),
        ({"out": frozenset({12})}, "没有 12 号"),
        ({"out": frozenset({C1}), "marks": {C1: 1}}, "9 号已出局，不能带有标记"),
        ({"marks": {C1: 2}}, "最多一个标记"),
        ({"out": frozenset({C1}), "frenzy": frozenset({C1})}, "不能处于癫狂状态"),
        ({"voted_out": (Elimination(1, C1),)}, "却未出局"),
    ],
)
def test_inconsistent_state_is_rejected(fields, fragment):
    arguments = {"roles": SEATS, "lose_condition": "00"} | fields
    assert fragment in rejected(lambda: V4State(**arguments))


# ---------------------------------------------------------------- the night: skills


def test_skills_may_be_used_on_night_zero():
    """FAQ “第零晚是否可以发动技能？” — “可。”: the first night is N=0 and its skills resolve."""
    result = night(kill=C1)
    assert result.out == (C1,)
    assert night_json(result, 0)["round"] == 0


def test_kill_makes_the_target_dying_and_step_11_takes_it_out():
    """【杀人】 “使之进入濒死状态”; 游戏流程 11 “判定出局”."""
    result = night(kill=C1)
    assert codes(result) == [(9, "dying", (C1,)), (11, "out", (C1,))]
    assert result.out == result.dying == (C1,)
    assert result.state.out == {C1}


@pytest.mark.parametrize(
    ("target", "expected"), [(K2, "杀手阵营"), (C1, "平民阵营"), (DOC, "平民阵营")]
)
def test_police_learn_the_camp_of_their_target(target, expected):
    """【指认】 “查验某一存活角色的身份，反馈该角色所属阵营”."""
    assert night(check=target).police == PoliceCheck(target, expected)


def test_police_learn_the_camp_even_of_a_player_killed_the_same_step():
    """Decision: 【杀人】 and 【指认】 both belong to 夜晚2; the check still answers."""
    assert night(kill=K1, check=K1).police == PoliceCheck(K1, "杀手阵营")


def test_injection_saves_a_dying_player():
    """【注射】 “若该角色处于濒死状态，则转变为存活状态”."""
    result = night(kill=C1, inject=C1)
    assert result.out == ()
    assert result.state.marks == {}


def test_injection_marks_an_unmarked_player():
    """【注射】 “若该角色处于存活状态且无标记，则获得一个标记”."""
    result = night(inject=C1)
    assert result.out == ()
    assert result.state.marks == {C1: 1}


def test_injection_on_a_marked_player_makes_it_dying_and_out():
    """【注射】 “若该角色处于存活状态且有标记，则转变为濒死状态”."""
    result = night(game(marks={C1: 1}), inject=C1)
    assert result.dying == result.out == (C1,)
    assert result.state.marks == {}


def test_marks_persist_across_nights():
    first = night(inject=C1)
    second = night(first.state, inject=C1)
    assert first.state.marks == {C1: 1}
    assert second.out == (C1,)


def test_saved_player_keeps_its_mark():
    """Decision: an injection that saves a 濒死 player changes its state, not its marks."""
    result = night(game(marks={C1: 1}), kill=C1, inject=C1)
    assert result.out == ()
    assert result.state.marks == {C1: 1}


def test_snipe_makes_an_alive_player_dying():
    """【狙杀】 “若该角色处于存活状态，则转变为濒死状态”."""
    result = night(snipe=C1)
    assert result.dying == result.out == (C1,)


def test_snipe_on_a_dying_player_is_out_at_once():
    """【狙杀】 “若该角色处于濒死状态，则立即出局”: out in step 10, not among step 11's dying."""
    result = night(kill=C1, snipe=C1)
    assert (10, "out", (C1,)) in codes(result)
    assert result.out == (C1,)
    assert result.dying == ()


def test_sniper_resolves_before_doctor_so_a_sniped_player_can_be_saved():
    """Decision: step 10 resolves in the order it names them, “狙击手、医生、森林老人”."""
    result = night(snipe=C1, inject=C1)
    assert [code for _, code, _ in codes(result)] == ["dying", "saved"]
    assert result.out == ()
    assert result.state.marks == {}


def test_killed_and_sniped_player_cannot_be_saved():
    """Decision (order): the shot takes a 濒死 player out before the doctor's injection."""
    result = night(kill=C1, snipe=C1, inject=C1)
    assert (10, "no_effect", (C1,)) in codes(result)
    assert result.out == (C1,)


def test_dying_doctor_may_inject_himself():
    """Decision: a 濒死 player is still in the game until step 11, so the doctor acts."""
    assert night(kill=DOC, inject=DOC).out == ()


def test_doctor_shot_out_during_the_night_cannot_inject():
    """Decision: an actor put out earlier in the night uses no skill."""
    result = night(kill=DOC, snipe=DOC, inject=C1)
    assert (10, "void", (DOC,)) in codes(result)
    assert result.state.marks == {}
    assert result.out == (DOC,)


def test_silence_makes_the_target_frenzied_for_the_next_day():
    """【沉默】 “使之在次日白天进入癫狂状态”."""
    result = night(silence=C1)
    assert result.state.frenzy == {C1}
    assert counts_vote(result.state, C1) is False


def test_frenzy_ends_at_nightfall():
    """FAQ “成为【沉默】的目标第二天是否解除癫狂状态？” — “是。” (“入夜自动解除”)."""
    day = night(silence=C1).state
    assert night(day).state.frenzy == set()
    assert night(day, silence=C2).state.frenzy == {C2}


def test_frenzy_of_a_player_out_tonight_is_dropped():
    result = night(kill=C1, silence=C1)
    assert result.state.frenzy == set()


def test_every_dying_player_is_out_at_step_11():
    result = night(kill=C1, snipe=C2, inject=C3, state=game(marks={C3: 1}))
    assert result.dying == result.out == (C1, C2, C3)
    assert [code for step, code, _ in codes(result) if step == 11] == ["out"] * 3


# ---------------------------------------------------------------- the night: 花蝴蝶 (FAQ)


@pytest.mark.parametrize("killer", KILLERS)
def test_butterfly_on_a_killer_voids_the_kill(killer):
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “若【蝶衣】目标为杀手之一，则当晚【杀人】无效，
    不会有人因【杀人】而出局”."""
    result = night(butterfly=killer, kill=C1)
    assert (9, "void", (killer,)) in codes(result)
    assert result.out == ()


def test_butterfly_on_a_police_voids_the_check():
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “若目标为警察之一，则当晚【指认】无效，警察不会收到
    反馈信息”."""
    result = night(butterfly=POL, check=K1)
    assert result.police is None
    assert night_json(result, 0)["police"] is None


@pytest.mark.parametrize(
    ("actor", "action", "target"),
    [(DOC, "inject", C1), (SNI, "snipe", C1), (OLD, "silence", C1)],
)
def test_butterfly_target_skill_fails(actor, action, target):
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “若目标为医生、狙击手、森林老人，则技能不会产生任何
    效果”."""
    result = night(butterfly=actor, **{action: target})
    assert (10, "void", (actor,)) in codes(result)
    assert result.out == ()
    assert result.state.marks == {}
    assert result.state.frenzy == set()


def test_butterfly_target_survives_the_kill():
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “【蝶衣】目标成为【杀人】目标时，不会出局”."""
    result = night(butterfly=C1, kill=C1)
    assert (9, "immune", (C1,)) in codes(result)
    assert result.out == ()


def test_police_learn_nothing_about_the_butterfly_target():
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “成为【指认】目标时，警察不会收到反馈信息”."""
    result = night(butterfly=K1, check=K1)
    assert (9, "no_feedback", (K1,)) in codes(result)
    assert result.police is None


@pytest.mark.parametrize(
    ("action", "state"),
    [("inject", game()), ("inject", game(marks={C1: 1})), ("snipe", game()), ("silence", game())],
    ids=["inject", "inject-marked", "snipe", "silence"],
)
def test_butterfly_target_is_immune_to_inject_snipe_and_silence(action, state):
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “成为【注射】、【狙杀】、【沉默】目标时也不会产生
    任何效果”."""
    result = night(state, butterfly=C1, **{action: C1})
    assert (10, "immune", (C1,)) in codes(result)
    assert result.out == ()
    assert result.state.marks == state.marks
    assert result.state.frenzy == set()


@pytest.mark.parametrize("action", ["kill", "snipe"])
def test_kill_or_snipe_on_the_butterfly_makes_its_target_dying(action):
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “若花蝴蝶成为【杀人】、【狙杀】目标，则【蝶衣】目标
    进入濒死状态”."""
    result = night(butterfly=C1, **{action: BUT})
    assert [code for _, code, _ in codes(result)][1:4] == ["dying", "transfer", "dying"]
    assert result.dying == result.out == (BUT, C1)


def test_injection_on_the_butterfly_marks_its_target():
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “若花蝴蝶成为【注射】目标，则【蝶衣】目标获得一个
    标记”."""
    result = night(butterfly=C1, inject=BUT)
    assert result.state.marks == {BUT: 1, C1: 1}
    assert result.out == ()


def test_injection_on_the_butterfly_turns_a_marked_target_dying():
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “（若已有标记则转变为濒死状态）”."""
    result = night(game(marks={C1: 1}), butterfly=C1, inject=BUT)
    assert result.out == (C1,)
    assert result.state.marks == {BUT: 1}


def test_silence_on_the_butterfly_frenzies_its_target():
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “若花蝴蝶成为【沉默】目标，则【蝶衣】目标进入癫狂
    状态”."""
    assert night(butterfly=C1, silence=BUT).state.frenzy == {BUT, C1}


@pytest.mark.parametrize(
    ("action", "out", "marks", "frenzy"),
    [
        ("kill", (BUT, C1), {}, set()),
        ("snipe", (BUT, C1), {}, set()),
        ("inject", (), {BUT: 1, C1: 1}, set()),
        ("silence", (), {}, {BUT, C1}),
    ],
)
def test_butterfly_itself_bears_the_skill_too(action, out, marks, frenzy):
    """FAQ “花蝴蝶的技能【蝶衣】有何效果？”: “花蝴蝶自己同样受到技能影响”."""
    result = night(butterfly=C1, **{action: BUT})
    assert result.out == out
    assert result.state.marks == marks
    assert result.state.frenzy == frenzy


def test_check_on_the_butterfly_is_not_passed_on():
    """【蝶衣】 “若花蝴蝶成为【指认】外其他技能目标……”: a check of the butterfly is answered."""
    result = night(butterfly=K1, check=BUT)
    assert result.police == PoliceCheck(BUT, "平民阵营")
    assert "transfer" not in [code for _, code, _ in codes(result)]


def test_skill_on_the_butterfly_without_a_cover_hits_the_butterfly_only():
    assert night(kill=BUT).out == (BUT,)


def test_passed_on_skill_works_by_each_players_own_state():
    """Decision: killed through the butterfly, both are 濒死; an injection on the butterfly
    then saves both (【注射】 on a 濒死 player)."""
    result = night(butterfly=C1, kill=BUT, inject=BUT)
    assert result.out == ()
    assert result.state.marks == {}


def test_butterfly_target_stays_immune_after_a_passed_on_skill():
    """Decision: the cover lasts the night (“当晚……免疫一切技能”): an injection aimed at the
    covered player, 濒死 through the butterfly, does nothing."""
    result = night(butterfly=C1, kill=BUT, inject=C1)
    assert (10, "immune", (C1,)) in codes(result)
    assert result.out == (BUT, C1)


def test_covered_killer_voids_a_kill_aimed_at_the_butterfly():
    """A void skill has no target at all, so nothing is passed on."""
    assert night(butterfly=K1, kill=BUT).out == ()


# ---------------------------------------------------------------- illegal choices


@pytest.mark.parametrize(
    ("state", "actions", "fragment"),
    [
        (game(), {"butterfly": BUT}, "花蝴蝶不能对自己使用【蝶衣】"),
        (game(out=frozenset({C1})), {"kill": C1}, "9 号已出局，不能作为【杀人】的目标"),
        (game(out=frozenset({C1})), {"inject": C1}, "9 号已出局，不能作为【注射】的目标"),
        (game(), {"snipe": 12}, "没有 12 号玩家"),
        (game(out=frozenset({SNI})), {"snipe": C1}, "狙击手已出局，不能使用【狙杀】"),
        (game(out=frozenset({BUT})), {"butterfly": C1}, "花蝴蝶已出局，不能使用【蝶衣】"),
        (game(out=frozenset(KILLERS)), {"kill": C1}, "杀手已全部出局，不能使用【杀人】"),
        (game(out=frozenset({POL})), {"check": C1}, "警察已全部出局，不能使用【指认】"),
        (V4State({**SEATS, OLD: CIVILIAN}, "00"), {"silence": C1}, "本局没有森林老人"),
        (game(), {"kill": "9"}, "【杀人】的目标应为座位号"),
    ],
)
def test_illegal_choice_is_rejected(state, actions, fragment):
    assert fragment in rejected(resolve_night, state, NightActions(**actions))


def test_one_living_killer_may_still_kill():
    """【杀人】 “所有存活状态的杀手可以共同选择一名角色”."""
    assert night(game(out=frozenset({K1, K2})), kill=C1).out == (C1,)


# ---------------------------------------------------------------- night JSON and explanation


def test_night_json():
    state = game(marks={C2: 1})
    result = night(state, butterfly=C3, kill=C1, check=K2, inject=SNI, silence=POL)
    assert night_json(result, 2) == {
        "schema": "killmod.night/1",
        "round": 2,
        "out": [C1],
        "dying": [C1],
        "marks": {"6": 1, "10": 1},
        "frenzy": [POL],
        "police": {"seat": K2, "camp": "杀手阵营"},
    }


@pytest.mark.parametrize("round_no", [-1, True, "1"])
def test_night_round_is_zero_or_more(round_no):
    assert "第零晚为 0" in rejected(night_json, night(), round_no)


def test_explanation_tells_the_judge_why():
    result = night(butterfly=C1, kill=BUT, check=C1, snipe=C2, inject=C2)
    assert [event.text for event in result.events] == [
        "花蝴蝶（7号）【蝶衣】9号：9号当晚发动技能无效，且免疫一切技能。",
        "7号被【杀人】，进入濒死状态。",
        "【杀人】的目标是花蝴蝶（7号），【蝶衣】目标9号承担相同效果。",
        "9号被【杀人】，进入濒死状态。",
        "【指认】的目标9号受【蝶衣】保护，警察不会收到反馈信息。",
        "10号被【狙杀】，进入濒死状态。",
        "10号处于濒死状态，被【注射】，转为存活状态。",
        "7号处于濒死状态，判定出局。",
        "9号处于濒死状态，判定出局。",
    ]
    assert [event.step for event in result.events] == [8, 9, 9, 9, 9, 10, 10, 11, 11]


# ---------------------------------------------------------------- the day vote


def test_frenzied_player_posts_do_not_count_as_ballots():
    """Decision: 癫狂 comes from 【沉默】 (silence): that day the player's posts are no ballot."""
    day = night(silence=C1).state
    assert counts_vote(day, C1) is False
    assert counts_vote(day, C2) is True


def test_out_player_has_no_ballot_and_unknown_seat_is_rejected():
    assert counts_vote(game(out=frozenset({C1})), C1) is False
    assert "没有 12 号玩家" in rejected(counts_vote, game(), 12)


def test_frenzied_player_may_still_be_voted_out():
    day = night(silence=C1).state
    after = vote_out(day, C1, 1)
    assert after.out == {C1}
    assert after.frenzy == set()
    assert after.voted_out == (Elimination(1, C1),)


@pytest.mark.parametrize(
    ("state", "seat", "day", "fragment"),
    [
        (game(out=frozenset({C1})), C1, 1, "9 号已出局，不能被投票出局"),
        (game(), 12, 1, "没有 12 号玩家"),
        (game(), C1, 0, "天数应为正整数"),
        (vote_out(game(), C1, 2), C2, 2, "不在上一次投票出局（第 2 天）之后"),
    ],
)
def test_illegal_vote_out_is_rejected(state, seat, day, fragment):
    assert fragment in rejected(vote_out, state, seat, day)


# ---------------------------------------------------------------- win, lose, draw


def voted(state: V4State, *seats: int) -> V4State:
    """``state`` after day votes 1, 2, … put ``seats`` out in that order."""
    for day, seat in enumerate(seats, start=1):
        state = vote_out(state, seat, day)
    return state


def out(state: V4State, *seats: int) -> V4State:
    """``state`` with ``seats`` out by night."""
    return replace(state, out=state.out | set(seats))


@pytest.mark.parametrize(
    ("state", "winner"),
    [
        pytest.param(out(game("00"), *CIVILIANS), "杀手阵营", id="00-all-civilians-out"),
        pytest.param(out(game("01"), *CIVILIANS), None, id="01-all-civilians-out-is-not-01"),
        pytest.param(voted(game("01"), C1, C2), "杀手阵营", id="01-two-in-a-row"),
        pytest.param(voted(game("01"), C1, POL, C2), None, id="01-police-breaks-the-row"),
        pytest.param(voted(game("01"), C1, K1, C2, K2, C3), None, id="01-three-apart"),
        pytest.param(voted(game("10"), C1, C2), "杀手阵营", id="10-two-in-a-row"),
        pytest.param(voted(game("10"), C1, K1, C2), None, id="10-two-apart"),
        pytest.param(voted(game("10"), C1, K1, C2, K2, C3), "杀手阵营", id="10-three-in-all"),
        pytest.param(out(game(), C1, C2, DOC, SNI, OLD), "杀手阵营", id="killers-half-of-living"),
        pytest.param(out(game(), C1, C2, DOC, SNI), None, id="killers-under-half"),
        pytest.param(out(game(), K1, *SPECIALS), "杀手阵营", id="all-special-roles-out"),
        pytest.param(out(game(), *KILLERS), "平民阵营", id="all-killers-out"),
        pytest.param(out(game(), *KILLERS, *SPECIALS), "平民阵营", id="lost-killers-cannot-win"),
        pytest.param(game(), None, id="game-goes-on"),
    ],
)
def test_win_and_lose_conditions(state, winner):
    """胜负判定, one condition a case."""
    verdict = check_win(state)
    assert (verdict and verdict.winner) == winner
    assert verdict is None or not verdict.draw


def test_civilian_lose_condition_reads_the_civilian_role_only():
    """Decision: “平民” in 胜负判定 is the 平民 role, not the whole 〖平民阵营〗."""
    assert check_win(voted(game("01"), POL, DOC)) is None
    assert check_win(voted(game("01"), POL, C1, C2)).winner == "杀手阵营"


def test_a_day_without_a_vote_out_does_not_break_a_row():
    """Decision: “连续2名平民被投票出局” counts consecutive vote-outs, not calendar days."""
    state = vote_out(vote_out(game("01"), C1, 2), C2, 4)
    assert check_win(state).winner == "杀手阵营"


def test_draw_when_both_camps_lose_after_a_night():
    """平局: “夜晚结算完毕时，〖平民阵营〗与〖杀手阵营〗均满足判负条件”."""
    state = out(game("00"), K1, K2, C1, C2)
    result = night(state, kill=C3, snipe=K3)
    verdict = check_win(result.state)
    assert verdict.draw
    assert verdict.winner is None
    assert verdict.reasons == ("〖平民阵营〗负（00）：平民全部出局", "〖杀手阵营〗负：杀手全部出局")


def test_win_is_checked_after_the_day_vote():
    """游戏流程 “第11、14步结束后，对胜负进行判定”: voting out the last killer ends the game."""
    state = out(game(), K1, K2)
    assert check_win(state) is None
    verdict = check_win(vote_out(state, K3, 3))
    assert verdict.winner == "平民阵营"
    assert verdict.reasons == ("〖杀手阵营〗负：杀手全部出局",)


def test_win_is_checked_after_the_night():
    """游戏流程 11: a night that leaves killers at half the living ends the game."""
    state = out(game(), C1, DOC, SNI, OLD)
    assert check_win(state) is None
    verdict = check_win(night(state, kill=C2).state)
    assert verdict.winner == "杀手阵营"
    assert verdict.reasons == ("〖杀手阵营〗胜：杀手 3 人，占存活 6 人的一半或以上",)
