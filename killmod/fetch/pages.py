"""Reading one fetched page: from the board's bytes to a ``Page`` of posts.

The scraper is the one named, the one a profile describes, or the one that recognises
the page.  A page fetched over HTTP must end with ``</html>``: a page cut off is an error,
never a short page.  A page must be the page asked for (``killmod.fetch.identity``): one that
is not is fetched once more, then fails naming the page and what it showed.  With a
cache, the posts a page's bytes were parsed into are kept with them, so a long thread
read again parses only the pages that changed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urldefrag
from zoneinfo import ZoneInfo

import scrapers
from killmod.core.errors import BadInput, KillmodError, TallyFailed
from killmod.core.model import Page
from killmod.fetch.cache import Fetched, ParsedPage
from killmod.fetch.identity import Expected, mismatch
from scrapers.base import Scraper, has_html_end
from scrapers.charset import decode_html

if TYPE_CHECKING:  # a profile's module loads only for a board a profile describes
    from killmod.fetch.http import Fetcher
    from scrapers.profile import Profile


def read_page(
    url: str,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    forum: str | None = None,
    expected: Expected | None = None,
) -> tuple[Scraper, Page]:
    """Fetch one page afresh and parse it (as ``forum`` when given); it must be the page
    ``expected`` (default: the page the URL names)."""
    fetched = fetcher.fetch(url, again_on_redirect=again_on_redirect(forum))
    return parse_fetched(fetched, fetcher, tz=tz, forum=forum, profile=None, expected=expected)


def read_at(
    url: str,
    fetcher: Fetcher,
    *,
    cached: bool,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    keep_posts: bool = True,
) -> tuple[Scraper, Page, bool, str]:
    """The page at ``url`` (the page it names), whether it came from the cache (which
    ``cached`` allows): as parsed before, else its bytes parsed; and the URL it came from
    (where the board's redirects led: a post's link leads to its thread's page).
    ``keep_posts`` as for ``parse_fetched``."""
    kept = parsed_before(url, fetcher, cached=cached, tz=tz, forum=forum, profile=profile)
    if kept is not None:
        return *kept, True, url
    fetched = fetcher.fetch(url, cached=cached, again_on_redirect=again_on_redirect(forum))
    scraper, page = parse_fetched(
        fetched, fetcher, tz=tz, forum=forum, profile=profile, keep_posts=keep_posts
    )
    landed = urldefrag(fetched.final_url)[0] if fetched.final_url else url
    return scraper, page, fetched.cached, landed


def parsed_before(
    url: str,
    fetcher: Fetcher,
    *,
    cached: bool,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    expected: Expected | None = None,
) -> tuple[Scraper, Page] | None:
    """The cached page at ``url`` as parsed before in the time zone ``tz``, when the cache
    may answer for it, the scraper that parsed it is ``forum`` (if named) and it is the
    page ``expected`` (default: the page the URL names).

    A page fetched again is parsed again; so is one asked for in another time zone or as
    another format, and a profile's pages always are (the profile may have changed).
    """
    if profile is not None or not fetcher.may_answer_from_cache(cached):
        return None
    kept = fetcher.cache.get_parsed(url, tz.key)
    if kept is None or forum not in (None, kept.scraper):
        return None
    scraper = scrapers.by_name(kept.scraper)
    if mismatch(kept.page, expected or _named_by(scraper, url)) is not None:
        return None
    return scraper, kept.page


def parse_fetched(
    fetched: Fetched,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    expected: Expected | None = None,
    keep_posts: bool = True,
) -> tuple[Scraper, Page]:
    """Parse a fetched page, check it is the page ``expected`` (default: the page its URL
    names) and keep it in the cache with its posts.

    A cached page that no longer reads is fetched again; so is, once, a page that is not
    the page asked for, which then fails naming it.  A page fetched again that holds what
    the cache's copy held (its ``fingerprint``) is not parsed again: its posts are the
    cached copy's.  Without ``keep_posts`` only the bytes are kept (the mobile API's
    answers: their posts parse about as fast as they would load, and writing them out
    costs as much again).
    """
    unchanged = (
        _unchanged(fetched, fetcher, tz=tz, forum=forum, profile=profile) if keep_posts else None
    )
    if (
        unchanged is not None
        and mismatch(unchanged[1], expected or _named_by(unchanged[0], fetched.url)) is None
    ):
        return unchanged
    try:
        scraper, page = _parse_checked(fetched, tz=tz, forum=forum, profile=profile)
    except KillmodError:
        if not fetched.cached:
            raise
        fetched = fetcher.fetch(fetched.url, again_on_redirect=again_on_redirect(forum))
        scraper, page = _parse_checked(fetched, tz=tz, forum=forum, profile=profile)
    problem = mismatch(page, expected or _named_by(scraper, fetched.url))
    if problem is not None:
        fetched = fetcher.fetch(fetched.url, again_on_redirect=again_on_redirect(forum))
        scraper, page = _parse_checked(fetched, tz=tz, forum=forum, profile=profile)
        problem = mismatch(page, expected or _named_by(scraper, fetched.url))
        if problem is not None:
            raise TallyFailed(
                f"论坛给的不是要读的那一页：{fetched.url}（{problem}；重新读取一次后仍是如此）"
            )
    posts_kept = keep_posts and profile is None
    if fetcher.cache is not None and (posts_kept or not fetched.cached):
        kept = scraper.fingerprint(fetched.body) if posts_kept else None
        parsed = ParsedPage(scraper.NAME, tz.key, page, kept) if posts_kept else None
        fetcher.cache.put(fetched, parsed)
    return scraper, page


def _unchanged(
    fetched: Fetched, fetcher: Fetcher, *, tz: ZoneInfo, forum: str | None, profile: Profile | None
) -> tuple[Scraper, Page] | None:
    """The cache's parse of a page fetched afresh, when the page holds what the cached copy
    held (a re-tally of pages that did not change parses none of them)."""
    if profile is not None or fetcher.cache is None or fetched.cached:
        return None
    kept = fetcher.cache.get_parsed(fetched.url, tz.key)
    if kept is None or kept.fingerprint is None or forum not in (None, kept.scraper):
        return None
    scraper = scrapers.by_name(kept.scraper)
    if scraper.fingerprint(fetched.body) != kept.fingerprint:
        return None
    _check_redirect(fetched, scraper)
    return scraper, kept.page


def again_on_redirect(forum: str | None) -> bool:
    """Whether a redirect of a page of the format ``forum`` is asked again rather than
    followed (the format says so: ``AGAIN_ON_REDIRECT``)."""
    return bool(forum) and scrapers.by_name(forum).AGAIN_ON_REDIRECT


def _named_by(scraper: Scraper, url: str) -> Expected:
    """The page a URL asks for; a number past the last page gets the last page."""
    thread, page = scraper.address(url)
    return Expected(page=page, thread=thread, past_end=True)


def _parse_checked(
    fetched: Fetched, *, tz: ZoneInfo, forum: str | None, profile: Profile | None
) -> tuple[Scraper, Page]:
    """A whole page parsed; a redirect to another thread is refused."""
    _check_complete(fetched)
    scraper, page = parse_page(fetched, tz=tz, forum=forum, profile=profile)
    _check_redirect(fetched, scraper)
    return scraper, page


def _check_redirect(fetched: Fetched, scraper: Scraper) -> None:
    """A redirect to another thread is refused."""
    if fetched.final_url is not None:
        asked, went = scraper.address(fetched.url), scraper.address(fetched.final_url)
        if None not in (asked.thread, went.thread) and asked.thread != went.thread:
            raise TallyFailed(
                f"论坛把这一页重定向到了另一个帖子（{fetched.final_url}），已拒绝：{fetched.url}"
            )


def _check_complete(fetched: Fetched) -> None:
    """A page cut off in transfer (no ``</html>``) is an error, not a short page.  A JSON
    answer (the mobile API's) has no ``</html>``: its parser refuses one cut off."""
    if not has_html_end(fetched.body) and fetched.body.lstrip()[:1] != b"{":
        raise TallyFailed(f"页面不完整（没有读到页面结尾，可能传输中断）：{fetched.url}")


def parse_page(
    fetched: Fetched, *, tz: ZoneInfo, forum: str | None = None, profile: Profile | None = None
) -> tuple[Scraper, Page]:
    """Parse one page; a profile's scraper (and charset) wins over ``forum`` and recognition.

    A board's own answer instead of a thread page (a Discuz message page: no such thread,
    log in first, no permission…; a System Error page; the mobile view) fails with the
    board's words, whichever scraper was asked to read it.  A time or text the scraper
    cannot read is a page that cannot be read (exit 1), naming the page.
    """
    charset = profile.charset if profile else None
    html = decode_html(fetched.body, charset or fetched.header_charset, source=fetched.url)
    try:
        if profile is not None:
            from scrapers.profile import ProfileScraper

            scraper: Scraper = ProfileScraper(profile)
        else:
            scraper = scrapers.by_name(forum) if forum else scrapers.pick(fetched.url, html)
    except TallyFailed:
        _fail_with_board_message(fetched.url, html, None)
        raise
    clock = fetched.fetched_at.astimezone(tz)
    try:
        return scraper, scraper.parse(
            html, tz=tz, fetched_at=clock, exact_clock=fetched.exact_clock
        )
    except (TallyFailed, BadInput) as error:
        _fail_with_board_message(fetched.url, html, scraper)
        # A TallyFailed keeps its kind (the API's VersionRefused tells the plan to ask another).
        failure = type(error) if isinstance(error, TallyFailed) else TallyFailed
        raise failure(f"{fetched.url}：{error.message}") from None
    except KillmodError:
        raise
    except Exception as error:  # a page no rule of the scraper foresaw: say which page
        raise TallyFailed(
            f"无法解析页面 {fetched.url}（{type(error).__name__}: {error}）"
        ) from None


def _fail_with_board_message(url: str, html: str, scraper: Scraper | None) -> None:
    """Fail with the board's own words when the page is its answer instead of a thread page
    (as ``scraper``, else any format, recognises it)."""
    message = scrapers.board_message(url, html, scraper)
    if message:
        raise TallyFailed(f"{url}：{message}")


def saved_page(file: Path) -> Fetched:
    """A page saved from the browser, as if fetched when the file was last written."""
    try:
        body = file.read_bytes()
        fetched_at = datetime.fromtimestamp(file.stat().st_mtime, UTC)
    except OSError as error:
        raise BadInput(f"无法读取文件：{file}（{error.strerror}）") from None
    return Fetched(str(file), body, None, fetched_at)
