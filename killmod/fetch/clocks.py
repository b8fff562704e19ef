"""Each board's clock as its pages showed it during one command: its zone, and how far it is
from ours.

**The zone.**  A Discuz page declares the zone its times are shown in (its footer:
``GMT+8``): the logged-in reader's own setting, else the board's, so a judge whose account
is set to another zone sees every time shifted.  Each page is read in the zone it declares
(``Page.zone``); a view that declares none (a printable view, the archiver, the edit
notices of an API answer that shows no zone beside its unix seconds) shows the same board
clock, and is read in the zone this board's pages declared earlier in the command — or,
when none has yet, in the zone the page the format names declares (``Scraper.zone_url``:
the thread's first page), read first for it (``killmod.fetch.pages``).  A board whose
pages declare no zone anywhere is read in the game's zone.  A page of a format whose pages
declare their zone themselves, that declares none on a board whose other pages did, is
refused: its times cannot be placed (``BoardClocks.admit`` as each page is read;
``killmod.fetch.whole.check_zones`` when a thread's pages are made one, those parsed in
worker processes and a folder of saved pages included).

**The clock.**  Relative times ("30 秒前") count back from the board's clock when it rendered
the page: the HTTP ``Date`` of the answer, believed only where it agrees (within a minute)
with the page's own clock (the footer's) — or, on a page that shows none, with our clock
as far from it as this board's clock was on its other pages in this command (``skew``:
the ``Date`` minus our clock, taken from a page whose footer agreed with its ``Date``; none
known: our clock itself).  A proxy or a cache answering with its own ``Date`` is caught
either way.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import timedelta, tzinfo
from urllib.parse import urlsplit

from killmod.core.errors import TallyFailed
from killmod.core.model import Page
from killmod.core.times import zone_label


@dataclass
class _Board:
    """What one board's pages said: the zone (None: a page read for it declared none), the
    page that said it first, the formats whose pages declared it themselves, and how far its
    clock is from ours (None: no page showed both)."""

    zone: tzinfo | None
    url: str
    declaring: set[str] = field(default_factory=set)
    skew: timedelta | None = None


class BoardClocks:
    """The boards read in one command, by host: their zones and clocks (one per ``Fetcher``)."""

    def __init__(self) -> None:
        self._boards: dict[str, _Board] = {}
        self._lock = threading.Lock()
        self.learning = threading.RLock()  # one page read at a time to learn a board's zone

    def known(self, url: str) -> tzinfo | None:
        """The zone ``url``'s board declared in this command, if one of its pages did."""
        board = self._boards.get(_host(url))
        return board.zone if board is not None else None

    def skew(self, url: str) -> timedelta | None:
        """How far ``url``'s board's clock is from ours, as a page of it showed (its ``Date``
        agreeing with its footer); None when none has."""
        board = self._boards.get(_host(url))
        return board.skew if board is not None else None

    def asked(self, url: str) -> bool:
        """Whether ``url``'s board's zone is known, or known to be declared nowhere."""
        return _host(url) in self._boards

    def declared_none(self, url: str) -> None:
        """The page read to learn ``url``'s board's zone declares none (or is being read):
        its views are read in the game's zone, and no page is read for it again."""
        with self._lock:
            self._boards.setdefault(_host(url), _Board(None, url))

    def forget(self, url: str) -> None:
        """The page read to learn ``url``'s board's zone could not be read: ask again."""
        with self._lock:
            board = self._boards.get(_host(url))
            if board is not None and board.zone is None and not board.declaring:
                del self._boards[_host(url)]

    def clock_seen(self, url: str, skew: timedelta) -> None:
        """A page of ``url``'s board showed its clock ``skew`` from ours (its ``Date`` and its
        footer agreeing)."""
        with self._lock:
            board = self._boards.setdefault(_host(url), _Board(None, url))
            board.skew = skew

    def admit(self, url: str, scraper: str, page: Page, *, self_declaring: bool) -> None:
        """Record the zone ``page`` (read at ``url`` by the format ``scraper``) declares;
        ``self_declaring``: the format's pages declare their zone themselves.  Such a page
        that declares none, where this board's pages of the same format did, is refused."""
        host = _host(url)
        with self._lock:
            board = self._boards.get(host)
            if page.zone is not None:
                if board is None:
                    board = self._boards[host] = _Board(page.zone, url)
                elif board.zone is None:
                    board.zone, board.url = page.zone, url
                if self_declaring:
                    board.declaring.add(scraper)
                return
        if self_declaring and page.local_times and board is not None and scraper in board.declaring:
            raise TallyFailed(
                f"这一页没有注明时间是哪个时区的（页脚没有 GMT±N），而同一论坛的其他页面注明了"
                f" {zone_label(board.zone)}（{board.url}）：这一页的时间无法确定，已拒绝：{url}"
            )


def _host(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{parts.port or ''}"
