"""Each player's notice by 站内短信 to his own uid (``deal --send``, ``notices --send``,
``sub --send``), against the fake board."""

from __future__ import annotations

from pathlib import Path

import pytest

from killmod.board.sending import Notice, send_notices
from killmod.board.session import BoardOptions, BoardRefused
from killmod.core.errors import BadInput
from killmod.game import outbox
from killmod.game.store import Game
from tests.support.boardgames import BoardGame, board_game, ok, uid
from tests.support.fakeboard import FakeBoard
from tests.support.gamefiles import JUDGE

ROLES = dict.fromkeys(range(1, 17))  # 1.2, 16 players, dealt by killmod
SEATS = range(1, 17)


@pytest.fixture
def game(tmp_path: Path, serve_site) -> BoardGame:
    return board_game(tmp_path, serve_site, "1.2", ROLES)


def notice_files(game: BoardGame) -> dict[int, str]:
    folder = game.tmp / "game-private"
    return {
        int(path.name[:2]): path.read_text(encoding="utf-8")
        for path in sorted(folder.glob("[0-9][0-9]-*.txt"))
        if "-again" not in path.name
    }


def received(game: BoardGame, seat: int) -> list[str]:
    return [letter.text for letter in game.board.pms_to(uid(seat), JUDGE[1])]


def pm_records(game: BoardGame) -> dict[int, outbox.Record]:
    with Game.open(game.db) as opened:
        return {r.seat: r for r in outbox.records(opened).values() if r.what == "pm"}


def deal_send(game: BoardGame, *more: object):
    return game.run("deal", "--seed", 7, "--send", "--board", game.game_url, "--interval", 0, *more)


def test_each_notice_goes_to_its_own_players_uid_once(game: BoardGame):
    done = deal_send(game, "--yes")
    assert done.exit_code == 0, done.output
    files = notice_files(game)
    assert sorted(files) == list(SEATS)
    for seat in SEATS:
        assert received(game, seat) == [files[seat].rstrip("\n")] or received(game, seat) == [
            files[seat]
        ]
    records = pm_records(game)
    assert sorted(records) == list(SEATS)
    assert all(r.state == "done" and r.data["uid"] == uid(r.seat) for r in records.values())
    assert {r.data["pmid"] for r in records.values()} == {
        letter.pmid for letter in game.board.letters
    }
    assert "站内短信发完：这次发出 16 条" in done.stderr
    # nothing secret on the screen: no role is named
    for role in ("杀手", "检查官", "水民"):
        assert role not in done.output
    again = game.run("notices", "--send", "--interval", 0, "--yes")
    assert again.exit_code == 0, again.output
    assert len(game.board.letters) == 16
    assert "这次发出 0 条" in again.stderr and "另有 16 条之前已发过" in again.stderr


def test_without_yes_nothing_is_sent_but_the_deal_is_recorded(game: BoardGame):
    done = deal_send(game)
    assert done.exit_code == 0, done.output
    assert "将以 法官（uid 900）的身份发 16 条站内短信" in done.stderr
    assert "1号 玩家1（uid 5001）" in done.stderr
    assert "什么也没有发出" in done.stderr and game.board.letters == []
    forgotten = game.run("notices", "--send", "--interval", 0, "--yes")
    assert forgotten.exit_code == 2 and "--board" in forgotten.output  # nothing sent yet
    resumed = game.run("notices", "--send", "--board", game.game_url, "--interval", 0, "--yes")
    assert resumed.exit_code == 0, resumed.output
    assert len(game.board.letters) == 16


def test_a_name_the_board_gives_another_uid_stops_everything_before_the_first(game: BoardGame):
    game.board.members[uid(9)].name = "冒名顶替"
    done = deal_send(game, "--yes")
    assert done.exit_code == 2
    assert "论坛上 uid 5009 是「冒名顶替」，不是 9号「玩家9」" in done.output
    assert game.board.letters == []


def test_a_player_without_a_uid_gets_nothing_and_nobody_does(tmp_path: Path, serve_site):
    game = board_game(tmp_path, serve_site, "1.2", ROLES)
    with Game.open(game.db) as opened:
        opened.db.execute("update players set uid = null where seat = 3")
        opened.db.conn.commit()
    done = deal_send(game, "--yes")
    assert done.exit_code == 2 and "3号 玩家3没有论坛 uid" in done.output
    assert game.board.letters == []


@pytest.mark.slow
def test_flood_control_is_waited_out_and_a_second_refusal_stops_half_way(
    tmp_path: Path, serve_site
):
    board = FakeBoard(floodctrl=100)
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=board)
    done = deal_send(game, "--yes")
    assert done.exit_code == 1
    assert "给 2号 玩家2 的站内短信被论坛的灌水预防拒绝" in done.output
    assert "再运行同一命令会从这一条接着发" in done.output
    assert [letter.to for letter in board.letters] == [uid(1)]
    records = pm_records(game)
    assert records[1].state == "done" and records[2].state == "failed"
    board.floodctrl = 0
    resumed = game.run("notices", "--send", "--interval", 0, "--yes")
    assert resumed.exit_code == 0, resumed.output
    assert sorted(letter.to for letter in board.letters) == [uid(seat) for seat in SEATS]
    assert "这次发出 15 条" in resumed.stderr


def test_sends_are_paced_to_the_interval(tmp_path: Path, serve_site):
    game = board_game(tmp_path, serve_site, "1.2", {1: "水民", 2: "水民", 3: "水民"})
    waits: list[float] = []
    notices = [
        Notice(seat, f"玩家{seat}", uid(seat), f"第 {seat} 条", None, "测试") for seat in (1, 2, 3)
    ]
    options = BoardOptions(game.cookies, timeout=5, interval=16, sleep=waits.append)
    with Game.open(game.db) as opened:
        sent = send_notices(opened, game.game_url, notices, options, confirm=lambda plan: True)
    assert [s.pmid for s in sent] == [1, 2, 3]
    assert len(waits) == 2 and all(0 < wait <= 16 for wait in waits)


def test_a_message_the_board_took_without_answering_is_not_sent_twice(game: BoardGame):
    game.board.stall = 2.0
    notices = [Notice(1, "玩家1", uid(1), "你是 1 号。", None, "测试")]
    options = BoardOptions(game.cookies, timeout=0.5, interval=0, sleep=lambda s: None)
    with Game.open(game.db) as opened:
        (sent,) = send_notices(opened, game.game_url, notices, options, confirm=lambda p: True)
    assert received(game, 1) == ["你是 1 号。"]
    assert sent.pmid == game.board.letters[0].pmid


def test_a_bad_formhash_stops_the_sending(game: BoardGame):
    game.board.expire_formhash = True
    notices = [Notice(1, "玩家1", uid(1), "你是 1 号。", None, "测试")]
    options = BoardOptions(game.cookies, timeout=5, interval=0, sleep=lambda s: None)
    with Game.open(game.db) as opened, pytest.raises(BoardRefused, match="formhash"):
        send_notices(opened, game.game_url, notices, options, confirm=lambda p: True)
    assert game.board.letters == []


def test_a_refused_message_stops_with_the_boards_words(game: BoardGame):
    game.board.refuse_next = "对方设置了拒收站内短信"
    notices = [Notice(1, "玩家1", uid(1), "你是 1 号。", None, "测试")]
    options = BoardOptions(game.cookies, timeout=5, interval=0, sleep=lambda s: None)
    with (
        Game.open(game.db) as opened,
        pytest.raises(BoardRefused, match="被论坛拒绝：「对方设置了拒收站内短信」"),
    ):
        send_notices(opened, game.game_url, notices, options, confirm=lambda p: True)
    assert game.board.letters == []
    assert pm_records(game)[1].state == "failed"


def test_two_seats_with_one_uid_are_refused(game: BoardGame):
    notices = [
        Notice(1, "玩家1", uid(1), "一", None, "测试"),
        Notice(2, "玩家2", uid(1), "二", None, "测试"),
    ]
    options = BoardOptions(game.cookies, timeout=5, interval=0)
    with Game.open(game.db) as opened, pytest.raises(BadInput, match="uid 都是 5001"):
        send_notices(opened, game.game_url, notices, options, confirm=lambda p: True)


def test_a_substitute_gets_the_seats_notice_in_his_own_name(game: BoardGame):
    ok(deal_send(game, "--yes"))
    game.board.member("替补甲", 7777)
    done = game.run("sub", 5, "替补甲", "--uid", 7777, "--send", "--interval", 0, "--yes")
    assert done.exit_code == 0, done.output
    (text,) = [letter.text for letter in game.board.pms_to(7777)]
    assert text.startswith("替补甲，你好") and "5 号" in text
    assert received(game, 5)[0].startswith("玩家5，你好")


def test_undoing_the_deal_says_the_sent_notices_cannot_be_taken_back(game: BoardGame):
    ok(deal_send(game, "--yes"))
    done = game.run("undo")
    assert done.exit_code == 0, done.output
    assert "发给 1号（uid 5001）的站内短信无法收回" in done.output
    with Game.open(game.db) as opened:
        assert len(outbox.records(opened)) == 16  # the record of what went out stays
