"""Reading one fetched page: from the board's bytes to a ``Page`` of posts.

The scraper is the one named, the one a profile describes, or the one that recognises
the page.  A page fetched over HTTP must end with ``</html>``: a page cut off is an error,
never a short page.  A page must be the page asked for (``killmod.fetch.identity``): one that
is not is fetched once more, then fails naming the page and what it showed.  With a
cache, the posts a page's bytes were parsed into are kept with them, so a long thread
read again parses only the pages that changed.

The board's clock is the truth (``killmod.fetch.clocks``).  A page's times are read in the
zone it declares, else in the zone its board declared on other pages (the page its format
names is read first when none has yet), else in the game's; they are given in the game's
zone.  Relative times count back from the HTTP ``Date`` where it is believed: within a
minute of the page's own clock, checked by the scraper (``scrapers.base.page_clock``), or,
on a page that shows none, of our clock when the answer came, as far from it as the
board's other pages showed the board's clock (``fetched_clock``).  A relative time counted
from a clock that is not believed is refused, naming the clocks.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple
from urllib.parse import urldefrag
from zoneinfo import ZoneInfo

import scrapers
from killmod.core.errors import BadInput, KillmodError, TallyFailed
from killmod.core.model import Page
from killmod.core.times import BoardClock, DoubtfulClock, format_local, zone_label
from killmod.fetch.cache import Fetched, ParsedPage
from killmod.fetch.identity import Expected, mismatch
from scrapers.base import Scraper, clock_agrees, declares_own_zone, has_html_end
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
) -> tuple[Scraper, Page, bool, str]:
    """The page at ``url`` (the page it names), whether it came from the cache (which
    ``cached`` allows): as parsed before, else its bytes parsed; and the URL it came from
    (where the board's redirects led: a post's link leads to its thread's page)."""
    kept = parsed_before(url, fetcher, cached=cached, tz=tz, forum=forum, profile=profile)
    if kept is not None:
        return *kept, True, url
    fetched = fetcher.fetch(url, cached=cached, again_on_redirect=again_on_redirect(forum))
    scraper, page = parse_fetched(fetched, fetcher, tz=tz, forum=forum, profile=profile)
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
    kept = _kept_parse(fetcher, url, tz, fetcher.boards.known(url))
    if kept is None or forum not in (None, kept.scraper):
        return None
    scraper = scrapers.by_name(kept.scraper)
    if mismatch(kept.page, expected or _named_by(scraper, url)) is not None:
        return None
    _admit(fetcher, url, scraper, kept.page)
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
    learn_zone: bool = True,
    texts: bool = True,
) -> tuple[Scraper, Page]:
    """Parse a fetched page, check it is the page ``expected`` (default: the page its URL
    names) and keep it in the cache with its posts.

    A cached page that no longer reads is fetched again; so is, once, a page that is not
    the page asked for, which then fails naming it.  A page fetched again that holds what
    the cache's copy held (its ``fingerprint``) is not parsed again: its posts are the
    cached copy's.  Without ``keep_posts`` only the bytes are kept (the mobile API's
    answers: their posts parse about as fast as they would load, and writing them out
    costs as much again).  Without ``learn_zone``, a page that needs its board's zone and
    finds none known yet is parsed in the game's, not placed by reading the page its format
    names: the caller places it once the pages read with it may have shown the zone
    (``killmod.fetch.api``).  Without ``texts``, a format that can (the mobile API's) reads
    who posted when alone, not the messages (``parse_page``): only with ``keep_posts`` off,
    so that no cache ever holds such posts.
    """
    texts = texts or keep_posts
    zone = fetcher.boards.known(fetched.url)
    unchanged = (
        _unchanged(fetched, fetcher, tz=tz, zone=zone, forum=forum, profile=profile)
        if keep_posts
        else None
    )
    if (
        unchanged is not None
        and mismatch(unchanged[1], expected or _named_by(unchanged[0], fetched.url)) is None
    ):
        _admit(fetcher, fetched.url, *unchanged)
        return unchanged
    read = _BoardRead(tz, forum, profile, zone, fetcher.boards.skew(fetched.url), texts)
    try:
        scraper, page, read = _parse_on_board_clock(fetched, fetcher, read, learn_zone)
    except KillmodError:
        if not fetched.cached:
            raise
        fetched = fetcher.fetch(fetched.url, again_on_redirect=again_on_redirect(forum))
        scraper, page, read = _parse_on_board_clock(fetched, fetcher, read, learn_zone)
    problem = mismatch(page, expected or _named_by(scraper, fetched.url))
    if problem is not None:
        fetched = fetcher.fetch(fetched.url, again_on_redirect=again_on_redirect(forum))
        scraper, page, read = _parse_on_board_clock(fetched, fetcher, read, learn_zone)
        problem = mismatch(page, expected or _named_by(scraper, fetched.url))
        if problem is not None:
            raise TallyFailed(
                f"论坛给的不是要读的那一页：{fetched.url}（{problem}；重新读取一次后仍是如此）"
            )
    _admit(fetcher, fetched.url, scraper, page)
    _clock_seen(fetcher, fetched, page)
    posts_kept = keep_posts and profile is None
    if fetcher.cache is not None and (posts_kept or not fetched.cached):
        parsed = None
        if posts_kept:
            key = _read_key(tz, read.zone if _needs_board_zone(page, None) else None)
            parsed = ParsedPage(scraper.NAME, key, page, scraper.fingerprint(fetched.body))
        fetcher.cache.put(fetched, parsed)
    return scraper, page


class _BoardRead(NamedTuple):
    """How a page is read: the game's zone, the format, and its board's zone and clock skew
    as the board's other pages showed them in this command."""

    tz: ZoneInfo
    forum: str | None
    profile: Profile | None
    zone: tzinfo | None
    skew: timedelta | None
    texts: bool = True


def _parse_on_board_clock(
    fetched: Fetched, fetcher: Fetcher, read: _BoardRead, learn_zone: bool = True
) -> tuple[Scraper, Page, _BoardRead]:
    """``fetched`` parsed on its board's clock, and how it was read.

    A page that shows times on the board's clock without saying in which zone (unless not
    ``learn_zone``), or whose relative times need a clock that cannot be believed, when no
    page of its board has shown them yet in this command: the page its format names
    (``Scraper.zone_url``) is read first, and the page parsed again in the zone and clock
    it showed."""
    try:
        scraper, page = _parse_checked(fetched, **read._asdict())
    except DoubtfulClock as doubt:
        if not _learn_board(fetched.url, doubt.source, fetcher, read.tz):
            raise
        read = _board_read(fetched.url, fetcher, read)
        scraper, page = _parse_checked(fetched, **read._asdict())
        return scraper, page, read
    source = scraper.zone_url(fetched.url) if learn_zone else None
    if _needs_board_zone(page, read.zone) and _learn_board(fetched.url, source, fetcher, read.tz):
        read = _board_read(fetched.url, fetcher, read)
        if read.zone is not None:
            scraper, page = _parse_checked(fetched, **read._asdict())
    return scraper, page, read


def _board_read(url: str, fetcher: Fetcher, read: _BoardRead) -> _BoardRead:
    return read._replace(zone=fetcher.boards.known(url), skew=fetcher.boards.skew(url))


def _needs_board_zone(page: Page, zone: tzinfo | None) -> bool:
    """Whether ``page`` shows times on its board's clock without saying which zone, and no
    zone of its board was known (``zone``) to read them in."""
    return page.zone is None and page.local_times and zone is None


def _learn_board(url: str, source: str | None, fetcher: Fetcher, tz: ZoneInfo) -> bool:
    """Read ``source``, the page of ``url``'s board that declares its zone and shows its
    clock (the thread's first page, for a printable view), to learn them; False where there
    is none to read or the board was already asked in this command."""
    boards = fetcher.boards
    if source is None:
        return False
    with boards.learning:
        if boards.asked(url):
            return False
        boards.declared_none(url)  # until the page says: a page it leads to learns nothing
        try:
            read_page(source, fetcher, tz=tz)
        except KillmodError as error:
            boards.forget(url)
            raise TallyFailed(
                f"{url} 没有注明时间是哪个时区的，或它的时钟需要核对；为此读同一帖子的"
                f" {source} 失败：{error.message}"
            ) from None
    return True


def _admit(fetcher: Fetcher, url: str, scraper: Scraper, page: Page) -> None:
    """Record the zone ``page`` declares for its board; refuse it where its format's pages
    declare their zone and this one does not (``killmod.fetch.clocks``)."""
    fetcher.boards.admit(url, scraper.NAME, page, self_declaring=declares_own_zone(scraper))


def _kept_parse(fetcher: Fetcher, url: str, tz: ZoneInfo, zone: tzinfo | None) -> ParsedPage | None:
    """The cache's parse of the page at ``url`` in the game's zone ``tz``, when its board's
    zone is ``zone`` (as other pages declared it): one that declared its own zone, or was
    read in the board's."""
    keys = (tz.key,) if zone is None else (tz.key, _read_key(tz, zone))
    kept = fetcher.cache.get_parsed(url, keys)
    if kept is None or zone is None or kept.tz != tz.key:
        return kept
    page = kept.page
    return None if page.zone is None and page.local_times else kept


def _clock_seen(fetcher: Fetcher, fetched: Fetched, page: Page) -> None:
    """Keep how far the board's clock is from ours, where a page shows it twice: its HTTP
    ``Date`` agreeing with its own clock (the footer's)."""
    ours, shown = fetched.machine_at, page.clock
    if not fetched.exact_clock or ours is None or shown is None:
        return
    if clock_agrees(fetched.fetched_at, shown):
        fetcher.boards.clock_seen(fetched.url, fetched.fetched_at - ours)


def _read_key(tz: ZoneInfo, zone: tzinfo | None) -> str:
    """The cache's name for the zones a page was read in: the game's, and the board's where
    the page declared none and another of its board's pages did."""
    return tz.key if zone is None else f"{tz.key}@{zone_label(zone)}"


def _unchanged(
    fetched: Fetched,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    zone: tzinfo | None,
    forum: str | None,
    profile: Profile | None,
) -> tuple[Scraper, Page] | None:
    """The cache's parse of a page fetched afresh, when the page holds what the cached copy
    held (a re-tally of pages that did not change parses none of them)."""
    if profile is not None or fetcher.cache is None or fetched.cached:
        return None
    kept = _kept_parse(fetcher, fetched.url, tz, zone)
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
    fetched: Fetched,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    zone: tzinfo | None,
    skew: timedelta | None,
    texts: bool = True,
) -> tuple[Scraper, Page]:
    """A whole page parsed; a redirect to another thread is refused.  A relative time
    counted from a clock that cannot be believed is a ``DoubtfulClock`` naming the page
    that shows its board's clock (``Scraper.zone_url``)."""
    _check_complete(fetched)
    scraper, page = parse_page(
        fetched, tz=tz, forum=forum, profile=profile, zone=zone, skew=skew, texts=texts
    )
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
    fetched: Fetched,
    *,
    tz: ZoneInfo,
    forum: str | None = None,
    profile: Profile | None = None,
    zone: tzinfo | None = None,
    skew: timedelta | None = None,
    texts: bool = True,
) -> tuple[Scraper, Page]:
    """Parse one page; a profile's scraper (and charset) wins over ``forum`` and recognition.

    Its times are read in the zone the page declares, else in ``zone`` (its board's, as
    other pages declared it), else in ``tz`` (the game's), and given in ``tz``.  A board's
    own answer instead of a thread page (a Discuz message page: no such thread, log in
    first, no permission…; a System Error page; the mobile view) fails with the board's
    words, whichever scraper was asked to read it.  A time or text the scraper cannot read
    is a page that cannot be read (exit 1), naming the page.  ``skew`` is how far the
    board's clock is from ours, as its other pages showed it (``fetched_clock``).
    Without ``texts``, a format that reads who posted when without the messages
    (``Scraper.WHO_AND_WHEN``: the mobile API's) does so — a game thread's posts for the
    lurkers count, 30,000 messages that need not be read.
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
    clock = fetched_clock(fetched, tz, skew)
    only_who = {} if texts or not getattr(scraper, "WHO_AND_WHEN", False) else {"texts": False}
    try:
        page = scraper.parse(html, tz=zone or tz, clock=clock, **only_who)
    except DoubtfulClock as error:
        source = scraper.zone_url(fetched.url)
        raise DoubtfulClock(f"{fetched.url}：{error.message}", source) from None
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
    return scraper, _in_zone(page, tz) if page.zone is not None or zone is not None else page


# How far the HTTP ``Date`` may be from our clock when the answer came, and be believed.
DATE_AGREES = timedelta(seconds=60)


def fetched_clock(fetched: Fetched, tz: ZoneInfo, skew: timedelta | None = None) -> BoardClock:
    """The clock a fetched page's relative times count back from, before the page's own
    clock checks it: the HTTP ``Date`` (to the second), doubted when it is more than a
    minute from our clock when the answer came, moved by ``skew`` (how far the board's
    clock is from ours, as its other pages showed it); else our clock or the file's time
    (known to the minute)."""
    now = fetched.fetched_at.astimezone(tz)
    if not fetched.exact_clock:
        return BoardClock(now, 59)
    ours = fetched.machine_at
    expected = ours + skew if ours is not None and skew is not None else ours
    if expected is None or abs(fetched.fetched_at - expected) <= DATE_AGREES:
        return BoardClock(now, 0)
    if skew is None:
        doubt = (
            f"论坛回答的 HTTP Date（{format_local(fetched.fetched_at, tz)}）与本机收到回答时的"
            f"时钟（{format_local(ours, tz)}）相差一分钟以上，页面上也没有论坛自己的时钟可以"
            "核对（可能是代理或缓存给的，或本机时钟不准）"
        )
    else:
        doubt = (
            f"论坛回答的 HTTP Date（{format_local(fetched.fetched_at, tz)}）与论坛在其他页面上"
            f"显示的时钟（此刻应为 {format_local(expected, tz)}）相差一分钟以上，页面上也没有"
            "论坛自己的时钟可以核对（可能是代理或缓存给的）"
        )
    return BoardClock(now, 0, doubt)


def _in_zone(page: Page, tz: ZoneInfo) -> Page:
    """``page`` with its posts' times given on the game's clock ``tz``, each at the offset
    the zone has then (a fixed offset: two times in the hour a summer-time change repeats
    keep their order, which the zone itself would compare by the wall clock).  A page whose
    times already show the game's clock (a board in the game's zone) is kept as it is."""
    if all(
        _on_game_clock(post.posted_at, tz)
        and (post.edited_at is None or _on_game_clock(post.edited_at, tz))
        for post in page.posts
    ):
        return page
    posts = tuple(
        replace(
            post,
            posted_at=_on_clock(post.posted_at, tz),
            edited_at=_on_clock(post.edited_at, tz) if post.edited_at else None,
        )
        for post in page.posts
    )
    return replace(page, posts=posts)


def _on_game_clock(moment: datetime, tz: ZoneInfo) -> bool:
    """Whether ``moment`` is written at the offset the game's zone has at that time (a time
    given in the zone itself is: an API answer's unix seconds)."""
    return moment.tzinfo is tz or moment.utcoffset() == tz.utcoffset(moment.replace(tzinfo=None))


def _on_clock(moment: datetime, tz: ZoneInfo) -> datetime:
    local = moment.astimezone(tz)
    return local.replace(tzinfo=_fixed(local.utcoffset()))


@lru_cache(maxsize=64)
def _fixed(offset: timedelta) -> timezone:
    return timezone(offset)


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
