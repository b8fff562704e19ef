"""A whole thread from its pages: one post per pid, and no post missing.

``assemble`` makes the ``Thread`` every reader returns; before it does, the pages must make
a whole (``check_whole``), by what each format's pages show and declare about themselves
(``killmod.core.model.Page``):

- **floors continuous**, where the format counts its floors (``Page.counted``: Discuz's
  thread pages and mobile API): page k of a thread of s posts a page holds floors
  (k − 1)·s + 1 to k·s, every one of them a post or the empty place of a deleted one
  (``vacant``); the last page from (k − 1)·s + 1 on, without a gap.  The page size s is
  what a page declares (``per_page``), else what a later page's first floor shows.
- **as many as declared**: the last page's floors reach the thread's declared reply count
  plus one (``replies``, where the page says it: the mobile API).  The thread pages show
  no count of their own to hold the last page to (X3.4's “回复” counts 点评 too), so a
  last page cut short with its footer kept is seen by the API's count only.
- a page showing only the start of a longer thread (``partial``: the printable view's first
  100 posts) is no whole thread.
- **one clock**: where the format's pages declare the zone their times are shown in (the
  Discuz thread pages' footers), a page that declares none among pages that do is refused
  (``check_zones``): its times cannot be placed.

A page cut short and closed again (its footer kept) or a stale copy of a page missing
posts is refused, naming the page.  A deletion leaves no false alarm: Discuz numbers floors
by counting, so a deleted post's pid is simply gone (pids are the identity, never
continuous) and later floors move up on every page alike; a thread that keeps positions
shows the deleted post's empty place.  Formats whose floors are permanent (Tieba's), not
known to be counted (SOHU's, a profile's) or not shown at all (the archivers, the printable
views) may leave gaps where posts were deleted: they are held to their pages' own marks
(``scrapers``: page bars, footers, the parts each post names).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from killmod.core.errors import TallyFailed
from killmod.core.model import Page, Post, ViewRead
from killmod.core.times import zone_label


@dataclass(frozen=True)
class Thread:
    """All posts of a thread, in posting order, where they came from and which views of
    the thread were read for them (``views``, for the audit)."""

    source: str
    title: str | None
    pages: int
    posts: tuple[Post, ...]
    scraper: str
    confirmed: tuple[int, ...] = ()  # pids whose seconds a view with seconds confirmed
    views: tuple[ViewRead, ...] = ()


# Which posts' edits a reader needs to know (their pids), from the posts as read: where a
# view shows no edit notice (the mobile API's version 4), they are looked up elsewhere
# (``killmod.fetch.editcheck``).  None: every post's.
EditsNeeded = Callable[[tuple[Post, ...]], Collection[int]]


def assemble(
    source: str, pages: Sequence[Page], scraper: str, where: Callable[[int], str]
) -> Thread:
    """One thread of ``pages``: one post per pid, a post read twice taken from the page read
    last; the pages must make a whole (``check_whole``; ``where(n)`` names page n in a
    refusal: its URL or file) and, where the format's pages declare their zone, all declare
    it (``check_zones``: a page without it cannot be placed)."""
    partial = next((page for page in pages if page.partial), None)
    if partial is not None:
        raise TallyFailed(
            f"这一页只显示帖子的前 {len(partial.posts)} 帖（打印版只显示前 100 帖），"
            f"这个帖子可能更长：请改用普通帖子页的网址：{source}"
        )
    import scrapers  # loaded by then: the pages were read
    from scrapers.base import declares_own_zone

    found = scrapers.find(scraper)
    if found is not None and declares_own_zone(found):
        check_zones(pages, where)
    check_whole(pages, where)
    by_pid: dict[int, Post] = {}
    for page in pages:
        for post in page.posts:
            by_pid[post.pid] = post
    title = next((page.title for page in pages if page.title), None)
    posts = tuple(sorted(by_pid.values(), key=lambda post: post.pid))
    return Thread(source, title, max(page.page_count for page in pages), posts, scraper)


def check_zones(pages: Sequence[Page], where: Callable[[int], str]) -> None:
    """Pages of one thread, of a format whose pages declare their zone themselves, that show
    times on the board's clock either all declare their zone or none does: one that does
    not, among others that do, is refused naming it (``where(n)``: page n's URL or file).
    Pages read one by one are held to the zones their board's other pages declared as they
    come (``killmod.fetch.clocks``); this holds the pages made one thread, those parsed in
    worker processes and a folder of saved pages included."""
    declared = next((page for page in pages if page.zone is not None), None)
    if declared is None:
        return
    for page in pages:
        if page.zone is None and page.local_times:
            raise TallyFailed(
                f"第 {page.page_no} 页没有注明时间是哪个时区的（页脚没有 GMT±N），而第"
                f" {declared.page_no} 页注明了 {zone_label(declared.zone)}：这一页的时间无法确定，"
                f"已拒绝：{where(page.page_no)}"
            )


def check_whole(pages: Sequence[Page], where: Callable[[int], str]) -> None:
    """Refuse pages that do not make a whole thread (the module's rules), naming the page
    at fault and what it lacks.  Floors are checked where the format counts them."""
    # A page read twice: as read last.  A page past the end (an archiver's, empty) is none.
    latest = {p.page_no: p for p in pages if p.page_no <= p.page_count or p.posts}
    if not latest or not all(page.counted for page in latest.values()):
        return
    if any(post.floor is None for page in latest.values() for post in page.posts):
        return
    last_no = max(latest)
    size = _page_size(latest, last_no, where)
    for number, page in sorted(latest.items()):
        if size is not None:
            _check_floors(page, number, size, last=number == last_no, where=where)
    end = latest[last_no]
    if end.replies is not None and end.page_no == end.page_count:
        shown = max(_accounted(end), default=0)
        if shown < end.replies + 1:
            missing = f"第 {shown + 1}–{end.replies + 1} 楼" if shown else "所有帖子"
            raise _short(
                last_no,
                where,
                f"帖子显示共有 {end.replies} 个回复（到第 {end.replies + 1} 楼），"
                f"页面上却缺了{missing}",
            )


def _page_size(latest: dict[int, Page], last_no: int, where: Callable[[int], str]) -> int | None:
    """The posts a page holds: as declared, else as a later page's first floor shows; None
    when one page is all there is."""
    declared = {page.per_page for page in latest.values() if page.per_page}
    if len(declared) > 1:
        shown = "、".join(str(n) for n in sorted(declared))
        raise TallyFailed(f"帖子的各页每页帖数不一致（{shown}），不是同一次读取的页面")
    if declared:
        return declared.pop()
    for number, page in sorted(latest.items()):
        floors = _accounted(page)
        if number > 1 and floors:
            size, rest = divmod(min(floors) - 1, number - 1)
            if rest or size < 1:
                raise _short(number, where, f"第一帖是第 {min(floors)} 楼，与页码对不上")
            return size
    return None


def _check_floors(page: Page, number: int, size: int, *, last: bool, where) -> None:
    """Page ``number`` holds every floor of its place, each a post or a deleted one's place."""
    start = (number - 1) * size + 1
    floors = _accounted(page)
    end = max(floors, default=start - 1) if last else number * size
    if last and end >= start + size:
        end = start + size - 1
    missing = sorted(set(range(start, end + 1)) - floors)
    if missing:
        shown = _ranges(missing)
        raise _short(number, where, f"缺少{shown}（这一页应有第 {start}–{end} 楼）")
    if not last and not floors & set(range(start, end + 1)):
        raise _short(number, where, "没有这一页的帖子")


def _accounted(page: Page) -> set[int]:
    """The floors a page accounts for: its posts' and its deleted posts' empty places."""
    return {post.floor for post in page.posts if post.floor is not None} | set(page.vacant)


def _ranges(floors: list[int]) -> str:
    """ "第 6–10 楼", "第 3、7 楼"… for the judge."""
    runs: list[tuple[int, int]] = []
    for floor in floors:
        if runs and floor == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], floor)
        else:
            runs.append((floor, floor))
    parts = [f"{a}" if a == b else f"{a}–{b}" for a, b in runs[:5]]
    return "第 " + "、".join(parts) + (" 等" if len(runs) > 5 else "") + " 楼"


def _short(number: int, where: Callable[[int], str], what: str) -> TallyFailed:
    return TallyFailed(
        f"第 {number} 页不完整：{what}。页面可能只加载了一半，或是缓存里的旧页面；"
        f"请稍后重读（加 --refresh 不用缓存）：{where(number)}"
    )
