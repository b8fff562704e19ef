"""What every scraper shares: the error it raises and small HTML helpers.

A scraper module knows one forum format and nothing about games.  It offers
``NAME``, ``matches(url, html)``, ``parse(html, *, tz, fetched_at) -> Page``
and ``page_url(url, n)``; the registry in ``scrapers/__init__.py`` picks one.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Protocol
from zoneinfo import ZoneInfo

from lxml import html as lxml_html

from killmod.errors import TallyFailed
from killmod.model import Page


class ScrapeError(TallyFailed):
    """A page that cannot be read as a thread page (an error page, a cut-off page…)."""


class Scraper(Protocol):
    """What reads one forum format: a scraper module, or a board described by a profile."""

    NAME: str

    def matches(self, url: str, html: str) -> bool: ...

    def parse(self, html: str, *, tz: ZoneInfo, fetched_at: datetime) -> Page: ...

    def page_url(self, url: str, n: int) -> str: ...


_SPACES = re.compile(r"[ \t\r\f\v\xa0\u3000]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


def document(html: str) -> lxml_html.HtmlElement:
    """Parse a whole page; an empty or non-HTML page is a ScrapeError."""
    if not html.strip():
        raise ScrapeError("页面是空的")
    try:
        return lxml_html.document_fromstring(html)
    except (ValueError, lxml_html.etree.ParserError) as error:
        raise ScrapeError(f"页面不是可读的 HTML（{error}）") from error


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


# Discuz prints its own clock in the footer: "GMT+8, 2019-5-12 21:58".
_BOARD_CLOCK = re.compile(r"GMT([+-]\d+(?:\.\d+)?)?, (\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{2})")


def board_clock(html: str) -> datetime | None:
    """The time the board says it rendered the page (its footer clock), if it says.

    Relative times ("9 小时前") are counted back from the board's own clock; a
    saved page's file time says when it was copied, not when it was rendered.
    """
    found = _BOARD_CLOCK.search(html, max(0, len(html) - 20000))
    if not found:
        return None
    offset, year, month, day, hour, minute = found.groups()
    zone = timezone(timedelta(hours=float(offset or 0)))
    return datetime(int(year), int(month), int(day), int(hour), int(minute), tzinfo=zone)
