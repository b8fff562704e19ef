"""The judge's slips are refused, not recorded (issue 25.5): each by the installed ``killmod``
in its own process on a real game file, with a local board where one is involved — the
refusal in Chinese naming the fault (and the option that overrides it, where one does),
exit code 2, and the game file as it was.
"""

from __future__ import annotations

import pytest

from tests.support.boardgames import board_game
from tests.support.gamefiles import deadline, roster_toml, serve
from tests.support.gamesteps import (
    ROLES,
    ballots_for,
    console,
    everyone_votes,
    game_12,
    rows,
    vote_url,
)

pytestmark = pytest.mark.slow


def refused(done, *words: str) -> None:
    """Exit code 2, no traceback, and every one of ``words`` in the message."""
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


def recorded(done) -> str:
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


# --- a thread the game file knows in another part -----------------------------------------


def test_the_game_thread_given_as_the_vote_thread_is_refused(tmp_path, serve_site):
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    recorded(console("thread", "game", url, "--db", db))
    before = rows(db)
    # the same thread in the forms a judge copies: another page, the rewritten URL, https
    base = url.split("/forum.php")[0]
    for given in (url, f"{url}&page=2&extra=page%3D1", f"{base}/thread-9100-1-1.html"):
        done = console("tally", given, "--db", db, "--deadline", deadline(1), "--record")
        refused(done, "是游戏文件记下的游戏帖，不是第 1 轮的投票帖", "killmod thread game")
    assert rows(db) == before
    # counting it without recording harms nothing: counted, with a warning
    counted = console("tally", url, "--db", db, "--deadline", deadline(1))
    assert counted.returncode == 0 and "这个帖子是游戏文件记下的游戏帖" in counted.stderr
    # killmod open and killmod thread vote refuse it too
    refused(
        console("thread", "vote", url, "--round", 1, "--db", db),
        "是游戏文件记下的游戏帖，不是第 1 轮的投票帖",
    )
    assert rows(db) == before


def test_another_rounds_vote_thread_is_refused_as_this_rounds(tmp_path, serve_site):
    db = game_12(tmp_path)
    day1 = vote_url(serve_site, everyone_votes(16), 1)
    recorded(console("tally", day1, "--db", db, "--deadline", deadline(1), "--record"))
    recorded(console("night", "--round", 2, "--kill", 5, "--db", db))
    before = rows(db)
    done = console("tally", day1, "--db", db, "--deadline", deadline(2), "--record")
    refused(done, "是游戏文件记下的第 1 轮的投票帖，不是第 2 轮的投票帖")
    refused(console("thread", "game", day1, "--db", db), "是游戏文件记下的第 1 轮的投票帖")
    assert rows(db) == before
    day2 = serve(serve_site, ballots_for(everyone_votes(15, [*range(1, 5), *range(6, 17)])), 2)
    recorded(console("tally", day2, "--db", db, "--deadline", deadline(2), "--record"))


# --- a night while the day's vote is pending -----------------------------------------------


def test_a_night_while_the_days_vote_is_open_is_refused_unless_the_day_is_skipped(tmp_path):
    db = game_12(tmp_path)
    recorded(console("night", "--round", 1, "--kill", 5, "--db", db))
    recorded(console("open", "--round", 1, "--deadline", "2099-03-01 22:00", "--db", db))
    before = rows(db)
    done = console("night", "--round", 2, "--kill", 6, "--db", db)
    refused(
        done,
        "第 1 轮白天的投票还没有记录（killmod open 已开投票，截止 2099-03-01 22:00:00）",
        "不能记录第 2 轮的夜晚",
        "--skip-day",
    )
    assert rows(db) == before
    # the judge's decision: recorded with the night, named by status, undone with it
    recorded(console("night", "--round", 2, "--kill", 6, "--skip-day", "--db", db))
    status = recorded(console("status", "--db", db))
    assert "跳过：第 1 轮没有投票：法官决定跳过白天（记录第 2 轮的夜晚时）" in status
    refused(
        console("tally", "x", "--db", db, "--deadline", deadline(1), "--record", "--round", 1),
        "第 1 轮的白天已经跳过",
        "killmod undo",
    )
    undone = recorded(console("undo", "--db", db))
    assert "跳过第 1 轮白天的决定" in undone
    refused(console("night", "--round", 2, "--kill", 6, "--db", db), "--skip-day")


def test_a_night_before_the_days_tie_is_drawn_is_refused(tmp_path, serve_site):
    """1.2: a 7–7 tie recorded, its lottery not drawn; the next night was recorded (exit 0)
    with both tied players alive, and the lottery's loser then died after that night."""
    db = game_12(tmp_path)
    recorded(console("night", "--round", 1, "--kill", 16, "--db", db))
    tie = {seat: 5 if seat <= 8 else 6 for seat in range(1, 16)} | {5: 6, 6: 5, 15: "弃权"}
    day1 = vote_url(serve_site, tie, 1)
    assert "平票" in recorded(
        console("tally", day1, "--db", db, "--deadline", deadline(1), "--record")
    )
    before = rows(db)
    refused(
        console("night", "--round", 2, "--kill", 7, "--db", db),
        "第 1 轮平票还没有抽签",
        "不能记录第 2 轮的夜晚",
        "killmod lottery make --round 1",
    )
    assert rows(db) == before
    recorded(console("lottery", "make", "--round", 1, "--seed", 1, "--db", db))
    refused(console("night", "--round", 2, "--kill", 7, "--db", db), "第 1 轮平票还没有抽签")
    recorded(console("lottery", "reveal", "--round", 1, "--lot", 1, "--db", db))
    recorded(console("night", "--round", 2, "--kill", 7, "--db", db))


def test_skip_day_without_a_pending_day_is_refused(tmp_path):
    db = game_12(tmp_path)
    before = rows(db)
    refused(
        console("night", "--round", 1, "--kill", 5, "--skip-day", "--db", db),
        "没有待记录的白天投票可以跳过",
    )
    assert rows(db) == before


# --- --post without what posting needs ------------------------------------------------------


def test_post_without_the_judges_uid_is_refused_before_anything_is_recorded(tmp_path, serve_site):
    game = board_game(tmp_path, serve_site, "1.2", ROLES, judge_uid=False)
    day1 = serve(serve_site, ballots_for(everyone_votes(16)), 1)
    before = rows(game.db)
    done = console(
        "tally",
        day1,
        "--db",
        game.db,
        "--deadline",
        deadline(1),
        "--record",
        "--post",
        day1,
        "--cookies",
        game.cookies,
        "--yes",
    )
    refused(done, "法官没有论坛 uid", "killmod judge", "什么也没有记录")
    assert done.stdout == "" and rows(game.db) == before
    # a post to something that is no thread on a board: refused as early
    done = console(
        "night", "--round", 1, "--kill", 5, "--post", tmp_path, "--cookies", game.cookies,
        "--db", game.db,
    )  # fmt: skip
    refused(done, "--post 要给帖子的网址", "什么也没有记录")
    assert rows(game.db) == before
    # once the judge's uid is known, the same command records and posts
    recorded(console("judge", "法官", "--uid", 900, "--db", game.db))
    posted = console(
        "night", "--round", 1, "--kill", 5, "--post", game.game_url, "--cookies", game.cookies,
        "--yes", "--db", game.db,
    )  # fmt: skip
    assert posted.returncode == 0 and "已回复帖子" in posted.stderr, posted.stderr


# --- sub --uid --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("uid", "owner"),
    [(5002, "2号 玩家2"), (900, "法官 法官"), (7001, "替补 替补乙")],
)
def test_sub_with_a_uid_the_game_gives_someone_else_is_refused(tmp_path, uid, owner):
    roster = roster_toml(
        "1.2", ROLES, extra='substitutes = ["替补甲", { name = "替补乙", uid = 7001 }]'
    )
    roster = roster.replace('judges = ["法官"]', 'judges = [{ name = "法官", uid = 900 }]')
    (tmp_path / "roster.toml").write_text(roster, encoding="utf-8")
    db = tmp_path / "game.db"
    recorded(console("init", "--roster", tmp_path / "roster.toml", "--db", db))
    before = rows(db)
    done = console("sub", 1, "替补甲", "--uid", uid, "--db", db)
    refused(done, f"uid {uid} 已经是 {owner} 的论坛帐号，不能给替补 替补甲")
    assert rows(db) == before


def test_sub_uid_that_contradicts_the_roster_is_refused_and_the_rosters_is_used(tmp_path):
    db = game_12(tmp_path, extra='substitutes = [{ name = "替补甲", uid = 7000 }]')
    before = rows(db)
    refused(
        console("sub", 1, "替补甲", "--uid", 7005, "--db", db),
        "名单里替补 替补甲 的 uid 是 7000，--uid 给的是 7005",
    )
    assert rows(db) == before
    recorded(console("sub", 1, "替补甲", "--db", db))
    (_, events, *_rest) = rows(db)
    substitution = [event for event in events if event[2] == "substitution"][-1]
    assert '"new_uid": 7000' in substitution[4]


# --- output paths ---------------------------------------------------------------------------


def test_history_never_writes_over_the_game_file_the_private_folder_or_another_file(
    tmp_path,
):
    pytest.importorskip("matplotlib")
    db = game_12(tmp_path)
    recorded(console("night", "--round", 1, "--kill", 5, "--db", db))
    game_bytes = db.read_bytes()
    private = tmp_path / "game-private"
    notes = tmp_path / "notes.txt"
    notes.write_text("法官的笔记", encoding="utf-8")
    cases = [
        (db, "是游戏文件，不能用来写票型图"),
        (private / "chart.png", "在私密文件夹"),
        (notes, "已经存在，不是票型图（PNG）：killmod 不会覆盖它"),
        (tmp_path, "是文件夹"),
    ]
    for out, message in cases:
        refused(console("history", "--format", "png", "--out", out, "--db", db), message)
    assert db.read_bytes() == game_bytes
    assert notes.read_text(encoding="utf-8") == "法官的笔记"
    assert not (private / "chart.png").exists()
    chart = tmp_path / "chart.png"
    for _ in range(2):  # its own picture is written again
        recorded(console("history", "--format", "png", "--out", chart, "--db", db))
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_new_force_never_writes_over_a_game_file(tmp_path):
    db = game_12(tmp_path)
    game_bytes = db.read_bytes()
    refused(
        console("new", db, "--force", cwd=tmp_path),
        "是 SQLite 数据库（游戏文件？）：--force 也不覆盖",
    )
    assert db.read_bytes() == game_bytes
