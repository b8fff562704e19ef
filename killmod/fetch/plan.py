"""The read plan per board: the fewest requests that still give every fact the rules need.

A board may offer a thread in several views (the format's ``views``: ``ThreadViews``).  On a
Discuz! X board, with ``--view auto`` (the default), a URL of the printable view or the
archiver is read as that view (the judge chose it); any other URL of the thread:

1. **the mobile API, version 1** (``killmod.fetch.api``): every post with its pid, floor,
   uid, time to the second, quotes and the board's edit notices, a thousand posts a
   request — a vote thread in one.  Where the board gives fewer posts a page than asked
   (页面缓存 for guests), the pages are read at the size it gives; with ``--cookies`` the
   judge is asked as himself (a member is not capped).  The audit says which.
2. where the board refuses version 1 (a plugin without it): **version 4**, which shows no
   edit notices; the edits of the posts the reader needs come from the printable view and
   the thread pages holding them (``killmod.fetch.editcheck``), as long as the views agree.
3. where the API is switched off (``mobile_is_closed``), absent, answers a web page (the
   plugin disabled) or anything but the thread, or the views disagree: **the thread pages**
   (``killmod.fetch.paged``); the audit says why.

``--view api`` insists on the API (a closed API fails), ``--view printable`` reads the
printable view alone (a thread of at most 99 posts) and ``--view pages`` the thread pages.
A board whose format offers no other views is read from its pages.  Every ``Thread`` says
which views were read and why (``Thread.views``).

``poll`` follows, for ``watch``, a thread read from the API on one small page of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import scrapers
from killmod.core.errors import BadInput, KillmodError, TallyFailed
from killmod.core.model import ViewRead
from killmod.fetch import api
from killmod.fetch.editcheck import Fallback, with_edits
from killmod.fetch.http import Fetcher
from killmod.fetch.paged import read_pages
from killmod.fetch.whole import EditsNeeded, Thread
from scrapers.base import ThreadViews, VersionRefused

if TYPE_CHECKING:  # a profile's module loads only for a board a profile describes
    from scrapers.profile import Profile

VIEWS = ("auto", "api", "printable", "pages")


def read_url(
    url: str,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    tail: bool,
    edits: EditsNeeded | None,
    texts: bool = True,
) -> Thread:
    """The thread at ``url``, read by the plan ``fetcher.options.view`` allows; ``edits``
    names the posts whose edits must be known where a view shows none (None: every post's);
    without ``texts``, the API's posts are who posted when alone (``killmod.fetch.api``)."""
    view = fetcher.options.view
    if view not in VIEWS:
        raise BadInput(f"--view 的值无效：{view}（可选：{'、'.join(VIEWS)}）")
    views = scrapers.views(url, forum) if profile is None else None
    if views is None:
        if view not in ("auto", "pages"):
            raise BadInput(f"--view {view} 只用于 Discuz! X 的帖子网址（要有帖子编号 tid）：{url}")
        thread = read_pages(url, fetcher, tz=tz, forum=forum, profile=profile, tail=tail)
        return _seen(thread, "pages", "帖子页（这个网址只能读帖子页）")
    given = views.given
    if view == "printable" or (view == "auto" and given == "printable"):
        printable = url if given == "printable" else views.printable_url
        thread = read_pages(
            printable, fetcher, tz=tz, forum=views.printable.NAME, profile=None, tail=tail
        )
        return _seen(thread, "printable", "打印版（按网址或 --view printable）")
    if view == "auto" and given == "archiver":
        thread = read_pages(url, fetcher, tz=tz, forum=views.archiver.NAME, profile=None, tail=tail)
        return _seen(thread, "archiver", "归档页（按网址）")
    if view == "pages":
        why = "按 --view pages 读帖子页"
        return _read_thread_pages(url, views, fetcher, tz=tz, forum=forum, tail=tail, why=why)
    try:
        return _read_api(url, views, fetcher, tz=tz, tail=tail, edits=edits, texts=texts)
    except Fallback as error:
        why = f"{error}，改读帖子页"
    except KillmodError as error:
        if view == "api" or not isinstance(error, TallyFailed):
            raise
        why = f"手机接口不可用（{_without(error.message)}），改读帖子页"
    return _read_thread_pages(url, views, fetcher, tz=tz, forum=forum, tail=tail, why=why)


def poll(previous: Thread, fetcher: Fetcher, *, tz: ZoneInfo) -> Thread | None:
    """``previous`` with the posts posted since, from one small page of the API, when it was
    read from the API's version that shows edits; None: read the thread whole again
    (``killmod.fetch.api.poll``)."""
    views = scrapers.views(previous.source, None)
    if views is None or previous.scraper != views.api.NAME:
        return None
    if not previous.views or previous.views[0].view != "api" or len(previous.views) > 1:
        return None  # read from a view without edits, completed from others
    return api.poll(previous, views, fetcher, tz=tz)


def _read_api(
    url: str,
    views: ThreadViews,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    tail: bool,
    edits: EditsNeeded | None,
    texts: bool,
) -> Thread:
    """The thread from the API: the first version the board answers; a version without
    edit notices completed from the other views (``killmod.fetch.editcheck``)."""
    refused = []
    for version in views.api_versions:
        try:
            read = api.read_api(views, version, fetcher, source=url, tz=tz, tail=tail, texts=texts)
        except VersionRefused as error:
            refused.append(f"第 {version} 版：{_without(error.message)}")
            continue
        why = read.why()
        if refused:
            why = f"论坛不接受{'；'.join(refused)}。改用{why}"
        if read.edits_shown:
            return replace(read.thread, views=(ViewRead("api", read.thread.pages, why),))
        return with_edits(read.thread, views, fetcher, tz=tz, edits=edits, why=why)
    raise TallyFailed(f"论坛的手机版接口不接受任何一版的帖子模块（{'；'.join(refused)}）：{url}")


def _read_thread_pages(
    url: str,
    views: ThreadViews,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    forum: str | None,
    tail: bool,
    why: str,
) -> Thread:
    pages_url = url if views.given == "pages" else views.pages_url
    pages_forum = forum if forum == views.pages.NAME else None
    thread = read_pages(pages_url, fetcher, tz=tz, forum=pages_forum, profile=None, tail=tail)
    return _seen(thread, "pages", why)


def _seen(thread: Thread, view: str, why: str) -> Thread:
    return replace(thread, views=(ViewRead(view, thread.pages, why),))


def _without(message: str) -> str:
    """A failure's message without the URL it names (the audit names the view)."""
    head, sep, _ = message.partition("：http")
    if sep:
        return head
    return message.split("：", 1)[1] if message.startswith("http") else message
