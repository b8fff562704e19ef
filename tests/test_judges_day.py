"""The judge's whole day, for every rule set: the opening post, the count during the day, the
reminder, the 换替补 post, the history, status — each post golden-tested per rule set — and
the threads and deadline the game file remembers.

Golden files are in ``tests/golden/judges-day/<set>/``; ``KILLMOD_UPDATE_GOLDEN=1`` writes
them again (then read the diff before committing it).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

import killmod.commands.open as open_command
import killmod.commands.remind as remind_command
import killmod.commands.tally as tally_command
from killmod.game.store import Game
from tests.support.gamefiles import deadline, events, ok, private_text, refused, run, said
from tests.support.judgesday import PLAYERS, play, shanghai

GOLDEN = Path(__file__).parent / "golden" / "judges-day"
SETS = sorted(PLAYERS)
_ADDRESS = re.compile(r"http://127\.0\.0\.1:\d+")


def golden(name: str, text: str) -> None:
    """``text`` is the golden file ``name`` (the local board's address made constant)."""
    text = _ADDRESS.sub("http://board", text)
    path = GOLDEN / name
    if os.environ.get("KILLMOD_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, f"{name} differs from its golden file"


def clock(monkeypatch, moment) -> None:
    """The commands' clock stands at ``moment``."""
    for module in (open_command, remind_command, tally_command):
        monkeypatch.setattr(module, "now", lambda: moment)


@pytest.mark.parametrize("rules", SETS)
@pytest.mark.slow
def test_every_post_of_the_day_per_rule_set(rules, tmp_path, serve_site, monkeypatch):
    game = play(tmp_path, rules, serve_site)
    db = game.db
    clock(monkeypatch, shanghai(2, "12:00:00"))
    url = game.vote_url(2)
    opened = run("open", "--round", 2, "--deadline", "21:00", "--thread", url, "--db", db)
    golden(f"{rules}/open.bbcode", ok(opened))
    assert "已记录：第 2 轮投票截止 2024-03-02 21:00:00，投票帖已记下。" in opened.stderr
    clock(monkeypatch, shanghai(2, "20:30:00"))
    golden(f"{rules}/provisional.bbcode", ok(run("tally", "--db", db, "--as-of", 4)))
    golden(f"{rules}/provisional.text", ok(run("tally", "--db", db, "--format", "text")))
    golden(f"{rules}/remind.bbcode", ok(run("remind", "--db", db, "--mention")))
    golden(f"{rules}/status-open.text", ok(run("status", "--db", db)))
    sub = run("sub", game.living()[-1], "替补乙", "--at", "2024-03-02 20:45", "--db", db)
    golden(f"{rules}/sub.bbcode", ok(sub))
    clock(monkeypatch, shanghai(2, "23:00:00"))
    game.record_day(2, url)
    golden(f"{rules}/history.bbcode", ok(run("history", "--db", db)))
    golden(f"{rules}/history.text", ok(run("history", "--db", db, "--format", "text")))
    golden(f"{rules}/history.json", ok(run("history", "--db", db, "--format", "json")))
    golden(f"{rules}/status.text", ok(run("status", "--db", db)))


@pytest.mark.parametrize("rules", SETS)
@pytest.mark.slow
def test_the_substitute_gets_the_seats_notice_and_the_post_names_no_role(
    rules, tmp_path, serve_site
):
    game = play(tmp_path, rules, serve_site)
    seat = game.living()[-1]
    role = Game.open(game.db).roster().seat(seat).role
    done = run("sub", seat, "替补乙", "--db", game.db, "--format", "text")
    post = ok(done)
    assert f"{seat}号由替补 替补乙 接替 玩家{seat}" in post and role not in post
    notice = private_text(game.db, f"{seat:02d}-替补乙.txt")
    assert notice.startswith("替补乙，你好：") and f"身份是【{role}】" in notice
    assert f"{seat}号：替补乙 接替 玩家{seat}，身份不变。" in done.stderr
    assert "站内短信" in done.stderr and role not in done.stderr
    # a step like any other: undone, the seat is the old holder's again
    ok(run("undo", "--db", game.db))
    assert Game.open(game.db).roster().seat(seat).name == f"玩家{seat}"


# --- threads and the deadline remembered ------------------------------------------------


def test_tally_record_remembers_the_vote_thread_and_status_shows_it(tmp_path, serve_site):
    game = play(tmp_path, "1.2", serve_site, days=0)
    url = game.vote_url(1)
    ok(run("tally", url, "--db", game.db, "--deadline", deadline(1, "21:00"), "--record"))
    assert f"第 1 轮投票帖：{url}" in ok(run("status", "--db", game.db))
    assert f"第 1 轮投票帖：{url}" in ok(run("thread", "--db", game.db))


def test_the_thread_command_sets_lists_and_is_undone(tmp_path, serve_site):
    game = play(tmp_path, "1.2", serve_site, days=0)
    db = game.db
    url = game.vote_url(1)
    done = run("thread", "vote", url, "--db", db)
    assert "已记下第 1 轮的投票帖" in said(done)
    ok(run("thread", "game", "https://judge:secret@bbs.example.com/t-1.html", "--db", db))
    listed = ok(run("thread", "--db", db))
    assert "游戏帖：https://***@bbs.example.com/t-1.html" in listed and "secret" not in listed
    refused(run("thread", "vote", url, "--db", db), "没有改动")
    ok(run("undo", "--db", db))
    assert "游戏帖：（没有记下）" in ok(run("thread", "--db", db))
    # a login is never kept: the address must be given again to be used
    ok(run("thread", "game", "https://judge:secret@bbs.example.com/t-1.html", "--db", db))
    refused(run("lurkers", "--round", 1, "--db", db, "--to", "22:00"), "含登录信息")


def test_tally_takes_the_remembered_thread_and_the_opened_deadline(
    tmp_path, serve_site, monkeypatch
):
    game = play(tmp_path, "1.2", serve_site, days=0)
    db = game.db
    url = game.vote_url(1)
    refused(run("tally", "--db", db, "--record"), "没有给出第 1 轮的投票帖")
    clock(monkeypatch, shanghai(1, "12:00:00"))
    ok(run("open", "--deadline", "21:00", "--thread", url, "--db", db))
    given = ok(
        run("tally", url, "--db", db, "--deadline", deadline(1, "21:00"), "--format", "json")
    )
    clock(monkeypatch, shanghai(1, "23:00:00"))
    assert ok(run("tally", "--db", db, "--format", "json")) == given
    ok(run("tally", "--db", db, "--record"))
    (day,) = events(db, "day")
    assert day.round == 1
    # the next vote is opened anew: the first one's deadline is not the next one's
    refused(run("tally", url, "--db", db, "--round", 2), "请用 --deadline 给出截止时间")


def test_open_refuses_a_past_deadline_a_wrong_round_and_a_round_before_its_night(
    tmp_path, serve_site, monkeypatch
):
    game = play(tmp_path, "1.2", serve_site, days=1)
    db = game.db
    clock(monkeypatch, shanghai(2, "12:00:00"))
    refused(run("open", "--deadline", "2024-03-02 11:00", "--db", db), "已经过去")
    refused(run("open", "--round", 3, "--deadline", "21:00", "--db", db), "请用 --round 2")
    (tmp_path / "fresh").mkdir()
    fresh = play(tmp_path / "fresh", "1.2", serve_site, days=0)
    # play() records the first night: undo it, and the first vote waits for it
    ok(run("undo", "--db", fresh.db))
    refused(
        run("open", "--deadline", "21:00", "--db", fresh.db),
        "第 1 轮的夜晚还没有记录：先记录夜晚（killmod night --round 1 …）",
    )
    ok(run("open", "--deadline", "21:00", "--db", db))
    ok(run("undo", "--db", db))
    assert not events(db, "vote_opened")


# --- the count during the day --------------------------------------------------------------


def test_a_provisional_count_is_never_recorded_and_not_a_result(tmp_path, serve_site, monkeypatch):
    game = play(tmp_path, "1.2", serve_site, days=0)
    url = game.vote_url(1)
    db = game.db
    before = events(db)
    refused(
        run("tally", url, "--db", db, "--deadline", "21:00", "--as-of", "now", "--record"),
        "不能记录",
    )
    refused(run("tally", url, "--db", db, "--deadline", "21:00", "--as-of", 999), "没有第 999 楼")
    clock(monkeypatch, shanghai(1, "20:30:00"))
    post = ok(run("tally", url, "--db", db, "--deadline", deadline(1, "21:00")))
    assert "临时票型" in post and "非最终结果" in post and "距截止还有 30 分 0 秒" in post
    assert not any(word in post for word in ("出局", "警告", "视为自投", "平票"))
    document = json.loads(
        ok(
            run(
                "tally",
                url,
                "--db",
                db,
                "--deadline",
                deadline(1, "21:00"),
                "--as-of",
                "20:15",
                "--format",
                "json",
            )
        )
    )
    assert document["schema"] == "killmod.provisional/1" and document["final"] is False
    assert document["as_of"]["time"] == "2024-03-01T20:15:00+08:00"
    assert events(db) == before


def test_a_reminder_after_the_deadline_is_refused(tmp_path, serve_site, monkeypatch):
    game = play(tmp_path, "1.2", serve_site, days=0)
    url = game.vote_url(1)
    clock(monkeypatch, shanghai(1, "21:00:01"))
    refused(run("remind", url, "--db", game.db, "--deadline", "21:00"), "已经过去")


# --- status ------------------------------------------------------------------------------


def test_status_shows_the_veto_penalties_and_the_dead_with_their_camps(tmp_path, serve_site):
    game = play(tmp_path, "1.2", serve_site, days=1)
    db = game.db
    shown = ok(run("status", "--db", db))
    assert "否决权：还没有用" in shown
    assert "（第 1 轮的夜晚被杀，好人）" in shown and "被投票出局，杀手）" in shown
    living = game.living()
    ok(
        run(
            "penalty",
            living[0],
            "--round",
            1,
            "--kind",
            "cancel",
            "--choice",
            "取消一轮",
            "--db",
            db,
        )
    )
    shown = ok(run("status", "--db", db))
    assert "（取消犯规方阵营所有特殊权利一轮，在第 3 轮夜晚执行）" in shown
    roles = Game.open(db).roster()
    assert not any(p.role in shown for p in roles.living if p.role not in ("好人", "杀手"))
    assert "检查官" not in shown  # who holds the veto is the judge's secret


def test_status_hidden_writes_the_night_states_to_a_private_file_only(tmp_path, serve_site):
    game = play(tmp_path, "v4", serve_site, days=1)
    db = game.db
    roster = Game.open(db).roster()
    old_man = next(p.seat for p in roster.living if p.role == "森林老人")
    target = next(p.seat for p in roster.living if p.role == "平民")
    ok(run("undo", "--db", db))  # the night after the day: again, with a 【沉默】
    ok(run("night", "--round", 1, "--kill", target, "--silence", old_man, "--yes", "--db", db))
    done = run("status", "--db", db, "--hidden")
    public = ok(done)
    assert "癫狂" not in public and "隐藏状态" not in public
    assert "夜晚的隐藏状态写在" in done.stderr
    secret = private_text(db, "round2-hidden.txt")
    assert f"癫狂（今天的发言不计票）：{old_man}号" in secret
    assert ok(run("status", "--db", db)) == public


def test_a_tally_without_a_game_file_says_what_to_give(tmp_path):
    missing = tmp_path / "none.db"
    refused(
        run("tally", "--db", missing), f"请给出投票帖和--deadline 截止时间：没有游戏文件 {missing}"
    )
    refused(run("tally", "page.html", "--db", missing), "请给出--deadline 截止时间")
    refused(run("tally", "--deadline", "22:00", "--db", missing), "请给出投票帖：")
    assert not missing.exists()
