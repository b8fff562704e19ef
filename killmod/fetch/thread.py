"""Reading a whole thread from where the judge points: a URL, a saved page or a folder.

Every page is fetched and parsed; posts are deduplicated by pid (Discuz serves
the last page for page numbers past the end, and floors shift when a post is
deleted between fetches), and the thread fails whole if any page fails.  Every page
must be the page asked for: its number, and the thread id and title the first page
showed (``killmod.fetch.identity``).  The first page tells how many pages there are; that
count is believed only up to ``FetchOptions.max_pages``, and only once the last page
itself has been read and shows it is that page.  Then the other pages are fetched from
the last to the first, the first again too: a post deleted meanwhile moves posts onto
pages not read yet, never off them, so no post is lost.  Saved pages must make one
whole thread.  Long threads are read in worker processes (``killmod.fetch.workers``); one page
is read by ``killmod.fetch.pages``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from killmod.core.errors import BadInput, TallyFailed
from killmod.core.model import Page, Post, ViewRead
from killmod.fetch.clocks import check_zones
from killmod.fetch.http import Fetched, Fetcher, FetchOptions
from killmod.fetch.identity import Expected, check_saved, expected_after
from killmod.fetch.pages import (
    again_on_redirect,
    parse_fetched,
    parse_page,
    parsed_before,
    read_at,
    saved_page,
)
from killmod.fetch.workers import Assignment, page_workers
from scrapers.base import Scraper

if TYPE_CHECKING:  # a profile's module loads only for a board a profile describes
    from scrapers.profile import Profile


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


# Which posts' edits a reader needs to know (their pids), from the posts as read: the board's
# edit notice is shown by some views only (``killmod.fetch.plan``).  None: every post's.
EditsNeeded = Callable[[tuple[Post, ...]], Collection[int]]


def read_thread(
    source: str,
    *,
    tz: ZoneInfo,
    forum: str | None = None,
    jobs: int = 4,
    profile: Profile | None = None,
    fetcher: Fetcher | None = None,
    tail: bool = False,
    edits: EditsNeeded | None = None,
) -> Thread:
    """Read every post of the thread at ``source`` (http(s) URL, HTML file or folder).

    ``forum`` names the format instead of recognising it; ``profile`` reads the pages as
    the board a profile describes (``scrapers.profile``).  A URL is read with ``fetcher``
    (default: one fetching ``jobs`` pages at once, no cache) by the board's read plan
    (``killmod.fetch.plan``: the views its ``options.view`` allows, in the fewest requests that
    give the posts, their exact times and the edits of the posts ``edits`` names); ``tail``
    takes the pages before the last one the cache knows from the cache and fetches only the
    rest.  A folder's pages are parsed ``jobs`` at once (the fetcher's, when given).
    """
    if forum and profile:
        raise BadInput("--forum 与 --profile 只能选一个")
    if re.match(r"https?://", source):
        from killmod.fetch.plan import read_url

        if fetcher is None:
            with Fetcher(FetchOptions(jobs=jobs)) as own:
                return read_url(
                    source, own, tz=tz, forum=forum, profile=profile, tail=tail, edits=edits
                )
        return read_url(
            source, fetcher, tz=tz, forum=forum, profile=profile, tail=tail, edits=edits
        )
    if fetcher is not None and fetcher.options.view != "auto":
        raise BadInput(f"--view {fetcher.options.view} 只用于论坛网址，保存的页面按其本身读取")
    path = Path(source)
    jobs = fetcher.options.jobs if fetcher is not None else jobs
    if path.is_dir():
        files = sorted((p for p in path.iterdir() if _is_saved_page(p)), key=_natural_key)
        if not files:
            raise BadInput(f"文件夹里没有保存的页面：{path}")
        return _read_files(source, files, tz=tz, forum=forum, profile=profile, jobs=jobs)
    if path.is_file():
        return _read_files(source, [path], tz=tz, forum=forum, profile=profile, jobs=jobs)
    raise BadInput(f"找不到投票帖：{source}（应为网址、保存的网页文件或文件夹）")


def read_game_thread(
    source: str,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Path | None,
    fetching: FetchOptions | None,
) -> Thread:
    """Read the game thread (for the lurkers count and the audit), the pages the cache
    already holds from the cache; ``profile`` is a profile file.  Who posted when is all a
    game thread is read for: no post's edits are looked at."""
    loaded = None
    if profile is not None:
        from scrapers.profile import load_profile

        loaded = load_profile(profile)
    with Fetcher(fetching or FetchOptions()) as fetcher:
        return read_thread(
            source, tz=tz, forum=forum, profile=loaded, fetcher=fetcher, tail=True, edits=_no_edits
        )


def _no_edits(posts: tuple[Post, ...]) -> tuple[int, ...]:
    """No post's edits are needed."""
    return ()


def read_pages(
    url: str,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    tail: bool,
) -> Thread:
    """Every page of the thread at ``url``, in the view the URL (or ``forum``) names, each
    the page asked for; ``tail``: the pages before the last one known come from the cache."""
    scraper, page, cached, landed = read_at(
        url, fetcher, cached=tail, tz=tz, forum=forum, profile=profile
    )
    # Pages before the last one known (from the cache) may come from the cache.
    known = page.page_count if cached else 0
    pages = [page]
    # The first page is read again with the others, last to first, unless it is all there is.
    requested = set() if cached or page.page_count > 1 else {page.page_no}
    same_thread = expected_after(page, scraper.address(landed).thread)
    # Worker processes, when the board is not paced (a profile's pages are read here).
    unpaced = profile is None and not fetcher.pacer.waits_for(url)
    assignment = Assignment(fetcher.options, tz, scraper.NAME)
    workers_for = page.page_count - known if unpaced else 0

    def expected(n: int) -> Expected:
        return replace(same_thread, page=n)

    def parse(fetched: Fetched, n: int) -> Page:
        return parse_fetched(
            fetched, fetcher, tz=tz, forum=scraper.NAME, profile=profile, expected=expected(n)
        )[1]

    def kept(page_url: str, n: int) -> Page | None:
        found = parsed_before(
            page_url,
            fetcher,
            cached=True,
            tz=tz,
            forum=scraper.NAME,
            profile=profile,
            expected=expected(n),
        )
        return found[1] if found else None

    def read(numbers: list[int]) -> list[Page]:
        urls = {n: scraper.page_url(landed, n) for n in numbers}
        numbered = {page_url: n for n, page_url in urls.items()}
        cached_urls = {u for n, u in urls.items() if n < known}
        done = {u: found for u in cached_urls if (found := kept(u, numbered[u]))}
        rest = [u for u in urls.values() if u not in done]
        if workers is None:

            def then(fetched: Fetched) -> Page:
                return parse(fetched, numbered[fetched.url])

            again = again_on_redirect(scraper.NAME) if profile is None else False
            fresh = fetcher.fetch_all(rest, cached=cached_urls, then=then, again_on_redirect=again)
        else:
            wanted = [expected(numbered[u]) for u in rest]
            fresh = workers.fetch(rest, cached_urls, wanted, progress=fetcher.options.progress)
        done.update(zip(rest, fresh, strict=True))
        return [done[urls[n]] for n in numbers]

    with page_workers(workers_for, fetcher.options.jobs, assignment) as workers:
        # A page fetched later may show more pages than the first one did (new posts).
        while missing := sorted(
            set(range(1, _page_count(pages, fetcher, url) + 1)) - requested, reverse=True
        ):
            # The last page first, alone: a page bar's count is believed once that page
            # has been read and shows it is that page.
            last, *others = missing
            requested.add(last)
            pages += read([last])
            if _page_count(pages, fetcher, url) > last:
                continue
            requested.update(others)
            pages += read(others)
    return _assemble(landed, pages, scraper)


def _page_count(pages: list[Page], fetcher: Fetcher, url: str) -> int:
    """The most pages any page read shows, within the fetcher's ``max_pages``."""
    count = max(page.page_count for page in pages)
    cap = fetcher.options.max_pages
    if count > cap:
        raise TallyFailed(
            f"帖子的页码栏显示有 {count} 页，超过上限 {cap} 页（可用 --max-pages 调整）：{url}"
        )
    return count


def _read_files(
    source: str,
    files: list[Path],
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    jobs: int,
) -> Thread:
    """The saved pages ``files``: the first one tells the format, unless ``forum`` does.
    Together they must be one whole thread (``killmod.fetch.identity.check_saved``)."""
    scraper, first = parse_page(saved_page(files[0]), tz=tz, forum=forum, profile=profile)
    rest = files[1:]
    workers_for = len(rest) if profile is None else 0
    with page_workers(workers_for, jobs, Assignment(None, tz, scraper.NAME)) as workers:
        if workers is not None:
            pages = workers.parse_files(rest)
        else:
            pages = [
                parse_page(saved_page(file), tz=tz, forum=scraper.NAME, profile=profile)[1]
                for file in rest
            ]
    check_saved(files, [first, *pages])
    check_zones([first, *pages], [f"保存的页面 {file} " for file in files])
    thread = _assemble(source, [first, *pages], scraper)
    return replace(thread, views=(ViewRead("saved", len(files), "按保存的页面本身读取，不联网"),))


def _assemble(source: str, pages: list[Page], scraper: Scraper) -> Thread:
    """One post per pid; a post read twice is taken from the page read last.  A view that
    shows only the first part of a longer thread (the printable view's 100 posts) is no
    whole thread."""
    partial = next((page for page in pages if page.partial), None)
    if partial is not None:
        raise TallyFailed(
            f"这一页只显示帖子的前 {len(partial.posts)} 帖（打印版只显示前 100 帖），"
            f"这个帖子可能更长：请改用普通帖子页的网址：{source}"
        )
    check_zones(pages, [f"第 {page.page_no} 页" for page in pages])
    by_pid: dict[int, Post] = {}
    for page in pages:
        for post in page.posts:
            by_pid[post.pid] = post
    title = next((page.title for page in pages if page.title), None)
    posts = tuple(sorted(by_pid.values(), key=lambda post: post.pid))
    return Thread(source, title, max(page.page_count for page in pages), posts, scraper.NAME)


def _is_saved_page(path: Path) -> bool:
    """A file in the folder that holds a web page or an API answer (a roster or notes
    beside it do not)."""
    if not path.is_file():
        return False
    with path.open("rb") as file:
        start = file.read(512).lstrip(b"\xef\xbb\xbf \t\r\n")
    return start.startswith((b"<", b"{"))  # a web page, or an answer of the mobile API


def _natural_key(path: Path) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]
