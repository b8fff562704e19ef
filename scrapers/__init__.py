"""Forum formats: one module per format, picked by URL pattern and page signature.

Adding a board means adding one module with ``NAME``, ``matches``, ``parse`` (a
``Page`` that says its page number, the thread's id and title), ``page_url`` and
``address`` (the thread and page a URL asks for), and listing it in ``SCRAPERS``.
"""

from __future__ import annotations

from types import ModuleType

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

# More specific formats first: an API answer, a printable or archiver page is no viewthread
# page.
SCRAPERS: tuple[ModuleType, ...] = (
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


def by_name(name: str) -> ModuleType:
    """The scraper called ``name``; an unknown name is bad usage."""
    for scraper in SCRAPERS:
        if name == scraper.NAME:
            return scraper
    raise BadInput(f"未知的论坛格式「{name}」。可用：{'、'.join(names())}")


def pick(url: str, html: str) -> ModuleType:
    """The first scraper that recognises this page."""
    for scraper in SCRAPERS:
        if scraper.matches(url, html):
            return scraper
    raise TallyFailed(f"无法识别的论坛页面格式：{url}（可用 --forum 指定：{'、'.join(names())}）")
