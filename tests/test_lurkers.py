"""`killmod lurkers` and `killmod leave`: posts per living player over a round (潜水, 请假)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.fetch.http import Fetcher, FetchOptions
from killmod.fetch.thread import read_game_thread, read_thread
from killmod.game.store import Game
from killmod.usecases.audit import zhashi_ends
from killmod.usecases.lurkers import lurkers
from tests.support.gamethread import (
    GAME_TID,
    JUDGE,
    OUTSIDER,
    ROUND1_END,
    ROUND2_END,
    at,
    game_thread,
    new_game,
    record_deadlines,
    round2_rows,
    serve_game_thread,
)
from tests.support.pagebuilder import SHANGHAI, discuz_x_site
from tests.support.pagebuilder_api import whole_board


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def counts(db: Path, url: str, round_no: int = 2, **options) -> dict[int, tuple[int, str]]:
    """seat → (posts, status) as the lurkers use case reports them."""
    report = lurkers(Game.open(db), url, round_no=round_no, **options)
    return {count.seat: (count.posts, count.status) for count in report.counts}


def game_with_rounds(tmp_path: Path, **kwargs) -> Path:
    db = new_game(tmp_path, **kwargs)
    record_deadlines(db, ROUND1_END, ROUND2_END)
    return db


def test_counts_each_living_players_posts_over_the_round(tmp_path, serve_site):
    db = game_with_rounds(tmp_path)
    rows = round2_rows({7: 5, 9: 0})
    rows += [
        (JUDGE, at("2019-05-12 09:00:00"), "法官提醒：每轮至少发言三次"),
        (OUTSIDER, at("2019-05-12 09:30:00"), "围观"),
        (6, at("2019-05-12 10:00:00"), "出局玩家的发言"),  # seat 6 is out: not counted
        (("米儿的小号", 9999), at("2019-05-12 10:05:00"), "小号发言"),  # another account
    ]
    url = serve_game_thread(serve_site, rows)
    found = counts(db, url)
    assert sorted(found) == [1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 14, 15, 16]
    assert found[1] == (3, "ok") and found[7] == (5, "ok") and found[9] == (0, "lurking")
    result = run("lurkers", url, "--round", "2", "--db", str(db), "--format", "text")
    assert result.exit_code == 0, result.output
    assert "【第 2 轮潜水统计】" in result.output
    assert "统计时间：2019-05-11 22:00:00 之后，至 2019-05-12 22:00:00（含）" in result.output
    assert "7号 花生米：5 次\n" in result.output
    assert "9号 小明：0 次 潜水" in result.output
    assert "\n6号" not in result.output


def test_exactly_three_posts_is_not_lurking_two_is(tmp_path, serve_site):
    db = game_with_rounds(tmp_path)
    url = serve_game_thread(serve_site, round2_rows({1: 3, 2: 2}))
    found = counts(db, url)
    assert found[1] == (3, "ok")
    assert found[2] == (2, "lurking")
    bbcode = run("lurkers", url, "--round", "2", "--db", str(db)).output
    assert "2号 阿狸：2 次 [color=red]潜水[/color]" in bbcode
    assert counts(db, url, minimum=2)[2] == (2, "ok")  # --min overrides the rule's 3


def test_posts_outside_the_window_do_not_count(tmp_path, serve_site):
    db = game_with_rounds(tmp_path)
    rows = round2_rows({3: 1})
    rows += [
        (3, ROUND1_END, "上一轮截止那一秒：属于上一轮"),
        (3, ROUND2_END, "本轮截止那一秒：算"),
        (3, at("2019-05-12 22:00:01"), "截止后一秒：不算"),
    ]
    url = serve_game_thread(serve_site, rows)
    assert counts(db, url)[3] == (2, "lurking")
    # --from / --to replace the recorded bounds
    wider = counts(db, url, from_text="2019-05-11 21:00", to_text="2019-05-12 23:00")
    assert wider[3] == (4, "ok")


def test_round_one_runs_from_the_first_post_and_an_unrecorded_round_needs_to(tmp_path, serve_site):
    db = new_game(tmp_path)
    record_deadlines(db, ROUND1_END)
    url = serve_game_thread(serve_site, [(1, at("2019-05-10 21:00:00"), "热身")])
    assert counts(db, url, round_no=1)[1] == (1, "lurking")
    missing = run("lurkers", url, "--round", "2", "--db", str(db))
    assert missing.exit_code == 2 and "--to" in missing.output
    given = run("lurkers", url, "--round", "2", "--to", "2019-05-12 22:00", "--db", str(db))
    assert given.exit_code == 0, given.output


def test_a_player_on_leave_that_day_is_exempt(tmp_path, serve_site):
    db = game_with_rounds(tmp_path)
    url = serve_game_thread(serve_site, round2_rows({2: 0, 3: 0}))
    result = run("leave", "2", "--day", "2019-05-12", "--note", "出差", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert "2号 阿狸 请假 2019-05-12" in result.output
    run("leave", "3", "--day", "2019-05-14", "--db", str(db))  # another round's day
    found = counts(db, url)
    assert found[2] == (0, "leave") and found[3] == (0, "lurking")
    text = run("lurkers", url, "--round", "2", "--db", str(db), "--format", "text").output
    assert "2号 阿狸：0 次（请假 05-12）" in text
    assert [e.data["day"] for e in Game.open(db).events("leave")] == ["2019-05-12", "2019-05-14"]


def test_a_second_leave_is_refused(tmp_path):
    db = new_game(tmp_path)
    assert run("leave", "2", "--day", "2019-05-12", "--db", str(db)).exit_code == 0
    again = run("leave", "2", "--day", "2019-05-13", "--db", str(db))
    assert again.exit_code == 2 and "最多请假 1 天" in again.output
    out = run("leave", "6", "--day", "2019-05-13", "--db", str(db))
    assert out.exit_code == 2 and "已出局" in out.output
    assert len(Game.open(db).events("leave")) == 1


def test_record_warns_then_substitutes_then_drowns(tmp_path, serve_site):
    # seats 2 and 5 carry a warning; one substitute (替补甲) is left
    db = game_with_rounds(tmp_path, warnings={2: 1, 5: 1})
    url = serve_game_thread(serve_site, round2_rows({2: 1, 5: 2, 7: 0}))
    result = run("lurkers", url, "--round", "2", "--record", "--db", str(db), "--format", "text")
    assert result.exit_code == 0, result.output
    assert "2号 阿狸：第 2 次警告，由替补 替补甲 接替。" in result.output
    assert "5号 预言家本家：第 2 次警告，无替补，出局（淹死），身份：好人。" in result.output
    assert "7号 花生米：第 1 次警告。" in result.output
    assert "（已记录为第 2 轮的潜水警告，共 3 条。）" in result.output
    game = Game.open(db)
    lurking = [e for e in game.events("warning") if e.data["reason"] == "lurking"]
    assert [(e.round, e.seat, e.data["total"], e.data["action"]) for e in lurking] == [
        (2, 2, 2, "substitute"),
        (2, 5, 2, "out"),
        (2, 7, 1, "warn"),
    ]
    roster = game.roster()
    assert roster.seat(2).name == "替补甲" and roster.seat(2).former[0].until == ROUND2_END
    assert [(e.seat, e.data["how"]) for e in game.events("death")] == [(5, "drowned")]
    # 1.2 五: the drowned player's 诈尸 window opens at the round's deadline, its announcement
    assert zhashi_ends(game, roster, {}) == {5: ROUND2_END + timedelta(hours=24)}
    assert roster.substitutes == () and roster.warnings == {5: 2, 7: 1}
    again = run("lurkers", url, "--round", "2", "--record", "--db", str(db))
    assert again.exit_code == 2 and "已经记录过" in again.output


def test_without_record_nothing_is_written(tmp_path, serve_site):
    db = game_with_rounds(tmp_path)
    url = serve_game_thread(serve_site, round2_rows({2: 0}))
    before = Game.open(db).events(include_void=True)
    result = run("lurkers", url, "--round", "2", "--db", str(db))
    assert result.exit_code == 0 and "2号 阿狸：0 次" in result.output
    assert "已记录" not in result.output
    assert Game.open(db).events(include_void=True) == before


def test_a_substituted_seat_counts_each_holder_in_their_own_time(tmp_path, serve_site):
    db = game_with_rounds(tmp_path)
    sub = run("sub", "3", "新人", "--uid", "4242", "--at", "2019-05-12 12:00", "--db", str(db))
    assert sub.exit_code == 0, sub.output
    rows = round2_rows({3: 0})
    rows += [
        (3, at("2019-05-12 08:00:00"), "路人甲在换人前"),
        (3, at("2019-05-12 11:00:00"), "路人甲在换人前"),
        (3, at("2019-05-12 13:00:00"), "路人甲在换人后：不算"),
        (("新人", 4242), at("2019-05-12 09:00:00"), "新人接替之前：不算"),
        (("新人", 4242), at("2019-05-12 14:00:00"), "新人接替之后"),
    ]
    url = serve_game_thread(serve_site, rows)
    report = lurkers(Game.open(db), url, round_no=2)
    held = [(c.name, c.posts, c.status, c.warnable) for c in report.counts if c.seat == 3]
    assert held == [("路人甲", 2, "lurking", False), ("新人", 1, "lurking", True)]
    shown = run("lurkers", url, "--round", "2", "--db", str(db), "--format", "text").output
    assert "3号 路人甲（至 05-12 12:00:00 被替换）：2 次" in shown
    assert "3号 新人（05-12 12:00:00 起接替）：1 次" in shown


def test_a_player_voted_out_this_round_is_counted_but_not_warned(tmp_path, serve_site):
    db = game_with_rounds(tmp_path)
    game = Game.open(db)
    with game.transaction():
        game.record(2, "death", 4, {"how": "voted"})
        game.record(2, "death", 12, {"how": "killed"})  # the night before the discussion
    url = serve_game_thread(serve_site, round2_rows({4: 1}))
    report = lurkers(Game.open(db), url, round_no=2, record=True)
    assert [(c.seat, c.warnable) for c in report.lurkers] == [(4, False)]
    assert 12 not in {c.seat for c in report.counts}
    assert report.recorded is not None and report.recorded.warnings == ()


def test_a_second_check_fetches_only_the_tail_of_the_game_thread(tmp_path, serve_site):
    db = game_with_rounds(tmp_path)
    base = serve_site(discuz_x_site(game_thread(round2_rows())))  # 43 posts: 5 pages
    url = f"{base}/forum.php?mod=viewthread&tid={GAME_TID}"
    server = base.server
    cache = str(tmp_path / "cache")
    first = run(
        "lurkers", url, "--round", "2", "--db", str(db), "--cache", cache, "--view", "pages"
    )
    assert first.exit_code == 0, first.output
    pages = {path.rsplit("page=", 1)[-1] for path in server.requests if "page=" in path}
    assert pages == {"1", "2", "3", "4", "5"}
    server.requests.clear()
    second = run(
        "lurkers", url, "--round", "2", "--db", str(db), "--cache", cache, "--view", "pages"
    )
    assert second.output == first.output
    assert all(path.endswith("page=5") or "page=" not in path for path in server.requests)
    assert len(server.requests) <= 2
    server.requests.clear()
    again = run(
        "lurkers",
        url,
        "--round",
        "2",
        "--db",
        str(db),
        "--cache",
        cache,
        "--refresh",
        "--view",
        "pages",
    )
    assert again.output == first.output
    assert len(server.requests) >= 5


def test_each_lurker_gets_a_message_and_the_warning_stays_the_judges(tmp_path, serve_site):
    """1.2 二.2.2: the judge contacts a lurker first, and what he answers decides the
    warning: the count writes each lurker's message (private), the post says so, and only
    --record warns."""
    db = game_with_rounds(tmp_path)
    url = serve_game_thread(serve_site, round2_rows({2: 0, 7: 1}))
    before = Game.open(db).events(include_void=True)
    result = run("lurkers", url, "--round", "2", "--db", str(db))
    assert result.exit_code == 0, result.output
    assert (
        "出现了潜水的玩家后，法官可以和玩家联系。如果玩家表示能够继续参加游戏，则给一次警告。"
        in (result.stdout)
    )
    private = tmp_path / "game-private"
    assert sorted(p.name for p in private.iterdir()) == [
        "round2-prod-02-阿狸.txt",
        "round2-prod-07-花生米.txt",
    ]
    message = (private / "round2-prod-07-花生米.txt").read_text(encoding="utf-8")
    assert message.startswith("花生米，你好：")
    assert (
        "你在游戏帖「" in message
        and "里发言 1 次；规则要求每位玩家每轮发言不少于 3 次。" in message
    )
    assert "请尽快回复法官：你能否继续参加游戏？" in message
    assert message not in result.stdout and "花生米，你好" not in result.stdout
    assert "潜水提醒短信（每位潜水玩家一份）写在" in result.stderr
    assert "--round 2 --record 记警告" in result.stderr
    assert Game.open(db).events(include_void=True) == before  # nothing recorded
    again = run("lurkers", url, "--round", "2", "--db", str(db))  # new files, never over one
    assert again.exit_code == 0 and (private / "round2-prod-02-阿狸-2.txt").is_file()
    recorded = run("lurkers", url, "--round", "2", "--db", str(db), "--record")
    assert recorded.exit_code == 0 and "出现了潜水的玩家后" not in recorded.stdout
    assert len(list(private.iterdir())) == 4  # the warnings: no new message


def test_lurkers_take_the_game_thread_the_file_remembers(tmp_path, serve_site):
    db = game_with_rounds(tmp_path)
    url = serve_game_thread(serve_site, round2_rows({2: 0}))
    refused = run("lurkers", "--round", "2", "--db", str(db))
    assert refused.exit_code == 2 and "没有给出游戏帖" in refused.output
    assert run("thread", "game", url, "--db", str(db)).exit_code == 0
    result = run("lurkers", "--round", "2", "--db", str(db), "--format", "text")
    assert result.exit_code == 0 and "2号 阿狸：0 次" in result.stdout


def test_a_game_thread_read_from_the_api_is_who_posted_when_its_messages_unread(
    tmp_path, serve_site
):
    """Who posted when is all the lurkers count needs: the mobile API's messages are not
    read (in a long game thread, reading them — an HTML tree for each with markup — is
    most of the work).  The posts are the thread pages' but for their text; the count is
    the same; and a tally reading the same thread with the same cache reads every message."""
    db = game_with_rounds(tmp_path)
    rows = round2_rows({7: 5, 9: 0})
    rows[0] = (rows[0][0], rows[0][1], "我觉得5号有问题\n[quote]原帖[/quote]投5号")
    thread = game_thread(rows)
    base = serve_site(whole_board(thread))
    url = f"{base}/forum.php?mod=viewthread&tid={GAME_TID}"
    cache = tmp_path / "cache"

    def options(view: str) -> FetchOptions:
        return FetchOptions(delay=0, cache=cache, view=view)

    unread = read_game_thread(url, tz=SHANGHAI, forum=None, profile=None, fetching=options("auto"))
    assert [view.view for view in unread.views] == ["api"]
    assert {post.body for post in unread.posts} == {""}
    assert all(post.quotes == () and post.edited_at is None for post in unread.posts)
    with Fetcher(options("pages")) as fetcher:
        paged = read_thread(url, tz=SHANGHAI, fetcher=fetcher)

    def who_and_when(posts):
        return [(p.pid, p.floor, p.author, p.uid, p.posted_at) for p in posts]

    assert who_and_when(unread.posts) == who_and_when(paged.posts)
    from_api = counts(db, url, fetching=FetchOptions(delay=0))
    assert from_api == counts(db, url, fetching=FetchOptions(delay=0, view="pages"))
    assert from_api[7] == (5, "ok") and from_api[9] == (0, "lurking")
    with Fetcher(options("auto")) as fetcher:
        read = read_thread(url, tz=SHANGHAI, fetcher=fetcher)
    assert [view.view for view in read.views] == ["api"]
    assert [p.body for p in read.posts] == [p.body for p in paged.posts]
    assert all(post.body for post in read.posts)
