"""The edits of a thread read from a view without edit notices (the mobile API's version 4,
which a board answers where it refuses version 1).

For the posts whose edits the reader needs (the tally: the ballots it would count), the
board's edit notices are read from the printable view (打印本页: the first 100 posts in one
request, no pids, times to the minute) and from the thread pages holding the later ones.
Views are mixed only when they agree: the printable view's posts must be the API's first
posts in order (same authors, times to the minute), and a thread page's posts the API's
(same pids, floors, authors, uids, times within the page's precision); otherwise, or when
one of them cannot be read, ``Fallback`` says why (the plan then reads the thread pages).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

from killmod.core.errors import KillmodError
from killmod.core.model import PRECISION_SPAN, Page, Post, ViewRead
from killmod.core.names import fold
from killmod.fetch.http import Fetched, Fetcher
from killmod.fetch.identity import Expected
from killmod.fetch.pages import parse_fetched, read_page
from killmod.fetch.whole import EditsNeeded, Thread
from killmod.fetch.workers import Assignment, page_workers
from scrapers.base import ThreadViews


class _Disagree(Exception):
    """Two views of the thread tell different things (in Chinese: what)."""


class Fallback(Exception):
    """The API's posts cannot be completed from the other views (in Chinese: why): two views
    tell different things, or one of them could not be read."""


def with_edits(
    listed: Thread,
    views: ThreadViews,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    edits: EditsNeeded | None,
    why: str,
) -> Thread:
    """``listed`` (read from a view without edit notices) with the edits of the posts
    ``edits`` names, from the printable view (posts 1–100) and the thread pages holding the
    later ones; its ``views`` say which were read (``why``: the listing's)."""
    posts = sorted(listed.posts, key=_by_floor)
    wanted = {post.pid for post in posts} if edits is None else set(edits(tuple(posts)))
    seen = [ViewRead("api", listed.pages, why)]
    edited: dict[int, datetime | None] = {}
    tid = views.api.address(views.api_url(1, 1, views.api_versions[-1])).thread
    head = posts[: views.printable_limit]
    later = [post for post in posts[views.printable_limit :] if post.pid in wanted]
    try:
        if wanted & {post.pid for post in head}:
            edited.update(_printable_edits(head, views, fetcher, tz=tz, tid=tid))
        if later:
            found, numbers = _page_edits(later, posts, views, fetcher, tz=tz, tid=tid)
            edited.update(found)
    except _Disagree as error:
        raise Fallback(f"手机接口与其他页面不一致：{error}") from None
    except KillmodError as error:
        raise Fallback(f"读编辑记录的页面失败：{error.message}") from None
    if wanted & {post.pid for post in head}:
        needed = len(wanted & {post.pid for post in head})
        printed = f"打印版：前 {len(head)} 帖的编辑记录（其中 {needed} 帖要看）"
        seen.append(ViewRead("printable", 1, printed))
    if later:
        shown = "、".join(map(str, numbers[:10])) + ("……" if len(numbers) > 10 else "")
        after = views.printable_limit + 1
        paged = f"帖子页第 {shown} 页：第 {after} 帖之后 {len(later)} 帖的编辑记录"
        seen.append(ViewRead("pages", len(numbers), paged))
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


def _by_floor(post: Post) -> tuple[int, int]:
    return (post.floor if post.floor is not None else 0, post.pid)
