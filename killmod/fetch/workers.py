"""Reading a long thread's pages in worker processes.

Parsing is CPU work that Python threads cannot share, and a long game thread has
hundreds of pages.  When the board may be asked as fast as it answers (the pacer does
not wait: a board on this machine, or ``--delay 0``), each page is fetched *and* parsed
by one of ``jobs`` worker processes, each with its own session and the same cache
folder; the main process hands the pages out in order and collects them.  The pages of
a saved folder are parsed the same way.

Workers are forked, so they start at once with everything imported.  They are used on
Linux only: Windows cannot fork, and on macOS a forked child may crash in the system
libraries the parent loaded (why Python spawns there).  Elsewhere, and for a short
thread, pages are read in the main process.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import BrokenExecutor, Future
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from killmod.core.errors import TallyFailed
from killmod.core.model import Page
from killmod.fetch.http import Fetcher, FetchOptions, Progress
from killmod.fetch.identity import Expected
from killmod.fetch.pages import again_on_redirect, parse_fetched, parse_page, saved_page

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

# From this many pages on, worker processes are worth their start.
PARALLEL_FROM = 40
_FORK_SAFE = sys.platform.startswith("linux")


@dataclass(frozen=True)
class Assignment:
    """What every worker knows: how to fetch (None: the pages are files), the board's
    time zone and the scraper that reads the thread."""

    options: FetchOptions | None
    tz: ZoneInfo
    forum: str


@contextmanager
def page_workers(pages: int, jobs: int, assignment: Assignment) -> Iterator[PageWorkers | None]:
    """Up to ``jobs`` workers for ``pages`` pages, or None when they are not worth it."""
    if pages < PARALLEL_FROM or jobs < 2 or (os.cpu_count() or 1) < 2 or not _FORK_SAFE:
        yield None
        return
    # multiprocessing is imported only here: most reads need no workers.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_start_worker,
        initargs=(assignment,),
    )
    try:
        yield PageWorkers(pool)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


class PageWorkers:
    """Worker processes that fetch and parse pages."""

    def __init__(self, pool: ProcessPoolExecutor) -> None:
        self._pool = pool

    def fetch(
        self,
        urls: Sequence[str],
        cached: set[str],
        expected: Sequence[Expected],
        *,
        progress: bool,
    ) -> list[Page]:
        """The pages at ``urls``, fetched in that order (those in ``cached`` may come from
        the cache), parsed and checked to be the pages ``expected``.  The first page that
        fails fails all."""
        futures = [
            self._pool.submit(_fetch_and_parse, url, url in cached, wanted)
            for url, wanted in zip(urls, expected, strict=True)
        ]
        return _gather(futures, Progress(len(urls), enabled=progress))

    def parse_files(self, files: Sequence[Path]) -> list[Page]:
        """The saved pages ``files``, parsed.  The first file that fails fails all."""
        futures = [self._pool.submit(_parse_file, file) for file in files]
        return _gather(futures, Progress(len(files), enabled=False))


def _gather(futures: list[Future], progress: Progress) -> list[Page]:
    pages = []
    try:
        for future in futures:
            pages.append(future.result())
            progress.advance()
    except BrokenExecutor:
        raise TallyFailed(
            "读取页面的工作进程意外退出（可能内存不足或被终止），请重试，或加 --jobs 1"
        ) from None
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    finally:
        progress.close()
    return pages


# --- in the worker process -------------------------------------------------------------------

_assignment: Assignment | None = None
_fetcher: Fetcher | None = None


def _start_worker(assignment: Assignment) -> None:
    """Set a worker up: its own session; Ctrl-C is for the main process to handle."""
    global _assignment, _fetcher
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _assignment = assignment
    _fetcher = Fetcher(assignment.options) if assignment.options is not None else None


def _fetch_and_parse(url: str, cached: bool, expected: Expected) -> Page:
    assert _assignment is not None and _fetcher is not None
    again = again_on_redirect(_assignment.forum)
    fetched = _fetcher.fetch(url, cached=cached, again_on_redirect=again)
    return parse_fetched(
        fetched,
        _fetcher,
        tz=_assignment.tz,
        forum=_assignment.forum,
        profile=None,
        expected=expected,
    )[1]


def _parse_file(file: Path) -> Page:
    assert _assignment is not None
    return parse_page(saved_page(file), tz=_assignment.tz, forum=_assignment.forum)[1]
