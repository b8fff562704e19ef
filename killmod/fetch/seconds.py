"""Confirming to the second the times shown to the minute in the deadline's minute.

A time shown to the minute in the deadline's own minute cannot say whether the post was
in time (22:00 may be 22:00:00 or 22:00:59).  A board may show the same posts' times to
the second in another view (the format's ``seconds_view``: Discuz! X's archiver), so such
posts are looked up there: from its last page back to the first page that starts before
the minute in question.  The view's page bar may show a window of pages, not the last
page: its last page is the one the thread's own page count names (the view pages by the
same count), and when that fails the bar's window is walked on from page 1 until a page
shows no page after itself.  Every page of the view must be the page asked for
(``killmod.fetch.identity``).  The view need show no pid, so a post is matched by author,
minute and text (whitespace aside); identical posts pair up in posting order.  A post
matched takes the view's seconds; its pid is kept in ``Thread.confirmed`` for the audit.
A post not found stays at minute precision (flagged as before), and a view that cannot be
read leaves the thread as it was, with a warning.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from killmod.core.errors import KillmodError
from killmod.core.model import PRECISION_SPAN, Page, Post, ViewRead
from killmod.core.names import fold
from killmod.fetch.identity import Expected, expected_after
from killmod.fetch.whole import Thread

if TYPE_CHECKING:  # what a view with seconds needs loads only when a post needs one
    from killmod.fetch.http import Fetcher
    from scrapers.base import SecondsView

log = logging.getLogger(__name__)

_SPACE = re.compile(r"\s+")

Key = tuple[str, datetime, str]


def in_deadline_minute(post: Post, deadline: datetime) -> bool:
    """A time shown to the minute whose minute holds the deadline (``time_ambiguous``)."""
    span = PRECISION_SPAN["minute"]
    return post.precision == "minute" and post.posted_at <= deadline < post.posted_at + span


def confirm_seconds(
    thread: Thread,
    deadline: datetime,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    wanted: Callable[[Post], bool] = lambda post: True,
) -> Thread:
    """``thread`` with the ``wanted`` posts in the deadline's minute confirmed to the second
    from the view with seconds its format names, when it names one."""
    pending = [p for p in thread.posts if in_deadline_minute(p, deadline) and wanted(p)]
    if not pending:
        return thread
    import scrapers  # loaded by then: the thread was read

    scraper = scrapers.find(thread.scraper)
    view = scraper.seconds_view(thread.source) if scraper is not None else None
    if view is None:
        return thread
    since = min(post.posted_at for post in pending)
    reader = _SecondsPages(view, fetcher, tz)
    try:
        archived = _shown_since(reader, since, guess=thread.pages)
    except KillmodError as error:
        log.warning(
            "无法用%s确认秒数，与截止同一分钟的帖子仍只精确到分钟：%s", view.words, error.message
        )
        failed = ViewRead(
            view.name, len(reader.read), f"{view.words}读不出，与截止同一分钟的帖子仍只到分钟"
        )
        return replace(thread, views=(*thread.views, failed))
    seconds = _match(pending, archived)
    why = f"{view.words}：与截止同一分钟的 {len(pending)} 帖，确认了 {len(seconds)} 帖的秒数"
    thread = replace(thread, views=(*thread.views, ViewRead(view.name, len(reader.read), why)))
    if not seconds:
        return thread
    posts = tuple(
        replace(post, posted_at=seconds[post.pid], precision="second")
        if post.pid in seconds
        else post
        for post in thread.posts
    )
    return replace(thread, posts=posts, confirmed=tuple(sorted(seconds)))


def _shown_since(view: _SecondsPages, since: datetime, *, guess: int) -> list[Post]:
    """The view's posts, read from its last page back to one that starts before ``since``;
    ``guess`` is the page the last one probably is (the thread's own page count)."""
    last = view.last_page(guess)
    posts: list[Post] = []
    for n in range(last.page_no, 0, -1):
        page = view.page(n)
        posts += page.posts
        if page.posts and page.posts[0].posted_at < since:
            break
    return posts


class _SecondsPages:
    """The pages of one thread's view with seconds, each read once and checked to be the
    page asked for: its number, and the thread id and title of the first page read."""

    def __init__(self, view: SecondsView, fetcher: Fetcher, tz: ZoneInfo) -> None:
        self.view, self.fetcher, self.tz = view, fetcher, tz
        self.same = Expected(thread=view.scraper.address(view.url).thread)
        self.first: Page | None = None
        self.read: dict[int, Page] = {}

    def page(self, n: int, *, past_end: bool = False) -> Page:
        """Page ``n`` (``past_end``: or the last page, when ``n`` is past it)."""
        if n not in self.read:
            from killmod.fetch.pages import read_page

            expected = replace(self.same, page=n, past_end=past_end)
            page_url = self.view.scraper.page_url(self.view.url, n)
            name = self.view.scraper.NAME
            _, page = read_page(page_url, self.fetcher, tz=self.tz, forum=name, expected=expected)
            if self.first is None:
                self.first = page
                self.same = expected_after(page, self.same.thread)
            self.read[page.page_no] = page
            if page.page_no != n:
                return page
        return self.read[n]

    def last_page(self, guess: int) -> Page:
        """The view's last page: from ``guess`` (or page 1 when it cannot be read), the
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
    """The view's time for each pending post found there, by thread pid.

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
