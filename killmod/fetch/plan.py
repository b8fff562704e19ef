"""The read plan per board: the fewest requests that still give every fact the rules need.

A board may offer a thread in several views (the format's ``views``: ``ThreadViews``),
each with some of the facts — on a Discuz! X board:

- the mobile API (``scrapers.discuz_x_mobile``): every post with its pid, floor, uid and
  time to the second, a thousand posts a request — but no edit notices;
- the printable view (打印本页): the board's edit notices of the first 100 posts, in one
  request, with no pids and times to the minute;
- the thread pages: everything, ten posts (the board's page size) a request.

With ``--view auto`` (the default) such a thread is read from the API; then, for the
posts whose edits the reader needs (the tally: the ballots it would count), their edit
notices are read from the printable view (posts 1–100) and from the thread pages holding
the later ones only.  Views are mixed only when they agree: the printable view's posts must
be the API's first posts in order (same authors, times to the minute), and a thread page's
posts the API's (same pids, floors, authors, uids, times within the page's precision);
otherwise, or when the API is closed or answers anything but the thread, the thread pages
are read instead (``killmod.fetch.thread.read_pages``).  ``--view api`` insists on the API (a
closed API fails), ``--view printable`` reads the printable view alone (a thread of at
most 99 posts) and ``--view pages`` the thread pages.  A board whose format offers no
other views is read from its pages.  Every ``Thread`` says which views were read and why
(``Thread.views``).

``poll`` reads, for ``watch``, only the API's last page at a small page size: the new posts.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import scrapers
from killmod.core.errors import BadInput, KillmodError, TallyFailed
from killmod.core.model import PRECISION_SPAN, Page, Post, ViewRead
from killmod.core.names import fold
from killmod.fetch.http import Fetched, Fetcher
from killmod.fetch.identity import Expected
from killmod.fetch.pages import parse_fetched, read_page
from killmod.fetch.thread import EditsNeeded, Thread, read_pages
from killmod.fetch.workers import Assignment, page_workers
from scrapers.base import ThreadViews

if TYPE_CHECKING:  # a profile's module loads only for a board a profile describes
    from scrapers.profile import Profile

VIEWS = ("auto", "api", "printable", "pages")
API_PPP = 1000  # posts an API request asks for: a whole vote thread in one
TAIL_PPP = 20  # posts a page when watch asks for the API's last page: a few KB


class _Disagree(Exception):
    """Two views of the thread tell different things (in Chinese: what)."""


class _Fallback(Exception):
    """The API's posts cannot be completed from the other views (in Chinese: why): two views
    tell different things, or one of them could not be read."""


def read_url(
    url: str,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    tail: bool,
    edits: EditsNeeded | None,
) -> Thread:
    """The thread at ``url``, read by the plan ``fetcher.options.view`` allows; ``edits``
    names the posts whose edits must be known (None: every post's)."""
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
    listed_url = url if given == "api" else views.api_url(API_PPP, 1)
    try:
        return _read_api(listed_url, url, views, fetcher, tz=tz, tail=tail, edits=edits)
    except _Fallback as error:
        why = f"{error}，改读帖子页"
    except KillmodError as error:
        if view == "api" or not isinstance(error, TallyFailed):
            raise
        why = f"手机接口不可用（{_without(error.message, listed_url)}），改读帖子页"
    return _read_thread_pages(url, views, fetcher, tz=tz, forum=forum, tail=tail, why=why)


def poll(previous: Thread, fetcher: Fetcher, *, tz: ZoneInfo) -> Thread | None:
    """``previous`` (read from the API) with the posts posted since: only the API's last
    page, at ``TAIL_PPP`` posts a page, and any after it.  None when the thread is no longer
    as ``previous`` saw it (a post deleted, floors renumbered): read it whole again.  The
    new posts' edits are not looked at (the final tally reads them)."""
    known = sorted(previous.posts, key=_by_floor)
    views = scrapers.views(previous.source, None)
    if not known or views is None or previous.scraper != views.api.NAME:
        return None
    if known[-1].floor is None:
        return None
    last = known[-1].floor
    number = (last - 1) // TAIL_PPP + 1
    start = (number - 1) * TAIL_PPP + 1
    tid = views.api.address(views.api_url(TAIL_PPP, number)).thread
    pages: list[Page] = []
    while not pages or pages[-1].page_count > pages[-1].page_no:
        n = number + len(pages)
        expected = Expected(page=n, thread=tid, title=previous.title)
        page_url = views.api_url(TAIL_PPP, n)
        pages.append(
            read_page(page_url, fetcher, tz=tz, forum=views.api.NAME, expected=expected)[1]
        )
    tail = {post.pid: post for page in pages for post in page.posts}
    overlap = [post for post in known if post.floor is not None and post.floor >= start]
    if any(tail.get(post.pid) is None or tail[post.pid].floor != post.floor for post in overlap):
        return None
    kept = {post.pid: post for post in known if post.floor is not None and post.floor < start}
    seen = {post.pid: post for post in overlap}
    for pid, post in tail.items():
        before = seen.get(pid)
        kept[pid] = replace(post, edited_at=before.edited_at) if before else post
    posts = tuple(sorted(kept.values(), key=lambda post: post.pid))
    why = f"手机接口最后 {len(pages)} 页（每页 {TAIL_PPP} 帖），只看新帖，不看新帖的编辑记录"
    return replace(previous, posts=posts, views=(ViewRead("api", len(pages), why),))


def _read_api(
    listed_url: str,
    url: str,
    views: ThreadViews,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    tail: bool,
    edits: EditsNeeded | None,
) -> Thread:
    """The post list and exact times from the API, and the edits of the posts ``edits``
    names from the printable view (posts 1–100) and the thread pages holding later ones."""
    listed = read_pages(listed_url, fetcher, tz=tz, forum=views.api.NAME, profile=None, tail=tail)
    listed = replace(listed, source=url)
    posts = sorted(listed.posts, key=_by_floor)
    wanted = {post.pid for post in posts} if edits is None else set(edits(tuple(posts)))
    seen = [ViewRead("api", listed.pages, "手机接口：帖子列表与精确到秒的发帖时间")]
    edited: dict[int, datetime | None] = {}
    tid = views.api.address(listed_url).thread
    head = posts[: views.printable_limit]
    later = [post for post in posts[views.printable_limit :] if post.pid in wanted]
    try:
        if wanted & {post.pid for post in head}:
            edited.update(_printable_edits(head, views, fetcher, tz=tz, tid=tid))
        if later:
            found, numbers = _page_edits(later, posts, views, fetcher, tz=tz, tid=tid)
            edited.update(found)
    except _Disagree as error:
        raise _Fallback(f"手机接口与其他页面不一致：{error}") from None
    except KillmodError as error:
        raise _Fallback(f"读编辑记录的页面失败：{error.message}") from None
    if wanted & {post.pid for post in head}:
        needed = len(wanted & {post.pid for post in head})
        why = f"打印版：前 {len(head)} 帖的编辑记录（其中 {needed} 帖要看）"
        seen.append(ViewRead("printable", 1, why))
    if later:
        shown = "、".join(map(str, numbers[:10])) + ("……" if len(numbers) > 10 else "")
        after = views.printable_limit + 1
        why = f"帖子页第 {shown} 页：第 {after} 帖之后 {len(later)} 帖的编辑记录"
        seen.append(ViewRead("pages", len(numbers), why))
    if not wanted:
        seen[0] = replace(seen[0], why=seen[0].why + "（不需要编辑记录）")
    merged = tuple(
        replace(post, edited_at=edited[post.pid]) if post.pid in edited else post
        for post in listed.posts
    )
    return replace(listed, posts=merged, views=tuple(seen))


def _printable_edits(
    head: list[Post], views: ThreadViews, fetcher: Fetcher, *, tz: ZoneInfo, tid: str | None
) -> dict[int, datetime | None]:
    """The edit notices of the API's first posts, from the printable view (its posts in the
    same order: same authors, times to the minute)."""
    expected = Expected(page=1, thread=tid)
    printable, name = views.printable_url, views.printable.NAME
    _, page = read_page(printable, fetcher, tz=tz, forum=name, expected=expected)
    if len(page.posts) < len(head):
        raise _Disagree(f"打印版只有 {len(page.posts)} 帖，手机接口的前 {len(head)} 帖对不上")
    for position, (listed, shown) in enumerate(zip(head, page.posts, strict=False), start=1):
        problem = _differs(listed, shown)
        if problem:
            raise _Disagree(f"打印版第 {position} 帖{problem}")
    return {listed.pid: shown.edited_at for listed, shown in zip(head, page.posts, strict=False)}


def _page_edits(
    later: list[Post],
    posts: list[Post],
    views: ThreadViews,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    tid: str | None,
) -> tuple[dict[int, datetime | None], list[int]]:
    """The edit notices of the posts ``later`` from the thread pages holding them, and which
    pages those were.  The board's page size is read from the first page read (guessed as
    the format's default to find it); every post a page shows must be the API's."""
    scraper, base = views.pages, views.pages_url
    guess = (later[0].floor - 1) // views.page_size + 1
    _, probe = read_page(
        scraper.page_url(base, guess),
        fetcher,
        tz=tz,
        forum=scraper.NAME,
        expected=Expected(thread=tid),
    )
    per_page = _page_size(probe, len(posts))
    read = {probe.page_no: probe}
    numbers = sorted({(post.floor - 1) // per_page + 1 for post in later})
    rest = [n for n in numbers if n not in read]

    def parse(fetched: Fetched) -> Page:
        n = int(scraper.address(fetched.url).page or 0)
        expected = Expected(page=n, thread=tid)
        return parse_fetched(
            fetched, fetcher, tz=tz, forum=scraper.NAME, profile=None, expected=expected
        )[1]

    urls = [scraper.page_url(base, n) for n in rest]
    # Worker processes parse while pages arrive, when the board is not paced.
    unpaced = len(urls) if not fetcher.pacer.waits_for(base) else 0
    assignment = Assignment(fetcher.options, tz, scraper.NAME)
    with page_workers(unpaced, fetcher.options.jobs, assignment) as workers:
        if workers is None:
            fresh = fetcher.fetch_all(urls, then=parse)
        else:
            wanted = [Expected(page=n, thread=tid) for n in rest]
            fresh = workers.fetch(urls, set(), wanted, progress=fetcher.options.progress)
    read.update(zip(rest, fresh, strict=True))
    by_floor = {post.floor: post for post in posts}
    last_floor = max(by_floor)
    edited: dict[int, datetime | None] = {}
    for number, page in read.items():
        edited.update(_check_page(number, page, per_page, by_floor, last_floor))
    missing = [post for post in later if post.pid not in edited]
    if missing:
        raise _Disagree(f"帖子页上找不到 pid={missing[0].pid}（{missing[0].floor} 楼）")
    return edited, sorted(read)


def _page_size(probe: Page, posts: int) -> int:
    """The board's thread page size, from a page read (its number and its first floor)."""
    if probe.page_count == 1:
        return max(posts, len(probe.posts), 1)
    floors = [post.floor for post in probe.posts if post.floor is not None]
    if probe.page_no == 1:
        return max(len(probe.posts), 1)
    if not floors or (min(floors) - 1) % (probe.page_no - 1):
        raise _Disagree(f"帖子页第 {probe.page_no} 页的楼层看不出每页几帖")
    size = (min(floors) - 1) // (probe.page_no - 1)
    if size < len(probe.posts):
        raise _Disagree(f"帖子页第 {probe.page_no} 页的楼层看不出每页几帖")
    return size


def _check_page(
    number: int, page: Page, per_page: int, by_floor: dict, last_floor: int
) -> dict[int, datetime | None]:
    """A thread page's edit notices, once its posts are the API's on those floors."""
    shown = {post.pid: post for post in page.posts}
    for post in page.posts:
        listed = by_floor.get(post.floor)
        if listed is None or listed.pid != post.pid:
            if post.floor is not None and post.floor > last_floor:
                continue  # posted after the API was read
            raise _Disagree(
                f"帖子页第 {number} 页的 {post.floor} 楼（pid={post.pid}）不是手机接口的那一帖"
            )
        problem = _differs(listed, post)
        if problem:
            raise _Disagree(f"帖子页第 {number} 页的 {post.floor} 楼{problem}")
    first, last = (number - 1) * per_page + 1, number * per_page
    for floor in range(first, min(last, last_floor) + 1):
        listed = by_floor.get(floor)
        if listed is not None and listed.pid not in shown:
            raise _Disagree(f"帖子页第 {number} 页没有手机接口的 {floor} 楼（pid={listed.pid}）")
    listed = {post.pid for post in by_floor.values()}
    return {pid: post.edited_at for pid, post in shown.items() if pid in listed}


def _differs(listed: Post, shown: Post) -> str | None:
    """How a post another view shows differs from the API's, or None when they agree: the
    same author (and uid where both show one), the API's exact time within the span of the
    other view's time."""
    if fold(listed.author) != fold(shown.author):
        return f"的作者是「{shown.author}」，手机接口是「{listed.author}」"
    if None not in (listed.uid, shown.uid) and listed.uid != shown.uid:
        return f"的作者编号是 {shown.uid}，手机接口是 {listed.uid}"
    span = PRECISION_SPAN[shown.precision]
    if not shown.posted_at <= listed.posted_at <= shown.posted_at + span:
        when = shown.posted_at.strftime("%m-%d %H:%M:%S")
        return f"的时间是 {when}，手机接口是 {listed.posted_at.strftime('%m-%d %H:%M:%S')}"
    return None


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


def _by_floor(post: Post) -> tuple[int, int]:
    return (post.floor if post.floor is not None else 0, post.pid)


def _without(message: str, url: str) -> str:
    """A failure's message without the URL it names (the audit names the view)."""
    return message.replace(f"{url}：", "").replace(f"：{url}", "").strip() or message
