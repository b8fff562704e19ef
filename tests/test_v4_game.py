"""A V4.0 game through the commands on a real game file: init, deal, night, tally, the end."""

from __future__ import annotations

import pytest

from killmod.game.state import state_for
from killmod.game.store import Game
from tests.support.gamefiles import (
    DEADLINE,
    LATER,
    alive,
    events,
    new_game,
    night,
    night_json,
    ok,
    refused,
    roster_toml,
    run,
    serve,
    tally,
    tally_json,
    votes,
)

# 16 players, version 64C65 (lose condition 01: two civilians voted out in a row).
ROLES = {
    1: "杀手",
    2: "杀手",
    3: "杀手",
    4: "杀手",
    5: "杀手",
    6: "警察",
    7: "医生",
    8: "狙击手",
    9: "花蝴蝶",
    10: "森林老人",
} | {seat: "平民" for seat in range(11, 17)}
SECRET_WORDS = ("杀手", "平民", "警察", "医生", "狙击手", "花蝴蝶", "森林老人", "阵营")


@pytest.fixture
def db(tmp_path):
    return new_game(tmp_path, "v4", ROLES)


def test_a_game_from_the_first_night_to_the_killers_win(db, serve_site):
    doc = night_json(
        db, 0, "--kill", 11, "--check", 1, "--inject", 12, "--silence", 13, "--print-secrets"
    )
    assert doc == {
        "schema": "killmod.night/1",
        "round": 0,
        "out": [11],
        "dying": [11],
        "marks": {"12": 1},
        "frenzy": [13],
        "police": {"seat": 1, "camp": "杀手阵营"},
    }
    day1 = serve(serve_site, votes("20:00:00", {1: "投14", 2: "投14", 3: "投14", 6: "投15"}))
    first = ok(tally(db, day1, "--record"))
    assert "14号 玩家14[/b] 得票最高，被投出局。" in first and "游戏结束" not in first
    assert "身份" not in first  # V4.0 reveals nothing until the end
    ok(night(db, 1, "--kill", 16))
    day2 = serve(serve_site, votes("20:00:00", {1: "投15", 2: "投15", 3: "投15", 6: "投2"}))
    second = ok(tally(db, day2, "--record", "--round", 2))
    # 14 and 15, two civilians voted out in a row: lose condition 01
    assert "游戏结束：杀手阵营胜利" in second
    assert "〖平民阵营〗负（01）：连续2名平民被投票出局" in second
    assert "1号 玩家1：杀手" in second  # the game-over post reveals every role
    (over,) = events(db, "game_over")
    assert (over.data["winner"], over.data["draw"]) == ("杀手阵营", False)
    refused(night(db, 2, "--kill", 12), "游戏已经结束（杀手阵营胜利）")


def test_every_night_option_and_marks_that_persist(db):
    # 花蝴蝶 covers the doctor: the injection fails, the killed 12 and the sniped 13 are out
    judge = "--print-secrets"  # the whole night document: the judge's own view
    doc = night_json(db, 0, "--butterfly", 7, "--kill", 12, "--inject", 12, "--snipe", 13, judge)
    assert (doc["out"], doc["dying"], doc["police"]) == ([12, 13], [12, 13], None)
    skip = "--skip-day"  # no day is voted in this test
    doc = night_json(db, 1, "--inject", 14, "--check", 9, "--silence", 11, judge, skip)
    assert doc["out"] == [] and doc["marks"] == {"14": 1} and doc["frenzy"] == [11]
    assert doc["police"] == {"seat": 9, "camp": "平民阵营"}
    # the mark persists: injected again, 14 is dying and out; 11's frenzy ended at nightfall
    doc = night_json(db, 2, "--inject", 14, judge, skip)
    assert (doc["out"], doc["marks"], doc["frenzy"]) == ([14], {}, [])
    assert 12 not in alive(db) and 14 not in alive(db)
    night_ids = [e.id for e in events(db, "night")]
    deaths = {(e.seat, e.data["night_id"]) for e in events(db, "death")}
    assert deaths == {(12, night_ids[0]), (13, night_ids[0]), (14, night_ids[2])}


def test_the_dawn_post_shows_who_is_out_and_the_police_answer_is_private(db, tmp_path):
    done = night(db, 0, "--kill", 11, "--check", 2, "--format", "text")
    public = ok(done)  # stdout: the dawn post, nothing else
    assert "11号 玩家11 出局。" in public and "请出局的玩家准备遗言。" in public
    assert not any(word in public for word in SECRET_WORDS)  # no role, no camp, no cause
    assert "仅发给" not in public and "仅供法官" not in public
    # the police's answer and the night's resolution: a private file beside the game file
    path = tmp_path / "game-private" / "night0-private.txt"
    assert str(path) in done.stderr
    assert path.stat().st_mode & 0o777 == 0o600
    private = path.read_text("utf-8")
    assert "—— 仅发给警察（站内短信，保密，不要贴到游戏帖）——" in private
    assert "2号 玩家2：杀手阵营" in private.split("仅发给警察")[1]
    assert "仅供法官：第 0 夜的结算过程" in private
    # --private DIR (or --notices DIR) puts it elsewhere
    quiet = ok(night(db, 1, "--check", 3, "--private", tmp_path / "private", "--skip-day"))
    assert "平安夜" in quiet and "杀手阵营" not in quiet
    (path,) = (tmp_path / "private").iterdir()
    assert path.stat().st_mode & 0o777 == 0o600
    assert "3号 玩家3：杀手阵营" in path.read_text("utf-8")


def test_printing_the_night_secrets_takes_an_option_that_says_so(db, tmp_path):
    printed = ok(night(db, 0, "--kill", 11, "--check", 2, "--print-secrets"))
    post, secrets = printed.split("—— 保密：night0-private.txt（不要贴到论坛）——")
    assert "11号 玩家11" in post and "杀手阵营" not in post
    assert "2号 玩家2：杀手阵营" in secrets
    assert not (tmp_path / "game-private").exists()  # printed instead of written


def test_the_public_night_json_holds_no_hidden_state(db):
    doc = night_json(db, 0, "--kill", 11, "--check", 1, "--inject", 12, "--silence", 13)
    assert doc == {"schema": "killmod.night/1", "round": 0, "out": [11], "shown": {}}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--kill", 99), "没有 99 号玩家"),
        (("--butterfly", 9), "花蝴蝶不能对自己使用【蝶衣】"),
        (("--check", 1, "--check", 2), "警察每晚只能验一人"),
        (("--pact", 1), "v4 规则的夜晚没有 --pact"),
        (("--veto", 1), "--veto 和 --at 只用于 1.2 规则"),
    ],
)
def test_illegal_choices_are_refused_and_nothing_is_recorded(db, args, message):
    refused(night(db, 0, *args), message)
    assert not events(db, "night")


def test_a_target_out_and_a_night_recorded_twice_are_refused(db):
    ok(night(db, 0, "--kill", 11))
    refused(night(db, 1, "--snipe", 11, "--skip-day"), "11 号已出局，不能作为【狙杀】的目标")
    refused(night(db, 0, "--kill", 12), "--replace")
    ok(night(db, 0, "--kill", 12, "--replace"))
    assert 11 in alive(db) and 12 not in alive(db)


def test_only_the_latest_night_can_be_recorded_again(db):
    ok(night(db, 0, "--kill", 11))
    ok(night(db, 1, "--kill", 12, "--skip-day"))
    refused(night(db, 0, "--kill", 13, "--replace"), "只能重新记录最近的一夜")


def test_frenzied_posts_do_not_count_and_non_voters_are_neither_self_votes_nor_warned(
    db, serve_site
):
    ok(night(db, 0, "--silence", 13))
    url = serve(
        serve_site,
        votes("20:00:00", {1: "投11", 2: "投11", 3: "投11", 6: "投12", 7: "弃权", 13: "投2号"}),
    )
    doc = tally_json(db, url)
    ballots = {b["seat"]: b for b in doc["ballots"]}
    assert (ballots[13]["kind"], ballots[13]["target"]) == ("self", None)
    assert (ballots[16]["kind"], ballots[16]["target"]) == ("self", None)
    assert [(c["seat"], c["votes"]) for c in doc["counts"]] == [(11, 3), (12, 1)]
    assert doc["warnings"] == [] and doc["rejected"] == []
    # the public document says the post is not counted, never why
    frenzy = [v for v in doc["verdicts"] if v["seat"] == 13]
    assert [v["verdict"] for v in frenzy] == ["not_counted"]
    assert doc["flags"] == []
    judge = tally_json(db, url, "--print-secrets")
    assert [v["verdict"] for v in judge["verdicts"] if v["seat"] == 13] == ["frenzy"]
    assert {"floor": frenzy[0]["floor"], "seat": 13, "reason": "frenzy", "detail": ""} in judge[
        "flags"
    ]
    done = tally(db, url, "--format", "text")
    text = ok(done)
    assert "未计票（不计票，不警告）" in text and "13号 玩家13" in text
    assert not any(word in text for word in ("癫狂", "沉默", "frenzy", "请法官留意"))
    assert "视为自投" not in text and "次警告" not in text
    assert "1 帖出自今天按规则不计票的玩家" in done.stderr and "13号" not in done.stderr
    audit = ok(tally(db, url, "--format", "audit"))
    assert "未计票" in audit and "视为自投" not in audit and "癫狂" not in audit
    assert "投2号" in audit or "2号 玩家2" in audit  # the post itself is public: read, not counted
    secret = ok(tally(db, url, "--format", "text", "--print-secrets"))
    assert secret.startswith(text)
    assert "—— 仅供法官：因夜晚效果不计票的帖" in secret
    assert "（13号 玩家13）：癫狂（被【沉默】）：今天的发言不计票" in secret


def test_a_silenced_players_other_posts_read_as_anyones(db, serve_site):
    """Only a ballot that would count tells a silenced player apart: his chatter, a late
    vote, an edited one are judged as everyone's, so the public count shows nothing more."""
    ok(night(db, 0, "--silence", 13))
    url = serve(serve_site, votes("20:00:00", {13: "顶", 14: "顶", 1: "投11"}))
    doc = tally_json(db, url)
    verdicts = {v["seat"]: v["verdict"] for v in doc["verdicts"] if v["seat"]}
    assert verdicts[13] == verdicts[14] == "no_vote"


def test_frenzy_lasts_one_day(db, serve_site):
    ok(night(db, 0, "--silence", 13))
    ok(night(db, 1, "--skip-day"))  # nightfall ends the 癫狂
    url = serve(serve_site, votes("20:00:00", {13: "投2号"}))
    doc = tally_json(db, url, "--round", 2)
    assert next(b for b in doc["ballots"] if b["seat"] == 13)["target"] == 2


def test_a_tie_offers_the_lottery_or_a_revote_among_the_tied(db, serve_site):
    ok(night(db, 0))
    first = votes("20:00:00", {1: "投11", 2: "投11", 3: "投12", 4: "投12"})
    revote = votes("22:30:00", {1: "投11", 2: "投11", 3: "投12", 4: "投13", 5: "投11"})
    url = serve(serve_site, first + revote)
    tie = ok(tally(db, url, "--record", "--format", "text"))
    assert "11号 玩家11、12号 玩家12 平票（各 2 票）。" in tie
    assert "按规则由法官选择：抽签决定出局者，或由平票者之间重新投票。" in tie
    assert "抽签 killmod lottery make --round 1；或平票者重新投票" in ok(run("status", "--db", db))
    done = tally_json(db, url, "--record", deadline=LATER)  # the round's next vote, no --replace
    assert done["day"]["stage"]["kind"] == "revote" and done["day"]["stage"]["candidates"] == [
        11,
        12,
    ]
    assert done["outcome"] == {"kind": "eliminated", "seat": 11}
    earlier = {v["floor"] for v in done["verdicts"] if v["verdict"] == "earlier_vote"}
    assert len(earlier) == 4  # the first vote's posts belong to it
    (stray,) = done["rejected"]
    assert stray["reason"] == "invalid_target" and stray["seat"] == 4
    assert "not_candidate" in next(v for v in done["verdicts"] if v["pid"] == stray["pid"])["notes"]
    assert [(e.seat, e.data["how"]) for e in events(db, "death")] == [(11, "voted")]
    assert [e.data["stage"]["kind"] for e in events(db, "day")] == ["vote", "revote"]
    refused(tally(db, url, "--record", "--round", 1, deadline=LATER), "--replace")


def test_a_tie_settled_by_lot_is_a_vote_out(db, serve_site):
    ok(night(db, 0))
    url = serve(serve_site, votes("20:00:00", {1: "投11", 2: "投12"}))
    ok(tally(db, url, "--record"))
    ok(run("lottery", "make", "--round", 1, "--db", db, "--seed", 1))
    drawn = ok(run("lottery", "reveal", "--round", 1, "--lot", 1, "--db", db))
    assert "身份" not in drawn  # V4.0 shows no camp when a player is out
    state = state_for(Game.open(db)).state
    (elimination,) = state.voted_out
    assert elimination.day == 1 and elimination.seat in (11, 12)


def test_deal_follows_the_v4_table_and_the_roster_code(tmp_path):
    db = new_game(tmp_path, "v4", dict.fromkeys(range(1, 17)), extra='code = "04C65"')
    output = ok(run("deal", "--db", db, "--seed", 5, "--notices", tmp_path / "notices"))
    assert not any(word in output for word in SECRET_WORDS)
    roles = [player.role for player in Game.open(db).roster().players]
    counts = {role: roles.count(role) for role in set(roles)}
    assert counts == {
        "平民": 6,
        "警察": 1,
        "杀手": 5,
        "医生": 1,
        "狙击手": 1,
        "花蝴蝶": 1,
        "森林老人": 1,
    }
    assert state_for(Game.open(db)).state.lose_condition == "00"
    players = Game.open(db).roster().players
    doctor = next(p for p in players if p.role == "医生")
    killers = [p for p in players if p.role == "杀手"]
    notices = {path.name[:2]: path.read_text("utf-8") for path in (tmp_path / "notices").iterdir()}
    assert "【注射】" in notices[f"{doctor.seat:02d}"]
    killer_notice = notices[f"{killers[0].seat:02d}"]
    assert all(f"{k.seat}号 {k.name}" in killer_notice for k in killers[1:])


def test_a_roster_code_must_fit_the_rules_and_the_players(tmp_path):
    roster = tmp_path / "r.toml"
    roster.write_text(roster_toml("v4", ROLES, extra='code = "64C54"'), encoding="utf-8")
    refused(run("init", "--roster", roster, "--db", tmp_path / "a.db"), "是 15 人局，名单有 16 人")
    roster.write_text(roster_toml("x", ROLES, extra='code = "64C65"'), encoding="utf-8")
    refused(run("init", "--roster", roster, "--db", tmp_path / "b.db"), "只用于 v4 规则")


def test_roles_that_do_not_fit_the_code_are_refused_at_the_night(tmp_path):
    db = new_game(tmp_path, "v4", ROLES | {16: "杀手"})
    refused(night(db, 0, "--kill", 11), "身份分配与版本号 64C65 不符")


def test_a_night_that_ends_both_camps_is_a_draw(tmp_path):
    out = [seat for seat in ROLES if seat not in (1, 6, 8, 11)]
    db = new_game(tmp_path, "v4", ROLES, out=out, extra='code = "04C65"')
    output = ok(night(db, 0, "--kill", 11, "--snipe", 1))
    assert "游戏结束：平局" in output
    assert "〖平民阵营〗负（00）：平民全部出局" in output and "杀手全部出局" in output
    (over,) = events(db, "game_over")
    assert (over.data["winner"], over.data["draw"]) == (None, True)
    assert "游戏结束，平局" in ok(run("status", "--db", db))


def test_killers_at_half_the_living_win_after_the_night(tmp_path):
    out = [seat for seat in ROLES if seat not in (1, 2, 6, 8, 11, 12)]
    db = new_game(tmp_path, "v4", ROLES, out=out)
    output = ok(night(db, 0, "--kill", 11, "--snipe", 12))
    assert "游戏结束：杀手阵营胜利" in output
    assert "杀手 2 人，占存活 4 人的一半或以上" in output


def test_voting_out_the_last_killer_wins_for_the_civilians(tmp_path, serve_site):
    out = [seat for seat in ROLES if seat not in (1, 6, 7, 11, 12, 13)]
    db = new_game(tmp_path, "v4", ROLES, out=out)
    ok(night(db, 0))
    url = serve(serve_site, votes("20:00:00", {6: "投1", 7: "投1", 11: "投1"}))
    output = ok(tally(db, url, "--record"))
    assert "游戏结束：平民阵营胜利" in output and "〖杀手阵营〗负：杀手全部出局" in output
    assert events(db, "game_over")[0].data["winner"] == "平民阵营"


def test_the_deadline_is_the_first_days_and_status_names_the_next_night(db, serve_site):
    ok(night(db, 0))
    url = serve(serve_site, votes("20:00:00", {1: "投11", 2: "投11"}))
    ok(tally(db, url, "--record", deadline=DEADLINE))
    assert "第 1 夜：killmod night --round 1" in ok(run("status", "--db", db))
