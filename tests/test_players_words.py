"""A whole day's vote written the way real players write it (issue 27), over the tests' local
Discuz! X board and a real game file: names in the other script (欧逆酱 for 歐逆醬), parts of
names (红叶晚 for 红叶晚潇潇), a part of two names (红叶), nicknames nobody recorded (kp, 鱼),
``vote:`` after ``##``, ``＃＃``, inside bold, at the end of a long post with talk glued on,
an ``unvote`` before a vote and one alone, 跟票 — and the counts a judge would announce.
Then the nicknames become aliases in one step (``killmod alias``), counted again, recorded,
undone; and the 1.2 sentence on a player voted out with his second warning.
"""

from __future__ import annotations

import itertools
import json
from datetime import datetime

import pytest

from killmod.commands import open as open_command
from tests.support.gamefiles import events, new_game, ok, refused, roster_toml, run
from tests.support.pagebuilder import SHANGHAI, FakePost, FakeThread, discuz_x_site
from tests.support.realnames import REAL_NAMES

# The board's names as the roster writes them (seat 1 in traditional characters).
NAMES = REAL_NAMES
ROLES = {1: "杀手", 2: "杀手", 3: "杀手", 16: "检查官"} | {seat: "水民" for seat in range(4, 16)}
TID = 27027
JUDGE = ("法官", 900)
TALK = (
    "昨晚兵长倒了，我把今天的发言从头到尾看了一遍。红叶子一直在划水，"
    "sakyas的站边前后矛盾，但最奇怪的还是ako：上午说相信兵长，下午又说兵长像杀手。"
)

# Day 1: (seat, "HH:MM:SS", body as the player typed it). Bold is the board's <strong>
# (a rendered [b]); a board with BBCode off shows [b] as text.
DAY_1 = [
    (1, "20:00:00", "vote:sakyas"),
    (2, "20:01:10", TALK + "\n所以vote:ako希望你是兵长"),
    (3, "20:02:20", "＃＃vote:ako"),
    (4, "20:03:30", "<strong>vote: 紅葉晚</strong>"),
    (5, "20:04:40", "## vote 红叶"),
    (6, "20:05:50", "vote kp"),
    (7, "20:07:00", "vote:saky 明天见"),
    (8, "20:08:10", "[b]vote：ako[/b]"),
    (9, "20:09:20", "vote:鱼希望你明天还在"),
    (11, "20:10:30", "vote 4"),
    (12, "20:11:40", "vote: 月下独饮"),
    (13, "20:12:50", "跟票4号"),
    (14, "20:14:00", "vote:ako\n" + TALK),
    (16, "20:15:10", "VOTE SAKYAS"),
    (1, "21:00:00", "unvote: sakyas ## vote：欧逆酱"),
    (8, "21:30:00", "##unvote"),
]
DEADLINE = "2024-03-01 22:00"


def thread(rows, day: int, names=NAMES) -> FakeThread:
    """The vote thread of March ``day``: the judge's opening post at 19:00, then ``rows``
    by the players of ``names``."""
    pids = itertools.count(day * 1000 + 1)
    opening = datetime(2024, 3, day, 19, 0, 0, tzinfo=SHANGHAI)
    posts = [FakePost(next(pids), *JUDGE, opening, "【投票帖】22:00 截止", time_style="absolute")]
    for seat, hms, body in sorted(rows, key=lambda row: row[1]):
        hour, minute, second = (int(part) for part in hms.split(":"))
        at = opening.replace(hour=hour, minute=minute, second=second)
        posts.append(
            FakePost(next(pids), names[seat], 5000 + seat, at, body, time_style="absolute")
        )
    now = datetime(2024, 3, day + 1, 12, 0, 0, tzinfo=SHANGHAI)
    return FakeThread(TID, f"【第{day}天投票帖】", posts, now=now)


@pytest.fixture
def game(tmp_path):
    db = new_game(tmp_path, "1.2", ROLES, names=NAMES, extra='substitutes = ["替补甲"]')
    ok(run("night", "--round", 1, "--kill", 10, "--db", db, "--at", "2024-03-01 08:00"))
    return db


@pytest.fixture
def day_1(serve_site):
    base = serve_site(discuz_x_site(thread(DAY_1, 1)))
    return f"{base}/forum.php?mod=viewthread&tid={TID}"


def tally(db, url, *args, deadline=DEADLINE):
    return run("tally", url, "--db", db, "--deadline", deadline, *args)


def document(done) -> dict:
    return json.loads(ok(done))


def by_floor(doc: dict) -> dict[int, dict]:
    return {v["floor"]: v for v in doc["verdicts"]}


def test_a_whole_day_in_real_players_words_counts_as_a_judge_counts(game, day_1):
    doc = document(tally(game, day_1, "--format", "json"))
    ballots = {b["seat"]: (b["kind"], b["target"]) for b in doc["ballots"]}
    assert ballots == {
        1: ("vote", 1),  # unvote: sakyas ## vote：欧逆酱 — his own name, simplified
        2: ("vote", 4),  # vote:ako希望你是兵长 at the end of a long post
        3: ("vote", 4),  # ＃＃vote:ako
        4: ("vote", 2),  # bold vote: 紅葉晚 — part of 红叶晚潇潇, traditional
        5: ("self", 5),  # ## vote 红叶 — part of 红叶晚潇潇 and 红叶子: ambiguous
        6: ("self", 6),  # vote kp — nobody's name
        7: ("vote", 3),  # vote:saky — part of sakyas
        8: ("vote", 4),  # [b]vote：ako[/b], then ##unvote: the vote stands
        9: ("self", 9),  # vote:鱼希望你明天还在 — nobody's name
        11: ("vote", 4),
        12: ("self", 12),  # vote: 月下独饮 — a slip of the pen for 月下独酌
        13: ("vote", 4),  # 跟票4号 is a vote under 1.2
        14: ("vote", 4),  # vote:ako at the start of a long post
        15: ("self", 15),  # no post
        16: ("vote", 3),  # VOTE SAKYAS
    }
    counts = {c["seat"]: (c["votes"], c["voters"]) for c in doc["counts"]}
    assert counts == {
        4: (6, [2, 3, 8, 11, 13, 14]),
        3: (2, [7, 16]),
        1: (1, [1]),
        2: (1, [4]),
        5: (1, [5]),
        6: (1, [6]),
        9: (1, [9]),
        12: (1, [12]),
        15: (1, [15]),
    }
    assert doc["outcome"] == {"kind": "eliminated", "seat": 4, "camp": "好人"}
    assert doc["changes"] == [
        {"seat": 1, "floor": 16, "from": 3, "to": 1, "posted_at": "2024-03-01T21:00:00+08:00"}
    ]
    rejected = {(r["floor"], r["seat"]): r["reason"] for r in doc["rejected"]}
    assert rejected == {
        (6, 5): "ambiguous",
        (7, 6): "unknown_target",
        (10, 9): "unknown_target",
        (12, 12): "unknown_target",
        (17, 8): "no_vote",  # an unvote alone: no formal vote (1.2 二.5), nothing withdrawn
    }
    assert [(w["seat"], w["action"]) for w in doc["warnings"]] == [
        (5, "warn"),
        (6, "warn"),
        (9, "warn"),
        (12, "warn"),
        (15, "warn"),
    ]
    read = {floor: (v["read_as"], v["detail"], v["notes"]) for floor, v in by_floor(doc).items()}
    assert read[16] == ("name", "欧逆酱", ["script"])
    assert read[3] == ("name", "ako", [])
    assert read[5] == ("part", "红叶晚", ["script"])
    assert read[6] == ("part", "2,7", [])
    assert read[8] == ("part", "saky", [])
    assert read[11] == ("seat", "4", [])
    assert read[17] == ("", "", ["unvote"])
    flags = {(f["floor"], f["detail"]): f.get("suggestion") for f in doc["flags"]}
    assert flags == {(7, "kp"): 5, (10, "鱼"): 6, (12, "月下独饮"): 9}


def test_the_audit_and_the_judges_notes_say_how_each_ballot_was_read(game, day_1):
    audit = ok(tally(game, day_1, "--format", "audit"))
    rows = {line.split()[0]: line for line in audit.splitlines() if "楼 " in line[:6]}
    assert "名字" in rows["16楼"] and "名字的繁简体与名单不同" in rows["16楼"]
    assert "名字的一部分「红叶晚」" in rows["5楼"] and "2号 红叶晚潇潇" in rows["5楼"]
    assert "名字的一部分「saky」" in rows["8楼"]
    assert "座位号" in rows["12楼"] or "座位号" in rows["11楼"]
    assert "读到：2号 红叶晚潇潇、7号 红叶子" in rows["6楼"]
    assert 'killmod alias 5 "kp"' in rows["7楼"] and "是否想投 5号 kingpin" in rows["7楼"]
    assert 'killmod alias 6 "鱼"' in rows["10楼"]
    assert "unvote 撤票：规则里没有撤票，之前的票仍然有效" in rows["17楼"]

    done = tally(game, day_1)  # the post, and the judge's notes on stderr
    post, notes = ok(done), done.stderr
    assert "被投出局" in post and "killmod" not in post  # the notes never reach the post
    assert (
        "6楼 kingpin（5号）：名字的一部分同时是几名玩家的名字，无法确定"
        "（2号 红叶晚潇潇、7号 红叶子）" in post
    )
    assert "7楼 咸鱼王（6号）：无法识别投票对象" in post
    lines = notes.splitlines()
    assert lines[0] == "—— 请法官留意（不要贴到投票帖）——" and "" not in lines  # one a line
    assert "16楼（1号）：「欧逆酱」按名字（繁简体与名单不同）读作 1号 歐逆醬，已计入" in notes
    assert "5楼（4号）：「红叶晚」按名字的一部分（繁简体与名单不同）读作 2号 红叶晚潇潇" in notes
    assert "8楼（7号）：「saky」按名字的一部分读作 3号 sakyas，已计入" in notes
    assert (
        "6楼（5号）：「vote 红叶」里的名字是不止一名玩家名字的一部分"
        "（2号 红叶晚潇潇、7号 红叶子），无法确定，未计入" in notes
    )
    assert "7楼（6号）：「kp」不是名单上的名字（是否想投 5号 kingpin？未计入）。" in notes
    assert '记为别名并重新计票：killmod alias 5 "kp"' in notes
    assert '记为别名并重新计票：killmod alias 9 "月下独饮"' in notes


def test_a_nickname_becomes_an_alias_in_one_step_and_the_vote_is_counted_again(
    game, day_1, monkeypatch
):
    """Issue 27.4: the command the audit gives records the alias and counts again."""
    done = run("alias", 5, "kp", day_1, "--deadline", DEADLINE, "--db", game, "--format", "json")
    assert "已记下：「kp」是 5号 kingpin 的别名（killmod undo 可撤销）。" in done.stderr
    doc = document(done)
    assert {b["seat"]: b["target"] for b in doc["ballots"]}[6] == 5
    assert by_floor(doc)[7]["read_as"] == "alias"
    assert (6, "warn") not in [(w["seat"], w["action"]) for w in doc["warnings"]]

    # With the vote thread remembered (killmod thread) the command needs nothing more.
    ok(run("thread", "vote", day_1, "--round", 1, "--db", game))
    monkeypatch.setattr(open_command, "now", lambda: datetime(2024, 3, 1, 19, 30, tzinfo=SHANGHAI))
    ok(run("open", "--round", 1, "--deadline", DEADLINE, "--db", game))
    again = run("alias", 6, "鱼", "--db", game)
    post = ok(again)
    assert "9号 月下独酌（10楼）" in post  # 9's vote now counts for 6
    refused(run("alias", 7, "KP", "--db", game), "「KP」已经是5号 kingpin 的别名「kp」")
    refused(run("alias", 1, "欧逆酱", "--db", game), "已经读作 1号")
    refused(run("alias", 3, "4号", "--db", game), "读作 4 号座位")

    # Recorded, then the alias that comes after it asks for the tally to be recorded anew.
    ok(tally(game, day_1, "--record"))
    after = run("alias", 12, "饮者", "--db", game)
    assert after.exit_code == 0, after.output
    assert (
        'killmod tally --round 1 --deadline "2024-03-01 22:00:00" --record --replace'
        in after.stderr
    )
    assert [e.data["alias"] for e in events(game, "alias")] == ["kp", "鱼", "饮者"]
    undone = ok(run("undo", "--db", game))
    assert "12号 Tommy 的别名「饮者」" in undone
    assert [e.data["alias"] for e in events(game, "alias")] == ["kp", "鱼"]


def test_two_players_whose_names_fold_together_are_refused_at_init(tmp_path):
    names = NAMES | {2: "欧逆酱"}  # seat 1 is 歐逆醬
    roster = tmp_path / "roster.toml"
    roster.write_text(roster_toml("1.2", ROLES, names=names), encoding="utf-8")
    refused(run("init", "--roster", roster, "--db", tmp_path / "g.db"), "1 号玩家「歐逆醬」")


def test_a_substitute_named_like_a_player_in_the_other_script_is_refused(game):
    refused(run("sub", 5, "欧逆酱", "--db", game), "欧逆酱 已经在本局的座位上")
    ok(run("alias", 6, "小咸", "--db", game))
    refused(run("sub", 5, "小鹹", "--db", game), "小鹹 已经在本局的座位上")


def test_a_player_voted_out_with_his_second_warning_takes_no_substitute(game, day_1, serve_site):
    """1.2 “不投票者视为自投，并被警告一次，二次换替补，无替补出局” with “得票最高者由法官宣布
    死亡”: 老王 (15) was warned on day 1; on day 2 he does not vote and is voted out. He is
    out by the vote: the substitute stays on the bench, nobody says he drowned."""
    ok(tally(game, day_1, "--record"))
    ok(run("night", "--round", 2, "--kill", 11, "--db", game, "--at", "2024-03-02 08:00"))
    living = [seat for seat in NAMES if seat not in (4, 10, 11, 15)]
    rows = [(seat, f"20:{n:02d}:00", "vote:老王") for n, seat in enumerate(living)]
    base = serve_site(discuz_x_site(thread(rows, 2)))
    url = f"{base}/forum.php?mod=viewthread&tid={TID}"
    post = ok(tally(game, url, "--record", "--format", "text", deadline="2024-03-02 22:00"))
    assert "15号 老王 得票最高，被投出局。" in post
    assert "15号 老王：视为自投；第 2 次警告（已被投票出局，不换替补）。" in post
    assert "淹死" not in post and "替补甲" not in post
    status = ok(run("status", "--db", game))
    assert "替补剩 1 人：替补甲" in status
    assert "15号 老王（第 2 轮被投票出局" in status
    assert [e.data["how"] for e in events(game, "death") if e.seat == 15] == ["voted"]
    assert not events(game, "substitution")


# Board names that hold everyday words, and a day whose ballots are 8 to 7 for 老王 — then
# talk that a part-of-a-name reading took for five changed votes (a wrong death, exit 0).
EVERYDAY = {
    1: "okami",
    2: "路过的酱油",
    3: "今天吃什么",
    4: "杀手不太冷",
    5: "小明",
    6: "老王",
    7: "Lisa",
    8: "月下独酌",
    9: "兵长",
    10: "白开水",
    11: "夜猫子",
    12: "Tommy",
    13: "路人丁",
    14: "咸鱼王",
    15: "ako",
    16: "明天会更好",
}
FOR_6 = (5, 7, 10, 13, 15, 1, 4, 16)
FOR_5 = (6, 11, 12, 14, 2, 3, 8)
TALK_LATER = [
    (5, "21:00:00", "ok"),
    (7, "21:01:00", "路过"),
    (10, "21:02:00", "投票今天截止，大家抓紧"),
    (13, "21:03:00", "我投票明天再说"),
    (15, "21:04:00", "今天一定要投杀手！"),
    (1, "21:05:00", "取消投6号"),
]


def test_talk_after_the_ballots_changes_no_vote(tmp_path, serve_site):
    """A post that is only a part of a name (ok, 路过), a part with talk glued on after a
    Chinese verb (投票今天截止), a word of the game (投杀手) and an unvote (取消投6号) change
    nobody's ballot: 老王 is voted out 8 to 7, as a judge counts it."""
    db = new_game(tmp_path, "1.2", ROLES, names=EVERYDAY)
    ok(run("night", "--round", 1, "--kill", 9, "--db", db, "--at", "2024-03-01 08:00"))
    rows = [(seat, f"20:{n:02d}:00", "投6号") for n, seat in enumerate(FOR_6)]
    rows += [(seat, f"20:{n + 20:02d}:00", "投5号") for n, seat in enumerate(FOR_5)]
    base = serve_site(discuz_x_site(thread(rows + TALK_LATER, 1, EVERYDAY)))
    url = f"{base}/forum.php?mod=viewthread&tid={TID}"
    doc = document(tally(db, url, "--format", "json"))
    counts = {c["seat"]: c["voters"] for c in doc["counts"]}
    assert counts == {6: sorted(FOR_6), 5: sorted(FOR_5)}
    assert doc["outcome"]["seat"] == 6 and doc["changes"] == []
    reasons = {v["floor"]: (v["verdict"], v["notes"]) for v in by_floor(doc).values()}
    talk = [reasons[floor] for floor in range(17, 23)]
    assert talk[:2] == [("no_vote", [])] * 2  # ok, 路过: talk
    assert talk[2:5] == [("unknown_target", [])] * 3  # a suggestion at most, never counted
    assert talk[5] == ("no_vote", ["unvote"])  # 取消投6号: his vote for 6 stands


def test_the_issues_own_words_on_a_roster_where_they_are_unambiguous(tmp_path, serve_site):
    """Issue 27's examples as written: with no 红叶子 at the table, ``vote:红叶`` is a part of
    红叶晚潇潇 alone and counts for her; ``vote:ako`` in the middle of a paragraph, talk on
    both sides, counts for ako; 歐逆醬 votes for himself in simplified characters."""
    names = NAMES | {7: "枫糖"}
    db = new_game(tmp_path, "1.2", ROLES, names=names, extra='substitutes = ["替补甲"]')
    ok(run("night", "--round", 1, "--kill", 10, "--db", db, "--at", "2024-03-01 08:00"))
    rows = [
        (3, "20:00:00", "vote:红叶"),
        (5, "20:01:00", TALK + "所以vote:ako，明天再看。" + TALK),
        (1, "20:02:00", "vote：欧逆酱"),
    ]
    base = serve_site(discuz_x_site(thread(rows, 1, names)))
    doc = document(tally(db, f"{base}/forum.php?mod=viewthread&tid={TID}", "--format", "json"))
    ballots = {b["seat"]: (b["kind"], b["target"]) for b in doc["ballots"]}
    assert ballots[3] == ("vote", 2) and ballots[5] == ("vote", 4) and ballots[1] == ("vote", 1)
    read = {v["seat"]: (v["read_as"], v["detail"]) for v in doc["verdicts"] if v["seat"]}
    assert read[3] == ("part", "红叶") and read[5] == ("name", "ako")
    assert read[1] == ("name", "欧逆酱")
