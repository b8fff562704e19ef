"""``killmod out``: the judge's own decisions as recorded steps (X, 2.0, 花样玩法, 1.0, V4.0).

1.2's 立判出局 is in tests/test_rules_r12_game.py. Each test names the rule it reads
(docs/rules/x.md and docs/rules/2.0.md, “The judge's own decisions”).
"""

from __future__ import annotations

from tests.support.gamefiles import (
    alive,
    deadline,
    events,
    new_game,
    night,
    ok,
    point_all,
    refused,
    run,
    serve,
    tally,
    tally_json,
)

X_ROLES = {1: "杀手", 2: "杀手", 3: "警察", 4: "警察", 5: "平民", 6: "平民", 7: "平民", 8: "平民"}
R20_ROLES = {1: "杀手", 2: "杀手", 3: "杀手", 4: "警察", 5: "警察", 6: "警察"} | {
    seat: "平民" for seat in range(7, 13)
}
ROLE_WORDS = ("杀手", "警察", "平民")


def out(db, seat: int, reason: str, *args: object):
    return run("out", seat, "--reason", reason, "--db", db, *args)


def public(text: str) -> str:
    """The post without its title (which names the decision) and without the game-over post."""
    return text.split("游戏结束")[0].split("\n", 1)[1]


# --- X -----------------------------------------------------------------------------------------


def test_x_confession_is_the_days_vote_with_last_words(tmp_path, serve_site):
    """用语 22 “某某认匪，不用投票出局” — “可不经投票判其被公决”: the day ends, 遗言 as 3.21."""
    db = new_game(tmp_path, "x", X_ROLES)
    ok(night(db, 1, "--kill", 5))
    post = ok(out(db, 1, "confessed", "--format", "text"))
    assert "【第 1 轮 法官判定：1号 玩家1 认匪】" in post
    assert "1号认匪，不用投票出局。" in post and "请留第2个（最后一个）遗言。" in post
    assert not any(word in public(post).replace("认匪", "") for word in ROLE_WORDS)
    assert 1 not in alive(db)
    assert "第 2 夜" in ok(run("status", "--db", db))  # no vote left to count today
    url = serve(serve_site, point_all("20:00:00", 6, (2, 3, 4)))
    refused(tally(db, url, "--record", "--round", 1), "第 1 轮的白天已由法官判定结束（认匪")
    refused(out(db, 2, "confessed", "--round", 1), "第 1 轮的白天已经结束")


def test_x_peeked_out_keeps_the_day_going(tmp_path, serve_site):
    """注意事项 16) “游戏中误睁眼的玩家需主动申请出局。如本人未要求，则裁判有权判其出局”."""
    db = new_game(tmp_path, "x", X_ROLES)
    ok(night(db, 1, "--kill", 5))
    post = ok(out(db, 7, "peeked"))
    assert "7号误睁眼出局。" in post and "请留第2个（最后一个）遗言。" in post
    doc = tally_json(db, serve(serve_site, point_all("20:00:00", 6, (1, 2, 3))), "--record")
    assert doc["outcome"] == {"kind": "eliminated", "seat": 6}  # the vote still counts today
    assert "8号没有遗言。" in ok(out(db, 8, "removed"))  # 注意事项 17): any broken rule


def test_x_surrender_only_alone_and_the_side_loses(tmp_path):
    """注意事项 5) “玩家（平民除外）有权选择投降，但己方尚有同伴活着的时候严禁投降”;
    术语 25 “一旦投降，则其一方自动为输”."""
    db = new_game(tmp_path, "x", X_ROLES)
    refused(out(db, 1, "surrender"), "1 号的同伴 2号还活着：己方尚有同伴活着时严禁投降")
    refused(out(db, 5, "surrender"), "平民不能投降")
    ok(night(db, 1, "--kill", 3))
    done = ok(out(db, 4, "surrender"))
    assert "4号投降。" in done and "游戏结束：杀手方胜利" in done
    assert 4 in alive(db) and events(db, "death")[-1].seat == 3  # nobody else goes out
    (over,) = events(db, "game_over")
    (decision,) = events(db, "out")
    assert over.data["out_id"] == decision.id and decision.data["surrender"] is True


# --- 2.0 ---------------------------------------------------------------------------------------


def test_2_0_peeked_out_shows_no_card_and_leaves_no_last_words(tmp_path):
    """m) “裁判有权判其退出本轮游戏”; f) “游戏中严禁亮牌”: no card; 3.n gives 遗言 to the knifed."""
    db = new_game(tmp_path, "2.0", R20_ROLES)
    post = ok(out(db, 1, "peeked", "--format", "text"))
    assert "1号误睁眼，退出本轮游戏。" in post
    assert "杀手" not in post and "遗言" not in post
    refused(out(db, 2, "confessed"), "2.0 规则没有「confessed」")


def test_2_0_surrender_ends_the_game_for_the_side(tmp_path):
    """e) “玩家（除平民外）在全部同伴同意下有权选择投降”."""
    db = new_game(tmp_path, "2.0", R20_ROLES)
    refused(out(db, 7, "surrender"), "平民不能投降")
    done = ok(out(db, 2, "surrender"))
    assert "游戏结束：警民方胜利" in done and "2号代表杀手一方投降，杀手一方负。" in done
    refused(out(db, 4, "surrender"), "游戏已经结束")


def test_2_0_variants_show_the_card_of_a_player_the_judge_puts_out(tmp_path):
    """“在2.0标准版基础上”, with the variants' reveals (鬼匪 5: a 鬼匪 shows as 杀手)."""
    roles = R20_ROLES | {3: "鬼匪", 7: "守护神"}
    db = new_game(tmp_path, "2.0", roles, extra='variants = ["ghost", "guardian"]')
    post = ok(out(db, 3, "removed"))
    assert "3号违反规则，由裁判判其退出本轮游戏，身份：杀手。" in post and "鬼匪" not in post
    refused(out(db, 7, "surrender"), "不能代表一方投降")


# --- sets without such rules -------------------------------------------------------------------


def test_1_0_and_v4_have_no_judge_decisions(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    r10 = new_game(
        tmp_path / "a", "1.0", {1: "杀手", 2: "杀手"} | dict.fromkeys(range(3, 7), "平民")
    )
    refused(out(r10, 1, "removed"), "1.0 规则没有由法官判出局或投降的规定")
    v4 = new_game(tmp_path / "b", "v4", dict.fromkeys(range(1, 12)))
    refused(out(v4, 1, "peeked"), "v4 规则没有由法官判出局或投降的规定")
    assert events(r10) == events(v4) == []


def test_2_0_the_defender_put_out_voids_his_knife_and_the_pointing_starts_again(
    tmp_path, serve_site
):
    """Decision: the pending 动刀 is on a player no longer in the game: the day's pointing
    starts again, its posts counted after the decision's time."""
    db = new_game(tmp_path, "2.0", R20_ROLES)
    rows = point_all("20:00:00", 7, range(1, 7)) + point_all("21:30:00", 8, range(1, 7))
    url = serve(serve_site, rows)
    first = tally_json(db, url, "--record", deadline=deadline(1, "21:00"))
    assert first["day"]["next"]["defender"] == 7
    ok(out(db, 7, "removed", "--at", "2024-03-01 21:05"))
    doc = tally_json(db, url, "--record", "--round", 1)
    assert doc["day"]["stage"]["kind"] == "point"
    assert doc["day"]["stage"]["opened"] == "2024-03-01T21:05:00+08:00"
    assert doc["day"]["next"]["defender"] == 8


def test_undo_takes_back_a_confession_and_the_days_vote_is_open_again(tmp_path, serve_site):
    db = new_game(tmp_path, "x", X_ROLES)
    ok(night(db, 1, "--kill", 5))
    ok(out(db, 1, "confessed"))
    ok(run("undo", "--db", db))
    assert 1 in alive(db) and events(db, "out") == []
    url = serve(serve_site, point_all("20:00:00", 6, (2, 3, 4)))
    doc = tally_json(db, url, "--record", "--round", 1)
    assert doc["outcome"] == {"kind": "eliminated", "seat": 6}
