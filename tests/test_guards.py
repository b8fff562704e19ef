"""The guards: a step that makes no sense for the game's state is refused, exit 2, with what
is expected instead — and nothing is written to the game file (README, “The game file”)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from killmod.game.store import Game
from tests.support.gamefiles import deadline, night, ok, refused, run, said, vote_thread
from tests.support.gamesteps import ROLES, everyone_votes, game_12, record_day, rows, vote_url
from tests.support.pagebuilder import discuz_x_site

FUTURE = "2099-03-01 22:00"


def served(serve_site, thread) -> str:
    base = serve_site(discuz_x_site(thread))
    return f"{base}/forum.php?mod=viewthread&tid={thread.tid}"


# --- the next round only ------------------------------------------------------------------


def test_a_round_other_than_the_next_one_is_refused(tmp_path, serve_site):
    db = game_12(tmp_path)
    first = vote_url(serve_site, everyone_votes(16), 1)
    refused(record_day(db, first, 1, "--round", 2), "下一轮要记录的是第 1 轮，不是第 2 轮")
    ok(record_day(db, first, 1))
    later = vote_url(serve_site, everyone_votes(15), 3)
    before = rows(db)
    refused(record_day(db, later, 3, "--round", 3), "下一轮要记录的是第 2 轮，不是第 3 轮")
    refused(record_day(db, later, 3, "--round", 1), "第 1 轮的投票已经记录过")
    assert rows(db) == before


def test_a_night_other_than_the_next_one_is_refused(tmp_path, serve_site):
    db = game_12(tmp_path)
    refused(
        night(db, 2, "--kill", 5),
        "下一个要记录的夜晚是第 1 轮的夜晚（killmod night --round 1），不是第 2 轮的夜晚",
    )
    ok(record_day(db, vote_url(serve_site, everyone_votes(16), 1), 1))
    # night 1 came before day 1: once day 1 is recorded it is past
    refused(
        night(db, 1, "--kill", 5),
        "下一个要记录的夜晚是第 2 轮的夜晚（killmod night --round 2），不是第 1 轮的夜晚",
    )
    refused(night(db, 3, "--kill", 5), "不是第 3 轮的夜晚")
    ok(night(db, 2, "--kill", 5))


def test_a_game_that_starts_under_way_may_start_at_any_round(tmp_path, serve_site):
    db = game_12(tmp_path, out=(15,))  # the roster carries a game under way
    ok(night(db, 3, "--kill", 5))
    ok(record_day(db, vote_url(serve_site, everyone_votes(16, range(1, 15)), 3), 3))
    refused(night(db, 5, "--kill", 6), "下一个要记录的夜晚是第 4 轮的夜晚")


# --- nothing after the game is over -------------------------------------------------------


@pytest.fixture
def ended(tmp_path, serve_site):
    """A game the killers lost on day 1: the last killer (1) voted out."""
    db = game_12(tmp_path, out=(2, 3))
    text = ok(record_day(db, vote_url(serve_site, everyone_votes(1, range(4, 17)), 1), 1))
    assert "游戏结束：好人方胜利" in text
    return db


@pytest.mark.parametrize(
    "command",
    [
        ["night", "--round", 2, "--kill", 5],
        ["sub", 5, "新人"],
        ["lottery", "make", "--round", 1],
        ["penalty", 5, "--round", 1, "--kind", "cancel", "--choice", "取消一次杀人"],
        ["leave", 5, "--day", "2024-03-02"],
        ["deal", "--notices", "notices"],
    ],
    ids=["night", "sub", "lottery", "penalty", "leave", "deal"],
)
def test_nothing_is_recorded_after_the_game_is_over(ended, command, monkeypatch):
    monkeypatch.chdir(ended.parent)
    before = rows(ended)
    refused(run(*command, "--db", ended), "游戏已经结束（好人方胜利），不能再记录")
    assert rows(ended) == before


def test_no_tally_is_recorded_after_the_game_is_over(ended, serve_site):
    url = vote_url(serve_site, everyone_votes(16, range(4, 17)), 2)
    before = rows(ended)
    refused(record_day(ended, url, 2), "游戏已经结束（好人方胜利），不能再记录")
    assert rows(ended) == before
    # counting without recording is still allowed
    ok(run("tally", url, "--db", ended, "--deadline", deadline(2)))
    lurkers = ["lurkers", url, "--round", 1, "--db", ended]
    refused(run(*lurkers, "--record"), "游戏已经结束（好人方胜利），不能再记录")
    assert rows(ended) == before


# --- a final record before the deadline ---------------------------------------------------


def test_a_final_record_before_the_deadline_needs_early_and_is_marked(tmp_path, serve_site):
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    record = ["tally", url, "--db", db, "--deadline", FUTURE, "--record"]
    refused(run(*record), "还没到")
    assert Game.open(db).tally_record(1) is None
    post = ok(run(*record, "--early", "--format", "text"))
    assert "提前计票：截止时间还没到，法官提前记录为本轮的结果。" in post
    game = Game.open(db)
    (day,) = game.events("day")
    assert day.data["early"] is True
    assert json.loads(game.tally_record(1)["result"])["early"] is True


def test_a_count_before_the_deadline_says_it_is_not_the_final_result(tmp_path, serve_site):
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    count = run("tally", url, "--db", db, "--deadline", FUTURE, "--format", "text")
    post = ok(count)
    assert post.startswith("【第 1 轮临时票型（截至 ") and "非最终结果" in post
    assert "被投出局" not in post and "警告" not in post and "视为自投" not in post
    assert "截止时间还没到：上面是截至现在的临时票型" in count.stderr
    early = ok(run("tally", url, "--db", db, "--deadline", FUTURE, "--format", "text", "--early"))
    assert "截止时间还没到：这是目前的票数，不是本轮的最终结果。" in early


# --- a night before the deal --------------------------------------------------------------


def test_a_night_before_the_deal_is_refused(tmp_path):
    db = game_12(tmp_path, dict.fromkeys(ROLES))
    refused(night(db, 1, "--kill", 5), "还没有发身份，不能记录夜晚")
    ok(run("deal", "--db", db, "--notices", tmp_path / "notices", "--seed", 1))
    ok(night(db, 1, "--kill", 5))


# --- one vote thread, one round -----------------------------------------------------------


def test_the_same_snapshot_is_not_recorded_as_a_second_round(tmp_path, serve_site):
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    ok(record_day(db, url, 1))
    ok(night(db, 2, "--kill", 5))
    before = rows(db)
    copy = vote_url(serve_site, everyone_votes(16), 1)  # the same posts at another address
    refused(
        run("tally", copy, "--db", db, "--deadline", deadline(2), "--record"),
        "已经作为第 1 轮记录过：投票帖或轮次弄错了？",
    )
    assert rows(db) == before


def test_another_rounds_vote_thread_with_new_posts_is_refused(tmp_path, serve_site):
    db = game_12(tmp_path)
    thread = vote_thread([(seat, "20:00:00", "投16号") for seat in range(1, 16)])
    url = served(serve_site, thread)
    ok(record_day(db, url, 1))
    ok(night(db, 2, "--kill", 5))
    thread.posts.append(replace(thread.posts[-1], pid=thread.posts[-1].pid + 1, body="路过"))
    refused(
        record_day(db, url, 1, "--round", 2),
        "是游戏文件记下的第 1 轮的投票帖，不是第 2 轮的投票帖",
    )


# --- a thread that cannot be this vote's ----------------------------------------------------


def test_a_thread_opened_after_the_deadline_is_refused_and_warned(tmp_path, serve_site):
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    early = ["tally", url, "--db", db, "--deadline", "2024-02-28 22:00"]
    refused(run(*early, "--record"), "在截止时间 2024-02-28 22:00:00 之后：截止时间或投票帖不对？")
    assert Game.open(db).tally_record(1) is None
    assert "注意：投票帖的第一个帖子（1楼" in said(run(*early))


def test_a_thread_whose_player_posts_all_come_after_the_deadline(tmp_path, serve_site):
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    late = ["tally", url, "--db", db, "--deadline", "2024-03-01 19:30"]
    refused(run(*late, "--record"), "玩家的 16 个帖子都在截止时间 2024-03-01 19:30:00 之后")
    assert "注意：玩家的 16 个帖子都在截止时间" in said(run(*late))


def test_a_thread_without_any_post_of_a_player_is_refused_and_warned(tmp_path, serve_site):
    db = game_12(tmp_path)
    thread = vote_thread([(seat, "20:00:00", "投16号") for seat in ROLES])
    others = [replace(p, author=f"别局玩家{n}", uid=7000 + n) for n, p in enumerate(thread.posts)]
    url = served(serve_site, replace(thread, posts=[thread.posts[0], *others[1:]]))
    refused(record_day(db, url, 1), "没有一个是名单上的玩家发的：名单或游戏文件（--db）不对")
    assert Game.open(db).events("warning") == []  # nobody warned for a wrong thread
    assert "注意：投票帖里 17 个帖子没有一个是名单上的玩家发的" in said(
        run("tally", url, "--db", db, "--deadline", deadline(1))
    )
