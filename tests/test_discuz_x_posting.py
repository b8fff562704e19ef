"""Reading the board's answers to forms, its pages as a member sees them, the inbox."""

from __future__ import annotations

from datetime import datetime

import pytest

from scrapers import discuz_x_posting as dzx
from scrapers.base import ScrapeError
from tests.support.fakeboard import CLOSED, PM_FLOOD, FakeBoard, _error, _succeed
from tests.support.pagebuilder import (
    SHANGHAI,
    FakePost,
    FakeThread,
    render_discuz_x_page,
    system_error_page,
)


def xml(inner: str) -> str:
    return f'<?xml version="1.0" encoding="utf-8"?>\n<root><![CDATA[{inner}]]></root>'


def test_a_reply_done_gives_its_pid():
    url = "forum.php?mod=viewthread&tid=4&pid=49&page=1&extra=#pid49"
    values = {"fid": "2", "tid": "4", "pid": "49", "from": "", "sechash": ""}
    answer = dzx.answer(xml(_succeed("fastpost", url, "非常感谢，回复发布成功", values)))
    assert (answer.kind, answer.values["pid"], answer.url) == ("ok", "49", url)


def test_a_message_sent_gives_its_pmid():
    url = "home.php?mod=space&do=pm&subop=view&touid=3"
    answer = dzx.answer(xml(_succeed("showmsg_3", url, "操作成功 ", {"pmid": "6"})))
    assert (answer.kind, answer.message, answer.values) == ("ok", "操作成功", {"pmid": "6"})


def test_refusals_in_the_boards_words():
    flood = "抱歉，您两次发表间隔少于 15 秒，请稍候再发表"
    answer = dzx.answer(xml(_error("fastpost", flood, {"floodctrl": "15"})))
    assert (answer.kind, answer.message, answer.values) == ("error", flood, {"floodctrl": "15"})
    assert dzx.answer(xml(_error("fastpost", CLOSED))).message == CLOSED
    assert dzx.answer(xml(_error("showmsg_3", PM_FLOOD))).values == {}


def test_the_system_error_page_is_its_own_answer():
    page = system_error_page("您当前的访问请求当中含有非法字符，已经被系统拒绝").body.decode()
    answer = dzx.answer(page)
    assert answer.kind == "system_error" and "非法字符" in answer.message


def test_anything_else_is_no_answer():
    assert dzx.answer("<html><body>504 Gateway Time-out</body></html>").kind == "unknown"


def _thread() -> FakeThread:
    at = datetime(2024, 3, 1, 12, 0, tzinfo=SHANGHAI)
    return FakeThread(9, "【1.2 游戏帖】", [FakePost(1, "法官", 900, at, "开局")], now=at)


def test_a_guests_page_shows_no_member():
    seen = dzx.viewer(render_discuz_x_page(_thread(), 1).decode())
    assert seen.uid == 0 and seen.name is None
    assert dzx.reply_form(render_discuz_x_page(_thread(), 1).decode()) is None


def test_a_members_page_shows_him_his_formhash_and_the_reply_form():
    board = FakeBoard()
    judge = board.member("法官", 900)
    board.add_thread(_thread())
    board.sessions["token"] = 900
    page = board.handle(
        "GET", "/forum.php?mod=viewthread&tid=9", {"Cookie": "Kq7m_2132_auth=token"}, b""
    ).body.decode()
    seen = dzx.viewer(page)
    assert (seen.uid, seen.name, seen.formhash, seen.cookiepre) == (
        900,
        "法官",
        judge.formhash,
        "Kq7m_2132_",
    )
    form = dzx.reply_form(page)
    assert (form.fid, form.tid) == (2, 9)
    assert "tid=9" in form.url("http://bbs.example.com/") and "inajax=1" in form.url("x/")


def test_a_page_of_no_discuz_board_is_said_so():
    with pytest.raises(ScrapeError, match="discuz_uid"):
        dzx.viewer("<html><body>hello</body></html>")


def test_the_dialog_names_the_uids_member():
    board = FakeBoard()
    board.member("法官", 900)
    board.member("老猫", 3)
    board.sessions["token"] = 900
    text = board.handle(
        "GET",
        "/home.php?mod=spacecp&ac=pm&op=showmsg&touid=3&inajax=1",
        {"Cookie": "Kq7m_2132_auth=token"},
        b"",
    ).body.decode()
    dialog = dzx.pm_dialog(text)
    assert (dialog.uid, dialog.name) == (3, "老猫") and dialog.formhash


def test_message_times_are_minutes_written_out_or_in_a_title():
    board = FakeBoard(now=lambda: datetime(2024, 3, 20, 12, 0, tzinfo=SHANGHAI))
    board.member("法官", 900)
    board.member("老猫", 3)
    board.sessions["token"] = 900
    old = datetime(2024, 3, 1, 13, 5, 42, tzinfo=SHANGHAI)
    board.write(3, 900, "杀 7号", old)
    board.write(3, 900, "改为 杀 8号", datetime(2024, 3, 20, 11, 59, 30, tzinfo=SHANGHAI))
    cookie = {"Cookie": "Kq7m_2132_auth=token"}
    view = board.handle("GET", "/home.php?mod=space&do=pm&subop=view&touid=3", cookie, b"")
    page = dzx.conversation(view.body.decode(), SHANGHAI)
    assert [(m.pmid, m.mine, m.text, m.at) for m in page.messages] == [
        (1, False, "杀 7号", old.replace(second=0)),
        (2, False, "改为 杀 8号", datetime(2024, 3, 20, 11, 59, tzinfo=SHANGHAI)),
    ]
    inbox = dzx.inbox(
        board.handle("GET", "/home.php?mod=space&do=pm", cookie, b"").body.decode(), SHANGHAI
    )
    (talk,) = inbox.conversations
    assert (talk.uid, talk.name, talk.count, talk.last_at) == (
        3,
        "老猫",
        2,
        datetime(2024, 3, 20, 11, 59, tzinfo=SHANGHAI),
    )


def test_a_conversation_without_messages_is_none_and_another_page_is_refused():
    """X3.4 shows a conversation nobody wrote in yet as its count line and “当前没有相应的
    短消息” (div.emp), no list: no message; a page with neither is not a conversation."""
    board = FakeBoard()
    board.member("法官", 900)
    board.member("老猫", 3)
    board.sessions["token"] = 900
    cookie = {"Cookie": "Kq7m_2132_auth=token"}
    view = board.handle("GET", "/home.php?mod=space&do=pm&subop=view&touid=3", cookie, b"")
    html = view.body.decode()
    assert "当前没有相应的短消息" in html and 'id="membernum"' in html
    assert dzx.conversation(html, SHANGHAI).messages == ()
    inbox = board.handle("GET", "/home.php?mod=space&do=pm", cookie, b"").body.decode()
    with pytest.raises(ScrapeError, match="pm_ul"):
        dzx.conversation(inbox, SHANGHAI)


def test_a_relative_time_without_its_minute_is_unreadable():
    html = (
        '<html><body><div id="pm_ul"><dl id="pmlist_1"><dd class="m avt"><a href="home.php?'
        'mod=space&amp;uid=3">x</a></dd><dd class="ptm"><a class="xw1" href="home.php?mod=space'
        '&amp;uid=3">老猫</a><br />杀 7号<br /><span class="xg1">5 分钟前</span></dd></dl>'
        "</div></body></html>"
    )
    with pytest.raises(ScrapeError, match="5 分钟前"):
        dzx.conversation(html, SHANGHAI)


def test_a_gbk_form_is_gbk():
    body = dzx.encode_form({"message": "杀手"}, "gbk")
    assert body == b"message=%C9%B1%CA%D6"
    with pytest.raises(UnicodeEncodeError):
        dzx.encode_form({"message": "😀"}, "gbk")


def test_the_boards_root_is_where_its_scripts_are():
    assert dzx.board_root("http://h/forum.php?mod=viewthread&tid=1") == "http://h/"
    assert dzx.board_root("https://h:8080/bbs/thread-3-1-1.html") == "https://h:8080/bbs/"
    assert dzx.inbox_url("http://h/bbs/", 2).endswith(
        "home.php?mod=space&do=pm&filter=privatepm&page=2"
    )
    assert "touid=7" in dzx.conversation_url("http://h/", 7)
