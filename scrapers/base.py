"""What every scraper is and shares: the interface, the error it raises, small HTML helpers.

A scraper knows one forum format and nothing about games; everything the fetch layer
needs to know about a board it asks a scraper (``Scraper``): which pages a URL names and
how to reach page N, how to read a page, whether a page is the board's message instead
of a thread page, where the board shows the same posts' times to the second, and which
other views of the thread it offers.  The registry in ``scrapers/__init__.py`` picks one.
Whether a page is the one asked for is checked in one place, ``killmod.fetch.identity``,
from what the scrapers report.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import NamedTuple, Protocol

from lxml import html as lxml_html

from killmod.core.errors import TallyFailed
from killmod.core.model import Page
from killmod.core.times import BoardClock, format_local, zone_from_gmt


class ScrapeError(TallyFailed):
    """A page that cannot be read as a thread page (an error page, a cut-off page…)."""


class VersionRefused(ScrapeError):
    """A view that refuses the version of it asked for (another version may answer: the
    mobile API's ``ThreadViews.api_versions``)."""


class Address(NamedTuple):
    """The thread (its id on the board) and the page a URL asks for; None where the URL
    does not say."""

    thread: str | None = None
    page: int | None = None


class Scraper(Protocol):
    """What reads one forum format: a scraper module, or a board described by a profile.

    ``NAME`` is the format's name (``--forum``); ``AGAIN_ON_REDIRECT``: a redirect is no
    page of this format, so the URL is asked again instead of followed.  A format whose
    ``parse`` also takes ``texts=False`` — who posted when alone, the messages not read —
    says so with ``WHO_AND_WHEN = True`` (the mobile API's; ``killmod.fetch.pages``).
    """

    NAME: str
    AGAIN_ON_REDIRECT: bool

    def matches(self, url: str, html: str) -> bool:
        """Whether the page at ``url`` (its text ``html``, maybe empty) is of this format."""

    def parse(self, html: str, *, tz: tzinfo, clock: BoardClock) -> Page:
        """One page read into a ``Page``; a page it cannot read is a ``ScrapeError``.

        A page that declares the zone its times are shown in (Discuz's footer: GMT+8) is
        read in that zone and says so (``Page.zone``); a page that declares none is read in
        ``tz``, the board's zone as the fetch layer knows it.  Relative times count back
        from ``clock`` (``page_clock``: the page's own clock, where it shows one, checks
        it)."""

    def zone_url(self, url: str) -> str | None:
        """A page of the same board that declares the zone this view's times are shown in,
        when this view declares none (the thread's first page, for a printable view);
        None: the view declares its own, or the board declares none anywhere."""

    def page_url(self, url: str, n: int) -> str:
        """The URL of page ``n`` of the thread ``url`` belongs to."""

    def address(self, url: str) -> Address:
        """The thread and page ``url`` asks for."""

    def board_message(self, url: str, html: str) -> str | None:
        """Why the board answered ``url`` with ``html`` instead of a thread page, in
        Chinese; None when the page is no message page of this format's board."""

    def seconds_view(self, url: str) -> SecondsView | None:
        """Where the board shows the thread's times to the second when this format shows
        minutes; None: nowhere."""

    def views(self, url: str) -> ThreadViews | None:
        """The other views of the thread a read plan may mix in; None: the thread is read
        from this format's pages alone."""

    def fingerprint(self, body: bytes) -> str:
        """What a page's bytes hold, for telling a page fetched again from the one before."""


class SecondsView(NamedTuple):
    """Where a board shows a thread's post times to the second: the scraper of that view,
    the view's first page, its name in the audit's list of views read (``ViewRead``) and in
    the judge's words."""

    scraper: Scraper
    url: str
    name: str
    words: str


@dataclass(frozen=True)
class ThreadViews:
    """The views a board offers of one thread, for the read plan (``killmod.fetch.plan``).

    ``given`` is the view the URL asked for (``api``, ``printable``, ``archiver`` or
    ``pages``).  ``pages`` reads the thread pages from ``pages_url`` (its first page), whose
    size is ``page_size`` posts until a page read shows the board's; ``api`` reads the
    whole thread with exact times at ``api_url(posts_a_page, page, version)``, asking the
    ``api_versions`` in turn where the board refuses one (the first keeps the edit
    notices); ``printable`` reads the edit notices of the first ``printable_limit`` posts at
    ``printable_url``; ``archiver`` reads the times to the second.
    """

    given: str
    pages: Scraper
    pages_url: str
    page_size: int
    api: Scraper
    api_url: Callable[[int, int, int], str]
    api_versions: tuple[int, ...]
    printable: Scraper
    printable_url: str
    printable_limit: int
    archiver: Scraper


def no_board_message(url: str, html: str) -> None:
    """A format with no message page of its own: the board's words, if any, are another
    format's to recognise."""
    return None


def no_seconds_view(url: str) -> None:
    """A format whose board shows no finer times elsewhere."""
    return None


def no_views(url: str) -> None:
    """A format read from its own pages alone."""
    return None


def no_zone_url(url: str) -> None:
    """A format whose pages declare their own zone, or whose board declares none."""
    return None


def declares_own_zone(scraper: Scraper) -> bool:
    """Whether the format's pages declare their zone themselves (or its board declares none
    anywhere): its ``zone_url`` names no other page to learn it from."""
    return getattr(scraper, "zone_url", no_zone_url) is no_zone_url


def sha256_fingerprint(body: bytes) -> str:
    """What a page holds: the SHA-256 of its bytes (hashlib loads OpenSSL: only for a page
    kept in the cache)."""
    import hashlib

    return hashlib.sha256(body).hexdigest()


_SPACES = re.compile(r"[ \t\r\f\v\xa0\u3000]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


_PARSERS = threading.local()


def html_parser() -> lxml_html.HTMLParser:
    """This thread's HTML parser (lxml's parsers are not shared between threads).

    ``huge_tree``: without it libxml2 drops a text node over 10 MB *and everything after
    it* without a word, and a page would read as one with its last posts missing.  A
    page's size is bounded by the fetcher, not here.
    """
    parser = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = _PARSERS.parser = lxml_html.HTMLParser(huge_tree=True)
    return parser


def document(html: str) -> lxml_html.HtmlElement:
    """Parse a whole page; an empty or non-HTML page is a ScrapeError."""
    if not html.strip():
        raise ScrapeError("页面是空的")
    try:
        return lxml_html.document_fromstring(html, parser=html_parser())
    except (ValueError, lxml_html.etree.ParserError) as error:
        raise ScrapeError(f"页面不是可读的 HTML（{error}）") from error


def fragment(html: str) -> lxml_html.HtmlElement:
    """Parse part of a page into one ``div`` holding it."""
    return lxml_html.fragment_fromstring(html, create_parent="div", parser=html_parser())


_HTML_END = re.compile(r"</html\s*>", re.IGNORECASE)
_HTML_END_BYTES = re.compile(rb"</html\s*>", re.IGNORECASE)
_END_ZONE = 16384  # characters at the end of a page where its </html> is looked for first


def has_html_end(page: str | bytes) -> bool:
    """Whether a page (text or bytes) has its ``</html>``: looked for near the end first,
    where it is, rather than through the whole page."""
    end = _HTML_END if isinstance(page, str) else _HTML_END_BYTES
    return bool(end.search(page, max(0, len(page) - _END_ZONE)) or end.search(page))


def require_end(html: str) -> None:
    """A page must reach its ``</html>``: a page cut off (in transfer, or saved half-loaded)
    is a ScrapeError, never a page with its last posts silently missing."""
    if not has_html_end(html):
        raise ScrapeError("页面不完整（没有读到页面结尾 </html>，可能在传输或保存时被截断）")


def require_after_posts(found: bool, marker: str) -> None:
    """The part of the page that follows the post list (``marker`` names it) must be there:
    a page cut off and closed again (a browser saving a half-loaded page) reads as a
    complete page with its last posts missing."""
    if not found:
        raise ScrapeError(
            f"页面不完整（帖子列表之后的{marker}没有读到，页面可能只加载或保存了一半）"
        )


def named_pids(parts: re.Pattern[str], html: str) -> list[int]:
    """The pids a post's parts name in their ``id`` attributes (``id="postmessage_PID"``…).

    ``parts`` starts with the literal ``id="`` (fast to search for: a leading ``\\b``
    makes the search ~25× slower); the attribute's boundary is checked here.
    """
    return [
        int(found.group(1))
        for found in parts.finditer(html)
        if found.start() and html[found.start() - 1].isspace()
    ]


def require_named_posts(found: Iterable[int], named: Iterable[int]) -> None:
    """Every post id the page's parts name (``id="postmessage_PID"``…) must be a post read:
    a post whose container was damaged must not silently drop out of the page."""
    missing = sorted(set(named) - set(found))
    if missing:
        raise ScrapeError(
            f"页面结构损坏：帖子 pid={missing[0]} 的部分内容还在，帖子本身却读不出"
            "（页面可能被截断或改动过）"
        )


def require_parts(pid: object, author: str, has_text: bool) -> None:
    """A post the page shows must have an author and a text (or the board's banned notice):
    a damaged part is an error, never an empty author or text (which reads as no vote)."""
    if not author:
        raise ScrapeError(f"帖子 {pid} 读不出作者（页面不完整或被改动过）")
    if not has_text:
        raise ScrapeError(f"帖子 {pid} 读不出正文（页面不完整或被改动过）")


def board_edit_notice(message: lxml_html.HtmlElement) -> lxml_html.HtmlElement | None:
    """The board's own edit notice of a message: the ``i.pstatus`` ("本帖最后由 X 于 … 编辑")
    Discuz puts first in an edited message, before anything the author wrote.

    Only that element marks an edit: the same words typed in the text (or italicised
    further down) are the player's, and change nothing.
    """
    if (message.text or "").strip():
        return None
    first = next(message.iterchildren(), None)
    if first is None or first.tag != "i" or first.get("class") != "pstatus":
        return None
    return first


def require_post_count(read: int, shown: int) -> None:
    """As many posts read as the page shows by another mark (author lines, labels…)."""
    if read != shown:
        raise ScrapeError(
            f"页面结构损坏：页面上有 {shown} 处发帖标记，却只读出 {read} 个帖子"
            "（页面可能被截断或改动过）"
        )


def require_not_nested(elements: list) -> None:
    """Posts are siblings: a post found inside another one means the page's structure is
    broken (a lost closing tag), and the outer post's text may hold the inner one's."""
    chosen = set(elements)
    for element in elements:
        if any(ancestor in chosen for ancestor in element.iterancestors()):
            raise ScrapeError("页面结构损坏：一个帖子嵌在另一个帖子里（页面可能被截断或改动过）")


def require_agreement(readings: set, what: str) -> None:
    """Parts of a page that repeat one fact (the page bar above and below the posts) must
    agree: one of them is damaged otherwise."""
    if len(readings) > 1:
        raise ScrapeError(f"页面结构损坏：页面上的{what}前后不一致（页面可能被改动过）")


def element_text(element: lxml_html.HtmlElement) -> str:
    """The visible text of an element, with <br> and block ends as line breaks."""
    for br in element.iter("br"):
        br.tail = "\n" + (br.tail or "")
    return tidy_text(element.text_content())


def tidy_text(text: str) -> str:
    """Collapse runs of spaces inside lines and blank lines between them."""
    lines = (_SPACES.sub(" ", line).strip() for line in text.splitlines())
    return _BLANK_LINES.sub("\n", "\n".join(lines)).strip()


def drop(element: lxml_html.HtmlElement) -> None:
    """Remove an element but keep the text that follows it."""
    element.drop_tree()


# Discuz prints the zone it shows times in and its own clock in the footer, after the posts:
# "GMT+8, 2019-5-12 21:58" (X3: ``common/footer.htm``; 7.2 likewise); "GMT, …" is UTC.
_BOARD_CLOCK = re.compile(
    r"(GMT(?:[+-]\d+(?:\.\d+)?)?), (\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{2})"
)
_FOOTER_SPAN = 20000  # characters at the end of a page where the footer is looked for
# How far the HTTP ``Date`` may be from a clock shown to the minute, and still agree: the
# Date within the minute shown, give or take a minute.
_BEFORE_MINUTE = timedelta(seconds=60)
_AFTER_MINUTE = timedelta(seconds=119)


def page_clock(shown: datetime | None, clock: BoardClock, tz: tzinfo) -> BoardClock:
    """The clock relative times on a page count back from.

    ``clock`` is what the fetch layer knows: the HTTP ``Date`` (``slack`` 0, with a
    ``doubt`` when it disagrees with our clock), or a file's time or ours (``slack`` 59).
    The page's own clock ``shown`` (``board_clock``: the footer's, to the minute) checks the
    ``Date``: one within a minute of it is believed (our clock's doubt aside: the board
    counts from its own clock), one that is not is refused whenever a relative time needs
    it, naming both clocks.  Without a ``Date`` the page's clock is used, else ``clock``;
    ``tz`` is the game's zone, in which the clocks are named.
    """
    if shown is None:
        return clock
    if clock.slack:
        return BoardClock(shown, 59)
    if clock_agrees(clock.now, shown):
        return BoardClock(clock.now, 0)
    doubt = (
        f"论坛回答的 HTTP Date（{format_local(clock.now, tz)}）与页面页脚上论坛自己的时钟"
        f"（{format_local(shown, tz)}）相差一分钟以上（可能是代理或缓存给的）"
    )
    return BoardClock(clock.now, 0, doubt)


def clock_agrees(date: datetime, shown: datetime) -> bool:
    """Whether a clock to the second (``date``) agrees with one shown to the minute: within
    the minute shown, give or take a minute."""
    return shown - _BEFORE_MINUTE <= date <= shown + _AFTER_MINUTE


def board_clock(html: str) -> datetime | None:
    """The time the board says it rendered the page (its footer clock), if it says.

    Relative times ("9 小时前") are counted back from the board's own clock; a
    saved page's file time says when it was copied, not when it was rendered.
    """
    footer = _footer(html)
    if footer is None:
        return None
    label, year, month, day, hour, minute = footer.groups()
    zone = zone_from_gmt(label)
    if zone is None:
        return None
    return datetime(int(year), int(month), int(day), int(hour), int(minute), tzinfo=zone)


def declared_zone(html: str) -> tzinfo | None:
    """The zone a Discuz page declares its times are shown in (its footer's ``GMT+8``: the
    logged-in member's ``timeoffset``, else the board's), or None when it declares none."""
    footer = _footer(html)
    return zone_from_gmt(footer.group(1)) if footer is not None else None


def _footer(html: str) -> re.Match[str] | None:
    """The footer's "GMT+8, Y-n-j H:i": the last one on the page (a post above the footer
    may quote one; nothing a player writes comes after it)."""
    found = list(_BOARD_CLOCK.finditer(html, max(0, len(html) - _FOOTER_SPAN)))
    return found[-1] if found else None


# The thread every scraper's ``TESTS`` example is built from (each module's ``TESTS`` names
# the page builder, the URL and the posts its format must yield from it): the judge's opening
# post, a ballot a few seconds before 22:00 and one after it.
EXAMPLE_THREAD = {
    "tid": 3,
    "title": "【投票】第一天",
    "now": "2019-05-12T22:10:00+08:00",
    "posts": [
        {
            "pid": 501,
            "author": "法官",
            "uid": 1,
            "posted_at": "2019-05-12T21:00:05+08:00",
            "body": "第一天投票，22:00 截止",
        },
        {
            "pid": 502,
            "author": "白开水",
            "uid": 12,
            "posted_at": "2019-05-12T21:59:30+08:00",
            "body": "投 3 号",
        },
        {
            "pid": 503,
            "author": "花生米",
            "uid": 13,
            "posted_at": "2019-05-12T22:00:20+08:00",
            "body": "投白开水",
        },
    ],
}
