"""Settling minute-precision times in the deadline's minute from the board's archiver.

A time shown to the minute in the deadline's own minute cannot say whether the post was
in time (22:00 may be 22:00:00 or 22:00:59).  Discuz! X's archiver
(``archiver/?tid-T.html&page=P``) shows every post's time to the second, so such posts
are looked up there: from its last page back to the first page that starts before the
minute in question.  The archiver's page bar shows a window of pages (ten before and nine
after the current one), not the last page: its last page is the one the thread's own page
count names (the archiver pages by the same count), and when that fails the bar's window
is walked on from page 1 until a page shows no page after itself.  Every archiver page
must be the page asked for (``killmod.fetch.identity``).  The archiver shows no pid, so a post is
matched by author, minute and text (whitespace aside); identical posts pair up in posting
order.  A post matched takes the archiver's seconds; its pid is kept in
``Thread.settled`` for the audit.  A post not found stays at minute precision (flagged as
before), and an archiver that cannot be read leaves the thread as it was, with a warning.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from urllib.parse import parse_qs, urljoin, urlsplit
from zoneinfo import ZoneInfo

from killmod.ballots.count import MINUTE
from killmod.core.errors import KillmodError
from killmod.core.model import Page, Post, ViewRead
from killmod.core.names import fold
from killmod.fetch.http import Fetcher
from killmod.fetch.identity import Expected, expected_after
from killmod.fetch.pages import read_page
from killmod.fetch.thread import Thread
from scrapers import discuz_x_archiver

log = logging.getLogger(__name__)

# The formats read from Discuz! X boards, whose archiver shows seconds.
SETTLES = ("discuz_x", "discuz_x_printable")
_REWRITE = re.compile(r"thread-(\d+)-\d+-\d+\.html$")
_SPACE = re.compile(r"\s+")

Key = tuple[str, datetime, str]


def in_deadline_minute(post: Post, deadline: datetime) -> bool:
    """A time shown to the minute whose minute holds the deadline (``time_ambiguous``)."""
    return post.precision == "minute" and post.posted_at <= deadline < post.posted_at + MINUTE


def settle_times(
    thread: Thread,
    deadline: datetime,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    wanted: Callable[[Post], bool] = lambda post: True,
) -> Thread:
    """``thread`` with the ``wanted`` posts in the deadline's minute settled to the second."""
    pending = [p for p in thread.posts if in_deadline_minute(p, deadline) and wanted(p)]
    archiver = archiver_url(thread.source) if thread.scraper in SETTLES else None
    if not pending or archiver is None:
        return thread
    since = min(post.posted_at for post in pending)
    reader = _Archiver(archiver, fetcher, tz)
    try:
        archived = _archived_since(reader, since, guess=thread.pages)
    except KillmodError as error:
        log.warning("无法用归档页确认秒数，与截止同一分钟的帖子仍只精确到分钟：%s", error.message)
        failed = ViewRead(
            "archiver", len(reader.read), "归档页读不出，与截止同一分钟的帖子仍只到分钟"
        )
        return replace(thread, views=(*thread.views, failed))
    seconds = _match(pending, archived)
    why = f"归档页：与截止同一分钟的 {len(pending)} 帖，确认了 {len(seconds)} 帖的秒数"
    thread = replace(thread, views=(*thread.views, ViewRead("archiver", len(reader.read), why)))
    if not seconds:
        return thread
    posts = tuple(
        replace(post, posted_at=seconds[post.pid], precision="second")
        if post.pid in seconds
        else post
        for post in thread.posts
    )
    return replace(thread, posts=posts, settled=tuple(sorted(seconds)))


def archiver_url(url: str) -> str | None:
    """The archiver's first page for a Discuz! X thread URL (either URL form), if it has a tid."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return None
    rewritten = _REWRITE.search(parts.path)
    tids = [rewritten.group(1)] if rewritten else parse_qs(parts.query).get("tid", [])
    if not tids or not tids[0].isdigit():
        return None
    return urljoin(url, f"archiver/?tid-{tids[0]}.html")


def _archived_since(archiver: _Archiver, since: datetime, *, guess: int) -> list[Post]:
    """The archiver's posts, read from its last page back to one that starts before ``since``;
    ``guess`` is the page the last one probably is (the thread's own page count)."""
    last = archiver.last_page(guess)
    posts: list[Post] = []
    for n in range(last.page_no, 0, -1):
        page = archiver.page(n)
        posts += page.posts
        if page.posts and page.posts[0].posted_at < since:
            break
    return posts


class _Archiver:
    """The archiver pages of one thread, each read once and checked to be the page asked
    for: its number, and the thread id and title of the first archiver page read."""

    def __init__(self, url: str, fetcher: Fetcher, tz: ZoneInfo) -> None:
        self.url, self.fetcher, self.tz = url, fetcher, tz
        self.same = Expected(thread=discuz_x_archiver.address(url).thread)
        self.first: Page | None = None
        self.read: dict[int, Page] = {}

    def page(self, n: int, *, past_end: bool = False) -> Page:
        """Archiver page ``n`` (``past_end``: or the last page, when ``n`` is past it)."""
        if n not in self.read:
            expected = replace(self.same, page=n, past_end=past_end)
            page_url = discuz_x_archiver.page_url(self.url, n)
            name = discuz_x_archiver.NAME
            _, page = read_page(page_url, self.fetcher, tz=self.tz, forum=name, expected=expected)
            if self.first is None:
                self.first = page
                self.same = expected_after(page, self.same.thread)
            self.read[page.page_no] = page
            if page.page_no != n:
                return page
        return self.read[n]

    def last_page(self, guess: int) -> Page:
        """The archiver's last page: from ``guess`` (or page 1 when it cannot be read), the
        page bar's window walked on until a page shows no page after itself."""
        page = None
        if guess > 1:
            try:
                page = self.page(guess, past_end=True)
            except KillmodError:
                page = None
        if page is None:
            page = self.page(1)
        while page.page_count > page.page_no:
            page = self.page(page.page_count)
        return page


def _match(pending: list[Post], archived: list[Post]) -> dict[int, datetime]:
    """The archiver's time for each pending post found there, by thread pid.

    Posts are grouped by (author, minute, text); a group pairs up in posting order when
    both views hold the same number of its posts, and is left alone otherwise.
    """
    wanted = _groups(pending)
    found = _groups(a for a in archived if a.precision == "second")
    seconds: dict[int, datetime] = {}
    for key, posts in wanted.items():
        candidates = sorted(found.get(key, []), key=lambda a: (a.posted_at, a.pid))
        if len(candidates) == len(posts):
            for post, twin in zip(posts, candidates, strict=True):
                seconds[post.pid] = twin.posted_at
    return seconds


def _groups(posts: Iterable[Post]) -> dict[Key, list[Post]]:
    groups: dict[Key, list[Post]] = {}
    for post in sorted(posts, key=lambda p: (p.posted_at, p.pid)):
        minute = post.posted_at.replace(second=0, microsecond=0)
        key = (fold(post.author), minute, _SPACE.sub("", post.body))
        groups.setdefault(key, []).append(post)
    return groups
