"""X, 1.0, 2.0 and the 2.0 花样玩法 through the commands on real game files.

Every vote is tallied over HTTP from the tests' local board; a vote after the
first of a round reads the same or a later thread with a later deadline.
"""

from __future__ import annotations

import json

import pytest

from killmod.ballots.votes import read_knife
from killmod.game.store import Game
from tests.support.gamefiles import (
    DEADLINE,
    LATER,
    alive,
    deadline,
    events,
    new_game,
    night,
    night_json,
    ok,
    point_all,
    private_text,
    refused,
    roster_toml,
    run,
    said,
    serve,
    tally,
    tally_json,
    votes,
)

X_ROLES = {1: "杀手", 2: "杀手", 3: "警察", 4: "警察", 5: "平民", 6: "平民", 7: "平民", 8: "平民"}
R10_ROLES = {1: "杀手", 2: "杀手", 3: "平民", 4: "平民", 5: "平民", 6: "平民"}
R20_ROLES = {1: "杀手", 2: "杀手", 3: "杀手", 4: "警察", 5: "警察", 6: "警察"} | {
    seat: "平民" for seat in range(7, 13)
}
VARIANT_ROLES = R20_ROLES | {3: "鬼匪", 7: "守护神"}
VARIANTS = 'variants = ["ghost", "guardian"]'
ROLE_WORDS = ("杀手", "警察", "平民")


# --- the knife phase's reading -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("动刀", "knife"),
        ("刀！", "knife"),
        ("Knife", "knife"),
        ("動刀", "knife"),
        ("过", "pass"),
        ("pass", "pass"),
        ("不刀", "pass"),
        ("不动刀，过", "pass"),
        ("不过我还是刀了", "knife"),
        ("刀 过", "ambiguous"),
        ("今天天气不错", None),
        ("杀", "knife"),
        ("杀！", "knife"),
        ("举手", "knife"),
        ("不杀", "pass"),
        ("不举手", "pass"),
        ("没动刀", "pass"),
        ("我不是杀手", None),  # 杀手 is talk
        ("杀人游戏真好玩", None),
        ("我要自杀", None),
    ],
)
def test_knife_phase_posts_read_knife_or_pass(text, choice):
    found = read_knife(text)
    assert (found[0] if found else None) == choice


# --- X -----------------------------------------------------------------------------------------


@pytest.fixture
def x_game(tmp_path):
    return new_game(tmp_path, "x", X_ROLES)


def test_x_night_kill_and_the_police_gesture_in_private(x_game):
    refused(night(x_game, 1, "--check", 1), "杀手每晚必须杀一人")
    public = ok(night(x_game, 1, "--kill", 5, "--check", 1, "--format", "text"))
    assert "本轮被杀的是5号。" in public and "请留第1个遗言。" in public
    assert not any(word in public for word in ROLE_WORDS) and "仅发给" not in public
    private = private_text(x_game, "night1-private.txt")
    assert "1号 玩家1：杀手（裁判手势：竖起右手拇指）" in private.split("仅发给警察")[1]
    doc = night_json(x_game, 1, "--kill", 5, "--check", 3, "--replace", "--yes")
    assert doc == {"schema": "killmod.night/1", "round": 1, "out": [5], "shown": {}}
    assert "3号 玩家3：警察" in private_text(x_game, "night1-private-2.txt")  # recorded again


def test_x_the_whole_night_document_takes_print_secrets(x_game):
    doc = night_json(x_game, 1, "--kill", 5, "--check", 3, "--print-secrets", "--yes")
    assert doc == {
        "schema": "killmod.night/1",
        "round": 1,
        "out": [5],
        "shown": {},
        "checks": [{"seat": 3, "identity": "警察"}],
        "notices": [],
    }


def test_x_tie_procedure_is_kept_per_round_and_ends_in_a_draw(x_game, serve_site):
    ok(night(x_game, 1, "--kill", 5))
    tie = {1: "投6", 2: "投7", 3: "投6", 4: "投7"}
    url = serve(
        serve_site,
        votes("20:00:00", tie) + votes("22:30:00", tie | {8: "投3号"}) + votes("23:10:00", tie),
    )
    first = tally_json(x_game, url, "--record")
    assert first["day"]["posts"] == [
        "6号与7号平票。",
        "请6号与7号开始辩。",
        "现在对6号与7号再次投票。",
    ]
    assert first["day"]["next"]["kind"] == "tied_revote"
    assert "第 1 轮的下一次投票：先开投票帖" in ok(run("status", "--db", x_game))
    refused(run("lottery", "make", "--round", 1, "--db", x_game), "x 规则平票不抽签")
    second = ok(tally(x_game, url, "--record", "--format", "text", deadline=LATER))
    assert "【第 1 轮平票者发言后再次投票结果】" in second
    assert "本次只能投：6号 玩家6、7号 玩家7" in second
    assert "再次平票：6号与7号平票。" in second and "请除6号与7号以外的人开始发言。" in second
    assert "投票对象已出局或不是本局玩家（不是本次投票的候选人）" in second  # 8 voted for 3
    third = ok(tally(x_game, url, "--record", deadline=deadline(1, "23:59")))
    assert "仍然平票，本局硬性判定为平局。" in third and "游戏结束：平局" in third
    kinds = [e.data["stage"]["kind"] for e in events(x_game, "day")]
    assert kinds == ["vote", "tied_revote", "final_revote"]
    (over,) = events(x_game, "game_over")
    assert over.data["draw"] is True


def test_x_last_words_for_the_first_deaths_only(x_game, serve_site):
    assert "请留第1个遗言。" in ok(night(x_game, 1, "--kill", 5))
    url = serve(serve_site, votes("20:00:00", {1: "投6", 2: "投6", 3: "投7"}))
    day = ok(tally(x_game, url, "--record"))
    assert "6号被公决出局。" in day and "请留第2个（最后一个）遗言。" in day
    assert "身份" not in day  # X shows no card
    assert "7号没有遗言。" in ok(night(x_game, 2, "--kill", 7))


def test_x_every_civilian_out_is_a_draw(tmp_path):
    db = new_game(tmp_path, "x", X_ROLES, out=(2, 4, 6, 7, 8))
    output = ok(night(db, 1, "--kill", 5))
    assert "游戏结束：平局" in output and "平民全部出局，平局。" in output


def test_x_the_first_victim_may_not_be_killed_first_again_next_game(x_game, tmp_path):
    ok(night(x_game, 1, "--kill", 5))
    roster = tmp_path / "next.toml"
    swapped = {2: "玩家5", 5: "玩家2"}  # 玩家5 now sits in seat 2
    roster.write_text(roster_toml("x", X_ROLES, names=swapped), encoding="utf-8")
    refused(run("init", "--roster", roster, "--db", x_game, "--next-game", "--force"), "只能选一个")
    started = run("init", "--roster", roster, "--db", x_game, "--next-game")
    assert "上一局的记录保留" in said(started)
    game = Game.open(x_game)
    assert game.previous_games()[0]["first_victim"] == "玩家5"
    assert game.events() == [] and len(alive(x_game)) == 8
    refused(night(x_game, 1, "--kill", 2, "--yes"), "不允许连续两局第一轮杀同一个人")
    ok(night(x_game, 1, "--kill", 5, "--check", 3, "--yes"))  # 3 is a police
    assert "3号 玩家3：警察" in private_text(x_game, "game2-night1-private.txt")
    ok(night(x_game, 2, "--kill", 2, "--skip-day", "--yes"))  # only round 1 is ruled out
    all_deaths = [
        row["seat"] for row in game.db.query("select seat from events where kind = 'death'")
    ]
    assert all_deaths == [5, 5, 2]  # the first game's death is kept in the file


# --- 1.0 ---------------------------------------------------------------------------------------


@pytest.fixture
def r10_game(tmp_path):
    return new_game(tmp_path, "1.0", R10_ROLES)


def test_1_0_points_then_knifes_until_someone_is_out(r10_game, serve_site):
    refused(night(r10_game, 1, "--kill", 3), "1.0 规则的夜晚不杀人")
    url = serve(
        serve_site,
        point_all("20:00:00", 1, (2, 3, 4))
        + votes("20:10:00", {5: "投2", 6: "投3"})
        # 2 and 5 pass, 3-4 knife, 1's own knife never counts, 6 says nothing: one short
        + votes("22:30:00", {1: "刀", 2: "过", 3: "动刀", 4: "刀", 5: "不杀"}),
    )
    refused(tally(r10_game, url, "--phase", "knife"), "这一轮现在是指认阶段，不是动刀阶段")
    pointed = ok(tally(r10_game, url, "--record", "--phase", "point", "--format", "text"))
    assert "【第 1 轮指认结果】" in pointed and "1号被指认最多，请1号出来辩解。" in pointed
    assert "第 1 轮的下一次动刀：先开投票帖" in ok(run("status", "--db", r10_game))
    refused(tally(r10_game, url, "--phase", "point"), "现在是动刀阶段（辩解者 1号）")
    doc = tally_json(r10_game, url, "--record", "--phase", "knife", deadline=LATER)
    knife = doc["day"]["knife"]
    assert (knife["base"], knife["threshold"], knife["knives"]) == (5, 3, [3, 4])
    assert (knife["passes"], knife["silent"], knife["ignored"]) == ([2, 5], [6], [1])
    assert doc["outcome"] == {"kind": "none"} and 1 in alive(r10_game)
    assert "请从1号开始按逆时针方向重新指认。" in doc["day"]["posts"][0]
    assert doc["day"]["next"]["kind"] == "point"
    again = serve(
        serve_site,
        point_all("20:00:00", 1, (2, 3, 4))
        + votes("22:00:00", dict.fromkeys((2, 3, 4, 5), "动刀")),
        day=2,
    )
    ok(tally(r10_game, again, "--record", "--round", 1, deadline=deadline(2, "21:00")))
    text = ok(tally(r10_game, again, "--record", "--round", 1, deadline=deadline(2, "23:00")))
    assert "动刀已超过半数：1号出局。" in text and "L-" not in text
    assert "第 1 轮：1号出局（不亮底牌），请留遗言。" in text
    assert "杀手" not in text.split("[b]结果[/b]")[1]  # round one shows no card


def test_1_0_round_two_shows_the_card_and_the_first_out_too(tmp_path, serve_site):
    db = new_game(tmp_path, "1.0", R10_ROLES | {5: "杀手", 1: "平民"}, out=(6,))
    # seat 6 out from the start: 1.0's round counts from it; 2 and 5 are the killers
    url = serve(
        serve_site,
        point_all("20:00:00", 2, (1, 3, 4, 5)) + votes("22:30:00", dict.fromkeys((1, 3, 4), "刀")),
    )
    ok(tally(db, url, "--record", "--phase", "point"))
    text = ok(tally(db, url, "--record", "--phase", "knife", deadline=LATER))
    assert "第 2 轮：2号出局，亮底牌：杀手。请留遗言。" in text


def test_1_0_knife_needs_the_game_file_but_pointing_counts_from_a_roster(tmp_path, serve_site):
    roster = tmp_path / "r.toml"
    roster.write_text(roster_toml("1.0", R10_ROLES), encoding="utf-8")
    url = serve(serve_site, point_all("20:00:00", 1, (2, 3)))
    common = ("tally", url, "--roster", roster, "--deadline", DEADLINE)
    refused(run(*common, "--phase", "knife"), "动刀阶段要用游戏文件")
    doc = json.loads(ok(run(*common, "--phase", "point", "--format", "json")))
    assert doc["outcome"] == {"kind": "eliminated", "seat": 1} and "day" not in doc
    v4 = tmp_path / "v4.toml"
    v4.write_text(roster_toml("v4", dict.fromkeys(range(1, 12))), encoding="utf-8")
    refused(
        run("tally", url, "--roster", v4, "--deadline", DEADLINE, "--phase", "point"),
        "v4 规则的白天只有投票",
    )


# --- 2.0 ---------------------------------------------------------------------------------------


@pytest.fixture
def r20_game(tmp_path):
    return new_game(tmp_path, "2.0", R20_ROLES)


def test_2_0_the_knifed_card_is_not_shown_only_the_night_dead_is(r20_game, serve_site):
    refused(night(r20_game, 1, "--kill", 7), "从第 2 夜开始")
    others = range(2, 12)
    url = serve(
        serve_site,
        point_all("20:00:00", 1, others) + votes("22:30:00", dict.fromkeys(range(2, 8), "刀")),
    )
    ok(tally(r20_game, url, "--record"))
    doc = tally_json(r20_game, url, "--record", deadline=LATER)
    knife = doc["day"]["knife"]
    assert (knife["base"], knife["threshold"], knife["out"]) == (11, 6, True)
    assert doc["day"]["shown"] == {}  # 注意事项 f): no card is shown
    assert "1号被判死亡。有遗言权利的辩解者请留遗言。" in doc["day"]["posts"]
    dawn = ok(night(r20_game, 2, "--kill", 7, "--check", 2))
    assert "昨夜被杀的是7号，翻牌：平民。被杀者没有遗言。" in dawn


def test_2_0_suicide_in_his_defence_ends_the_day(r20_game, serve_site):
    url = serve(serve_site, point_all("20:00:00", 2, range(3, 10)))
    ok(tally(r20_game, url, "--record"))
    refused(run("suicide", 7, "--db", r20_game), "只有杀手可以亮牌自杀")
    output = ok(run("suicide", 2, "--db", r20_game, "--format", "text"))
    assert "2号在辩解时亮牌自杀，翻牌：杀手。杀手没有遗言。" in output
    assert "天黑了，请大家闭眼。" in output
    (suicide,) = events(r20_game, "suicide")
    assert suicide.data["defending"] is True and suicide.data["next"] is None
    assert "第 2 夜：killmod night --round 2" in ok(run("status", "--db", r20_game))
    refused(tally(r20_game, url, "--record", "--round", 1), "--replace")


def test_2_0_an_early_reveal_restarts_the_pointing_and_can_end_the_game(r20_game, serve_site):
    out = ok(run("suicide", 3, "--db", r20_game, "--round", 1, "--at", "2024-03-01 21:00"))
    assert "3号未到自己辩解时提前亮牌，视为主动放弃游戏，翻牌：杀手。" in out
    assert "不进入黑夜，从3号开始按顺时针方向重新指认。" in out
    url = serve(
        serve_site,
        point_all("20:30:00", 4, (5, 6)) + point_all("21:30:00", 1, range(4, 12)),
    )
    doc = tally_json(r20_game, url, "--record")
    assert doc["day"]["stage"]["kind"] == "point"
    assert doc["day"]["stage"]["opened"] == "2024-03-01T21:00:00+08:00"
    assert {v["seat"] for v in doc["verdicts"] if v["verdict"] == "earlier_vote"} == {5, 6}
    assert doc["day"]["next"] == {**doc["day"]["next"], "kind": "knife", "defender": 1}
    ok(run("suicide", 1, "--db", r20_game))  # in his own defence
    ok(night(r20_game, 2, "--kill", 7))
    final = ok(run("suicide", 2, "--db", r20_game, "--round", 2))
    assert "游戏结束：警民方胜利" in final and "杀手全部出局" in final
    refused(run("suicide", 4, "--db", r20_game), "游戏已经结束")


def test_suicide_is_2_0_only(x_game):
    refused(run("suicide", 1, "--db", x_game), "x 规则没有杀手亮牌自杀")


# --- 2.0 花样玩法 ------------------------------------------------------------------------------


def test_variants_deal_with_their_table(tmp_path):
    db = new_game(tmp_path, "2.0", dict.fromkeys(range(1, 13)), extra=VARIANTS)
    ok(run("deal", "--db", db, "--seed", 9, "--notices", tmp_path / "n"))
    roles = [p.role for p in Game.open(db).roster().players]
    assert (roles.count("鬼匪"), roles.count("杀手"), roles.count("守护神")) == (1, 2, 1)
    assert (roles.count("警察"), roles.count("平民")) == (3, 5)


def test_variants_night_guard_possession_and_check(tmp_path):
    db = new_game(tmp_path, "2.0", VARIANT_ROLES, extra=VARIANTS)
    refused(night(db, 2, "--kill", 8, "--pact", 1), "本局没有毒药，不需要生死状")
    refused(night(db, 2, "--kill", 8, "--guard", "7=7"), "守护神不得守护自己")
    args = ("--kill", 8, "--guard", "7=8", "--possess", 9, "--check", 9, "--format", "text")
    public = ok(night(db, 2, *args))
    assert "7号死亡，身份：守护神。" in public and "8号" not in public
    assert "被附体" not in public and "鬼匪" not in public
    private = private_text(db, "night2-private.txt")
    assert "9号 玩家9：被附体匪" in private
    assert "你已被鬼匪附体" in private and "附体成功：9号已转为匪" in private
    assert alive(db) == [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12]


def test_variants_a_voted_ghost_shows_only_as_a_killer(tmp_path, serve_site):
    db = new_game(tmp_path, "2.0", VARIANT_ROLES, extra=VARIANTS)
    url = serve(
        serve_site,
        point_all("20:00:00", 3, range(4, 12))
        + votes("22:30:00", dict.fromkeys(range(4, 12), "刀")),
    )
    ok(tally(db, url, "--record"))
    text = ok(tally(db, url, "--record", deadline=LATER))
    assert "3号被票出局，身份：杀手。" in text and "鬼匪" not in text


def test_variants_win_check_counts_the_possessed_with_the_killers(tmp_path):
    db = new_game(tmp_path, "2.0", VARIANT_ROLES, extra=VARIANTS, out=(2, 5, 6, 7, 10, 11, 12))
    output = ok(night(db, 2, "--kill", 8, "--possess", 9))
    assert "游戏结束：杀手方胜利" in output and "平民全部出局，杀手一方获胜。" in output


def test_variants_the_ghost_keeps_the_killers_in_the_game(tmp_path, serve_site):
    db = new_game(tmp_path, "2.0", VARIANT_ROLES, extra=VARIANTS, out=(2, 5, 6, 7, 10, 11, 12))
    url = serve(
        serve_site,
        point_all("20:00:00", 1, (3, 4, 8, 9)) + votes("22:30:00", dict.fromkeys((3, 4, 8), "刀")),
    )
    ok(tally(db, url, "--record"))
    text = ok(tally(db, url, "--record", deadline=LATER))
    assert "1号被票出局，身份：杀手。" in text
    assert "游戏结束" not in text and not events(db, "game_over")  # the 鬼匪 is still in


def test_variants_poison_needs_a_pact_and_hides_the_pair(tmp_path):
    roles = R20_ROLES | {7: "毒药"}
    db = new_game(tmp_path, "2.0", roles, extra='variants = ["poison"]')
    refused(night(db, 2, "--kill", 7), "须同时写明生死状")
    refused(night(db, 2, "--kill", 8, "--pact", 1, "--check", 8, "--check", 9), "不是毒药")
    public = ok(night(db, 2, "--kill", 7, "--pact", 1, "--check", 7, "--format", "text"))
    assert "1号、7号同死：一人是毒药，一人是与毒药同死的匪徒，不公布谁是谁。" in public
    private = private_text(db, "night2-private.txt")
    assert "7号 玩家7：毒药" in private.split("仅发给警察")[1]
    assert alive(db) == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12]


# --- X: one vote each (3.18, 注意事项 11) ------------------------------------------------------


def test_x_one_vote_each_the_first_ballot_stands_a_later_one_is_a_repeat_ballot(x_game, serve_site):
    """“每个人只有一次投票机会……不得跟票或补票。跟票或补票将被记为无效票。”"""
    ok(night(x_game, 1, "--kill", 5))
    rows = [
        (1, "20:00:00", "投6号"),
        (2, "20:01:00", "弃权"),
        (3, "20:02:00", "投7号"),
        (1, "20:10:00", "改投7号"),  # a change is no change under X
        (2, "20:11:00", "投7号"),  # an explicit abstain was his one ballot
        (4, "20:12:00", "投6号"),
        (4, "20:13:00", "投6号"),  # the same vote again is still a second ballot
    ]
    doc = tally_json(x_game, serve(serve_site, rows), "--record")
    assert {b["seat"]: (b["kind"], b["target"]) for b in doc["ballots"]} == {
        1: ("vote", 6),
        2: ("abstain", None),
        3: ("vote", 7),
        4: ("vote", 6),
        6: ("self", None),
        7: ("self", None),
        8: ("self", None),
    }
    assert doc["changes"] == []
    repeats = [(r["seat"], r["floor"]) for r in doc["rejected"] if r["reason"] == "repeat_ballot"]
    assert repeats == [(1, 5), (2, 6), (4, 8)]
    assert doc["outcome"] == {"kind": "eliminated", "seat": 6}
    text = ok(tally(x_game, serve(serve_site, rows), "--format", "audit", "--round", 1))
    assert "重复投票：每人只有一次投票机会，跟票或补票记为无效票" in text


def test_x_genpiao_and_bupiao_are_invalid_ballots_while_1_2_reads_them(x_game, serve_site):
    """注意事项 11 “不得跟票或补票。跟票或补票将被记为无效票”: a ballot that says 跟票 or 补票 is
    rejected ``follow_vote``; it was the voter's one ballot (3.18), so a later one is a
    ``repeat_ballot``; a later 补票 after a first ballot is a ``repeat_ballot`` first (the
    older code comes first). Under 1.2 “跟票5号” is a vote for 5 (docs/rules/x.md)."""
    ok(night(x_game, 1, "--kill", 5))
    rows = [
        (1, "20:00:00", "投6号"),
        (2, "20:01:00", "跟票6号"),  # invalid, and his one ballot
        (3, "20:02:00", "补票：7号"),
        (2, "20:03:00", "投7号"),  # after his one ballot
        (4, "20:04:00", "我不跟票，投7号"),  # says he does not follow: a ballot
        (1, "20:05:00", "补票 7号"),  # his second ballot
    ]
    url = serve(serve_site, rows)
    audit = ok(tally(x_game, url, "--format", "audit"))
    assert "跟票或补票，记为无效票" in audit
    doc = tally_json(x_game, url, "--record")
    reasons = {(r["seat"], r["floor"]): r["reason"] for r in doc["rejected"]}
    assert reasons == {
        (2, 3): "follow_vote",
        (3, 4): "follow_vote",
        (2, 5): "repeat_ballot",
        (1, 7): "repeat_ballot",
    }
    ballots = {b["seat"]: (b["kind"], b["target"]) for b in doc["ballots"]}
    assert ballots[1] == ("vote", 6) and ballots[4] == ("vote", 7)
    assert ballots[2] == ballots[3] == ("self", None)  # no valid ballot: not counted
    assert doc["outcome"] == {"kind": "tie", "seats": [6, 7]}


def test_x_gentou_and_butou_are_genpiao_and_bupiao(x_game, serve_site):
    """跟投6号, 跟着投6号 and 补投7号 say 跟票 and 补票 with the verb: invalid under X too (they
    were counted, and turned a vote for 7 into a tie)."""
    ok(night(x_game, 1, "--kill", 5))
    rows = [
        (1, "20:00:00", "投6号"),
        (2, "20:01:00", "跟投6号"),
        (3, "20:02:00", "跟着投6号"),
        (4, "20:03:00", "补投7号"),
        (6, "20:04:00", "投7号"),
        (7, "20:05:00", "我不跟投，投7号"),
    ]
    doc = tally_json(x_game, serve(serve_site, rows))
    reasons = {r["seat"]: r["reason"] for r in doc["rejected"]}
    assert reasons == {2: "follow_vote", 3: "follow_vote", 4: "follow_vote"}
    assert doc["outcome"] == {"kind": "eliminated", "seat": 7}


def test_1_2_reads_genpiao_as_a_vote(tmp_path, serve_site):
    """1.2 has no sentence against 跟票: “跟票5号” is a vote for 5, “补票 5号” too."""
    db = new_game(tmp_path, "1.2", {seat: None for seat in range(1, 9)})
    url = serve(serve_site, [(1, "20:00:00", "跟票5号"), (2, "20:01:00", "补票 5号")])
    doc = tally_json(db, url)
    assert {b["seat"]: b["target"] for b in doc["ballots"]}[1] == 5
    assert {b["seat"]: b["target"] for b in doc["ballots"]}[2] == 5
    assert not [r for r in doc["rejected"] if r["seat"] in (1, 2)]


def test_x_a_non_vote_post_is_no_violation_only_1_2_has_that_rule(x_game, serve_site):
    """1.2 二.5 “……非正式投票内容的发言按犯规处理” is not an X rule: nothing says 犯规."""
    ok(night(x_game, 1, "--kill", 5))
    url = serve(serve_site, [(1, "20:00:00", "投6号"), (2, "20:05:00", "我觉得6号很可疑")])
    post = ok(tally(x_game, url))
    assert "犯规" not in post and "无效发言" not in post  # the public post says nothing
    audit = ok(tally(x_game, url, "--format", "audit"))
    assert "不是投票的发言，不计票" in audit and "犯规" not in audit
    doc = tally_json(x_game, url, "--record")
    assert [(r["seat"], r["reason"]) for r in doc["rejected"]] == [(2, "no_vote")]  # the code
    assert "无。" in ok(run("audit", "--db", x_game)).split("投票帖")[1].split("游戏帖")[0]


# --- 1.0 / 2.0: the pointing reads 指认, the knife 杀 / 不杀 -----------------------------------


def test_pointing_reads_zhiren_and_the_knife_reads_sha_bu_sha_jushou(r10_game, serve_site):
    """1.0 4.7 “任意指认一名心目中的杀手”; 4.9 “你觉得他是杀手就举手动刀。反之就不动”;
    2.0 m) “动刀：指杀辩解者，过：指不杀辩解者”."""
    rows = votes(
        "20:00:00", {2: "指认 6号", 3: "我指认6号", 4: "指认：6号", 5: "指6号", 6: "指认1号"}
    ) + votes("22:30:00", {1: "杀！", 2: "举手", 3: "不杀", 4: "不举手", 5: "动刀"})
    url = serve(serve_site, rows)
    pointed = tally_json(r10_game, url, "--record")
    assert pointed["outcome"] == {"kind": "eliminated", "seat": 6}
    assert [c["voters"] for c in pointed["counts"]] == [[2, 3, 4, 5], [6]]
    post = ok(tally(r10_game, url, "--round", 1, "--replace", "--record", "--format", "text"))
    assert "被指认\n6号 玩家6：4 票" in post and "得票" not in post
    knife = tally_json(r10_game, url, "--record", deadline=LATER)["day"]["knife"]
    assert (knife["knives"], knife["passes"]) == ([1, 2, 5], [3, 4])
    assert knife["out"] is True  # 3 of the 5 others: more than half


def test_the_knife_post_speaks_the_rule_words_not_forum_labels(r10_game, serve_site):
    url = serve(
        serve_site,
        point_all("20:00:00", 6, (1, 2, 3)) + votes("22:30:00", {1: "动刀", 2: "过"}),
    )
    ok(tally(r10_game, url, "--record"))
    post = ok(tally(r10_game, url, "--record", deadline=LATER))
    assert (
        "辩解者：6号 玩家6（动刀超过除辩解者以外存活人数（5 人）的半数即出局：至少 3 刀）" in post
    )
    assert "动刀未超过半数：6号存活。" in post and "L-" not in post


# --- 2.0 花样玩法: 2.0's lines, 守护 4 双杀, 双守护 6 ------------------------------------------


def test_variants_posts_keep_2_0_last_words_and_the_pointing_start(tmp_path, serve_site):
    """“在2.0标准版基础上”: the night's dead have no 遗言 and the pointing starts from them;
    a knifed killer has none, anyone else is asked for 遗言."""
    db = new_game(tmp_path, "2.0", VARIANT_ROLES, extra=VARIANTS)
    dawn = ok(night(db, 2, "--kill", 9, "--guard", "7=8", "--format", "text"))
    assert "9号死亡，身份：平民。" in dawn
    assert "被杀者没有遗言。" in dawn and "从9号开始按顺时针方向指认。" in dawn
    url = serve(
        serve_site,
        point_all("20:00:00", 1, range(2, 9)) + votes("22:30:00", dict.fromkeys(range(2, 9), "刀")),
    )
    ok(tally(db, url, "--record", "--round", 2))
    text = ok(tally(db, url, "--record", "--round", 2, deadline=LATER))
    assert "1号被票出局，身份：杀手。杀手没有遗言。" in text


def test_guardian_double_kill_a_tie_of_guardian_and_guarded_kills_both(tmp_path, serve_site):
    """守护 4 “当守护人和被守护人产生双杀票数时,二者同死。”: reached from the commands."""
    db = new_game(tmp_path, "2.0", VARIANT_ROLES, extra=VARIANTS)
    ok(night(db, 2, "--kill", 9, "--guard", "7=8"))
    tie = votes("20:00:00", {1: "投7", 2: "投7", 3: "投8", 4: "投8"})
    doc = tally_json(db, serve(serve_site, tie), "--record", "--round", 2)
    assert doc["outcome"] == {"kind": "tie", "seats": [7, 8]}
    assert doc["day"]["out"] == [7, 8] and doc["day"]["next"] is None  # no re-pointing
    assert doc["day"]["posts"][0] == "7号与8号平票：守护人和被守护人产生双杀票数，二者同死。"
    assert "7号被票出局，身份：守护神。请留遗言。" in doc["day"]["posts"]
    assert not {7, 8} & set(alive(db))
    assert "第 3 夜" in ok(run("status", "--db", db))


def test_a_tie_without_the_guard_pair_is_pointed_again(tmp_path, serve_site):
    db = new_game(tmp_path, "2.0", VARIANT_ROLES, extra=VARIANTS)
    ok(night(db, 2, "--kill", 9, "--guard", "7=8"))
    tie = votes("20:00:00", {1: "投7", 2: "投7", 3: "投10", 4: "投10"})
    doc = tally_json(db, serve(serve_site, tie), "--record", "--round", 2)
    assert doc["day"]["out"] == [] and doc["day"]["next"]["kind"] == "repoint"


def test_double_guardian_a_disabled_police_god_counts_as_a_civilian(tmp_path, serve_site):
    """双守护 6 “警方守护神身份作用转变为平民”: in the win check too."""
    roles = R20_ROLES | {7: "警神", 8: "匪神"}
    db = new_game(tmp_path, "2.0", roles, extra='variants = ["double-guardian"]', out=(9, 10, 11))
    ok(night(db, 2, "--kill", 8))  # the 匪神 killed directly: the 警神 is a civilian now
    url = serve(
        serve_site,
        point_all("20:00:00", 12, range(1, 8))
        + votes("22:30:00", dict.fromkeys(range(1, 8), "刀")),
    )
    ok(tally(db, url, "--record", "--round", 2))
    text = ok(tally(db, url, "--record", "--round", 2, deadline=LATER))
    assert "12号被票出局，身份：平民。" in text
    assert "游戏结束" not in text and not events(db, "game_over")  # 7 still holds the 平民 side
