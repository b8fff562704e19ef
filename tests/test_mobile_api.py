"""The Discuz! X mobile API reader: posts, pids, floors, uids and exact seconds from the JSON.

The board is the page builder's (``pagebuilder_api``, modelled on the real X3.4 answers):
served on 127.0.0.1 and read with ``--view api``, which insists on the API.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

import scrapers
from killmod.commands.cli import main
from killmod.core.times import BoardClock
from killmod.fetch.http import Fetcher, FetchOptions
from killmod.fetch.identity import Expected, mismatch
from killmod.fetch.pages import read_page
from killmod.fetch.thread import read_thread
from scrapers import discuz_x_mobile
from scrapers.base import Address
from scrapers.charset import decode_html
from tests.support.pagebuilder import (
    DEMO_TID,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    demo_thread,
)
from tests.support.pagebuilder_api import (
    API_PATH,
    api_message,
    api_path,
    mobile_api_site,
    php_json,
    render_api_page,
    whole_board,
)

NOW = datetime(2019, 5, 12, 22, 10, tzinfo=SHANGHAI)
VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"


def tally(url: str, roster: Path, *extra: str):
    args = [url, "--roster", str(roster), "--deadline", "22:00", "--delay", "0"]
    args += ["--cache", str(roster.parent / "cache"), "--format", "json", *extra]
    return CliRunner().invoke(main, ["tally", *args])


def parse(body: bytes):
    return discuz_x_mobile.parse(decode_html(body), tz=SHANGHAI, clock=BoardClock(NOW))


def renumbered_demo():
    """The demo thread as X3.4 shows it after a moderator's deletion: floors renumbered."""
    return replace(demo_thread(), keeps_positions=False)


@pytest.mark.parametrize("charset", ["utf-8", "gbk"])
@pytest.mark.parametrize("ascii_only", [True, False])
@pytest.mark.parametrize("version", [1, 4])
def test_every_post_with_its_pid_floor_uid_and_second(charset, ascii_only, version):
    thread = renumbered_demo()
    body = render_api_page(
        thread, 1, ppp=100, charset=charset, ascii_only=ascii_only, version=version
    )
    page = parse(body)
    shown = thread.shown()
    assert [post.pid for post in page.posts] == [post.pid for _, post in shown]
    assert [post.floor for post in page.posts] == [floor for floor, _ in shown]
    for read, (_, made) in zip(page.posts, shown, strict=True):
        assert (read.author, read.uid) == (made.author, made.uid)
        assert (read.posted_at, read.precision) == (made.posted_at, "second")
    by_floor = {post.floor: post for post in page.posts}
    assert by_floor[25].posted_at == datetime(2019, 5, 12, 22, 0, 0, tzinfo=SHANGHAI)
    assert by_floor[26].posted_at == datetime(2019, 5, 12, 22, 0, 1, tzinfo=SHANGHAI)
    # a quote (div.quote in version 1, div.reply_wrap in 4) is no part of the text; a
    # banned author's post is blocked
    assert by_floor[14].body == "我不跟，投 5号"
    assert by_floor[14].quotes == ("meer 发表于 2019-5-12 13:40\n改票：投 7号",)
    assert (by_floor[12].banned, by_floor[12].body) == (True, "")
    # version 1 keeps the board's edit notice (read, then removed from the text); version 4
    # shows none: the edited ballot reads as not edited
    edited = datetime(2019, 5, 12, 16, 20, tzinfo=SHANGHAI) if version == 1 else None
    assert by_floor[16].body == "投 9号" and by_floor[16].edited_at == edited
    assert page.edits_shown == (version == 1)
    assert (page.page_no, page.page_count) == (1, 1)
    assert (page.thread_id, page.title) == (str(DEMO_TID), thread.title)
    assert (page.replies, page.per_page, page.hidden) == (29, 100, 1)


def test_the_real_boards_json_shape_is_what_the_builder_sends():
    body = render_api_page(demo_thread(), 1, ppp=100, charset="gbk")
    assert body.isascii() and b'"Charset":"GBK"' in body and b"\\/" in body
    answer = json.loads(body)
    assert answer["Version"] == "1"
    entry = answer["Variables"]["postlist"][1]
    assert list(entry) == [
        "pid",
        "tid",
        "first",
        "author",
        "authorid",
        "dateline",
        "message",
        "anonymous",
        "attachment",
        "status",
        "username",
        "adminid",
        "groupid",
        "memberstatus",
        "number",
        "dbdateline",
    ]
    edited = next(e for e in answer["Variables"]["postlist"] if e["number"] == "17")
    assert edited["message"].startswith(
        '<i class="pstatus"> 本帖最后由 老王 于 2019-5-12 16:20 编辑 </i><br />\n<br />\n'
    )
    four = json.loads(render_api_page(demo_thread(), 1, ppp=100, version=4))
    assert four["Version"] == "4"
    entry = four["Variables"]["postlist"][1]
    assert entry.keys() >= {"pid", "number", "position", "author", "authorid", "dbdateline"}
    assert not any("pstatus" in e.get("message", "") for e in four["Variables"]["postlist"])


def test_a_page_says_its_number_from_its_first_floor_and_its_count_from_replies():
    thread = demo_thread()
    page = parse(render_api_page(thread, 2, ppp=10))
    assert (page.page_no, page.page_count) == (2, 4)  # 31 floors, the deleted one kept
    assert [post.floor for post in page.posts][:2] == [11, 12]
    assert mismatch(page, Expected(page=2, thread=str(DEMO_TID), title=thread.title)) is None
    assert mismatch(page, Expected(page=3)) == "这是第 2 页，要读的是第 3 页"


def test_a_kept_positions_placeholder_is_skipped_like_the_deleted_floor():
    thread = demo_thread()  # keeps positions: floor 15 was deleted and stays empty
    page = parse(render_api_page(thread, 1, ppp=100))
    assert 15 not in {post.floor for post in page.posts}
    assert len(page.posts) == 30


@pytest.mark.parametrize(
    ("url", "address"),
    [
        (f"http://b{API_PATH}?version=1&module=viewthread&tid=12&ppp=100&page=3", Address("12", 3)),
        (f"http://b{API_PATH}?version=1&module=viewthread&tid=12", Address("12", 1)),
    ],
)
def test_an_api_url_says_its_thread_and_page(url, address):
    assert discuz_x_mobile.address(url) == address
    assert discuz_x_mobile.address(discuz_x_mobile.page_url(url, 5)) == Address("12", 5)


@pytest.mark.parametrize(
    "thread_url",
    [
        "http://b.example/bbs/forum.php?mod=viewthread&tid=12&extra=&page=3",
        "http://b.example/bbs/thread-12-3-1.html",
        "http://b.example/bbs/forum.php?mod=viewthread&action=printable&tid=12",
        "http://b.example/bbs/archiver/?tid-12.html&page=2",
    ],
)
def test_the_api_url_follows_from_any_view_of_the_thread(thread_url):
    url = discuz_x_mobile.api_url(thread_url, ppp=1000)
    assert url == (
        "http://b.example/bbs/api/mobile/index.php?version=1&module=viewthread&tid=12"
        "&ppp=1000&page=1"
    )
    assert scrapers.pick(url, "") is discuz_x_mobile


def test_an_answer_is_recognised_by_its_shape_too():
    assert discuz_x_mobile.matches("saved.json", decode_html(render_api_page(demo_thread(), 1)))
    assert not discuz_x_mobile.matches("saved.html", "<html><body>{}</body></html>")


def test_read_over_http_with_view_api(serve_site, roster):
    base = serve_site(whole_board(demo_thread()))
    result = tally(base + VIEWTHREAD, roster, "--view", "api")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["outcome"] == {"kind": "eliminated", "seat": 5, "camp": "好人"}
    assert [view["view"] for view in doc["source"]["views"]] == ["api"]
    assert base.server.requests == [api_path(DEMO_TID, ppp=1000, page=1)]


def refused(result, *words: str) -> None:
    assert result.exit_code == 1, result.output
    assert result.stdout == "" and "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


@pytest.mark.parametrize("charset", ["utf-8", "gbk"])
def test_a_members_only_thread_is_refused_in_chinese(serve_site, roster, charset):
    site = mobile_api_site(demo_thread(), charset=charset, members_only=True)
    base = serve_site(site)
    refused(tally(base + VIEWTHREAD, roster, "--view", "api"), "尚未登录", "--cookies")


def test_the_utf8_boards_message_key_is_told_in_chinese():
    answer = {"Version": "4", "Charset": "UTF-8", "Variables": {"postlist": []}}
    answer["Message"] = {
        "messageval": "viewperm_login_nopermission//1",
        "messagestr": "mobile:viewperm_login_nopermission",
    }
    with pytest.raises(discuz_x_mobile.ScrapeError, match="尚未登录"):
        discuz_x_mobile.parse(json.dumps(answer), tz=SHANGHAI, clock=BoardClock(NOW))


def test_a_thread_that_does_not_exist_is_refused_in_the_boards_words(serve_site, roster):
    base = serve_site(whole_board(demo_thread()))
    url = f"{base}/forum.php?mod=viewthread&tid=9999"
    refused(tally(url, roster, "--view", "api"), "指定的主题不存在")
    with pytest.raises(discuz_x_mobile.ScrapeError, match="指定的主题不存在"):
        parse(api_message("thread_nonexistence", charset="gbk"))


def test_a_closed_api_is_refused_with_view_api(serve_site, roster):
    base = serve_site(whole_board(demo_thread(), api="closed"))
    refused(
        tally(base + VIEWTHREAD, roster, "--view", "api"), "关闭了手机版接口", "mobile_is_closed"
    )


def test_an_absent_api_is_refused_with_view_api(serve_site, roster):
    base = serve_site(whole_board(demo_thread(), api="absent"))
    refused(tally(base + VIEWTHREAD, roster, "--view", "api"), "HTTP 404")


def test_an_answer_that_is_no_json_means_no_api():
    with pytest.raises(discuz_x_mobile.ApiClosed):
        discuz_x_mobile.parse("<html><body>论坛</body></html>", tz=SHANGHAI, clock=BoardClock(NOW))
    with pytest.raises(discuz_x_mobile.ApiClosed, match="mobile_is_closed"):
        parse(php_json({"error": "mobile_is_closed"}))


def test_an_answer_cut_off_is_refused_naming_it(serve_site, roster):
    site = whole_board(demo_thread())

    def cut(path: str) -> Response:
        answer = site(path)
        return replace(answer, body=answer.body[:4000]) if path.startswith("/api/") else answer

    refused(tally(serve_site(cut) + VIEWTHREAD, roster, "--view", "api"), "JSON 被截断", API_PATH)


def test_an_answer_of_another_thread_is_refused(serve_site, roster):
    other = replace(demo_thread(), tid=7002, title="【第三天投票帖】")
    site = whole_board(demo_thread())
    wrong = mobile_api_site(other)

    def board(path: str) -> Response:
        if path.startswith("/api/"):
            return wrong(path.replace(f"tid={DEMO_TID}", "tid=7002"))
        return site(path)

    refused(
        tally(serve_site(board) + VIEWTHREAD, roster, "--view", "api"), "另一个帖子（编号 7002）"
    )


def test_a_page_answered_with_another_page_is_refused(serve_site, roster):
    thread = demo_thread()
    site = mobile_api_site(thread)
    url = f"{serve_site(site)}{api_path(DEMO_TID, ppp=10, page=3)}"
    with Fetcher(FetchOptions(delay=0)) as fetcher:
        _, page = read_page(url, fetcher, tz=SHANGHAI, forum=discuz_x_mobile.NAME)
        assert page.page_no == 3
    stale = {"answers": 0}

    def page_one(path: str) -> Response:
        stale["answers"] += 1
        return site(path.replace("page=3", "page=1"))

    url = f"{serve_site(page_one)}{api_path(DEMO_TID, ppp=10, page=3)}"
    with Fetcher(FetchOptions(delay=0)) as fetcher, pytest.raises(Exception) as failure:
        read_page(url, fetcher, tz=SHANGHAI, forum=discuz_x_mobile.NAME)
    assert "这是第 1 页，要读的是第 3 页" in failure.value.message
    assert stale["answers"] == 2  # asked once more before failing


def test_the_302_after_a_deletion_is_asked_again_and_floors_renumber(serve_site, roster):
    thread = renumbered_demo()
    base = serve_site(whole_board(thread))
    result = tally(base + VIEWTHREAD, roster, "--view", "api")
    assert result.exit_code == 0, result.output
    first = api_path(DEMO_TID, ppp=1000, page=1)
    assert base.server.requests[:2] == [first, first]  # the 302, then the answer
    doc = json.loads(result.stdout)
    floors = {v["author"]: v["floor"] for v in doc["verdicts"] if v["verdict"] == "late"}
    assert floors == {"花生米": 26, "Tommy": 27, "阿狸": 30}  # 27, 28, 31 before the deletion


def test_a_long_thread_comes_in_pages_of_a_thousand_side_by_side(serve_site):
    from tests.support.pagebuilder import big_thread

    thread = big_thread(250)  # 2,500 posts
    base = serve_site(mobile_api_site(thread))
    url = base + api_path(thread.tid, ppp=100, page=1)
    with Fetcher(FetchOptions(delay=0, view="api")) as fetcher:
        read = read_thread(url, tz=SHANGHAI, fetcher=fetcher, edits=lambda posts: ())
    assert [post.pid for post in read.posts] == [post.pid for post in thread.posts]
    # page 1 says how many pages there are; the others, fetched side by side, in either
    # order; none twice
    assert base.server.requests[0] == api_path(thread.tid, ppp=1000, page=1)
    assert sorted(base.server.requests[1:]) == [
        api_path(thread.tid, ppp=1000, page=n) for n in (2, 3)
    ]


def test_a_saved_answer_is_read_like_a_saved_page(tmp_path, roster):
    saved = tmp_path / "thread.json"
    saved.write_bytes(render_api_page(demo_thread(), 1, ppp=100, charset="gbk"))
    result = CliRunner().invoke(
        main,
        ["tally", str(saved), "--roster", str(roster), "--deadline", "22:00", "--format", "json"],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["outcome"]["seat"] == 5


def test_an_edited_post_that_quotes_keeps_its_notice_before_the_quote():
    """As the real X3.4 answers a post edited after it was made with the quote button: the
    notice, one break, then the quote (no blank line between them)."""
    quoted = FakePost(
        206, "月光宝盒", 105, NOW.replace(hour=9, minute=45), "我是好人，别投我！投4号"
    )
    reply = FakePost(
        207,
        "大白菜",
        106,
        NOW.replace(hour=9, minute=46),
        "你这话谁信？投5号\n（补充：5号昨晚的发言前后矛盾）",
        edited_at=NOW.replace(hour=9, minute=51, second=35),
        quote=(quoted.author, quoted.posted_at, quoted.body),
    )
    thread = FakeThread(2, "【狼人杀·第1局】第一天白天 放逐投票帖", [quoted, reply], NOW)
    answer = json.loads(render_api_page(thread, 1, ppp=1000))
    message = answer["Variables"]["postlist"][1]["message"]
    assert message.startswith(
        '<i class="pstatus"> 本帖最后由 大白菜 于 2019-5-12 09:51 编辑 </i><br />\n'
        '<div class="quote"><blockquote><p>引用:</p>'
    )
    post = parse(render_api_page(thread, 1, ppp=1000)).posts[1]
    assert post.body == "你这话谁信？投5号\n（补充：5号昨晚的发言前后矛盾）"
    assert post.quotes == ("月光宝盒 发表于 2019-5-12 09:45\n我是好人，别投我！投4号",)
    assert post.edited_at == NOW.replace(hour=9, minute=51, second=0)


def test_without_a_version_the_board_answers_version_1(serve_site):
    base = serve_site(whole_board(demo_thread()))
    url = f"{base}{api_path(DEMO_TID, ppp=1000, version=None)}"
    with Fetcher(FetchOptions(delay=0)) as fetcher:
        fetched = fetcher.fetch(url)
    assert json.loads(fetched.body)["Version"] == "1"


def test_a_hot_reply_whose_floor_the_answer_does_not_say_is_refused():
    answer = json.loads(render_api_page(demo_thread(), 1, ppp=1000))
    answer["Variables"]["postlist"][3]["number"] = "-1"  # 热门回复: forum_viewthread.php
    with pytest.raises(discuz_x_mobile.ScrapeError, match="热门回复"):
        parse(json.dumps(answer).encode())


def test_white_text_in_a_version_1_message_is_hidden_as_on_the_thread_page():
    """Version 1 keeps discuzcode's <font color>: the vote nobody sees is no ballot.  (Text
    sized 0 cannot be told: the plugin deletes [size] tags for versions 1–3.)"""
    shown = FakePost(
        9001, "meer", 2000, NOW.replace(hour=21), '我投5号<font color="white">改票 投6号</font>'
    )
    thread = FakeThread(DEMO_TID, "【投票】", [shown], NOW)
    post = parse(render_api_page(thread, 1, ppp=1000)).posts[0]
    assert (post.body, post.hidden) == ("我投5号", ("改票 投6号",))


def test_text_sized_0_arrives_sized_and_counted_and_the_judge_is_told_once(serve_site, roster):
    """The mobile plugin deletes every [size] tag (versions 1–3 in its discuzcode hook, 4 in
    its mobile_discuzcode): a ballot the thread page shows in text sized 0 arrives at the
    normal size and is counted.  The judge's notes say so once, with the view that reads the
    thread as its readers see it, and so does the audit's line for the view; the thread
    pages do not count it, and say nothing of the API."""
    thread = demo_thread()
    hidden = '还没想好<font style="font-size:0px">投 5号</font>'
    thread.posts = [replace(p, body=hidden) if p.pid == 90133 else p for p in thread.posts]
    base = serve_site(whole_board(thread))
    url = base + VIEWTHREAD

    def ballot_of_16(result) -> dict:
        assert result.exit_code == 0, result.output
        return next(b for b in json.loads(result.stdout)["ballots"] if b["seat"] == 16)

    from_api = tally(url, roster, "--view", "api")
    assert ballot_of_16(from_api)["kind"] == "vote"
    told = [line for line in from_api.stderr.splitlines() if "手机接口" in line]
    assert len(told) == 1 and "[size]" in told[0] and "--view pages" in told[0]
    audit = tally(url, roster, "--view", "api", "--format", "audit")
    (line,) = [line for line in audit.stdout.splitlines() if line.startswith("读取：")]
    assert "看不到字号" in line and "--view pages" in line

    from_pages = tally(url, roster, "--view", "pages")
    assert ballot_of_16(from_pages)["kind"] == "self"
    assert "手机接口" not in from_pages.stderr
