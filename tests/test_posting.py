"""Replying to a thread as the judge (``killmod post``, ``--post``), against the fake board."""

from __future__ import annotations

from pathlib import Path

import pytest

from killmod.board.posting import Announcement, post_announcement
from killmod.board.session import BoardOptions, BoardRefused
from killmod.core.errors import BadInput
from killmod.game import outbox
from killmod.game.store import Game
from tests.support.boardgames import GAME_TID, BoardGame, board_game
from tests.support.fakeboard import CLOSED, NO_PERMISSION, NOT_LOGGED_IN, FakeBoard, log_in
from tests.support.gamefiles import JUDGE

ROLES = {seat: "杀手" if seat <= 3 else "检查官" if seat == 4 else "水民" for seat in range(1, 17)}
TEXT = "[size=4][b]第 1 轮投票结果[/b][/size]\n5号 出局，身份：[color=red]好人[/color]\n"


@pytest.fixture
def game(tmp_path: Path, serve_site) -> BoardGame:
    return board_game(tmp_path, serve_site, "1.2", ROLES)


class Clock:
    """The board's flood-control clock, moved on by killmod's waits (no real waiting)."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


def post(game: BoardGame, text: str = TEXT, *, sleep=lambda s: None, timeout=5.0, **more):
    options = BoardOptions(game.cookies, timeout=timeout, interval=0, sleep=sleep)
    with Game.open(game.db) as opened:
        return post_announcement(
            opened,
            game.game_url,
            Announcement(text, "公告"),
            options,
            confirm=lambda p: True,
            **more,
        )


def judge_posts(game: BoardGame) -> list[str]:
    return [message for tid, _, message in game.board.replies if tid == GAME_TID]


def records(game: BoardGame) -> list[outbox.Record]:
    with Game.open(game.db) as opened:
        return list(outbox.records(opened).values())


def test_a_post_is_made_once_and_its_pid_recorded(game: BoardGame):
    posted = post(game)
    assert posted.pid is not None and not posted.already
    assert judge_posts(game) == [TEXT]
    (record,) = records(game)
    assert (record.what, record.state, record.data["pid"], record.data["thread"]) == (
        "post",
        "done",
        posted.pid,
        GAME_TID,
    )
    again = post(game)
    assert (again.pid, again.already) == (posted.pid, True)
    assert judge_posts(game) == [TEXT]


@pytest.mark.slow
def test_the_post_is_shown_where_it_goes_and_made_only_with_yes(game: BoardGame):
    file = game.tmp / "post.txt"
    file.write_text(TEXT, encoding="utf-8")
    shown = game.run("post", file, "--thread", game.game_url)
    assert shown.exit_code == 0, shown.output
    assert shown.stdout == TEXT
    assert f"tid {GAME_TID}" in shown.stderr and "法官（uid 900）" in shown.stderr
    assert "什么也没有发出：确认无误后加 --yes" in shown.stderr
    assert judge_posts(game) == []
    done = game.run("post", file, "--thread", game.game_url, "--yes")
    assert done.exit_code == 0, done.output
    (pid,) = [pid for tid, pid, _ in game.board.replies]
    assert f"pid {pid}" in done.stderr
    twice = game.run("post", file, "--thread", game.game_url, "--yes")
    assert "已经发过" in twice.stderr and len(game.board.replies) == 1
    again = game.run("post", file, "--thread", game.game_url, "--yes", "--again")
    assert again.exit_code == 0 and len(game.board.replies) == 2


def test_typed_yes_on_a_terminal_posts(game: BoardGame, monkeypatch):
    file = game.tmp / "post.txt"
    file.write_text(TEXT, encoding="utf-8")
    import killmod.commands.speak as speak

    monkeypatch.setattr(speak, "interactive", lambda: True)
    monkeypatch.setattr(speak.click, "prompt", lambda *a, **k: "no")
    game.run("post", file, "--thread", game.game_url)
    assert judge_posts(game) == []
    monkeypatch.setattr(speak.click, "prompt", lambda *a, **k: "yes")
    game.run("post", file, "--thread", game.game_url)
    assert judge_posts(game) == [TEXT]


def test_a_private_text_is_never_posted(game: BoardGame):
    notice = (
        "玩家1，你好：\n你是【杀手】。\n"
        "请勿把身份透露给任何人，也不要把这条短信作为游戏中的证据。\n"
    )
    with pytest.raises(BadInput, match="保密内容"):
        post(game, notice)
    file = game.tmp / "secret.txt"
    file.write_text("公告\n—— 保密：05-meer.txt（不要贴到论坛）——\n你是杀手", encoding="utf-8")
    done = game.run("post", file, "--thread", game.game_url, "--yes")
    assert done.exit_code == 2 and "保密内容" in done.output
    assert judge_posts(game) == [] and records(game) == []


def test_a_guest_session_is_refused_before_anything_is_sent(game: BoardGame):
    guest = log_in(game.base, "", None, game.tmp / "guest.txt")
    file = game.tmp / "post.txt"
    file.write_text(TEXT, encoding="utf-8")
    done = game.run("post", file, "--thread", game.game_url, "--yes", cookies=guest)
    assert done.exit_code == 2
    assert "没有登录" in done.output and "Kq7m_2132_auth" in done.output
    assert judge_posts(game) == [] and records(game) == []


def test_another_member_is_not_the_judge(game: BoardGame):
    someone = log_in(game.base, "玩家5", "secret", game.tmp / "player.txt")
    file = game.tmp / "post.txt"
    file.write_text(TEXT, encoding="utf-8")
    done = game.run("post", file, "--thread", game.game_url, "--yes", cookies=someone)
    assert done.exit_code == 2
    assert "登录的是 玩家5（uid 5005），不是名单里的法官 法官（uid 900）" in done.output
    assert game.board.replies == []


def test_a_roster_without_the_judges_uid_cannot_post(tmp_path: Path, serve_site):
    game = board_game(tmp_path, serve_site, "1.2", ROLES, judge_uid=False)
    with pytest.raises(BadInput, match="法官没有论坛 uid"):
        post(game)
    assert game.board.replies == []


def test_cookies_of_another_board_are_refused(game: BoardGame):
    other = game.tmp / "other.txt"
    other.write_text(
        "# Netscape HTTP Cookie File\n"
        "bbs.example.org\tFALSE\t/\tFALSE\t4102444800\tKq7m_2132_auth\tsecretvalue\n",
        encoding="utf-8",
    )
    file = game.tmp / "post.txt"
    file.write_text(TEXT, encoding="utf-8")
    done = game.run("post", file, "--thread", game.game_url, "--yes", cookies=other)
    assert done.exit_code == 2 and "没有 127.0.0.1 的 cookie" in done.output
    assert "secretvalue" not in done.output


def test_a_closed_thread_is_refused_in_the_boards_words(game: BoardGame):
    game.board.threads[GAME_TID].closed = True
    with pytest.raises(BoardRefused, match=f"「{CLOSED}」——帖子已关闭"):
        post(game)
    (record,) = records(game)
    assert record.state == "failed"
    assert judge_posts(game) == []
    game.board.threads[GAME_TID].closed = False
    assert post(game).pid is not None  # refused: it may be posted later
    assert judge_posts(game) == [TEXT]


def test_no_permission_is_refused(game: BoardGame):
    game.board.threads[GAME_TID].repliers = {5001}
    with pytest.raises(
        BoardRefused, match=f"「{NO_PERMISSION}」——法官的帐号在这个版块没有回复权限"
    ):
        post(game)
    assert judge_posts(game) == []


def test_a_session_ended_before_the_form_is_said_so(game: BoardGame):
    game.board.refuse_next = NOT_LOGGED_IN
    with pytest.raises(BoardRefused, match=f"「{NOT_LOGGED_IN}」——cookies 的登录已失效"):
        post(game)
    assert judge_posts(game) == [] and records(game)[-1].state == "failed"


def test_a_bad_formhash_gets_the_system_error_page(game: BoardGame):
    game.board.expire_formhash = True
    with pytest.raises(BoardRefused, match=r"System Error.*formhash"):
        post(game)
    assert judge_posts(game) == [] and records(game)[-1].state == "failed"


def test_flood_control_is_waited_out_once(tmp_path: Path, serve_site):
    clock = Clock()
    board = FakeBoard(floodctrl=15, clock=clock)
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=board)
    post(game, "第一篇公告的正文", sleep=clock.sleep)
    post(game, "第二篇公告的正文", sleep=clock.sleep)
    assert clock.waits == [16]  # the 15 seconds the board states, and one more
    assert judge_posts(game) == ["第一篇公告的正文", "第二篇公告的正文"]


def test_flood_control_twice_is_refused(tmp_path: Path, serve_site):
    clock = Clock()
    board = FakeBoard(floodctrl=15, clock=clock)
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=board)
    post(game, "第一篇公告的正文", sleep=clock.sleep)
    with pytest.raises(BoardRefused, match=r"灌水预防.*两次发表间隔少于 15 秒.*等了 16 秒"):
        post(game, "第二篇公告的正文", sleep=lambda seconds: None)
    assert judge_posts(game) == ["第一篇公告的正文"]
    assert records(game)[-1].state == "failed"


def test_a_timeout_after_the_board_took_the_post_does_not_post_it_twice(game: BoardGame):
    game.board.stall = 2.0
    posted = post(game, timeout=0.5)
    (pid,) = [pid for tid, pid, _ in game.board.replies]
    assert posted.pid == pid
    assert records(game)[-1].state == "done"


def test_a_post_the_board_changed_is_not_posted_again_when_its_answer_is_lost(game: BoardGame):
    post(game, "另一篇公告，先发的")
    game.board.rewrite = lambda shown: shown.replace("出局", "出局 :)")
    game.board.stall = 2.0
    with pytest.raises(BoardRefused, match=r"内容却对不上.*没有再发"):
        post(game, timeout=0.5)
    assert len(judge_posts(game)) == 2  # the earlier one, and this one once
    assert records(game)[-1].state == "sending"


def test_a_post_lost_on_the_way_is_posted_again(game: BoardGame):
    game.board.lose_next = True
    posted = post(game, timeout=0.5)
    assert judge_posts(game) == [TEXT]
    assert posted.pid == game.board.replies[0][1]


def test_an_answer_lost_twice_is_left_to_look_at(game: BoardGame):
    game.board.lose_next = 2
    with pytest.raises(BoardRefused, match="不知道是否发出"):
        post(game, timeout=0.5)
    assert records(game)[-1].state == "sending"
    # The next run looks at the thread first: here the post never arrived, so it is sent.
    post(game)
    assert judge_posts(game) == [TEXT]


def test_a_post_sent_by_a_run_that_died_is_found_on_the_last_page(game: BoardGame):
    game.board.stall = 2.0
    with pytest.raises(BoardRefused):
        post(game, timeout=0.5, sleep=_die)
    assert records(game)[-1].state == "sending"
    posted = post(game)
    assert posted.already
    assert judge_posts(game) == [TEXT]


def _die(seconds: float) -> None:
    raise BoardRefused("进程中断")


def test_a_thread_of_another_rule_set_is_refused(game: BoardGame):
    game.board.threads[GAME_TID].thread.title = "【V4.0 游戏帖】"
    with pytest.raises(BadInput, match="写的是 v4 规则"):
        post(game)
    assert judge_posts(game) == []


def test_a_gbk_board_gets_gbk_and_refuses_what_gbk_cannot_write(tmp_path: Path, serve_site):
    board = FakeBoard(charset="gbk")
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=board)
    post(game, "第 1 轮：5号 出局")
    assert judge_posts(game) == ["第 1 轮：5号 出局"]
    with pytest.raises(BadInput, match="写不出这些字符：😀"):
        post(game, "第 2 轮 😀")
    assert len(judge_posts(game)) == 1


def test_the_tally_posts_its_announcement_after_recording(game: BoardGame, serve_site):
    from tests.support.gamefiles import TID, vote_thread

    thread = vote_thread([(seat, f"20:{seat:02d}:00", "投5号") for seat in range(1, 17)])
    game.board.add_thread(thread)
    done = game.run(
        "tally",
        game.thread_url(TID),
        "--deadline",
        "2024-03-01 22:00",
        "--record",
        "--post",
        game.thread_url(TID),
        "--yes",
    )
    assert done.exit_code == 0, done.output
    ((tid, pid, message),) = game.board.replies
    assert tid == TID and message == done.stdout
    assert f"已回复帖子 {TID}：pid {pid}" in done.stderr
    with Game.open(game.db) as opened:
        (record,) = outbox.records(opened).values()
        assert record.data["for_step"] == opened.last_step().id


def test_post_needs_cookies_before_anything_is_recorded(game: BoardGame):
    from tests.support.gamefiles import TID, vote_thread

    game.board.add_thread(vote_thread([(1, "20:00:00", "投5号")]))
    done = game.run(
        "tally",
        game.thread_url(TID),
        "--deadline",
        "2024-03-01 22:00",
        "--record",
        "--post",
        game.thread_url(TID),
        cookies=False,
    )
    assert done.exit_code == 2
    with Game.open(game.db) as opened:
        assert opened.tallies() == []


def test_a_judge_uid_in_the_roster_is_also_what_the_tally_reads(game: BoardGame):
    with Game.open(game.db) as opened:
        assert opened.roster().judge_uids == {JUDGE[0]: JUDGE[1]}
