"""Reading a whole thread from where the judge points: a URL, a saved page or a folder.

Every page is fetched and parsed; posts are deduplicated by pid (Discuz serves
the last page for page numbers past the end, and floors shift when a post is
deleted between fetches), and the thread fails whole if any page fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import scrapers
from killmod.charset import decode_html
from killmod.errors import BadInput, KillmodError, TallyFailed
from killmod.fetch import Fetched, fetch, fetch_all, new_session
from killmod.model import Page, Post
from scrapers.base import Scraper
from scrapers.profile import Profile, ProfileScraper


@dataclass(frozen=True)
class Thread:
    """All posts of a thread, in posting order, and where they came from."""

    source: str
    title: str | None
    pages: int
    posts: tuple[Post, ...]
    scraper: str


def read_thread(
    source: str,
    *,
    tz: ZoneInfo,
    forum: str | None = None,
    jobs: int = 4,
    profile: Profile | None = None,
) -> Thread:
    """Read every page of the thread at ``source`` (http(s) URL, HTML file or folder).

    ``forum`` names the format instead of recognising it; ``profile`` reads the pages as
    the board a profile describes (``scrapers.profile``).
    """
    if forum and profile:
        raise BadInput("--forum 与 --profile 只能选一个")
    if re.match(r"https?://", source):
        return _read_url(source, tz=tz, forum=forum, jobs=jobs, profile=profile)
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
    url: str, *, tz: ZoneInfo, forum: str | None, jobs: int, profile: Profile | None
) -> Thread:
    session = new_session()
    first = fetch(session, url)
    scraper, page = _parse(first, tz=tz, forum=forum, profile=profile)
    pages = [page]
    requested = {page.page_no}
    # A page fetched later may show more pages than the first one did (new posts).
    while missing := sorted(set(range(1, max(p.page_count for p in pages) + 1)) - requested):
        requested.update(missing)
        urls = [scraper.page_url(url, n) for n in missing]
        fetched = fetch_all(session, urls, jobs)
        pages += [_parse(f, tz=tz, forum=scraper.NAME, profile=profile)[1] for f in fetched]
    return _assemble(url, pages, scraper)


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
        scraper, page = _parse(fetched, tz=tz, forum=known, profile=profile)
        pages.append(page)
    return _assemble(source, pages, scraper)


def _parse(
    fetched: Fetched, *, tz: ZoneInfo, forum: str | None, profile: Profile | None
) -> tuple[Scraper, Page]:
    """Parse one page; a profile's scraper (and charset) wins over ``forum`` and recognition."""
    charset = profile.charset if profile else None
    html = decode_html(fetched.body, charset or fetched.header_charset)
    if profile is not None:
        scraper: Scraper = ProfileScraper(profile)
    else:
        scraper = scrapers.by_name(forum) if forum else scrapers.pick(fetched.url, html)
    try:
        return scraper, scraper.parse(html, tz=tz, fetched_at=fetched.fetched_at.astimezone(tz))
    except TallyFailed as error:
        raise TallyFailed(f"{fetched.url}：{error.message}") from None
    except KillmodError:
        raise
    except Exception as error:  # a page no rule of the scraper foresaw: say which page
        raise TallyFailed(
            f"无法解析页面 {fetched.url}（{type(error).__name__}: {error}）"
        ) from None


def _assemble(source: str, pages: list[Page], scraper: Scraper) -> Thread:
    by_pid: dict[int, Post] = {}
    for page in pages:
        for post in page.posts:
            by_pid.setdefault(post.pid, post)
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
