"""Posting tells the truth (issue 25.8), against the fake Discuz board on 127.0.0.1.

- A reply the board holds for moderation (X3.4's ``post_reply_mod_succeed``: 回复需要审核，
  请等待通过) is reported and recorded as 待审核, in the board's words — not as posted —
  and never posted again; once a moderator passes it, the next run finds it and records it.
- Whether a reply whose answer was lost went out is decided by the judge's uid and the text
  among the thread's posts newer than the newest one before sending: a board whose clock is
  ten minutes behind ours gets the announcement once.
- ``killmod post`` refuses a private text however it is written (a zero-width space,
  traditional characters, BBCode between its characters, character references), and any
  text that pairs a living player with his role.

The commands run as the judge runs them: the installed ``killmod`` in its own process.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import opencc
import pytest

from killmod.board.posting import Announcement, post_announcement
from killmod.board.secrecy import refuse_private, shown
from killmod.board.session import BoardOptions
from killmod.core.errors import BadInput
from killmod.core.model import Player, Roster
from killmod.game import outbox
from killmod.game.store import Game
from tests.support.boardgames import GAME_TID, BoardGame, board_game
from tests.support.fakeboard import REPLY_HELD, FakeBoard
from tests.support.gamesteps import console
from tests.support.pagebuilder import SHANGHAI

ROLES = {seat: "杀手" if seat <= 3 else "检查官" if seat == 4 else "水民" for seat in range(1, 17)}
TEXT = "[size=4][b]第 1 轮投票结果[/b][/size]\n5号 出局，身份：[color=red]好人[/color]\n"


def post(game: BoardGame, text: str = TEXT, *, timeout: float = 5.0, **more):
    options = BoardOptions(game.cookies, timeout=timeout, interval=0, sleep=lambda s: None)
    with Game.open(game.db) as opened:
        return post_announcement(
            opened, game.game_url, Announcement(text, "公告"), options, confirm=lambda p: True
        )


def shown_posts(game: BoardGame) -> list[str]:
    """The judge's replies anyone can see in the game thread."""
    thread = game.board.threads[GAME_TID].thread
    return [p.body for p in thread.posts if p.uid == 900 and p.pid != thread.posts[0].pid]


def sent(game: BoardGame) -> int:
    """How many replies the board took (shown or held)."""
    return sum(1 for tid, _, _ in game.board.replies if tid == GAME_TID)


def records(game: BoardGame) -> list[outbox.Record]:
    with Game.open(game.db) as opened:
        return list(outbox.records(opened).values())


def post_file(game: BoardGame, text: str, *extra: str):
    """``killmod post --yes`` of ``text`` in its own process."""
    file = game.tmp / "post.txt"
    file.write_text(text, encoding="utf-8")
    return console(
        "post", file, "--thread", game.game_url, "--yes", "--interval", "0", "--timeout", "1",
        "--cookies", game.cookies, "--db", game.db, *extra,
    )  # fmt: skip


# --- held for moderation ------------------------------------------------------------------


@pytest.mark.slow
def test_a_reply_held_for_moderation_is_reported_and_recorded_as_held(tmp_path, serve_site):
    """X3.4 answers a held reply with succeedhandle and no pid: before, killmod took that for
    no answer, found nothing on the page (the reply is invisible) and posted it again."""
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(moderate="x34"))
    done = post_file(game, TEXT)
    assert done.returncode == 0, done.stderr
    assert "待审核" in done.stderr and f"「{REPLY_HELD}」" in done.stderr
    assert "已回复帖子" not in done.stderr
    assert sent(game) == 1 and shown_posts(game) == []
    (record,) = records(game)
    assert (record.state, record.data["said"]) == ("held", REPLY_HELD)
    again = post_file(game, TEXT)
    assert again.returncode == 0 and "仍在待审核" in again.stderr
    assert sent(game) == 1  # never posted twice
    game.board.approve()
    passed = post_file(game, TEXT)
    assert passed.returncode == 0 and "这篇已经发过" in passed.stderr
    (record,) = records(game)
    assert record.state == "done" and record.data["pid"] == game.board.replies[0][1]
    assert sent(game) == 1


def test_a_board_that_names_the_pid_of_a_held_reply_is_still_held(tmp_path, serve_site):
    """The issue's case: a pid in the answer, the reply held — it used to be recorded done."""
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(moderate="pid"))
    posted = post(game)
    ((_, pid, _),) = game.board.replies
    assert (posted.pid, posted.held, posted.already) == (pid, REPLY_HELD, False)
    (record,) = records(game)
    assert (record.state, record.data["pid"]) == ("held", pid)
    assert post(game).held == REPLY_HELD and sent(game) == 1


def test_a_held_reply_whose_pid_the_board_named_is_done_once_approved(tmp_path, serve_site):
    """The held reply's own pid is no other post of killmod's: once a moderator passes it, the
    next run finds it and records it done (it used to stay 待审核 for good)."""
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(moderate="pid"))
    post(game)
    ((_, pid, _),) = game.board.replies
    game.board.approve()
    again = post(game)
    assert (again.pid, again.held, again.already) == (pid, None, True)
    (record,) = records(game)
    assert (record.state, record.data["pid"]) == ("done", pid)
    assert sent(game) == 1


def test_a_held_reply_is_said_so_when_its_step_is_undone(tmp_path, serve_site):
    from killmod.usecases.undo import gone_out

    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(moderate="x34"))
    post(game)
    (record,) = records(game)
    assert gone_out(record) == (
        f"已经回复到帖子 {GAME_TID}的公告（待审核）不会撤回：请到论坛上删除或发帖更正"
    )


# --- a lost answer ---------------------------------------------------------------------------


def behind(minutes: int):
    return lambda: datetime.now(SHANGHAI) - timedelta(minutes=minutes)


@pytest.mark.slow
@pytest.mark.parametrize("minutes", [10, -10, 0])
def test_a_lost_answer_on_a_board_whose_clock_is_off_posts_once(tmp_path, serve_site, minutes):
    """The issue's case: the answer timed out, the board's clock ten minutes behind ours —
    the post on the page looked older than the send, so it was posted again."""
    board = FakeBoard(now=behind(minutes), stall=3.0)
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=board)
    done = post_file(game, TEXT)
    assert done.returncode == 0, done.stderr
    assert sent(game) == 1 and len(shown_posts(game)) == 1
    ((_, pid, _),) = game.board.replies
    assert f"pid {pid}" in done.stderr
    assert records(game)[-1].state == "done"


def test_the_judges_older_post_with_the_same_text_is_not_taken_for_the_lost_one(
    tmp_path, serve_site
):
    """Only posts newer than the newest one before sending can be it: an identical
    announcement the judge posted by hand earlier is not."""
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(now=behind(10)))
    from tests.support.pagebuilder import FakePost

    thread = game.board.threads[GAME_TID].thread
    by_hand = FakePost(80002, "法官", 900, thread.now, TEXT.replace("\n", "<br />\n"))
    thread.posts.append(by_hand)
    game.board.lose_next = 1  # lost on the way: nothing made
    posted = post(game, timeout=0.5)
    assert posted.pid != 80002 and sent(game) == 1


def test_a_thread_of_several_pages_is_looked_at_from_its_newest_posts(tmp_path, serve_site):
    from tests.support.pagebuilder import FakePost

    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=FakeBoard(now=behind(10)))
    thread = game.board.threads[GAME_TID].thread
    start = thread.now
    for n in range(25):  # three pages, the judge's own posts among them
        who = ("法官", 900) if n % 5 == 0 else (f"玩家{n % 16 + 1}", 5001 + n % 16)
        thread.posts.append(FakePost(81000 + n, *who, start, f"闲聊 {n}"))
    game.board.stall = 2.0
    posted = post(game, timeout=0.5)
    assert sent(game) == 1 and posted.pid == game.board.replies[0][1]


# --- what may be posted ------------------------------------------------------------------------


def notice_of(game: BoardGame, seat: int) -> str:
    done = console("deal", "--seed", "1", "--db", game.db)
    assert done.returncode == 0, done.stderr
    (file,) = (game.db.parent / "game-private").glob(f"*{seat:02d}-*.txt")
    return file.read_text(encoding="utf-8")


def disguised(text: str) -> dict[str, str]:
    return {
        "zero-width": text.replace("身份", "身\u200b份").replace("透露", "透\u200d露"),
        "traditional": opencc.OpenCC("s2t").convert(text),
        "bbcode": text.replace("请勿", "请[b][/b]勿").replace("证据", "证[i][/i]据"),
        "references": text.replace("身份", "&#36523;&#20221;"),
        "full-width": text.replace("1", "１").replace("杀手", "杀 手"),
    }


@pytest.mark.slow
def test_a_killers_notice_disguised_is_refused_by_killmod_post(tmp_path, serve_site):
    game = board_game(tmp_path, serve_site, "1.2", ROLES)
    notice = notice_of(game, 1)
    assert "杀手" in notice
    for how, text in disguised(notice).items():
        done = post_file(game, text)
        assert done.returncode == 2, (how, done.stderr)
        assert "什么也没有发出" in done.stderr and done.stdout == ""
    assert sent(game) == 0 and records(game) == []


@pytest.mark.parametrize(
    "text",
    [
        "1号 玩家1 是杀手",
        "杀手：1号、2号",
        "提醒：玩家4（检查官）今晚记得用否决权",
        "第一号的身份是【杀手】",
        "[b]1号[/b]，身份是【殺手】",
    ],
)
def test_a_living_player_paired_with_his_role_is_refused(tmp_path, serve_site, text):
    game = board_game(tmp_path, serve_site, "1.2", ROLES)
    with pytest.raises(BadInput, match="和他的身份"):
        post(game, text.replace("第一号", "一号"))
    assert sent(game) == 0


ROSTER = Roster(
    (
        Player(4, "狼人杀手", role="水民"),
        Player(5, "预言家本家", role="杀手", alive=False),
        Player(1, "meer", aliases=("米儿",), role="杀手"),
        Player(11, "星期八", role="检查官"),
    )
)


@pytest.mark.parametrize(
    "text",
    [
        "4号 狼人杀手 投 1号",  # a role inside a name is no role
        "5号 预言家本家 出局，身份：杀手",  # the dead may be named with their role
        "存活：1号 meer、4号 狼人杀手、11号 星期八\n杀手 3 人，水民 12 人，检查官 1 人",
        "出局：5号（第 1 轮被投票出局，杀手）警告：1号 1 次",  # another clause
        "11号 星期八 被投 11 票",
        "11# 说他不是杀手",  # 11# is no seat 1 (a killer)
        "#5 杀手",  # the dead
    ],
)
def test_public_posts_that_name_no_living_players_role_pass(text):
    refuse_private(text, roster=ROSTER)


@pytest.mark.parametrize(
    "text", ["米儿是杀手", "11号：检查官", "杀手 meer", "1#：杀手", "＃11 检查官", "11# 是检查官"]
)
def test_names_aliases_and_seats_pair_with_roles(text):
    with pytest.raises(BadInput, match="和他的身份"):
        refuse_private(text, roster=ROSTER)
    refuse_private(text, roster=ROSTER, over=True)  # every role is public once it is over


def test_the_text_is_compared_as_the_board_shows_it():
    assert shown("请[b]勿[/b] 把\u200b身份&#36879;露") == shown("请勿把身份透露")
    assert shown("請勿把身份透露給任何人") == shown("请勿把身份透露给任何人")


@pytest.mark.parametrize(
    ("said", "kind"),
    [
        ("回复需要审核，请等待通过", "held"),
        ("回覆需要審核，請等待通過", "held"),  # a traditional-Chinese board
        ("非常感谢，回复发布成功，现在将转入主题页，请稍候……[ 点击这里转入主题列表 ]", "ok"),
    ],
)
def test_the_boards_answer_says_whether_the_reply_is_held(said, kind):
    from scrapers.discuz_x_posting import answer

    xml = (
        '<?xml version="1.0" encoding="utf-8"?>\n<root><![CDATA[<script type="text/javascript" '
        "reload=\"1\">if(typeof succeedhandle_fastpost=='function') {succeedhandle_fastpost("
        f"'forum.php?mod=viewthread&tid=4', '{said}', {{'fid':'2','tid':'4','from':'',"
        "'sechash':''});}</script>]]></root>"
    )
    read = answer(xml)
    assert (read.kind, read.message, read.values.get("pid")) == (kind, said, None)
