"""Fetching against a local board that misbehaves: retries, timeouts, cut pages, cookies…

A ``FaultySite`` wraps a board: the first requests whose path contains a marker get the
planned faults (a response, a stall, a reset connection), later ones the board's own page.
The handler installed by ``faulty_server`` resets connections and lets a site see the
request's headers (for the members-only board).
"""

from __future__ import annotations

import gzip
import io
import socket
import struct
import threading
import time
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.core.errors import BadInput, TallyFailed
from killmod.fetch.http import Fetcher, FetchOptions, HostPacer, Progress
from killmod.fetch.thread import read_thread
from tests.support.forumserver import _Handler
from tests.support.pagebuilder import (
    _MESSAGE_BACK,
    DEMO_TID,
    NO_THREAD_MESSAGE,
    SHANGHAI,
    FakePost,
    FakeThread,
    Response,
    _encode,
    _html_response,
    _message_page,
    demo_thread,
    discuz_x_site,
    login_page,
)
from tests.support.pagebuilder_more import discuz_x_archiver_site

FAST = FetchOptions(retries=2, backoff=0, timeout=0.5, delay=0)
VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"
PRINTABLE = f"/forum.php?mod=viewthread&action=printable&tid={DEMO_TID}"
ARCHIVER = f"/archiver/?tid-{DEMO_TID}.html"
SECRET = "s3cr3t-cookie-value-4711"
RESET = "reset"
_request = threading.local()  # the headers of the request being answered


@dataclass(frozen=True)
class Stall:
    """Answer after ``seconds`` (longer than the client's timeout)."""

    seconds: float


class FaultySite:
    """``site`` with ``plan`` answering the first requests whose path contains ``where``."""

    def __init__(self, site, where: str, plan: list) -> None:
        self.site = site
        self.where = where
        self.plan = list(plan)
        self._lock = threading.Lock()

    def take(self, path: str, *, reset: bool = False):
        """The next planned fault for ``path`` (only a reset when ``reset``), or None."""
        with self._lock:
            if self.where not in path or not self.plan or (self.plan[0] == RESET) != reset:
                return None
            return self.plan.pop(0)

    def __call__(self, path: str) -> Response:
        fault = self.take(path)
        if isinstance(fault, Stall):
            time.sleep(fault.seconds)
        if isinstance(fault, Response):
            return fault
        return self.site(path)


class _FaultHandler(_Handler):
    """Resets the connection when the site plans it; shows the site the request headers."""

    def _reply(self, *, send_body: bool) -> None:
        site = self.server.site
        if isinstance(site, FaultySite) and site.take(self.path, reset=True):
            self.server.requests.append(self.path)
            linger = struct.pack("ii", 1, 0)  # close with a TCP reset
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
            self.close_connection = True
            return
        _request.headers = self.headers
        super()._reply(send_body=send_body)


@pytest.fixture
def faulty_server(serve_site):
    """Serve a site with the fault handler; a client that gave up is no server error."""

    def start(site):
        base = serve_site(site)
        base.server.RequestHandlerClass = _FaultHandler
        base.server.handle_error = lambda request, address: None
        return base

    return start


def read(base: str, options: FetchOptions = FAST, path: str = VIEWTHREAD):
    with Fetcher(options) as fetcher:
        return read_thread(base + path, tz=SHANGHAI, fetcher=fetcher)


def failure(base: str, options: FetchOptions = FAST, path: str = VIEWTHREAD) -> str:
    with pytest.raises(TallyFailed) as failed:
        read(base, options, path)
    return failed.value.message


def at(hour: int, minute: int) -> datetime:
    return datetime(2019, 5, 12, hour, minute, tzinfo=SHANGHAI)


def reference_posts(serve_site):
    return read(serve_site(discuz_x_site(demo_thread()))).posts


# --- retries ------------------------------------------------------------------------------------


def test_a_503_is_retried_and_the_thread_read_whole(faulty_server, serve_site):
    site = FaultySite(discuz_x_site(demo_thread()), "page=2", [Response(503, {}, b"busy")])
    base = faulty_server(site)
    assert read(base).posts == reference_posts(serve_site)
    assert base.server.requests.count(f"{VIEWTHREAD}&page=2") == 2


@pytest.mark.parametrize("status", [429, 503])
@pytest.mark.slow
def test_retry_after_is_waited_then_the_page_read(faulty_server, serve_site, status):
    busy = Response(status, {"Retry-After": "1"}, b"slow down")
    base = faulty_server(FaultySite(discuz_x_site(demo_thread()), "page=3", [busy]))
    started = time.monotonic()
    posts = read(base).posts  # backoff is 0: only Retry-After makes it wait
    assert time.monotonic() - started >= 0.9
    assert posts == reference_posts(serve_site)


def test_a_board_still_busy_after_the_retries_fails_naming_the_page(faulty_server):
    busy = [Response(503, {}, b"busy")] * 3
    base = faulty_server(FaultySite(discuz_x_site(demo_thread()), "page=2", busy))
    message = failure(base)
    assert "HTTP 503" in message and "page=2" in message


def test_a_timeout_is_retried_then_recovers(faulty_server, serve_site):
    base = faulty_server(FaultySite(discuz_x_site(demo_thread()), "page=2", [Stall(1.0)]))
    assert read(base).posts == reference_posts(serve_site)


def test_a_page_that_keeps_timing_out_fails_naming_it(faulty_server):
    options = replace(FAST, retries=1, timeout=0.2)
    stalls = [Stall(0.6)] * 2
    base = faulty_server(FaultySite(discuz_x_site(demo_thread()), "page=2", stalls))
    started = time.monotonic()
    message = failure(base, options)
    assert time.monotonic() - started < 2
    assert "超时" in message and "page=2" in message
    assert base.server.requests.count(f"{VIEWTHREAD}&page=2") == 2


def test_a_reset_connection_is_retried(faulty_server, serve_site):
    base = faulty_server(FaultySite(discuz_x_site(demo_thread()), "page=2", [RESET]))
    assert read(base).posts == reference_posts(serve_site)
    assert base.server.requests.count(f"{VIEWTHREAD}&page=2") == 2


def test_a_connection_reset_every_time_fails_naming_the_page(faulty_server):
    base = faulty_server(FaultySite(discuz_x_site(demo_thread()), "page=2", [RESET] * 3))
    message = failure(base)
    assert "断开" in message and "page=2" in message


def test_a_body_cut_off_in_transfer_is_retried(faulty_server, serve_site):
    site = discuz_x_site(demo_thread())
    whole = site(f"{VIEWTHREAD}&page=2")
    cut = Response(
        200,
        {**whole.headers, "Content-Length": str(len(whole.body)), "Connection": "close"},
        whole.body[: len(whole.body) // 2],
    )
    base = faulty_server(FaultySite(site, "page=2", [cut]))
    assert read(base).posts == reference_posts(serve_site)
    assert base.server.requests.count(f"{VIEWTHREAD}&page=2") == 2


# --- pages that are not whole thread pages ------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "marker"),
    [("page=2", b'<div id="post_'), ("page=1", b'class="pgs')],
    ids=["post list cut", "pagination cut"],
)
def test_a_truncated_page_is_an_error_not_a_short_page(faulty_server, page, marker):
    site = discuz_x_site(demo_thread())

    def truncated(path: str) -> Response:
        response = site(path)
        if path.endswith(page):
            body = response.body
            cut = body.index(marker, body.index(marker) + 1)  # past the first post / top bar
            return replace(response, body=body[:cut])
        return response

    message = failure(faulty_server(truncated))
    assert "页面不完整" in message and page in message


def test_a_post_deleted_between_page_fetches_is_neither_lost_nor_counted_twice(serve_site):
    posts = [
        FakePost(1000 + n, f"玩家{n % 5}", 5000 + n % 5, at(10, n), f"投 {n % 5 + 1}")
        for n in range(25)
    ]
    thread = FakeThread(9, "投票帖", posts, at(10, 0) + timedelta(days=1))
    site = discuz_x_site(thread)
    deletions = {"/forum.php?mod=viewthread&tid=9": 1003, "page=2": 1015}

    def deleting(path: str) -> Response:
        response = site(path)  # served, then a moderator deletes a post: later floors shift
        for marker, pid in deletions.items():
            if path.endswith(marker):
                thread.posts[:] = [post for post in thread.posts if post.pid != pid]
        return response

    base = serve_site(deleting)
    read_posts = read(base, replace(FAST, jobs=1), "/forum.php?mod=viewthread&tid=9").posts
    pids = [post.pid for post in read_posts]
    assert len(pids) == len(set(pids))
    survivors = {post.pid for post in thread.posts}
    assert survivors <= set(pids)


# --- message pages ------------------------------------------------------------------------------


def message_site(text: str):
    page = _message_page(text, "alert_error", _MESSAGE_BACK, "", datetime.now(SHANGHAI), "utf-8")
    body = _encode(page, "utf-8")
    return lambda path: _html_response(body, "utf-8", True, datetime.now(SHANGHAI))


@pytest.mark.parametrize(
    "text",
    [
        NO_THREAD_MESSAGE,
        "您无权进行当前操作，原因如下：",
        "抱歉，您所在的用户组(游客)无法进行此操作",
        "您需要先登录才能继续本操作",
    ],
)
@pytest.mark.parametrize(
    "path",
    [VIEWTHREAD, PRINTABLE, ARCHIVER],
    ids=["viewthread", "printable", "archiver"],
)
def test_a_discuz_message_page_is_reported_with_the_boards_words(serve_site, text, path):
    message = failure(serve_site(message_site(text)), path=path)
    assert f"论坛返回了提示页面：「{text}" in message
    assert path in message


def test_a_login_page_fails_the_tally_with_exit_1_and_prints_no_result(serve_site, roster):
    base = serve_site(lambda path: login_page())
    args = [base + VIEWTHREAD, "--roster", str(roster), "--deadline", "22:00"]
    result = tally_command(*args, "--cache", str(roster.parent / "cache"))
    assert result.exit_code == 1
    assert "您需要先登录才能继续本操作" in result.stderr
    assert result.stdout == ""


# --- charsets and encodings ---------------------------------------------------------------------


def test_gbk_declared_only_in_the_http_header_is_decoded_by_it(serve_site):
    # The archiver has no charset meta: only the HTTP header says GBK.
    base = serve_site(discuz_x_archiver_site(demo_thread(), charset="gbk"))
    head = discuz_x_archiver_site(demo_thread(), charset="gbk")(ARCHIVER).body.split(b"</head>")
    assert b"charset" not in head[0]
    reference = read(serve_site(discuz_x_archiver_site(demo_thread())), path=ARCHIVER)
    thread = read(base, path=ARCHIVER)
    assert [p.author for p in thread.posts] == [p.author for p in reference.posts]
    assert "预言家本家" in {p.author for p in thread.posts}


def gzipped(site):
    def serve(path: str) -> Response:
        response = site(path)
        body = gzip.compress(response.body)
        headers = {**response.headers, "Content-Encoding": "gzip"}
        return replace(response, headers=headers, body=body)

    return serve


def test_a_gzip_response_is_decompressed(serve_site):
    base = serve_site(gzipped(discuz_x_site(demo_thread())))
    assert read(base).posts == reference_posts(serve_site)


def test_a_corrupt_gzip_response_fails_naming_the_page(serve_site):
    site = gzipped(discuz_x_site(demo_thread()))

    def corrupt(path: str) -> Response:
        response = site(path)
        return replace(response, body=response.body[:10] + b"\x00" * 64)

    message = failure(serve_site(corrupt))
    assert "解压" in message and VIEWTHREAD in message


# --- cookies ------------------------------------------------------------------------------------


def members_only(site):
    """A board that shows threads only to a logged-in member (the cookie ``auth=SECRET``)."""

    def serve(path: str) -> Response:
        if f"auth={SECRET}" not in (_request.headers.get("Cookie") or ""):
            return login_page()
        return site(path)

    return serve


def cookies_file(tmp_path: Path, host: str = "127.0.0.1", *, http_only: bool = False) -> Path:
    prefix = "#HttpOnly_" if http_only else ""
    path = tmp_path / "cookies.txt"
    path.write_text(
        "# Netscape HTTP Cookie File\n"
        "# This file was generated by a browser extension.\n\n"
        f"{prefix}{host}\tFALSE\t/\tFALSE\t0\tauth\t{SECRET}\n"
        f"other.example.com\tFALSE\t/\tFALSE\t0\tsid\tnot-for-this-board\n",
        encoding="utf-8",
    )
    return path


def tally_command(*args: str):
    return CliRunner().invoke(main, ["tally", *args, "--delay", "0", "--format", "json"])


def test_a_members_only_board_needs_the_cookie(faulty_server, tmp_path, roster):
    base = faulty_server(members_only(discuz_x_site(demo_thread())))
    url = base + VIEWTHREAD
    common = [url, "--roster", str(roster), "--deadline", "22:00", "--cache", str(tmp_path / "c")]
    without = tally_command(*common)
    assert without.exit_code == 1 and "登录" in without.stderr
    with_cookies = tally_command(*common, "--cookies", str(cookies_file(tmp_path)))
    assert with_cookies.exit_code == 0, with_cookies.output
    assert '"posts": 30' in with_cookies.stdout
    assert SECRET not in with_cookies.stdout + with_cookies.stderr


def test_http_only_cookies_are_read(faulty_server, tmp_path):
    base = faulty_server(members_only(discuz_x_site(demo_thread())))
    options = replace(FAST, cookies=cookies_file(tmp_path, http_only=True))
    assert len(read(base, options).posts) == 30


def test_cookies_of_another_host_are_not_sent(faulty_server, tmp_path):
    base = faulty_server(members_only(discuz_x_site(demo_thread())))
    options = replace(FAST, cookies=cookies_file(tmp_path, host="bbs.example.com"))
    assert "登录" in failure(base, options)


@pytest.mark.parametrize(
    "content",
    [
        f"auth={SECRET}; sid=1\n",  # a Cookie header, not cookies.txt
        f"# Netscape HTTP Cookie File\n127.0.0.1\tTRUE\t/\tauth\t{SECRET}\n",  # fields missing
        "",
    ],
    ids=["header", "broken line", "empty"],
)
def test_a_bad_cookies_file_is_bad_input_naming_it_never_its_values(tmp_path, roster, content):
    path = tmp_path / "cookies.txt"
    path.write_text(content, encoding="utf-8")
    args = [str(tmp_path), "--roster", str(roster), "--deadline", "22:00"]
    result = tally_command(*args, "--cookies", str(path))
    assert result.exit_code == 2
    assert str(path) in result.stderr
    assert SECRET not in result.stdout + result.stderr


def test_a_missing_cookies_file_is_bad_input_naming_it(tmp_path):
    with pytest.raises(BadInput) as error:
        Fetcher(replace(FAST, cookies=tmp_path / "nope.txt"))
    assert "nope.txt" in error.value.message


# --- politeness and progress --------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.time = 100.0
        self.slept: list[float] = []

    def now(self) -> float:
        return self.time

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 3))


def test_request_starts_to_one_host_are_spaced_by_the_delay():
    clock = FakeClock()
    pacer = HostPacer(0.2, clock=clock.now, sleep=clock.sleep)
    for _ in range(3):
        pacer.wait("http://bbs.example.com/forum.php?page=1")
    pacer.wait("http://other.example.com/")
    pacer.wait("http://127.0.0.1:8000/")  # a board on this machine is not paced
    assert clock.slept == [0.2, 0.4]


def test_no_progress_is_drawn_when_stderr_is_not_a_terminal(serve_site, roster, tmp_path):
    base = serve_site(discuz_x_site(demo_thread()))
    args = [base + VIEWTHREAD, "--roster", str(roster), "--deadline", "22:00"]
    result = tally_command(*args, "--cache", str(tmp_path))
    assert result.exit_code == 0
    assert result.stderr == ""


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_on_a_terminal_and_cleared():
    terminal = Terminal()
    progress = Progress(4, enabled=True, stream=terminal)
    for _ in range(4):
        progress.advance()
    progress.close()
    drawn = terminal.getvalue()
    assert "读取页面" in drawn and "4/4" in drawn
    assert drawn.endswith("\r\x1b[K")
    pipe = io.StringIO()
    Progress(4, enabled=True, stream=pipe).advance()
    assert pipe.getvalue() == ""
