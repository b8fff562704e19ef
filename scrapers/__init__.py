"""Forum formats: one module per format, picked by URL pattern and page signature.

Adding a board means adding one module implementing ``scrapers.base.Scraper`` (its
name, how it recognises, reads and pages the format, the board's message pages, its
views with seconds or other views), with its own examples in ``TESTS`` (a page-builder
call and the posts it must yield, run by ``tests/test_scraper_examples.py``), and
listing it in ``SCRAPERS``.
"""

from __future__ import annotations

from killmod.core.errors import BadInput, TallyFailed
from scrapers import (
    discuz7,
    discuz7_archiver,
    discuz7_printable,
    discuz_x,
    discuz_x_archiver,
    discuz_x_mobile,
    discuz_x_printable,
    sohu,
)
from scrapers.base import Scraper, ThreadViews

# More specific formats first: an API answer, a printable or archiver page is no viewthread
# page.
SCRAPERS: tuple[Scraper, ...] = (
    discuz_x_mobile,
    discuz_x_printable,
    discuz_x_archiver,
    sohu,
    discuz_x,
    discuz7_printable,
    discuz7_archiver,
    discuz7,
)


def names() -> list[str]:
    """The names ``--forum`` accepts."""
    return [scraper.NAME for scraper in SCRAPERS]


def find(name: str) -> Scraper | None:
    """The scraper called ``name``, if there is one (a profile's name is none)."""
    return next((scraper for scraper in SCRAPERS if name == scraper.NAME), None)


def by_name(name: str) -> Scraper:
    """The scraper called ``name``; an unknown name is bad usage."""
    scraper = find(name)
    if scraper is not None:
        return scraper
    raise BadInput(f"未知的论坛格式「{name}」。可用：{'、'.join(names())}")


def pick(url: str, html: str) -> Scraper:
    """The first scraper that recognises this page."""
    for scraper in SCRAPERS:
        if scraper.matches(url, html):
            return scraper
    raise TallyFailed(f"无法识别的论坛页面格式：{url}（可用 --forum 指定：{'、'.join(names())}）")


def views(url: str, forum: str | None) -> ThreadViews | None:
    """The views of the thread at ``url`` a read plan may mix: as the format ``forum``
    offers them, or (no format named) as the first format that knows the URL does."""
    if forum is not None:
        return by_name(forum).views(url)
    return next((found for scraper in SCRAPERS if (found := scraper.views(url))), None)


def board_message(url: str, html: str, scraper: Scraper | None = None) -> str | None:
    """Why the board answered ``url`` with ``html`` instead of a thread page, in Chinese:
    as ``scraper`` recognises its board's message pages, else as any format does (a board
    answers in its own software's words whichever view, or profile, read it); None when
    the page is no message page."""
    asked = [scraper.board_message] if scraper is not None else []
    detectors = dict.fromkeys([*asked, *(known.board_message for known in SCRAPERS)])
    return next((message for detect in detectors if (message := detect(url, html))), None)
