"""站内短信 tell the truth (issue 25.8, for private messages), against the fake Discuz
board on 127.0.0.1.

- Whether a message whose answer was lost went out is decided by what the board shows: the
  judge's messages (marked 您) in the conversation newer than the newest pmid noted before
  sending, and the text — never by comparing our clock with the board's.  A board whose
  clock is ten minutes behind or ahead of ours gets each notice once.
- A message the board holds (待审核) is reported and recorded as held, in the board's
  words, and never sent again; one it refuses is reported in its words and recorded failed.
- A newer message of the judge's that killmod did not send and that reads otherwise may be
  the notice, changed by the board: it is not sent again, and the judge is given its pmid.

The commands run as the judge runs them: the installed ``killmod`` in its own process.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from killmod.board.sending import Notice, send_notices
from killmod.board.session import BoardOptions
from killmod.game import outbox
from killmod.game.store import Game
from tests.support.boardgames import BoardGame, board_game, uid
from tests.support.fakeboard import PM_HELD, WORD_BANNED, FakeBoard
from tests.support.gamefiles import JUDGE
from tests.support.gamesteps import console
from tests.support.pagebuilder import SHANGHAI

ROLES = dict.fromkeys(range(1, 17))  # 1.2, 16 players, dealt by killmod
SEATS = range(1, 17)


def off(minutes: int):
    """The board's wall clock, ``minutes`` ahead of ours (behind when negative)."""
    return lambda: datetime.now(SHANGHAI) + timedelta(minutes=minutes)


def deal_send(game: BoardGame, *more: object):
    """``killmod deal --send --yes`` in its own process, answers lost after a second."""
    return console(
        "deal", "--seed", "7", "--send", "--board", game.game_url, "--yes", "--interval", "0",
        "--timeout", "1", "--cookies", game.cookies, "--db", game.db, *more,
    )  # fmt: skip


def notices_send(game: BoardGame):
    return console(
        "notices", "--send", "--yes", "--interval", "0", "--timeout", "1",
        "--cookies", game.cookies, "--db", game.db,
    )  # fmt: skip


def pm_records(game: BoardGame) -> dict[int, outbox.Record]:
    with Game.open(game.db) as opened:
        return {r.seat: r for r in outbox.records(opened).values() if r.what == "pm"}


def stored(game: BoardGame) -> list[int]:
    """To whom the board took a message from the judge (shown or held), in order."""
    return [letter.to for letter in game.board.letters if letter.sender == JUDGE[1]]


def send(game: BoardGame, notices: list[Notice], *, timeout: float = 5.0):
    options = BoardOptions(game.cookies, timeout=timeout, interval=0, sleep=lambda s: None)
    with Game.open(game.db) as opened:
        return send_notices(opened, game.game_url, notices, options, confirm=lambda p: True)


def notice(seat: int, text: str | None = None) -> Notice:
    return Notice(
        seat, f"玩家{seat}", uid(seat), text or f"玩家{seat}，你好：你是 {seat} 号。", None, "测试"
    )


# --- a lost answer ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("minutes", [-10, 10])
def test_a_lost_answer_on_a_board_whose_clock_is_off_sends_each_notice_once(
    tmp_path: Path, serve_site, minutes: int
):
    """The issue's case for 站内短信: the first answer timed out with the board's clock ten
    minutes behind ours — the message looked older than the send (by more than the five
    minutes' slack killmod allowed), so it was sent again."""
    board = FakeBoard(now=off(minutes), stall=3.0)
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=board)
    done = deal_send(game)
    assert done.returncode == 0, done.stderr
    assert stored(game) == [uid(seat) for seat in SEATS]  # one each, none twice
    records = pm_records(game)
    assert all(records[seat].state == "done" for seat in SEATS)
    assert records[1].data["pmid"] == board.letters[0].pmid
    assert records[1].data["after_pmid"] == 0  # they had never written
    assert "这次发出 16 条，共 16 位玩家都已收到" in done.stderr
    again = notices_send(game)
    assert again.returncode == 0 and "这次发出 0 条" in again.stderr
    assert len(stored(game)) == 16


def test_a_message_lost_on_the_way_is_sent_once_more(game_behind: BoardGame):
    game_behind.board.lose_next = 1  # no answer, nothing made
    (sent,) = send(game_behind, [notice(1)], timeout=0.5)
    assert stored(game_behind) == [uid(1)]
    assert sent.pmid == game_behind.board.letters[0].pmid and sent.received


@pytest.fixture
def game_behind(tmp_path: Path, serve_site) -> BoardGame:
    """A game whose board's clock is ten minutes behind ours."""
    return board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(now=off(-10)))


@pytest.fixture
def game_ahead(tmp_path: Path, serve_site) -> BoardGame:
    return board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(now=off(10)))


def test_the_judges_older_message_with_the_same_text_is_not_taken_for_the_lost_one(
    game_ahead: BoardGame,
):
    """Only messages newer than the newest before sending can be it: a copy the judge sent
    by hand a minute before (by the board's clock ten minutes ahead, after our send) is not
    the notice killmod sent."""
    board = game_ahead.board
    copy = board.write(JUDGE[1], uid(1), notice(1).text, board.now() - timedelta(minutes=1))
    board.lose_next = 1
    (sent,) = send(game_ahead, [notice(1)], timeout=0.5)
    assert sent.pmid != copy and sent.pmid == board.letters[-1].pmid
    assert pm_records(game_ahead)[1].data["after_pmid"] == copy


def test_a_long_conversation_is_looked_at_from_its_newest_messages(game_behind: BoardGame):
    board = game_behind.board
    start = board.now() - timedelta(hours=2)
    for n in range(25):  # three pages, the judge's own messages among them
        sender, to = (JUDGE[1], uid(1)) if n % 5 == 0 else (uid(1), JUDGE[1])
        board.write(sender, to, f"闲聊 {n}", start + timedelta(minutes=n))
    board.stall = 2.0
    (sent,) = send(game_behind, [notice(1)], timeout=0.5)
    assert len(stored(game_behind)) == 5 + 1 and sent.pmid == 26


def test_a_sending_stopped_without_its_answer_is_found_on_the_next_run(game_ahead: BoardGame):
    """Ctrl-C after the form went out: the record says ``sending`` with the pmid noted;
    the next run finds the message in the conversation and records it, sending nothing."""
    board = game_ahead.board
    key = outbox.key_of(f"uid:{uid(1)}", notice(1).text)
    with Game.open(game_ahead.db) as opened:
        outbox.begin(
            opened,
            "pm",
            key,
            "站内短信",
            {"uid": uid(1), "after_pmid": 0},
            now=datetime.now(SHANGHAI),
        )
    pmid = board.write(JUDGE[1], uid(1), notice(1).text, board.now())
    (sent,) = send(game_ahead, [notice(1)])
    assert (sent.pmid, sent.already) == (pmid, True) and len(stored(game_ahead)) == 1
    assert pm_records(game_ahead)[1].state == "done"


def test_a_record_from_before_the_pmid_was_noted_is_looked_for_by_its_text(
    game_behind: BoardGame,
):
    board = game_behind.board
    key = outbox.key_of(f"uid:{uid(2)}", notice(2).text)
    with Game.open(game_behind.db) as opened:
        outbox.begin(opened, "pm", key, "站内短信", {"uid": uid(2)}, now=datetime.now(SHANGHAI))
    board.write(JUDGE[1], uid(2), "别的话", board.now())  # not the notice: no doubt without a pmid
    pmid = board.write(JUDGE[1], uid(2), notice(2).text, board.now())
    (sent,) = send(game_behind, [notice(2)])
    assert (sent.pmid, sent.already) == (pmid, True) and len(stored(game_behind)) == 2


# --- a message the board changed -----------------------------------------------------------


def test_a_newer_message_that_reads_otherwise_is_not_sent_again(game_behind: BoardGame):
    """The board replaced a word (X3.4's censor) and the answer was lost: the judge's new
    message does not read as the notice — it may be it, so it is not sent again."""
    board = game_behind.board
    board.rewrite = lambda text: text.replace("你好", "**")
    board.stall = 2.0
    first, second = send(game_behind, [notice(1), notice(2, "第二份：不含那个词。")], timeout=0.5)
    assert first.unsure == board.letters[0].pmid and not first.received
    assert "pmid 1" in first.said and "没有再发" in first.said
    assert second.received and stored(game_behind) == [uid(1), uid(2)]
    assert pm_records(game_behind)[1].state == "sending"  # still not known
    (again, _) = send(game_behind, [notice(1), notice(2, "第二份：不含那个词。")])
    assert (again.unsure, again.already) == (1, True) and len(stored(game_behind)) == 2


@pytest.mark.slow
def test_the_judge_is_told_which_message_to_look_at(tmp_path: Path, serve_site):
    board = FakeBoard(now=off(-10), stall=3.0, rewrite=lambda text: text.replace("你好", "**"))
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=board)
    done = deal_send(game)
    assert done.returncode == 1, done.stderr
    assert "不知道是否发出：1号 玩家1" in done.stderr and "pmid 1" in done.stderr
    assert "这次发出 15 条；1 位还没有确定收到（见上）：1号 玩家1" in done.stderr
    assert stored(game) == [uid(seat) for seat in SEATS]  # the others went on


# --- held and refused --------------------------------------------------------------------


@pytest.mark.slow
def test_messages_the_board_holds_are_reported_and_recorded_as_held(tmp_path: Path, serve_site):
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(moderate_pms=True))
    done = deal_send(game)
    assert done.returncode == 0, done.stderr
    assert (
        f"待审核：1号 玩家1——论坛收下了，但要审核后才送到（论坛的回答：「{PM_HELD}」）"
        in done.stderr
    )
    assert "都已收到" not in done.stderr and "16 位还没有确定收到" in done.stderr
    assert len(stored(game)) == 16 and game.board.pms_to(uid(1)) == []
    records = pm_records(game)
    assert {(r.state, r.data["said"]) for r in records.values()} == {("held", PM_HELD)}
    again = notices_send(game)
    assert again.returncode == 0 and "仍在待审核：1号 玩家1" in again.stderr
    assert len(stored(game)) == 16  # never sent twice
    game.board.approve()
    passed = notices_send(game)
    assert passed.returncode == 0 and "另有 16 条之前已发过" in passed.stderr
    assert all(r.state == "done" for r in pm_records(game).values())
    assert len(stored(game)) == 16


@pytest.mark.slow
def test_a_message_the_board_refuses_is_said_in_its_words(tmp_path: Path, serve_site):
    """X3.4's censor() refuses a message with a banned word (word_banned, the words in
    the answer's values): the judge reads the board's sentence and the word."""
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(banned=("否决",)))
    done = deal_send(game)
    assert done.returncode == 1
    files = {
        int(path.name[:2]): path.read_text(encoding="utf-8")
        for path in (game.tmp / "game-private").glob("[0-9][0-9]-*.txt")
    }
    refused = min(seat for seat, text in files.items() if "否决" in text)
    said = f"被论坛拒绝：「{WORD_BANNED}」（论坛的敏感词：否决）"
    assert f"给 {refused}号 玩家{refused} 的站内短信{said}" in done.stderr
    assert stored(game) == [uid(seat) for seat in SEATS if seat < refused]
    records = pm_records(game)
    assert (records[refused].state, records[refused].data["said"]) == ("failed", WORD_BANNED)


def test_a_held_message_is_said_so_when_its_step_is_undone(tmp_path: Path, serve_site):
    from killmod.usecases.undo import gone_out

    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(moderate_pms=True))
    (sent,) = send(game, [notice(5)])
    assert (sent.pmid, sent.held, sent.received) == (None, PM_HELD, False)
    assert gone_out(pm_records(game)[5]) == (
        f"已经发给 5号（uid {uid(5)}）的站内短信（待审核）无法收回：请另发站内短信告诉他作废"
    )
