"""Long threads read in worker processes: the same posts as one process reads, failures
named, a worker's death reported, and saved folders alike.

The board is local (127.0.0.1), so it is not paced and a thread of ``PARALLEL_FROM``
pages or more is read by worker processes; the site notes how many worker processes
were alive while it answered.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys

import pytest

from killmod.core.errors import TallyFailed
from killmod.fetch.http import Fetcher, FetchOptions, HostPacer
from killmod.fetch.thread import read_thread
from killmod.fetch.workers import PARALLEL_FROM
from tests.support.pagebuilder import (
    SHANGHAI,
    Response,
    big_thread,
    discuz_x_site,
    render_discuz_x_page,
)

PAGES = PARALLEL_FROM + 5
# Worker processes need a second core and Linux; elsewhere pages are read in one process.
needs_workers = pytest.mark.skipif(
    (os.cpu_count() or 1) < 2 or not sys.platform.startswith("linux"),
    reason="worker processes need two cores and Linux",
)

# Process tests: run by CI and the full suite, left out of the inner loop (-m "not slow").
pytestmark = pytest.mark.slow

VIEWTHREAD = "/forum.php?mod=viewthread&tid=8001"


class WatchedSite:
    """A board that notes the worker processes alive while it answers a page."""

    def __init__(self, pages: int = PAGES) -> None:
        self.thread = big_thread(pages)
        self.site = discuz_x_site(self.thread)
        self.workers_seen = 0

    def __call__(self, path: str) -> Response:
        self.workers_seen = max(self.workers_seen, len(multiprocessing.active_children()))
        return self.site(path)


def read(url: str, **options) -> tuple:
    with Fetcher(FetchOptions(delay=0.2, retries=0, view="pages", **options)) as fetcher:
        return read_thread(url, tz=SHANGHAI, fetcher=fetcher).posts


@needs_workers
def test_a_long_thread_reads_alike_in_worker_processes_and_in_one(serve_site):
    watched = WatchedSite()
    base = serve_site(watched)
    alone = read(base + VIEWTHREAD, jobs=1)
    assert watched.workers_seen == 0
    shared = read(base + VIEWTHREAD, jobs=4)
    assert watched.workers_seen == 4
    assert shared == alone
    assert [post.pid for post in shared] == [post.pid for post in watched.thread.posts]


def test_a_short_thread_is_read_in_one_process(serve_site):
    watched = WatchedSite(pages=PARALLEL_FROM - 1)
    read(serve_site(watched) + VIEWTHREAD, jobs=4)
    assert watched.workers_seen == 0


@needs_workers
def test_a_page_failing_in_a_worker_fails_the_thread_naming_the_page(serve_site):
    watched = WatchedSite()

    def failing(path: str) -> Response:
        if path.endswith("page=30"):
            return Response(404, {}, b"gone")
        return watched(path)

    base = serve_site(failing)
    with pytest.raises(TallyFailed) as failure:
        read(base + VIEWTHREAD)
    assert "HTTP 404" in failure.value.message and "page=30" in failure.value.message
    assert watched.workers_seen == 4


@needs_workers
def test_a_worker_that_dies_fails_the_thread_with_a_message(serve_site):
    watched = WatchedSite()

    def killing(path: str) -> Response:
        if path.endswith("page=20"):
            for worker in multiprocessing.active_children():
                os.kill(worker.pid, signal.SIGKILL)
        return watched(path)

    with pytest.raises(TallyFailed) as failure:
        read(serve_site(killing) + VIEWTHREAD)
    assert "工作进程意外退出" in failure.value.message


def test_pages_cached_by_workers_answer_the_next_read(serve_site, tmp_path):
    watched = WatchedSite()
    base = serve_site(watched)
    cold = read(base + VIEWTHREAD, cache=tmp_path)
    assert len(list(tmp_path.glob("*.page"))) == PAGES + 1  # the first page's URL, and each page
    base.server.requests.clear()
    with Fetcher(FetchOptions(delay=0, cache=tmp_path, view="pages")) as fetcher:
        warm = read_thread(base + VIEWTHREAD, tz=SHANGHAI, fetcher=fetcher, tail=True).posts
    assert warm == cold
    assert base.server.requests == [f"{VIEWTHREAD}&page={PAGES}"]


def test_a_saved_folder_of_many_pages_parses_alike_in_workers(tmp_path):
    thread = big_thread(PAGES)
    for n in range(1, PAGES + 1):
        (tmp_path / f"page-{n}.html").write_bytes(render_discuz_x_page(thread, n))
    alone = read_thread(str(tmp_path), tz=SHANGHAI, jobs=1).posts
    assert read_thread(str(tmp_path), tz=SHANGHAI, jobs=4).posts == alone
    assert [post.pid for post in alone] == [post.pid for post in thread.posts]


def test_a_damaged_saved_page_fails_in_a_worker_naming_the_file(tmp_path):
    thread = big_thread(PAGES)
    for n in range(1, PAGES + 1):
        (tmp_path / f"page-{n}.html").write_bytes(render_discuz_x_page(thread, n))
    damaged = tmp_path / "page-33.html"
    damaged.write_bytes(damaged.read_bytes()[:20000])
    with pytest.raises(TallyFailed) as failure:
        read_thread(str(tmp_path), tz=SHANGHAI, jobs=4)
    assert str(damaged) in failure.value.message


def test_only_a_board_elsewhere_with_a_delay_is_paced():
    pacer = HostPacer(0.2)
    assert pacer.waits_for("http://bbs.example.com/forum.php?page=1")
    assert not pacer.waits_for("http://127.0.0.1:8000/forum.php?page=1")
    assert not pacer.waits_for("http://localhost/forum.php")
    assert not HostPacer(0).waits_for("http://bbs.example.com/forum.php?page=1")
