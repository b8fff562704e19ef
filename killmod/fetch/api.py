"""Reading a whole thread from the Discuz! X mobile API: a thousand posts a request.

Page 1 is asked at ``API_PPP`` posts a page and says how many posts a page the board
really gave (a guest on a forum with 页面缓存 gets the board's ``postperpage``: the answer's
``ppp`` then says 10) and how many pages there are; the other pages are asked at that size,
side by side.  Every page must be the page asked for (``killmod.fetch.identity``) and the
pages together a whole (``killmod.fetch.whole``: floors continuous, as many posts as the
last page's ``replies`` declares).  Every answer also says how many posts the board gave a
place but does not show (``Page.hidden``): pages that disagree on it were read on both
sides of a deletion (floors renumbered between them) and are all read again; pages that
still disagree are refused.  New posts that appear while the pages are read (a page shows
more pages than page 1 did) are read too; a page showing fewer replies than another is read
again, and refused as an old copy (a cache's) when it still does; and a post shown on two
pages (two floors) says two moments: refused.  Pids are the posts' identity, not a count:
a deleted post's pid is simply gone, and a thread merged from another has its posts' pids
out of order, so pids are not held to run on.

Version 1's edit notices are on the board's clock, in the zone the reader's account (or the
board) shows times in; an answer shows it only beside its unix seconds, where it does
(``scrapers.discuz_x_mobile_zone``: the thread's ``lastpost`` against the newest post, a
post's ``dateline`` with a clock in it).  An answer with edit notices that shows no zone
is placed in the zone another answer of the same read showed, and only when none did (nor
any page of the board earlier in the command) is the thread's first page read for it.

``poll`` reads, for ``watch``, one small page: the one holding the last post known, at the
size from ``TAIL_PPP`` to twice that which leaves it the most room for new posts (or the
size the board gives), and any after it when they fill it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from zoneinfo import ZoneInfo

from killmod.core.errors import TallyFailed
from killmod.core.model import Page, Post, ViewRead
from killmod.fetch.http import Fetched, Fetcher
from killmod.fetch.identity import Expected
from killmod.fetch.paged import page_count
from killmod.fetch.pages import again_on_redirect, parse_fetched
from killmod.fetch.whole import Thread, assemble, check_whole
from scrapers.base import ThreadViews

API_PPP = 1000  # posts an API request asks for: a whole vote thread in one
TAIL_PPP = 20  # posts a page when watch asks for the newest: a few KB
# What no version of the API shows (the audit's line for the view): the mobile plugin
# deletes every [size] tag before the board renders a message — versions 1-3 in its
# discuzcode hook (source/plugin/mobile/mobile.class.php lines 358-363), version 4 in its
# mobile_discuzcode (source/plugin/mobile/discuzcode.func.php lines 92-93, replaced by "").
SIZES_UNSEEN = (
    "看不到字号（接口删掉了 [size]：0 号字藏的字在这里照常显示，按读者所见读用 --view pages）"
)


@dataclass(frozen=True)
class ApiRead:
    """A thread read from the API, and how: the version that answered, the page size the
    board gave (``capped``: smaller than asked) and whether the judge's cookies were sent."""

    thread: Thread
    version: int
    per_page: int
    capped: bool
    cookies: bool
    edits_shown: bool

    def why(self) -> str:
        """What the audit says of this read."""
        pages = self.thread.pages
        said = f"手机接口（第 {self.version} 版）：帖子、楼层、作者编号和精确到秒的时间"
        said += "、编辑记录" if self.edits_shown else "（这一版不显示编辑记录）"
        said += f"；{SIZES_UNSEEN}"
        if self.capped:
            said += (
                f"；论坛对游客每页只给 {self.per_page} 帖（版块开了页面缓存），"
                f"按每页 {self.per_page} 帖读了 {pages} 页"
            )
            said += (
                "（带了 --cookies 仍按游客限制：cookies 可能已失效）"
                if self.cookies
                else "（用 --cookies 以登录身份读取可一页读完）"
            )
        elif self.cookies:
            said += "；以 --cookies 的登录身份读取"
        return said


def read_api(
    views: ThreadViews,
    version: int,
    fetcher: Fetcher,
    *,
    source: str,
    tz: ZoneInfo,
    tail: bool,
    texts: bool = True,
) -> ApiRead:
    """The whole thread from the API's ``version``; ``tail``: the pages before the last one
    known may come from the cache; without ``texts``, who posted when alone (the messages
    not read: ``scrapers.discuz_x_mobile.parse``)."""
    scraper = views.api
    first_url = views.api_url(API_PPP, 1, version)
    tid = scraper.address(first_url).thread
    reader = _Pages(fetcher, tz, scraper.NAME, Expected(thread=tid), lambda n: first_url, texts)
    (first,) = reader.read([1], cached_before=2 if tail else 0)
    from_cache = 1 in reader.cached
    size = first.per_page or API_PPP

    def url(n: int) -> str:
        return first_url if n == 1 and size == API_PPP else views.api_url(size, n, version)

    reader.same, reader.url = Expected(thread=first.thread_id or tid, title=first.title), url
    known = first.page_count if from_cache else 0
    # A page from the cache counts as read unless it is the last one it knew.
    pages = {1: first} if not from_cache or known > 1 else {}
    _read_all(reader, pages, known=known, start=first)
    if len({page.hidden for page in pages.values()}) > 1:  # a deletion between two reads
        pages = dict(zip([1], reader.read([1], cached_before=0), strict=True))
        _read_all(reader, pages, known=0, start=pages[1])
        hidden = {page.hidden for page in pages.values()}
        if len(hidden) > 1:
            raise TallyFailed(
                "手机接口的各页不是同一时刻的帖子（读取期间一直有帖子被删除或审核，楼层在变），"
                f"请稍后再读：{first_url}"
            )
    _not_older(reader, pages, since=known)
    _one_floor_each(pages, reader.url)
    reader.place(pages)
    ordered = [pages[n] for n in sorted(pages)]
    thread = assemble(source, ordered, scraper.NAME, url)
    cookies = fetcher.options.cookies is not None
    edits_shown = all(page.edits_shown for page in ordered)
    return ApiRead(thread, version, size, size < API_PPP, cookies, edits_shown)


def _read_all(reader: _Pages, pages: dict[int, Page], *, known: int, start: Page) -> None:
    """Read into ``pages`` every page not read yet, until no page read shows more pages
    than ``start`` and the others; pages before ``known`` may come from the cache."""
    while True:
        count = page_count([start, *pages.values()], reader.fetcher, reader.url(1))
        missing = [n for n in range(1, count + 1) if n not in pages]
        if not missing:
            return
        pages.update(zip(missing, reader.read(missing, cached_before=known), strict=True))


def _not_older(reader: _Pages, pages: dict[int, Page], *, since: int) -> None:
    """Every page asked of the board as new as the newest read: a page showing fewer
    replies than another was read before posts were added (read again) or is an old copy
    (a proxy's cache): refused.  Pages before ``since`` may be the judge's own cache's,
    older by design (a deletion since shows in ``hidden``)."""
    newest = max((page.replies or 0 for page in pages.values()), default=0)
    older = [n for n, page in sorted(pages.items()) if n >= since and (page.replies or 0) < newest]
    if not older:
        return
    pages.update(zip(older, reader.read(older, cached_before=0), strict=True))
    for number in older:
        if (pages[number].replies or 0) < newest:
            raise TallyFailed(
                f"手机接口的第 {number} 页是旧的：它显示 {pages[number].replies} 个回复，"
                f"其他页显示 {newest} 个（可能是缓存里的旧页面），请稍后再读：{reader.url(number)}"
            )


def _one_floor_each(pages: dict[int, Page], url: Callable[[int], str]) -> None:
    """Pages of one moment show each post once: a pid on two floors means two pages were
    made before and after the floors moved, though they say otherwise."""
    seen: dict[int, tuple[int, int | None]] = {}
    for number, page in sorted(pages.items()):
        for post in page.posts:
            before = seen.setdefault(post.pid, (number, post.floor))
            if before != (number, post.floor):
                raise TallyFailed(
                    f"手机接口的第 {before[0]} 页和第 {number} 页都有帖子 pid={post.pid}"
                    f"（{before[1]} 楼和 {post.floor} 楼），不是同一时刻的页面，"
                    f"请稍后再读：{url(number)}"
                )


class _Pages:
    """Pages of the API at one size, each checked to be the page asked for.

    An answer's edit notices are on the board's clock, in a zone it shows only beside its
    unix seconds, where it does (``scrapers.discuz_x_mobile_zone``).  An answer that needs
    the board's zone and does not show it, when no page of the board has shown it yet, is
    kept aside (``unplaced``) and read again by ``place`` once the other answers of the read
    may have shown it: only when none did is the page the format names (the thread's first
    page) read for it."""

    def __init__(
        self,
        fetcher: Fetcher,
        tz: ZoneInfo,
        forum: str,
        same: Expected,
        url: Callable[[int], str],
        texts: bool = True,
    ) -> None:
        self.fetcher, self.tz, self.forum, self.same, self.url = fetcher, tz, forum, same, url
        self.texts = texts
        self.unplaced: dict[int, Fetched] = {}
        self.cached: set[int] = set()  # the pages last read from the cache

    def read(self, numbers: list[int], *, cached_before: int) -> list[Page]:
        """Pages ``numbers``, those before ``cached_before`` from the cache where it has
        them (their bytes: an API answer's posts are not kept, ``parse_fetched``)."""
        urls = {n: self.url(n) for n in numbers}
        numbered = {u: n for n, u in urls.items()}
        cached = {u for n, u in urls.items() if n < cached_before}

        def parse(fetched: Fetched) -> Page:
            n = numbered[fetched.url]
            zone_known = self.fetcher.boards.known(fetched.url) is not None
            page = self._parse(fetched, n, learn_zone=False)
            if not zone_known and page.zone is None and page.local_times:
                self.unplaced[n] = fetched
            else:
                self.unplaced.pop(n, None)
            if fetched.cached:
                self.cached.add(n)
            else:
                self.cached.discard(n)
            return page

        again = again_on_redirect(self.forum)
        return self.fetcher.fetch_all(
            list(urls.values()), cached=cached, then=parse, again_on_redirect=again
        )

    def place(self, pages: dict[int, Page]) -> None:
        """The pages kept aside for the board's zone, read again in it (``_Pages``)."""
        for n, fetched in sorted(self.unplaced.items()):
            if n in pages:
                pages[n] = self._parse(fetched, n, learn_zone=True)
        self.unplaced.clear()

    def _parse(self, fetched: Fetched, n: int, *, learn_zone: bool) -> Page:
        return parse_fetched(
            fetched,
            self.fetcher,
            tz=self.tz,
            forum=self.forum,
            profile=None,
            expected=self.expected(n),
            keep_posts=False,
            learn_zone=learn_zone,
            texts=self.texts,
        )[1]

    def expected(self, n: int) -> Expected:
        return replace(self.same, page=n)


def poll(previous: Thread, views: ThreadViews, fetcher: Fetcher, *, tz: ZoneInfo) -> Thread | None:
    """``previous`` (read from the API) with the posts posted since: the page holding its
    last post (``tail_size``, or the size the board gives), and any after it — each post as
    that page shows it now, its edits included.  None when the thread is no
    longer as ``previous`` saw it (a post deleted, floors renumbered): read it whole again."""
    known = sorted(previous.posts, key=_by_floor)
    if not known or known[-1].floor is None:
        return None
    version = views.api_versions[0]
    size = tail_size(known[-1].floor)
    pages = _tail(previous, views, fetcher, tz=tz, version=version, size=size)
    if pages[0].per_page != size:  # the board gives guests another page size
        size = pages[0].per_page or size
        pages = _tail(previous, views, fetcher, tz=tz, version=version, size=size)
    if pages[0].per_page != size or not pages[0].edits_shown:
        return None
    start = (pages[0].page_no - 1) * size + 1
    tail = {post.pid: post for page in pages for post in page.posts}
    overlap = [post for post in known if post.floor is not None and post.floor >= start]
    if any(tail.get(post.pid) is None or tail[post.pid].floor != post.floor for post in overlap):
        return None
    kept = {post.pid: post for post in known if post.floor is not None and post.floor < start}
    kept.update(tail)
    posts = tuple(sorted(kept.values(), key=lambda post: post.pid))
    shown = f"第 {pages[0].page_no} 页" + (f"起 {len(pages)} 页" if len(pages) > 1 else "")
    why = f"手机接口（第 {version} 版）{shown}（每页 {size} 帖）：已知的最后一帖和新帖"
    return replace(previous, posts=posts, views=(ViewRead("api", len(pages), why),))


def tail_size(last: int) -> int:
    """The page size, from ``TAIL_PPP`` to twice that, whose page holding floor ``last``
    has the most room after it: the new posts come in that one page."""
    return max(range(TAIL_PPP, 2 * TAIL_PPP + 1), key=lambda size: (-last % size, -size))


def _tail(
    previous: Thread, views: ThreadViews, fetcher: Fetcher, *, tz: ZoneInfo, version: int, size: int
) -> list[Page]:
    """The page holding ``previous``'s last floor at ``size`` posts a page, and any after it,
    each the page asked for and whole."""
    last = max(post.floor or 0 for post in previous.posts)
    scraper = views.api

    def url(n: int) -> str:
        return views.api_url(size, n, version)

    # Past the end (posts deleted since), the board answers with its last page: floors moved.
    same = Expected(thread=scraper.address(url(1)).thread, title=previous.title, past_end=True)
    reader = _Pages(fetcher, tz, scraper.NAME, same, url)
    asked = [(last - 1) // size + 1]
    pages = reader.read(asked, cached_before=0)
    if pages[0].per_page != size:
        return pages
    while pages[-1].page_count > pages[-1].page_no:
        asked.append(pages[-1].page_no + 1)
        pages += reader.read(asked[-1:], cached_before=0)
    placed = dict(zip(asked, pages, strict=True))
    reader.place(placed)
    pages = [placed[n] for n in asked]
    check_whole(pages, url)
    return pages


def _by_floor(post: Post) -> tuple[int, int]:
    return (post.floor if post.floor is not None else 0, post.pid)
