"""Reading one fetched page: from the board's bytes to a ``Page`` of posts.

The scraper is the one named, the one a profile describes, or the one that recognises
the page.  A page fetched over HTTP must end with ``</html>``: a page cut off is an error,
never a short page.  With a cache, the posts a page's bytes were parsed into are kept
with them, so a long thread read again parses only the pages that changed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from lxml import html as lxml_html

import scrapers
from killmod.cache import Fetched, ParsedPage
from killmod.charset import decode_html
from killmod.errors import BadInput, KillmodError, TallyFailed
from killmod.fetch import Fetcher
from killmod.model import Page
from scrapers.base import Scraper, has_html_end, tidy_text
from scrapers.profile import Profile, ProfileScraper


def read_page(
    url: str, fetcher: Fetcher, *, tz: ZoneInfo, forum: str | None = None
) -> tuple[Scraper, Page]:
    """Fetch one page afresh and parse it (as ``forum`` when given)."""
    return parse_fetched(fetcher.fetch(url), fetcher, tz=tz, forum=forum, profile=None)


def read_at(
    url: str,
    fetcher: Fetcher,
    *,
    cached: bool,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
) -> tuple[Scraper, Page, bool]:
    """The page at ``url`` and whether it came from the cache (which ``cached`` allows):
    as parsed before, else its bytes parsed."""
    kept = parsed_before(url, fetcher, cached=cached, tz=tz, forum=forum, profile=profile)
    if kept is not None:
        return *kept, True
    fetched = fetcher.fetch(url, cached=cached)
    return *parse_fetched(fetched, fetcher, tz=tz, forum=forum, profile=profile), fetched.cached


def parsed_before(
    url: str,
    fetcher: Fetcher,
    *,
    cached: bool,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
) -> tuple[Scraper, Page] | None:
    """The cached page at ``url`` as parsed before in the time zone ``tz``, when the cache
    may answer for it and the scraper that parsed it is ``forum`` (if named).

    A page fetched again is parsed again; so is one asked for in another time zone or as
    another format, and a profile's pages always are (the profile may have changed).
    """
    if profile is not None or not fetcher.may_answer_from_cache(cached):
        return None
    kept = fetcher.cache.get_parsed(url, tz.key)
    if kept is None or forum not in (None, kept.scraper):
        return None
    return scrapers.by_name(kept.scraper), kept.page


def parse_fetched(
    fetched: Fetched,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
) -> tuple[Scraper, Page]:
    """Parse a fetched page and keep it in the cache with its posts; a cached page that no
    longer reads is fetched again."""
    try:
        _check_complete(fetched)
        scraper, page = parse_page(fetched, tz=tz, forum=forum, profile=profile)
    except KillmodError:
        if not fetched.cached:
            raise
        fetched = fetcher.fetch(fetched.url)
        _check_complete(fetched)
        scraper, page = parse_page(fetched, tz=tz, forum=forum, profile=profile)
    parsed = ParsedPage(scraper.NAME, tz.key, page) if profile is None else None
    if fetcher.cache is not None and (parsed is not None or not fetched.cached):
        fetcher.cache.put(fetched, parsed)
    return scraper, page


def _check_complete(fetched: Fetched) -> None:
    """A page cut off in transfer (no ``</html>``) is an error, not a short page."""
    if not has_html_end(fetched.body):
        raise TallyFailed(f"页面不完整（没有读到页面结尾，可能传输中断）：{fetched.url}")


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


def saved_page(file: Path) -> Fetched:
    """A page saved from the browser, as if fetched when the file was last written."""
    try:
        body = file.read_bytes()
        fetched_at = datetime.fromtimestamp(file.stat().st_mtime, UTC)
    except OSError as error:
        raise BadInput(f"无法读取文件：{file}（{error.strerror}）") from None
    return Fetched(str(file), body, None, fetched_at)
