"""Reading a whole thread from where the judge points: a URL, a saved page or a folder.

Every page is fetched and parsed; posts are deduplicated by pid (Discuz serves
the last page for page numbers past the end, and floors shift when a post is
deleted between fetches), and the thread fails whole if any page fails.  After the
first page (which tells how many there are) the pages are fetched from the last to
the first, the first again too: a post deleted meanwhile moves posts onto pages not
read yet, never off them, so no post is lost.  A page fetched over HTTP must end
with ``</html>``: a page cut off is an error, never a short page.
"""

from __future__ import annotations

import multiprocessing
import os
import re
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from lxml import html as lxml_html

import scrapers
from killmod.charset import decode_html
from killmod.errors import BadInput, KillmodError, TallyFailed
from killmod.fetch import Fetched, Fetcher, FetchOptions
from killmod.model import Page, Post
from scrapers.base import Scraper, tidy_text
from scrapers.profile import Profile, ProfileScraper

_HTML_END = re.compile(rb"</html\s*>", re.IGNORECASE)


@dataclass(frozen=True)
class Thread:
    """All posts of a thread, in posting order, and where they came from."""

    source: str
    title: str | None
    pages: int
    posts: tuple[Post, ...]
    scraper: str
    settled: tuple[int, ...] = ()  # pids whose seconds were read from a view with seconds


def read_thread(
    source: str,
    *,
    tz: ZoneInfo,
    forum: str | None = None,
    jobs: int = 4,
    profile: Profile | None = None,
    fetcher: Fetcher | None = None,
    tail: bool = False,
) -> Thread:
    """Read every page of the thread at ``source`` (http(s) URL, HTML file or folder).

    ``forum`` names the format instead of recognising it; ``profile`` reads the pages as
    the board a profile describes (``scrapers.profile``).  A URL is read with ``fetcher``
    (default: one fetching ``jobs`` pages at once, no cache); ``tail`` takes the pages
    before the last one the cache knows from the cache and fetches only the rest.
    """
    if forum and profile:
        raise BadInput("--forum 与 --profile 只能选一个")
    if re.match(r"https?://", source):
        if fetcher is None:
            with Fetcher(FetchOptions(jobs=jobs)) as own:
                return _read_url(source, own, tz=tz, forum=forum, profile=profile, tail=tail)
        return _read_url(source, fetcher, tz=tz, forum=forum, profile=profile, tail=tail)
    path = Path(source)
    if path.is_dir():
        files = sorted((p for p in path.iterdir() if _is_saved_page(p)), key=_natural_key)
        if not files:
            raise BadInput(f"文件夹里没有保存的页面：{path}")
        return _read_files(source, files, tz=tz, forum=forum, profile=profile)
    if path.is_file():
        return _read_files(source, [path], tz=tz, forum=forum, profile=profile)
    raise BadInput(f"找不到投票帖：{source}（应为网址、保存的网页文件或文件夹）")


def _read_url(
    url: str,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    tail: bool,
) -> Thread:
    first = fetcher.fetch(url, cached=tail)
    scraper, page = _parse_fetched(first, fetcher, tz=tz, forum=forum, profile=profile)
    # Pages before the last one known (from the cache) may come from the cache.
    known = page.page_count if first.cached else 0
    pages = [page]
    # The first page is read again with the others, last to first, unless it is all there is.
    requested = set() if first.cached or page.page_count > 1 else {page.page_no}
    # A page fetched later may show more pages than the first one did (new posts).
    with _parsers(page.page_count - known, profile) as pool:
        while missing := sorted(
            set(range(1, max(p.page_count for p in pages) + 1)) - requested, reverse=True
        ):
            requested.update(missing)
            urls = [scraper.page_url(url, n) for n in missing]
            cached = {u for n, u in zip(missing, urls, strict=True) if n < known}

            def parse(fetched: Fetched) -> Page:
                return _parse_fetched(
                    fetched, fetcher, tz=tz, forum=scraper.NAME, profile=profile, pool=pool
                )[1]

            pages += fetcher.fetch_all(urls, cached=cached, then=parse)
    return _assemble(url, pages, scraper)


# From this many pages on, pages are parsed in worker processes: parsing is CPU work that
# Python threads cannot share, and a long game thread has hundreds of pages.
PARALLEL_FROM = 40


@contextmanager
def _parsers(pages: int, profile: Profile | None) -> Iterator[ProcessPoolExecutor | None]:
    """Worker processes to parse ``pages`` pages in, when there are many and cores to spare.

    The workers are forked before any fetching thread starts (fork with running
    threads is unsafe), which is why they are all started here, at once.
    """
    cores = os.cpu_count() or 1
    if pages < PARALLEL_FROM or cores < 2 or profile is not None:
        yield None
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=min(cores, 4), mp_context=context) as pool:
        pool.submit(int).result()  # a fork context starts every worker on the first task
        yield pool


def _parse_elsewhere(fetched: Fetched, tz: ZoneInfo, forum: str | None) -> tuple[str, Page]:
    """``parse_page`` in a worker process: the scraper goes back by name."""
    scraper, page = parse_page(fetched, tz=tz, forum=forum)
    return scraper.NAME, page


def read_page(
    url: str, fetcher: Fetcher, *, tz: ZoneInfo, forum: str | None = None
) -> tuple[Scraper, Page]:
    """Fetch one page afresh and parse it (as ``forum`` when given)."""
    return _parse_fetched(fetcher.fetch(url), fetcher, tz=tz, forum=forum, profile=None)


def _parse_fetched(
    fetched: Fetched,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    pool: ProcessPoolExecutor | None = None,
) -> tuple[Scraper, Page]:
    """Parse a fetched page (in ``pool`` when given); a cached page that no longer reads is
    fetched again.

    With a cache, what a page's bytes read as is kept too: a cached page read the same
    way before is not parsed again.
    """
    cache = fetcher.cache if profile is None else None
    reading = f"{forum or '*'}|{tz.key}"
    if cache is not None and fetched.cached and (kept := cache.get_page(fetched, reading)):
        return scrapers.by_name(kept[0]), kept[1]
    try:
        _check_complete(fetched)
        if pool is not None:
            name, page = pool.submit(_parse_elsewhere, fetched, tz, forum).result()
            scraper = scrapers.by_name(name)
        else:
            scraper, page = parse_page(fetched, tz=tz, forum=forum, profile=profile)
    except KillmodError:
        if not fetched.cached:
            raise
        fetched = fetcher.fetch(fetched.url)
        _check_complete(fetched)
        scraper, page = parse_page(fetched, tz=tz, forum=forum, profile=profile)
    if cache is not None:
        cache.put_page(fetched, reading, scraper.NAME, page)
    return scraper, page


def _check_complete(fetched: Fetched) -> None:
    """A page cut off in transfer (no ``</html>``) is an error, not a short page."""
    if not _HTML_END.search(fetched.body):
        raise TallyFailed(f"页面不完整（没有读到页面结尾，可能传输中断）：{fetched.url}")


def _read_files(
    source: str, files: list[Path], *, tz: ZoneInfo, forum: str | None, profile: Profile | None
) -> Thread:
    pages = []
    scraper = None
    for file in files:
        try:
            body = file.read_bytes()
        except OSError as error:
            raise BadInput(f"无法读取文件：{file}（{error.strerror}）") from None
        fetched_at = datetime.fromtimestamp(file.stat().st_mtime, UTC)
        fetched = Fetched(str(file), body, None, fetched_at)
        known = forum or (scraper.NAME if scraper else None)
        scraper, page = parse_page(fetched, tz=tz, forum=known, profile=profile)
        pages.append(page)
    return _assemble(source, pages, scraper)


def parse_page(
    fetched: Fetched, *, tz: ZoneInfo, forum: str | None = None, profile: Profile | None = None
) -> tuple[Scraper, Page]:
    """Parse one page; a profile's scraper (and charset) wins over ``forum`` and recognition.

    A Discuz message page (no such thread, log in first, no permission…) fails with the
    board's own message, whichever scraper was asked to read it.
    """
    charset = profile.charset if profile else None
    html = decode_html(fetched.body, charset or fetched.header_charset, source=fetched.url)
    try:
        if profile is not None:
            scraper: Scraper = ProfileScraper(profile)
        else:
            scraper = scrapers.by_name(forum) if forum else scrapers.pick(fetched.url, html)
    except TallyFailed:
        _fail_with_board_message(fetched.url, html)
        raise
    try:
        return scraper, scraper.parse(html, tz=tz, fetched_at=fetched.fetched_at.astimezone(tz))
    except TallyFailed as error:
        _fail_with_board_message(fetched.url, html)
        raise TallyFailed(f"{fetched.url}：{error.message}") from None
    except KillmodError:
        raise
    except Exception as error:  # a page no rule of the scraper foresaw: say which page
        raise TallyFailed(
            f"无法解析页面 {fetched.url}（{type(error).__name__}: {error}）"
        ) from None


def _fail_with_board_message(url: str, html: str) -> None:
    """Fail with the board's message when the page is a Discuz! X message page.

    ``div#messagetext`` carries showmessage()'s text: no such thread, log in first, no
    permission, the user group may not read…
    """
    if 'id="messagetext"' not in html:
        return
    found = lxml_html.document_fromstring(html).xpath('//div[@id="messagetext"]/p[1]')
    message = tidy_text(found[0].text_content()) if found else ""
    if message:
        raise TallyFailed(f"{url}：论坛返回了提示页面：「{message}」")


def _assemble(source: str, pages: list[Page], scraper: Scraper) -> Thread:
    """One post per pid; a post read twice is taken from the page read last."""
    by_pid: dict[int, Post] = {}
    for page in pages:
        for post in page.posts:
            by_pid[post.pid] = post
    title = next((page.title for page in pages if page.title), None)
    posts = tuple(sorted(by_pid.values(), key=lambda post: post.pid))
    return Thread(source, title, max(page.page_count for page in pages), posts, scraper.NAME)


def _is_saved_page(path: Path) -> bool:
    """A file in the folder that holds a web page (a roster or notes beside it do not)."""
    if not path.is_file():
        return False
    with path.open("rb") as file:
        start = file.read(512).lstrip(b"\xef\xbb\xbf \t\r\n")
    return start.startswith(b"<")


def _natural_key(path: Path) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]
