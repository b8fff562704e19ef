"""A board that misbehaves on purpose: every page is the page asked for, or the tally is refused.

The board is the page builder's Discuz! X3.4 demo thread served on 127.0.0.1; a ``Hostile``
site wraps it and answers some requests wrongly — another page, another thread, a redirect
elsewhere, a page bar that lies, a gzip bomb, a drip of bytes, a page in another charset, the
board's System Error or mobile pages.  Each case runs the real ``killmod tally`` command and
checks its exit code, the Chinese message naming the page, and that nothing was printed as a
result; the same board without faults is the control, and gives the demo's known count.
"""

from __future__ import annotations

import gzip
import json
import re
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from tests.support.pagebuilder import (
    DEMO_NOW,
    DEMO_TID,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    big_roster_toml,
    big_thread,
    demo_thread,
    discuz_x_site,
    render_discuz_x_page,
    render_touch_page,
)
from tests.support.pagebuilder_more import discuz_x_archiver_site, with_time_style

VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"
OTHER_TID = 7002


def page_path(n: int, tid: int = DEMO_TID) -> str:
    """The path killmod asks for page ``n`` of a thread."""
    return f"/forum.php?mod=viewthread&tid={tid}&page={n}"


def tally(source: str, roster: Path, *extra: str, fmt: str = "json"):
    """``killmod tally SOURCE`` as a judge runs it (no pacing: the board is local)."""
    args = [source, "--roster", str(roster), "--deadline", "2019-05-12 22:00", "--delay", "0"]
    args += ["--cache", str(roster.parent / "cache"), "--format", fmt, *extra]
    return CliRunner().invoke(main, ["tally", *args])


def refused(result, *words: str) -> str:
    """The tally failed (exit 1), printed nothing as a result, and said ``words``."""
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    return result.stderr


def counted(result) -> dict:
    """The tally's JSON document, from a run that succeeded."""
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def demo_outcome(doc: dict) -> None:
    """The demo thread's known count (see ``pagebuilder.demo_thread``)."""
    assert doc["outcome"] == {"kind": "eliminated", "seat": 5, "camp": "好人"}
    assert [(c["seat"], c["votes"]) for c in doc["counts"]][:3] == [(5, 4), (7, 3), (12, 3)]
    assert doc["source"]["posts"] == 30


class Hostile:
    """A board whose ``faults`` answer the requests they claim; the board itself the rest.

    A fault is (test on the path, answer: path -> Response, how many times; None: always).
    """

    def __init__(self, site: Callable[[str], Response]) -> None:
        self.site = site
        self.faults: list[list] = []

    def fault(self, when: Callable[[str], bool], answer: Callable[[str], Response], times=None):
        self.faults.append([when, answer, times])
        return self

    def __call__(self, path: str) -> Response:
        for fault in self.faults:
            when, answer, times = fault
            if when(path) and times != 0:
                fault[2] = None if times is None else times - 1
                return answer(path)
        return self.site(path)


def page_requests(base) -> list[str]:
    """What the board was asked for its thread pages (a board without the mobile API is
    asked for it first, once)."""
    return [path for path in base.server.requests if not path.startswith("/api/")]


def asks(n: int) -> Callable[[str], bool]:
    return lambda path: path == page_path(n)


def board_of(*threads: FakeThread, **options) -> Callable[[str], Response]:
    """One board serving several threads, by tid."""
    sites = {thread.tid: discuz_x_site(thread, **options) for thread in threads}

    def site(path: str) -> Response:
        tid = re.search(r"tid[=-](\d+)", path)
        return sites.get(int(tid.group(1)) if tid else DEMO_TID, sites[DEMO_TID])(path)

    return site


def other_thread() -> FakeThread:
    """Another thread on the same board: the same shape, another tid and title."""
    return replace(demo_thread(), tid=OTHER_TID, title="【第三天投票帖】22:00 截止")


# --- the control ------------------------------------------------------------------------------


def test_the_clean_board_gives_the_demo_count(serve_site, roster):
    base = serve_site(Hostile(discuz_x_site(demo_thread())))
    demo_outcome(counted(tally(base + VIEWTHREAD, roster)))


# --- 1. page identity -------------------------------------------------------------------------


def test_page_three_answered_with_page_two_is_refused_naming_it(serve_site, roster):
    site = discuz_x_site(demo_thread())
    board = Hostile(site).fault(asks(3), lambda path: site(page_path(2)))
    base = serve_site(board)
    refused(tally(base + VIEWTHREAD, roster), page_path(3), "这是第 2 页，要读的是第 3 页")
    assert base.server.requests.count(page_path(3)) == 2  # fetched once more before failing


def test_a_stale_page_served_once_is_fetched_again_and_the_count_is_right(serve_site, roster):
    site = discuz_x_site(demo_thread())
    board = Hostile(site).fault(asks(3), lambda path: site(page_path(2)), times=1)
    base = serve_site(board)
    demo_outcome(counted(tally(base + VIEWTHREAD, roster)))
    assert base.server.requests.count(page_path(3)) == 2


def test_a_cache_that_ignores_the_query_string_is_refused(serve_site, roster):
    site = discuz_x_site(demo_thread())
    base = serve_site(Hostile(site).fault(lambda path: True, lambda path: site(VIEWTHREAD)))
    # The last page is read first: it is the first page that shows it is not the one asked.
    refused(tally(base + VIEWTHREAD, roster), page_path(4), "这是第 1 页，要读的是第 4 页")


def test_page_two_of_another_thread_is_refused(serve_site, roster):
    board = board_of(demo_thread(), other_thread())
    hostile = Hostile(board).fault(asks(2), lambda path: board(page_path(2, OTHER_TID)))
    base = serve_site(hostile)
    refused(tally(base + VIEWTHREAD, roster), page_path(2), f"另一个帖子（编号 {OTHER_TID}）")


def test_a_page_with_another_title_is_refused(serve_site, roster):
    renamed = replace(demo_thread(), title="【改过的标题】")
    site, other = discuz_x_site(demo_thread()), discuz_x_site(renamed)
    base = serve_site(Hostile(site).fault(asks(2), other))
    refused(tally(base + VIEWTHREAD, roster), page_path(2), "【改过的标题】", "不同")


# --- 2. redirects -----------------------------------------------------------------------------


def moved(location: str, status: int = 302) -> Callable[[str], Response]:
    return lambda path: Response(status, {"Location": location}, b"")


def test_a_redirect_to_another_host_is_refused_and_no_cookie_goes_there(
    serve_site, roster, tmp_path
):
    elsewhere = serve_site(discuz_x_site(demo_thread()))
    port = elsewhere.rsplit(":", 1)[1]
    target = f"http://localhost:{port}{page_path(2)}"
    base = serve_site(Hostile(discuz_x_site(demo_thread())).fault(asks(2), moved(target)))
    cookies = tmp_path / "cookies.txt"
    cookies.write_text(
        "# Netscape HTTP Cookie File\n"
        "127.0.0.1\tFALSE\t/\tFALSE\t0\tauth\tjudge-secret\n"
        "localhost\tFALSE\t/\tFALSE\t0\tauth\tjudge-secret\n",
        encoding="utf-8",
    )
    result = tally(base + VIEWTHREAD, roster, "--cookies", str(cookies))
    refused(result, page_path(2), "另一个网站（localhost）", "已拒绝")
    assert elsewhere.server.requests == []  # nothing, so no cookie, ever reached the other host
    assert "judge-secret" not in result.stderr


def test_a_redirect_to_another_thread_is_refused(serve_site, roster):
    board = board_of(demo_thread(), other_thread())
    hostile = Hostile(board).fault(asks(2), moved(page_path(2, OTHER_TID)))
    base = serve_site(hostile)
    refused(tally(base + VIEWTHREAD, roster), page_path(2), "重定向到了另一个帖子")


def test_a_redirect_between_the_boards_own_url_forms_is_followed(serve_site, roster):
    """thread-T-P-1.html sent on to forum.php?mod=viewthread&tid=T&page=P (a board that
    turned URL rewriting off keeps the old links working this way)."""
    site = discuz_x_site(demo_thread())
    rewritten = re.compile(rf"/thread-{DEMO_TID}-(\d+)-1\.html")

    def board(path: str) -> Response:
        found = rewritten.fullmatch(path)
        if found:
            return moved(f"forum.php?mod=viewthread&tid={DEMO_TID}&page={found[1]}", 301)(path)
        return site(path)

    base = serve_site(board)
    demo_outcome(counted(tally(f"{base}/thread-{DEMO_TID}-1-1.html", roster)))
    # The first page is asked in the form given, the others where the board sent it.
    assert page_requests(base)[:2] == [f"/thread-{DEMO_TID}-1-1.html", page_path(1)]
    assert page_path(4) in base.server.requests


def test_a_posts_link_is_followed_to_its_thread_and_the_thread_read_whole(serve_site, roster):
    """The floor number's link a judge copies (帖子地址) is ``mod=redirect&goto=findpost``:
    the board sends it to the post's page; every page is then read from there."""
    link = f"/forum.php?mod=redirect&goto=findpost&ptid={DEMO_TID}&pid=90077"
    site = discuz_x_site(demo_thread())
    to_page = moved(f"forum.php?mod=viewthread&tid={DEMO_TID}&page=2#pid90077")
    base = serve_site(Hostile(site).fault(lambda path: path == link, to_page))
    doc = counted(tally(base + link, roster))
    demo_outcome(doc)
    assert doc["source"]["url"] == base + page_path(2)
    assert {page_path(n) for n in range(1, 5)} <= set(base.server.requests)


def test_the_302_after_a_moderators_deletion_is_followed_and_floors_renumber(serve_site, roster):
    """X3.4's first view of a page after a deletion answers 302 to the thread's first page,
    then renumbers: killmod sees page 1 where it asked page 2, asks again, and reads the
    renumbered thread whole."""
    thread = replace(demo_thread(), keeps_positions=False)  # floor 15 was deleted
    base = serve_site(discuz_x_site(thread))
    doc = counted(tally(base + VIEWTHREAD, roster))
    demo_outcome(doc)
    assert doc["source"]["pages"] == 3
    floors = [v["floor"] for v in doc["verdicts"]]
    assert sorted(floors) == list(range(1, 31))  # no 无效楼层, no gap
    requests = base.server.requests
    assert requests.count(page_path(2)) == 2  # the 302, then the renumbered page
    assert thread.positions_dropped


# --- 3. saved pages ---------------------------------------------------------------------------


def save_demo(folder: Path, thread: FakeThread | None = None) -> Path:
    thread = thread or demo_thread()
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(1, thread.page_count + 1):
        (folder / f"page-{n}.html").write_bytes(render_discuz_x_page(thread, n))
    return folder


def test_the_clean_saved_folder_gives_the_demo_count(tmp_path, roster):
    demo_outcome(counted(tally(str(save_demo(tmp_path / "day")), roster)))


def test_a_saved_folder_missing_a_page_is_refused_naming_it(tmp_path, roster):
    folder = save_demo(tmp_path / "day")
    (folder / "page-3.html").unlink()
    refused(tally(str(folder), roster), "缺少第 3 页", "共 4 页", str(folder))


def test_a_single_saved_page_of_a_longer_thread_is_refused(tmp_path, roster):
    folder = save_demo(tmp_path / "day")
    refused(tally(str(folder / "page-2.html"), roster), "缺少第 1、3、4 页")


def test_a_saved_page_of_another_thread_is_refused_naming_the_file(tmp_path, roster):
    folder = save_demo(tmp_path / "day")
    (folder / "page-2.html").write_bytes(render_discuz_x_page(other_thread(), 2))
    refused(tally(str(folder), roster), str(folder / "page-2.html"), "另一个帖子")


def test_a_page_saved_twice_with_different_posts_is_refused_naming_both(tmp_path, roster):
    folder = save_demo(tmp_path / "day")
    later = demo_thread()
    later.posts[12].body = "改票：投 12号"  # the same page saved again after an edit
    (folder / "page-2-again.html").write_bytes(render_discuz_x_page(later, 2))
    message = refused(tally(str(folder), roster), "第 2 页保存了两份")
    assert str(folder / "page-2.html") in message and str(folder / "page-2-again.html") in message


def test_a_page_saved_twice_alike_is_read_once(tmp_path, roster):
    folder = save_demo(tmp_path / "day")
    (folder / "page-2-copy.html").write_bytes((folder / "page-2.html").read_bytes())
    demo_outcome(counted(tally(str(folder), roster)))


# --- 4. bounds --------------------------------------------------------------------------------


def claiming(pages: int, site: Callable[[str], Response]) -> Callable[[str], Response]:
    """``site`` whose page bars claim ``pages`` pages."""

    def lying(path: str) -> Response:
        response = site(path)
        body = response.body.replace("共 4 页".encode(), f"共 {pages} 页".encode())
        return replace(response, body=body)

    return lying


def test_a_page_bar_claiming_99999_pages_is_refused_before_reading_them(serve_site, roster):
    base = serve_site(claiming(99_999, discuz_x_site(demo_thread())))
    refused(tally(base + VIEWTHREAD, roster), "99999 页", "上限 2000 页", "--max-pages")
    assert page_requests(base) == [VIEWTHREAD]


def test_a_page_count_is_believed_only_once_the_last_page_shows_it(serve_site, roster):
    base = serve_site(claiming(50, discuz_x_site(demo_thread())))
    refused(tally(base + VIEWTHREAD, roster), page_path(50), "这是第 4 页，要读的是第 50 页")
    assert page_requests(base) == [VIEWTHREAD, page_path(50), page_path(50)]


def test_the_page_cap_is_an_option(serve_site, roster):
    base = serve_site(discuz_x_site(demo_thread()))
    refused(tally(base + VIEWTHREAD, roster, "--max-pages", "3"), "4 页", "上限 3 页")
    demo_outcome(counted(tally(base + VIEWTHREAD, roster, "--max-pages", "4")))


def gzip_bomb(megabytes: int) -> Callable[[str], Response]:
    body = gzip.compress(b"\0" * (megabytes * 1024 * 1024), compresslevel=9)
    headers = {"Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip"}
    return lambda path: Response(200, headers, body)


def test_a_gzip_bomb_is_stopped_at_the_page_limit(serve_site, roster):
    bomb = gzip_bomb(64)
    assert len(bomb("").body) < 100_000  # 64 MB inflated from under 100 KB
    base = serve_site(Hostile(discuz_x_site(demo_thread())).fault(asks(2), bomb))
    refused(tally(base + VIEWTHREAD, roster), page_path(2), "解压后超过 20 MB", "--max-page-mb")
    small = tally(base + VIEWTHREAD, roster, "--max-page-mb", "1")
    refused(small, page_path(2), "超过 1 MB")


def test_a_gzip_page_under_the_limit_is_read(serve_site, roster):
    site = discuz_x_site(demo_thread())

    def zipped(path: str) -> Response:
        response = site(path)
        headers = {**response.headers, "Content-Encoding": "gzip"}
        return Response(200, headers, gzip.compress(response.body))

    demo_outcome(counted(tally(serve_site(zipped) + VIEWTHREAD, roster)))


def dripping(site: Callable[[str], Response], seconds: float) -> Callable[[str], Response]:
    """The page, its bytes sent one at a time over ``seconds``, then the rest at once."""

    def drip(path: str) -> Response:
        response = site(path)

        def chunks():
            body, started = response.body, time.monotonic()
            for index in range(len(body)):
                if time.monotonic() - started > seconds:
                    yield body[index:]
                    return
                yield body[index : index + 1]
                time.sleep(0.02)

        headers = {**response.headers, "Content-Length": str(len(response.body))}
        return Response(200, headers, chunks())

    return drip


@pytest.mark.slow
def test_a_slow_drip_of_bytes_does_not_defeat_the_timeout(serve_site, roster):
    """Each byte comes well within the read timeout; the page would arrive whole after 3 s
    — but a page must arrive within --timeout of the board starting to answer."""
    site = discuz_x_site(demo_thread())
    base = serve_site(Hostile(site).fault(asks(2), dripping(site, 3.0)))
    refused(tally(base + VIEWTHREAD, roster, "--timeout", "0.5"), page_path(2), "超时")


@pytest.mark.parametrize("retry_after", ["soon", "-1", "Wed, 32 Foo 2019 99:00:00 GMT", "1.5"])
def test_a_retry_after_that_is_no_number_nor_date_is_ignored(serve_site, roster, retry_after):
    busy = Response(503, {"Retry-After": retry_after}, b"busy")
    base = serve_site(Hostile(discuz_x_site(demo_thread())).fault(asks(2), lambda p: busy, 1))
    demo_outcome(counted(tally(base + VIEWTHREAD, roster)))
    assert base.server.requests.count(page_path(2)) == 2


def test_a_text_node_over_libxmls_limit_is_read_whole(serve_site, roster):
    """An 11 MB post: libxml2 alone drops such a text node and everything after it."""
    thread = demo_thread()
    judge_reminder = thread.posts[23]  # floor 24, page 3
    judge_reminder.body += "x" * 11_000_000
    doc = counted(tally(serve_site(discuz_x_site(thread)) + VIEWTHREAD, roster))
    demo_outcome(doc)
    floors = {v["floor"] for v in doc["verdicts"]}
    assert {24, 25, 26, 27} <= floors  # the big post and those after it on its page


def test_an_unknown_charset_is_refused_naming_the_page(serve_site, roster):
    site = discuz_x_site(demo_thread(), charset="gbk")

    def unknown(path: str) -> Response:
        response = site(path)
        headers = {**response.headers, "Content-Type": "text/html; charset=x-klingon"}
        return replace(response, headers=headers)

    base = serve_site(Hostile(site).fault(asks(2), unknown))
    refused(tally(base + VIEWTHREAD, roster), page_path(2), "x-klingon", "无法识别")


def test_a_page_whose_charset_lies_is_refused_naming_the_page_exit_1(serve_site, roster):
    """Declared GBK, sent as Big5: the names decode to other characters without one error."""
    site = discuz_x_site(demo_thread(), charset="gbk")
    big5 = discuz_x_site(demo_thread(), charset="big5")

    def lying(path: str) -> Response:
        response = big5(path)
        body = response.body.replace(b"charset=big5", b"charset=gbk")
        headers = {**response.headers, "Content-Type": "text/html; charset=gbk"}
        return Response(200, headers, body)

    base = serve_site(Hostile(site).fault(asks(2), lying))
    refused(tally(base + VIEWTHREAD, roster), page_path(2))


# --- 5. times ---------------------------------------------------------------------------------


def seconds_thread() -> FakeThread:
    """meer's ballot at 21:59:50, shown only as "40 秒前" (no title) on a page of 22:00:30."""
    now = datetime(2019, 5, 12, 22, 0, 30, tzinfo=SHANGHAI)
    posts = [
        FakePost(1, "法官大人", 100, now - timedelta(hours=12), "投票帖", time_style="absolute"),
        FakePost(2, "meer", 2000, now - timedelta(seconds=40), "投5号", time_style="relative_bare"),
    ]
    return FakeThread(8301, "投票帖", posts, now)


def test_seconds_ago_count_back_from_the_http_date_not_the_footer_minute(serve_site, roster):
    base = serve_site(discuz_x_site(seconds_thread()))
    doc = counted(tally(f"{base}/forum.php?mod=viewthread&tid=8301", roster))
    (ballot,) = [v for v in doc["verdicts"] if v["author"] == "meer"]
    assert (ballot["verdict"], ballot["posted_at"]) == ("counted", "2019-05-12T21:59:50+08:00")
    assert doc["flags"] == []


def test_a_saved_page_has_no_clock_to_the_second_so_the_ballot_is_flagged(tmp_path, roster):
    saved = tmp_path / "thread.html"
    saved.write_bytes(render_discuz_x_page(seconds_thread(), 1))
    doc = counted(tally(str(saved), roster))
    assert [(f["floor"], f["reason"]) for f in doc["flags"]] == [(2, "time_ambiguous")]


def archiver_board(thread: FakeThread, archived: FakeThread) -> Callable[[str], Response]:
    """Viewthread pages of ``thread`` (times to the minute) and the archiver of ``archived``."""
    view, archiver = (
        discuz_x_site(with_time_style(thread, "minute")),
        discuz_x_archiver_site(archived),
    )
    return lambda path: archiver(path) if path.startswith("/archiver/") else view(path)


def long_thread() -> FakeThread:
    """15 pages of ballots, the last at 22:00:00: only the archiver's seconds can say it counts."""
    thread = big_thread(15)
    last = FakePost(199_999, "玩家03", 5003, DEMO_NOW.replace(minute=0), "改票：投 7号")
    thread.posts.append(last)
    return thread


@pytest.mark.parametrize("archiver_per_page", [10, 4], ids=["same pages", "window walked"])
def test_the_archivers_page_window_still_reaches_its_last_page(
    serve_site, tmp_path, archiver_per_page
):
    roster = tmp_path / "roster.toml"
    roster.write_text(big_roster_toml(), encoding="utf-8")
    thread = long_thread()
    archived = replace(thread, per_page=archiver_per_page)
    assert archived.page_count > 10  # page 1's bar shows pages 1–10 only
    base = serve_site(archiver_board(thread, archived))
    doc = counted(tally(f"{base}/forum.php?mod=viewthread&tid=8001", roster))
    (last,) = [v for v in doc["verdicts"] if v["pid"] == 199_999]
    assert (last["verdict"], last["notes"]) == ("counted", ["settled_by_archiver"])
    assert last["posted_at"] == "2019-05-12T22:00:00+08:00"
    archived_pages = [p for p in base.server.requests if p.startswith("/archiver/")]
    assert len(archived_pages) < archived.page_count / 2  # not every page


# --- 7. board messages ------------------------------------------------------------------------


def test_a_system_error_page_is_reported_in_the_boards_words(serve_site, roster):
    base = serve_site(discuz_x_site(demo_thread()))
    url = base + VIEWTHREAD + "&from=%3Cscript%3E"
    refused(
        tally(url, roster), "System Error", "您当前的访问请求当中含有非法字符", "from=%3Cscript%3E"
    )


def test_a_system_error_page_in_the_middle_of_a_thread_names_its_page(serve_site, roster):
    site = discuz_x_site(demo_thread())
    base = serve_site(Hostile(site).fault(asks(3), lambda path: site(VIEWTHREAD + "&x=%3C")))
    refused(tally(base + VIEWTHREAD, roster), page_path(3), "系统错误页面")


def test_the_mobile_page_tells_to_use_the_desktop_url(serve_site, roster):
    base = serve_site(discuz_x_site(demo_thread()))
    result = tally(base + VIEWTHREAD + "&mobile=2", roster)
    refused(result, "手机版", f"请改用电脑版的帖子网址 {base}{VIEWTHREAD}")


def test_a_saved_touch_view_page_is_recognised(tmp_path, roster):
    saved = tmp_path / "touch.html"
    saved.write_bytes(render_touch_page(demo_thread(), 1))
    refused(tally(str(saved), roster), "手机版", str(saved))


def test_a_banned_players_post_is_blocked_content_not_a_violation(serve_site, roster):
    thread = demo_thread()
    thread.posts[18].banned = True  # floor 19, 小透明 (seat 16)
    base = serve_site(discuz_x_site(thread))
    doc = counted(tally(base + VIEWTHREAD, roster))
    (blocked,) = [v for v in doc["verdicts"] if v["floor"] == 19]
    assert (blocked["verdict"], blocked["notes"]) == ("no_vote", ["banned"])
    post = tally(base + VIEWTHREAD, roster, fmt="bbcode")
    assert post.exit_code == 0, post.output
    (line,) = [line for line in post.stdout.splitlines() if line.startswith("19楼")]
    assert "内容被屏蔽" in line and "犯规" not in line
