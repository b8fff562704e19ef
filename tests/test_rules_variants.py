"""The 2.0 花样玩法 (docs/rules/2.0-variants.md): every numbered rule of the seed is a test.

Rules are named by the seed's headings: 鬼匪 n (关于鬼匪), 毒药 n (关于毒药),
细则 n (其他细微规则变化; 细则 5A–D the win rules), 守护 n (守护规则),
双守护 n (双守护规则).

Two 12-player tables:
- SINGLE (ghost, poison, guardian): 1–3 警察, 4 鬼匪, 5–6 杀手, 7 毒药, 8 守护神, 9–12 平民.
- DOUBLE (ghost, poison, double-guardian): 1–3 警察, 4 鬼匪, 5–6 杀手, 7 毒药, 8 警神, 9 匪神,
  10–12 平民.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from killmod.core.errors import BadInput
from killmod.rules import variants
from killmod.rules.variants import (
    CIVILIAN,
    GHOST,
    GUARDIAN,
    KILLER,
    KILLER_GOD,
    POISON,
    POLICE,
    POLICE_GOD,
    POSSESSED,
    Death,
    GuardRecord,
    NightActions,
    NightNotice,
    NightResult,
    VariantState,
    check_win,
    guard_works,
    leave,
    new_game,
    resolve_night,
    table_row,
    vote_out,
)

P1, P2, P3, GH, K1, K2, PO, GD, C1, C2, C3, C4 = range(1, 13)
SINGLE_VARIANTS = ("ghost", "poison", "guardian")
SINGLE = (
    dict.fromkeys((P1, P2, P3), POLICE)
    | {GH: GHOST, K1: KILLER, K2: KILLER, PO: POISON, GD: GUARDIAN}
    | dict.fromkeys((C1, C2, C3, C4), CIVILIAN)
)

PG, KG, D1, D2, D3 = 8, 9, 10, 11, 12
DOUBLE_VARIANTS = ("ghost", "poison", "double-guardian")
DOUBLE = (
    dict.fromkeys((P1, P2, P3), POLICE)
    | {GH: GHOST, K1: KILLER, K2: KILLER, PO: POISON, PG: POLICE_GOD, KG: KILLER_GOD}
    | dict.fromkeys((D1, D2, D3), CIVILIAN)
)


def single(**fields) -> VariantState:
    """The SINGLE table, with ``fields`` of the state replaced."""
    return VariantState(SINGLE, SINGLE_VARIANTS, **fields)


def double(**fields) -> VariantState:
    """The DOUBLE table, with ``fields`` of the state replaced."""
    return VariantState(DOUBLE, DOUBLE_VARIANTS, **fields)


def night(state: VariantState, kill: int, pact: int = K1, **actions) -> NightResult:
    """Resolve one night; the 生死状 names 5号 unless told otherwise."""
    return resolve_night(state, NightActions(kill=kill, pact=pact, **actions))


def rejected(call: Callable[..., object], *args: object) -> str:
    """The Chinese message of the ``BadInput`` that ``call(*args)`` raises (exit code 2)."""
    with pytest.raises(BadInput) as caught:
        call(*args)
    assert caught.value.exit_code == 2
    return caught.value.message


def deaths(result) -> list[tuple[int, str, str | None]]:
    """The deaths as (seat, cause, shown)."""
    return [(d.seat, d.cause, d.shown) for d in result.deaths]


# ---------------------------------------------------------------- the table and the deal


def test_variant_roles_take_civilian_places():
    """Decision: “在2.0标准版(警、匪人数对等)基础上”: the 警匪 counts stay; extras replace 平民."""
    assert table_row(12, SINGLE_VARIANTS) == {
        "players": 12,
        "civilians": 4,
        "police": 3,
        "killers": 3,
        "ghost": 1,
        "poison": 1,
        "guardians": 1,
    }
    assert table_row(16, ["double-guardian"])["civilians"] == 6


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        (["ghost", "ghost"], "花样玩法重复"),
        (["guardian", "double-guardian"], "只能选一个"),
        (["bomb"], "「bomb」不是已知的花样玩法"),
    ],
)
def test_bad_variant_lists_are_rejected(chosen, message):
    assert message in rejected(table_row, 12, chosen)


def test_the_ghost_is_drawn_among_the_killers():
    """关于鬼匪: “匪徒中的一人,身份抽取在确定了全体匪帮名单后进行”."""
    roles = variants.deal(range(1, 13), SINGLE_VARIANTS, random.Random(2))
    assert roles == variants.deal(range(1, 13), SINGLE_VARIANTS, random.Random(2))
    assert list(roles.values()).count(GHOST) == 1
    assert list(roles.values()).count(KILLER) == 2
    assert new_game(roles, SINGLE_VARIANTS).roles == roles


def test_new_game_checks_the_deal():
    assert "毒药 0 名（应为 1）" in rejected(new_game, SINGLE | {PO: CIVILIAN}, SINGLE_VARIANTS)


def test_interface_and_summary():
    assert variants.NAME == "2.0"
    assert variants.TALLY_POLICY.non_voter == "none"
    lines = variants.summary(SINGLE_VARIANTS, 12)
    assert lines[0] == "2.0 花样玩法（在 2.0 标准游戏基础上）"
    assert lines[-1] == (
        "12 人局：警察 3 人，杀手 3 人（含鬼匪 1 人），毒药 1 人，守护神 1 人，平民 4 人。"
    )


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        (GHOST, "杀手"),
        (POSSESSED, "杀手"),
        (POISON, "警民"),
        (GUARDIAN, "自选立场"),
        (POLICE_GOD, "警民"),
        (KILLER_GOD, "杀手"),
        (None, None),
    ],
)
def test_camps(role, expected):
    """毒药 “立场属于警方”; 守护神 “立场自选”; 双守护 2 “警神/匪神 加分情况同 警/匪”."""
    assert variants.camp(role) == expected


# ---------------------------------------------------------------- 关于鬼匪


def test_possession_once_only():
    """关于鬼匪: “可以‘附体’,但‘附体’仅限一次”."""
    state = night(single(), kill=C1, possess=C2).state
    assert state.possession_used
    assert "附体仅限一次" in rejected(resolve_night, state, NightActions(C3, pact=K1, possess=C4))


def test_possession_needs_a_living_ghost():
    """关于鬼匪: “且必须在鬼匪活着的状态下进行”."""
    state = single(out={GH})
    assert "鬼匪已出局" in rejected(resolve_night, state, NightActions(C1, pact=K1, possess=C2))


def test_kill_first_then_possession():
    """关于鬼匪: “法官应以先杀人后附体顺序进行操作”: the killed target cannot be possessed.

    Decision: the possession is void and counts as used.
    """
    result = night(single(), kill=C1, possess=C1)
    assert result.state.roles[C1] == CIVILIAN
    assert result.state.possession_used
    assert deaths(result) == [(C1, "killed", CIVILIAN)]


def test_ghost_dead_in_the_kill_step_possesses_nobody():
    """关于鬼匪 kill first: a 鬼匪 named in the 生死状 dies with the 毒药 before possessing."""
    result = night(single(), kill=PO, pact=GH, possess=C2)
    assert result.state.roles[C2] == CIVILIAN
    assert {GH, PO} <= result.state.out


def test_ghost_cannot_possess_a_teammate():
    assert "鬼匪不能附体自己或同伴" in rejected(
        resolve_night, single(), NightActions(C1, pact=K1, possess=K2)
    )


def test_rule_1_a_possessed_civilian_becomes_a_killer():
    """鬼匪 1 “如果被附体者是平民,该平民身份转变为匪(即匪增加一人)”."""
    result = night(single(), kill=C1, possess=C2)
    assert result.state.roles[C2] == POSSESSED
    assert variants.camp(POSSESSED) == "杀手"
    assert result.state.holders(GHOST, KILLER, POSSESSED) == (GH, K1, K2, C2)


def test_rule_2_possessing_police_fails_and_the_police_are_told_vaguely():
    """鬼匪 2 “附体无效,但算进行过附体……警方同时被法官暗中通知‘你方人员遭遇附体,但未生效’”.

    “仅通知‘你方人员’,不具体透露被附警是谁”.
    """
    result = night(single(), kill=C1, possess=P2)
    assert result.state.roles[P2] == POLICE
    assert result.state.possession_used
    assert result.notices == (NightNotice("警察", "你方人员遭遇附体，但未生效"),)
    assert "2" not in result.notices[0].text


def test_rule_3_possessing_the_poison_kills_both():
    """鬼匪 3 “如果被附体者是毒药,鬼匪与毒药同死”."""
    result = night(single(), kill=C1, possess=PO)
    assert (GH, "poison_possessed", None) in deaths(result)
    assert (PO, "poison_possessed", None) in deaths(result)


def test_rule_4_the_ghost_may_never_possess():
    """鬼匪 4 “鬼匪可以选择全局内一直都不附体”."""
    result = night(single(), kill=C1)
    assert not result.state.possession_used
    assert result.state.roles == SINGLE


@pytest.mark.parametrize(
    ("how", "shown"),
    [("voted", KILLER), ("suicide", KILLER), ("drowned", KILLER), ("checked", KILLER)],
)
def test_rule_5_the_ghost_is_never_shown_as_ghost(how, shown):
    """鬼匪 5 “鬼匪的身份特殊性在游戏结束前是不被揭露的——无论是被票死、自杀、淹死、毒死还是被验”."""
    state = single()
    if how == "voted":
        assert vote_out(state, [GH]).deaths == (Death(GH, "voted", shown),)
    elif how == "checked":
        assert night(state, kill=C1, checks=(GH,)).checks[0].identity == shown
    else:
        assert leave(state, GH, how).deaths == (Death(GH, how, shown),)


def test_rule_5_a_poisoned_ghost_is_not_shown_at_all():
    """鬼匪 5 “……毒死……”: named in the 生死状, the 鬼匪 dies hidden with the 毒药."""
    result = night(single(), kill=PO, pact=GH)
    assert deaths(result) == [(PO, "poison_pact", None), (GH, "poison_pact", None)]


def test_rule_6_a_possessed_killer_is_shown_as_possessed():
    """鬼匪 6 “被附体的匪如果被票死或者被验,公布其身份特殊性——是‘被附体匪’”."""
    state = night(single(), kill=C1, possess=C2).state
    assert vote_out(state, [C2]).posts == ("10号被票出局，身份：被附体匪。被附体匪没有遗言。",)
    assert night(state, kill=C3, checks=(C2,)).checks[0].identity == POSSESSED


def test_rule_6_a_possessed_killer_poisoned_is_named_without_saying_who():
    """鬼匪 6 “如果被毒死,也同样说明,与药同死的匪徒为‘被附体匪’(但是不公布双方谁是匪,谁是药)”."""
    state = night(single(), kill=C1, possess=C2, guards={GD: C3}).state
    result = night(state, kill=PO, pact=C2, guards={GD: C4})
    assert deaths(result) == [(PO, "poison_pact", None), (C2, "poison_pact", None)]
    assert result.posts[1:3] == (
        "7号、10号同死：一人是毒药，一人是与毒药同死的匪徒，不公布谁是谁。",
        "与毒药同死的匪徒为“被附体匪”（不公布双方谁是匪、谁是药）。",
    )


def test_rule_7_the_judge_puts_ghost_and_possessed_in_touch():
    """鬼匪 7 “附体时,附体双方必须由法官亲自确认后方可彼此联系”."""
    result = night(single(), kill=C1, possess=C2)
    assert {notice.to for notice in result.notices} == {C2, GH}


def test_rule_8_a_check_on_the_possessed_the_same_round_tells_the_truth():
    """鬼匪 8 “从本回合开始被附人变匪同时被验,法官告之警察的情报为被附体匪”."""
    result = night(single(), kill=C1, possess=C2, checks=(C2,))
    assert result.checks[0].identity == POSSESSED
    assert result.checks[0].text == "验人结果：10号的身份是被附体匪。"


# ---------------------------------------------------------------- 关于毒药


def test_rule_1_killing_the_poison_takes_one_killer_along():
    """毒药 1 “如果匪徒杀到毒药,匪徒中一人与毒药同死”."""
    result = night(single(), kill=PO, pact=K2)
    assert result.state.out == {PO, K2}


def test_rule_2_possessing_the_poison_takes_the_ghost_along():
    """毒药 2 “如果匪徒附体毒药,附体的鬼匪与毒药同死”."""
    result = night(single(), kill=C1, possess=PO)
    assert {GH, PO} <= result.state.out
    assert K1 not in result.state.out


def test_rule_3_the_checked_poison_is_told():
    """毒药 3 “如果毒药被验到,法官通知毒药‘警察已经验过您,知晓您的身份了’”."""
    result = night(single(), kill=C1, checks=(PO,))
    assert NightNotice(PO, "警察已经验过您，知晓您的身份了") in result.notices
    assert result.checks[0].identity == POISON


def test_rule_4_the_checked_poison_gives_the_police_another_check():
    """毒药 4 “如果毒药被验到,警察当回合可以再获得一个验人机会”."""
    first = night(single(), kill=C1, checks=(PO,))
    assert first.another_check is True
    second = night(single(), kill=C1, checks=(PO, K1))
    assert [c.identity for c in second.checks] == [POISON, KILLER]
    assert second.another_check is False


def test_rule_4_no_second_check_without_the_poison():
    assert "不是毒药，警察本回合不能再验" in rejected(
        resolve_night, single(), NightActions(C1, pact=K1, checks=(C2, K1))
    )


# ---------------------------------------------------------------- 其他细微规则变化


def test_fine_rule_1_police_may_check_the_same_player_again():
    """细则 1 “警察可以重复验同一人——因为有了‘附体’,某人可能上回合是平民,下回合就变匪了”."""
    first = night(single(), kill=C1, checks=(C2,))
    assert first.checks[0].identity == CIVILIAN
    second = night(first.state, kill=C3, possess=C2, checks=(C2,))
    assert second.checks[0].identity == POSSESSED


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (NightActions(C1), "须同时写明生死状"),
        (NightActions(C1, pact=C2), "生死状上的 10 号不是存活的匪徒"),
    ],
)
def test_fine_rule_2_the_kill_list_carries_a_pact(actions, message):
    """细则 2 “匪徒提交杀人名单的时候,需增加‘生死状’……XX(事先内部商榷好一匪徒名单)”."""
    assert message in rejected(resolve_night, single(), actions)


def test_fine_rule_2_no_pact_without_poison():
    state = VariantState(SINGLE | {PO: CIVILIAN}, ("ghost", "guardian"))
    assert "本局没有毒药" in rejected(resolve_night, state, NightActions(C1, pact=K1))


def test_fine_rule_3_killer_and_poison_die_unnamed():
    """细则 3 “匪徒杀到毒药同死时,不公布两人身份——即,玩家不知道哪个是匪徒哪个是毒药”."""
    result = night(single(), kill=PO, pact=K1)
    assert result.posts == (
        "天亮了，请大家睁眼。",
        "5号、7号同死：一人是毒药，一人是与毒药同死的匪徒，不公布谁是谁。",
        "被杀者没有遗言。",
        "从5号开始按顺时针方向指认。",  # the lower of the two: it tells nothing
    )


def test_fine_rule_3_possessed_poison_makes_three_unnamed_dead():
    """细则 3 “匪徒附到毒药同死时,由于当轮还有一被害人,天亮同死三人,三人均不公布身份”."""
    result = night(single(), kill=C1, possess=PO)
    assert all(shown is None for _, _, shown in deaths(result))
    assert result.posts[1] == "天亮同死三人：4号、7号、9号，三人均不公布身份。"


def test_fine_rule_4_a_voted_ghost_shows_only_as_killer():
    """细则 4 “票死鬼匪时,只公布其匪徒身份,不公布其‘鬼匪’特殊性,
    也不公布该鬼匪生前是否已经附体过”."""
    state = night(single(), kill=C1, possess=C2).state
    assert vote_out(state, [GH]).posts == ("4号被票出局，身份：杀手。杀手没有遗言。",)


def test_fine_rule_4_a_voted_possessed_shows_as_possessed():
    """细则 4 “票死被附体匪时,公布其是‘被附体匪’”."""
    state = night(single(), kill=C1, possess=C2).state
    assert vote_out(state, [C2]).deaths[0].shown == POSSESSED


def test_fine_rule_5a_all_killers_out_including_the_possessed():
    """细则 5A “匪全灭——包括被附体的匪,警察与民胜”."""
    state = night(single(), kill=C1, possess=C2).state
    state = vote_out(VariantState(state.roles, state.variants, state.out | {GH, K1, K2}), [C3])
    assert check_win(state.state) is None  # 10号 (被附体匪) is still in
    verdict = check_win(vote_out(state.state, [C2]).state)
    assert verdict is not None and verdict.winner == "警民"


@pytest.mark.parametrize(
    ("out", "reason"),
    [((P1, P2, P3), "警察全部出局"), ((C1, C2, C3, C4), "平民全部出局")],
)
def test_fine_rule_5b_police_or_civilians_wiped_out_killers_win(out, reason):
    """细则 5B “警察全灭或平民全灭——匪胜”."""
    verdict = check_win(single(out=set(out)))
    assert verdict is not None and verdict.winner == "杀手"
    assert reason in verdict.reason


def test_fine_rule_5c_the_poison_alone_does_not_hold_the_police_side():
    """细则 5C “警方全灭只剩毒药的时候,毒药无效,算平民,即——属于警方全灭的情况,匪胜”."""
    state = single(out={P1, P2, P3})
    assert state.alive(PO)
    verdict = check_win(state)
    assert verdict is not None and verdict.winner == "杀手"


def test_fine_rule_5d_killers_and_police_wiped_out_together_is_a_draw():
    """细则 5D “警匪同时全灭时,平局。平局可能:最后一匪杀到最后一警察同时,附体了毒药”."""
    state = single(out={K1, K2, P1, P2})
    result = night(state, kill=P3, pact=GH, possess=PO)
    verdict = check_win(result.state)
    assert verdict is not None and verdict.draw
    assert verdict.reason == "杀手与警察同时全部出局，平局。"


def test_killers_and_civilians_wiped_out_together_is_a_draw_too():
    """Decision: 细则 5D's draw holds for any wipe-out of both sides at once."""
    state = single(out={K1, K2, C1, C2, C3})
    verdict = check_win(night(state, kill=C4, pact=GH, possess=PO).state)
    assert verdict is not None and verdict.draw


# ---------------------------------------------------------------- 守护神


def test_guardian_dies_in_place_of_the_killed():
    """守护神: “如果该轮被守护人被杀……那么守护神替他去死”."""
    result = night(single(), kill=C1, guards={GD: C1})
    assert deaths(result) == [(GD, "guarded_kill", GUARDIAN)]
    assert result.state.alive(C1)


def test_guardian_dies_in_place_of_the_voted():
    """守护神: “如果该轮被守护人……被票,那么守护神替他去死” (the guard holds for the day too)."""
    state = night(single(), kill=C2, guards={GD: C1}).state
    day = vote_out(state, [C1])
    assert day.deaths == (Death(GD, "guarded_vote", GUARDIAN),)
    assert day.state.alive(C1)
    assert day.posts == (
        "守护神显灵：8号替9号被票出局，身份：守护神。请留遗言。",
        "9号受守护，存活。",
    )


def test_guardian_in_place_is_announced_like_a_direct_kill():
    """守护神: “执法团不公布被害真相(是直接被刀还是替别人死的)”."""
    in_place = night(single(), kill=C1, guards={GD: C1})
    direct = night(single(), kill=GD, guards={GD: C2})
    assert in_place.posts == direct.posts
    assert in_place.posts == (
        "天亮了，请大家睁眼。",
        "8号死亡，身份：守护神。",
        "被杀者没有遗言。",
        "从8号开始按顺时针方向指认。",
    )


@pytest.mark.parametrize("how", ["voted", "checked"])
def test_guardian_can_be_voted_and_checked(how):
    """守护神: “守护神可被杀、被验、被票,票死揭身份”."""
    if how == "voted":
        assert vote_out(single(), [GD]).posts == ("8号被票出局，身份：守护神。请留遗言。",)
    else:
        assert night(single(), kill=C1, checks=(GD,)).checks[0].identity == GUARDIAN


@pytest.mark.parametrize(
    ("state", "target", "message"),
    [
        (single(), GD, "不得守护自己"),
        (single(out={C1}), C1, "不得守护死人"),
    ],
)
def test_rule_1_not_oneself_not_the_dead(state, target, message):
    """守护 1 “不得守护自己;不得守护死人”."""
    assert message in rejected(resolve_night, state, NightActions(C2, pact=K1, guards={GD: target}))


def test_rule_2_one_skip_is_allowed_the_second_is_dereliction():
    """守护 2 “可放弃守护一次,但累计两次不守护,守护神判渎职死亡”."""
    first = night(single(), kill=C1, guards={GD: None})
    assert first.state.alive(GD)
    assert first.state.records[GD].skips == 1
    second = night(first.state, kill=C2, guards={GD: C3})
    third = night(second.state, kill=C4)  # no list at all is a skip too
    assert (GD, "dereliction", GUARDIAN) in deaths(third)
    assert "8号（守护神）渎职死亡。" in third.posts


def test_rule_3_never_the_same_player_twice():
    """守护 3 “游戏进行全过程中,不得守护相同的人——即,每位玩家只有一次被守护的机会”."""
    state = night(single(), kill=C2, guards={GD: C1}).state
    assert "每位玩家只有一次被守护的机会" in rejected(
        resolve_night, state, NightActions(C3, pact=K1, guards={GD: C1})
    )


def test_rule_4_guardian_and_guarded_voted_together_both_die():
    """守护 4 “当守护人和被守护人产生双杀票数时,二者同死”."""
    state = night(single(), kill=C2, guards={GD: C1}).state
    day = vote_out(state, [GD, C1])
    assert day.deaths == (Death(GD, "voted", GUARDIAN), Death(C1, "voted", CIVILIAN))


def test_rule_5_nobody_left_to_guard_two_rounds_is_forced_dereliction():
    """守护 5 “如果进行到游戏后期,守护神客观上无人可守,连续两回合,判‘被迫渎职死’”."""
    everyone = tuple(seat for seat in SINGLE if seat != GD)
    state = single(records={GD: GuardRecord(guarded=everyone)})
    first = night(state, kill=C1)
    assert first.state.alive(GD)
    assert first.state.records[GD] == GuardRecord(guarded=everyone, skips=0, forced=1)
    second = night(first.state, kill=C2)
    assert (GD, "forced_dereliction", GUARDIAN) in deaths(second)
    assert "8号（守护神）被迫渎职死。" in second.posts


def test_rule_5_a_forced_round_is_not_a_skip():
    """Decision: 守护 2 counts chosen skips, 守护 5 consecutive forced rounds, apart."""
    others = tuple(seat for seat in SINGLE if seat not in (GD, C4))
    state = single(records={GD: GuardRecord(guarded=others, skips=1)})
    first = night(state, kill=C1, guards={GD: C4})  # 12号 was the last one left to guard
    assert first.state.records[GD] == GuardRecord(guarded=(*others, C4), skips=1, forced=0)
    second = night(first.state, kill=C2)  # nobody left: forced, not a second skip
    assert second.state.alive(GD)
    assert second.state.records[GD].skips == 1
    assert second.state.records[GD].forced == 1


def test_a_void_guard_is_not_told_to_the_guardian():
    """辨析: “‘守护无效’只有在守护当轮、被守护人被宣布死亡时,守护神才能明白”."""
    result = night(double(), kill=K2, pact=K1, guards={PG: K2})
    assert deaths(result) == [(K2, "killed", KILLER)]
    assert result.notices == ()


# ---------------------------------------------------------------- 双守护规则


def test_double_rule_1_one_police_god_one_killer_god():
    """双守护 1 “双守护神分别指定立场—— 一警神,一匪神”."""
    roles = variants.deal(range(1, 13), DOUBLE_VARIANTS, random.Random(4))
    assert sorted(r for r in roles.values() if r in (POLICE_GOD, KILLER_GOD)) == [
        KILLER_GOD,
        POLICE_GOD,
    ]
    assert "匪神 0 名（应为 1）" in rejected(new_game, DOUBLE | {KG: CIVILIAN}, DOUBLE_VARIANTS)


def test_double_rule_2_gods_score_with_their_side():
    """双守护 2 “警神/匪神 加分情况同 警/匪”."""
    assert variants.camp(POLICE_GOD) == variants.camp(POLICE)
    assert variants.camp(KILLER_GOD) == variants.camp(KILLER)


@pytest.mark.parametrize(
    ("god", "target", "works"),
    [
        (POLICE_GOD, POLICE, True),
        (POLICE_GOD, CIVILIAN, True),
        (POLICE_GOD, POISON, True),
        (POLICE_GOD, KILLER, False),
        (POLICE_GOD, GHOST, False),
        (POLICE_GOD, POSSESSED, False),
        (POLICE_GOD, KILLER_GOD, False),
        (KILLER_GOD, KILLER, True),
        (KILLER_GOD, GHOST, True),
        (KILLER_GOD, POSSESSED, True),
        (KILLER_GOD, CIVILIAN, True),
        (KILLER_GOD, POLICE, False),
        (KILLER_GOD, POLICE_GOD, False),
        (KILLER_GOD, POISON, False),
        (GUARDIAN, KILLER, True),
        (GUARDIAN, POLICE, True),
    ],
)
def test_double_rule_3_each_god_guards_only_its_side_and_civilians(god, target, works):
    """双守护 3 “警神守护,仅仅对警察和平民产生作用,对匪和匪神无效;匪神守护,仅仅对匪徒和平民
    产生作用,对警和警神无效” (Decision: the 毒药 counts as 警)."""
    assert guard_works(god, target) is works


def test_double_rule_3_the_killer_god_saves_a_killer():
    result = night(double(), kill=K2, pact=K1, guards={KG: K2})
    assert deaths(result) == [(KG, "guarded_kill", None)]


def test_double_rule_4_in_place_of_a_kill_no_identity():
    """双守护 4 “替人被杀显灵时,不揭露身份”."""
    result = night(double(), kill=D1, guards={PG: D1})
    assert deaths(result) == [(PG, "guarded_kill", None)]
    assert result.posts[:2] == ("天亮了，请大家睁眼。", "8号死亡，不公布身份。")


def test_double_rule_4_in_place_of_a_vote_only_guardian():
    """双守护 4 “替人被票显灵时,身份仅仅揭露为‘守护神’,不说明是‘警神’还是‘匪神’”."""
    state = night(double(), kill=D2, guards={KG: D1}).state
    assert vote_out(state, [D1]).deaths == (Death(KG, "guarded_vote", GUARDIAN),)


@pytest.mark.parametrize(("god", "name"), [(PG, POLICE_GOD), (KG, KILLER_GOD)])
def test_double_rule_4_voted_directly_or_checked_names_the_god(god, name):
    """双守护 4 “自己直接被票死时,宣布其身份为‘警神’或者‘匪神’;守护神被验时,明确向警方说明”."""
    assert vote_out(double(), [god]).deaths[0].shown == name
    assert night(double(), kill=D1, checks=(god,)).checks[0].identity == name


def test_double_rule_4_a_god_killed_directly_is_not_named_either():
    """Decision: a god killed directly is unnamed too, or the difference would tell the truth."""
    assert deaths(night(double(), kill=PG)) == [(PG, "killed", None)]


def test_double_rule_5_both_gods_on_one_civilian_both_die():
    """双守护 5 “若双神在某轮同时守护一平民,该人当轮死亡时,双神皆死”."""
    result = night(double(), kill=D1, guards={PG: D1, KG: D1})
    assert deaths(result) == [(PG, "guarded_kill", None), (KG, "guarded_kill", None)]
    assert result.state.alive(D1)


def test_double_rule_6_killer_god_killed_directly_disables_the_police_god():
    """双守护 6 “匪方守护神被匪徒一方提交为被害人而直接杀死,从匪守被杀当轮起,警方守护神身份作用
    转变为平民……不再具备守护能力,当轮提交的守护名单也同时作废。以上转变由执法团私下通知警方守护神”."""
    result = night(double(), kill=KG, guards={PG: D1})
    assert result.state.records[PG].disabled
    assert result.state.guards == {}
    assert [notice.to for notice in result.notices] == [PG]
    day = vote_out(result.state, [D1])  # the voided guard no longer protects
    assert day.deaths == (Death(D1, "voted", CIVILIAN),)
    assert "已失去守护能力" in rejected(
        resolve_night, day.state, NightActions(D2, pact=K1, guards={PG: D3})
    )


def test_double_rule_6_the_change_is_hidden_from_everyone_else():
    """双守护 6 “其他身份人员无法知晓此暗地变动(即使已经验过警方守护神的警察)”; “票杀揭牌仍宣布
    是‘警方守护神’”."""
    state = night(double(), kill=KG).state
    assert night(state, kill=D1, checks=(PG,)).checks[0].identity == POLICE_GOD
    assert vote_out(state, [PG]).deaths[0].shown == POLICE_GOD
    assert not state.records[PG].skips  # no longer guarding, never derelict


def test_double_rule_6_no_notice_when_the_police_god_is_already_dead():
    """双守护 6 “若在此之前警神已死,则不再做通知”."""
    result = night(double(out={PG}), kill=KG)
    assert result.notices == ()


def test_double_rule_7_killmod_writes_no_clue_for_the_judge_to_edit():
    """双守护 7 “守护神替杀显灵当轮,执法团可根据案情适当编修杀手团提供的原始线索”: the dawn
    post names only the dead, never the killers' target; the clue is the judge's."""
    result = night(double(), kill=D1, guards={PG: D1})
    assert all(str(D1) not in post for post in result.posts)


def test_double_rule_8_the_single_rules_hold_for_the_gods():
    """双守护 8 “其余规则与单守护同”: 守护 3 and 守护 2 bind each god."""
    state = night(double(), kill=D2, guards={PG: D1, KG: D1}).state
    assert "每位玩家只有一次被守护的机会" in rejected(
        resolve_night, state, NightActions(D3, pact=K1, guards={PG: D1})
    )
    state = night(state, kill=D3, guards={PG: P1}).state  # 匪神 skips: its first
    state = night(state, kill=P1, guards={PG: P2}).state
    assert not state.alive(KG)


def test_guards_submitted_by_a_non_guardian_are_rejected():
    assert "不是守护神" in rejected(
        resolve_night, single(), NightActions(C1, pact=K1, guards={C2: C3})
    )


# ---------------------------------------------------------------- decisions the rules leave open


def test_possessing_a_guardian_has_no_effect_and_nobody_is_told():
    """Decision: 鬼匪 1–3 name 平民, 警察, 毒药 only; a guardian is untouched, the try used."""
    result = night(single(), kill=C1, possess=GD, guards={GD: C2})
    assert result.state.roles[GD] == GUARDIAN
    assert result.state.possession_used
    assert result.notices == ()


def test_each_guardian_keeps_its_own_history():
    """Decision: 守护 3's “只有一次被守护的机会” is per guardian (双守护 5 has both on one)."""
    state = night(double(), kill=D2, guards={PG: D1}).state
    result = night(state, kill=D3, guards={PG: P1, KG: D1})
    assert result.state.records[KG].guarded == (D1,)


def test_a_guard_does_not_stop_the_poison_or_a_possession():
    """Decision: the guard covers “被杀、被票” only, not dying with the 毒药."""
    result = night(double(), kill=PO, pact=K1, guards={KG: K1})
    assert {PO, K1} <= result.state.out
    assert result.state.alive(KG)


def test_a_voted_poison_shows_as_poison():
    """Decision: only the deaths 细则 3 names are hidden; a voted 毒药 shows its card."""
    assert vote_out(single(), [PO]).posts == ("7号被票出局，身份：毒药。请留遗言。",)


def test_the_first_day_has_no_guard_in_force():
    """Decision: guards are submitted with the night's lists; the first day comes before any."""
    assert vote_out(single(), [C1]).deaths == (Death(C1, "voted", CIVILIAN),)


def test_a_kill_on_the_guarded_with_no_guard_left_kills():
    """The guard holds for one round: the next night's list replaces it."""
    state = night(single(), kill=C2, guards={GD: C1}).state
    result = night(state, kill=C1, guards={GD: C3})
    assert (C1, "killed", CIVILIAN) in deaths(result)


# ---------------------------------------------------------------- 守护 4, 双守护 6, the judge


def test_rule_4_double_kill_is_the_guardian_and_the_guarded_tied_at_the_top():
    """守护 4 “当守护人和被守护人产生双杀票数时,二者同死”: the pair, in either order, only."""
    state = single(guards={GD: C1})
    assert variants.double_kill(state, (C1, GD)) == (GD, C1)
    assert variants.double_kill(state, (GD, C2)) is None  # not the one he guards
    assert variants.double_kill(state, (GD, C1, C2)) is None  # three at the top
    assert variants.double_kill(single(), (GD, C1)) is None  # no guard in force
    gods = double(guards={KG: P1})  # 双守护 3: the 匪神's guard does not work on a 警察
    assert variants.double_kill(gods, (KG, P1)) is None


def test_double_rule_6_the_disabled_police_god_counts_as_a_civilian_in_the_win_check():
    """双守护 6 “警方守护神身份作用转变为平民”: 细则 5B 平民全灭 is not met while he lives."""
    out = frozenset({D1, D2, D3})
    disabled = double(out=out, records={PG: GuardRecord(disabled=True)})
    assert check_win(disabled) is None
    assert check_win(double(out=out)).winner == variants.KILLER_CAMP


def test_the_judge_puts_out_and_shows_the_card_as_a_drowning_does():
    """鬼匪 5: the judge's out shows a 鬼匪 as 杀手; no guard saves from it."""
    result = leave(single(guards={GD: GH}), GH, "judged", how="误睁眼，退出本轮游戏")
    assert result.posts == ("4号误睁眼，退出本轮游戏，身份：杀手。",)
    assert result.deaths == (Death(GH, "judged", KILLER),)


def test_surrender_by_side_not_by_a_civilian_or_the_free_guardian():
    assert variants.surrender(single(), PO).winner == variants.KILLER_CAMP  # 毒药 is 警方
    assert variants.surrender(double(), KG).winner == variants.GOOD_CAMP  # 匪神 is 匪方
    assert "不能代表一方投降" in rejected(variants.surrender, single(), GD)
    assert "不能代表一方投降" in rejected(variants.surrender, single(), C1)
