"""Forum formats: one module per format, picked by URL pattern and page signature.

Adding a board means adding one module implementing ``scrapers.base.Scraper`` (its
name, how it recognises, reads and pages the format, the board's message pages, its
views with seconds or other views), with its own examples in ``TESTS`` (a page-builder
call and the posts it must yield, run by ``tests/test_scraper_examples.py``), and
listing it in ``SCRAPERS`` by its module's name (which is its ``NAME``).

A module is imported when it is first asked: recognising a Discuz! X page imports none of
Discuz! 7.2's three formats, which come after it (``pick`` stops at the first format that
recognises the page).
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module

from killmod.core.errors import BadInput, TallyFailed
from scrapers.base import Scraper, ThreadViews

# Each format's module (and its NAME), more specific formats first: an API answer, a
# printable or archiver page is no viewthread page.
SCRAPERS: tuple[str, ...] = (
    "discuz_x_mobile",
    "discuz_x_printable",
    "discuz_x_archiver",
    "sohu",
    "discuz_x",
    "discuz7_printable",
    "discuz7_archiver",
    "discuz7",
)


def every() -> Iterator[Scraper]:
    """The formats in ``SCRAPERS``' order, each imported when the one before it is passed."""
    for name in SCRAPERS:
        yield import_module(f"scrapers.{name}")


def names() -> list[str]:
    """The names ``--forum`` accepts."""
    return list(SCRAPERS)


def find(name: str) -> Scraper | None:
    """The scraper called ``name``, if there is one (a profile's name is none)."""
    return import_module(f"scrapers.{name}") if name in SCRAPERS else None


def by_name(name: str) -> Scraper:
    """The scraper called ``name``; an unknown name is bad usage."""
    scraper = find(name)
    if scraper is not None:
        return scraper
    raise BadInput(f"未知的论坛格式「{name}」。可用：{'、'.join(names())}")


def pick(url: str, html: str) -> Scraper:
    """The first scraper that recognises this page."""
    for scraper in every():
        if scraper.matches(url, html):
            return scraper
    raise TallyFailed(f"无法识别的论坛页面格式：{url}（可用 --forum 指定：{'、'.join(names())}）")


def views(url: str, forum: str | None) -> ThreadViews | None:
    """The views of the thread at ``url`` a read plan may mix: as the format ``forum``
    offers them, or (no format named) as the first format that knows the URL does."""
    if forum is not None:
        return by_name(forum).views(url)
    return next((found for scraper in every() if (found := scraper.views(url))), None)


def board_message(url: str, html: str, scraper: Scraper | None = None) -> str | None:
    """Why the board answered ``url`` with ``html`` instead of a thread page, in Chinese:
    as ``scraper`` recognises its board's message pages, else as any format does (a board
    answers in its own software's words whichever view, or profile, read it); None when
    the page is no message page."""
    asked = [scraper.board_message] if scraper is not None else []
    detectors = dict.fromkeys([*asked, *(known.board_message for known in every())])
    return next((message for detect in detectors if (message := detect(url, html))), None)
