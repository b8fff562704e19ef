"""Every page is the page asked for: the one check, whatever format the page is in.

A board, a CDN or a proxy may answer with another page than the one asked for: page 2
for page 3, page 1 for every page (a cache that ignores the query string), a page of
another thread.  Every scraper reports what its page says about itself (its page
number, the thread's id and title: ``killmod.core.model.Page``); here that is compared with
what was asked for (``Expected``) before the page's posts are used.  ``killmod.fetch.pages``
fetches a page that fails the check once more (a board under load may serve a stale page
once) and then fails naming it.  A folder of saved pages is checked as a whole
(``check_saved``): one thread, no page missing, no page twice with different posts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from killmod.core.errors import TallyFailed
from killmod.core.model import Page


@dataclass(frozen=True)
class Expected:
    """What a page must say about itself; None where anything will do.

    ``page`` is the page number asked for, ``thread`` the thread's id on the board and
    ``title`` its title as the thread's first page read showed it.  ``past_end``: the page
    number comes from the judge's URL, and a board answers a number past the last page
    with the last page (Discuz does): that is the page asked for too.
    """

    page: int | None = None
    thread: str | None = None
    title: str | None = None
    past_end: bool = False


def mismatch(page: Page, expected: Expected) -> str | None:
    """What ``page`` shows instead of what was ``expected``, in Chinese; None when it is the
    page asked for."""
    if expected.thread is not None and page.thread_id not in (None, expected.thread):
        return f"这是另一个帖子（编号 {page.thread_id}）的页面，要读的是帖子 {expected.thread}"
    if expected.page is not None and page.page_no != expected.page:
        last = page.page_no == page.page_count
        if not (expected.past_end and last and expected.page > page.page_count):
            return f"这是第 {page.page_no} 页，要读的是第 {expected.page} 页"
    if None not in (expected.title, page.title) and page.title != expected.title:
        return f"页面标题是「{page.title}」，与这个帖子的「{expected.title}」不同"
    return None


def expected_after(first: Page, thread: str | None) -> Expected:
    """What every later page of a thread must show, from its first page read (and the
    thread id its URL names, when the page shows none)."""
    return Expected(thread=first.thread_id or thread, title=first.title)


def check_saved(files: Sequence[Path], pages: Sequence[Page]) -> None:
    """Saved pages (``pages[i]`` read from ``files[i]``) must be one whole thread: one thread
    id and title, every page from 1 to the last one their page bars show, and a page saved
    twice holding the same posts.  Otherwise a ``TallyFailed`` names the file at fault."""
    first = min(range(len(pages)), key=lambda i: pages[i].page_no)
    reference = pages[first]
    thread = next((p.thread_id for p in (reference, *pages) if p.thread_id), None)
    title = next((p.title for p in (reference, *pages) if p.title), None)
    for file, page in zip(files, pages, strict=True):
        if page.thread_id not in (None, thread):
            raise TallyFailed(
                f"保存的页面 {file} 属于另一个帖子（编号 {page.thread_id}，"
                f"其他页面是帖子 {thread}）"
            )
        if None not in (page.title, title) and page.title != title:
            raise TallyFailed(
                f"保存的页面 {file} 的标题「{page.title}」与其他页面的「{title}」不同，"
                "不是同一个帖子"
            )
    by_number: dict[int, int] = {}
    for index, page in enumerate(pages):
        seen = by_number.setdefault(page.page_no, index)
        if seen != index and pages[seen].posts != page.posts:
            raise TallyFailed(
                f"第 {page.page_no} 页保存了两份，内容不同：{files[seen]} 与 {files[index]}"
                "（请只留下最后保存的那一份）"
            )
    last = max(page.page_count for page in pages)
    missing = sorted(set(range(1, last + 1)) - set(by_number))
    if missing:
        shown = "、".join(str(n) for n in missing[:10]) + ("……" if len(missing) > 10 else "")
        where = files[0].parent if len(files) > 1 else files[0]
        raise TallyFailed(f"保存的页面不全：缺少第 {shown} 页（页码栏显示共 {last} 页）：{where}")
