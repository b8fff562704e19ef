"""How the judge's page reads the board: the fetching options the commands' defaults give,
the board's clock beside the judge's, and which board the game is played on."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from killmod.core.errors import KillmodError
from killmod.fetch.cache import default_cache_dir
from killmod.fetch.http import Fetcher, FetchOptions

if TYPE_CHECKING:
    from killmod.game.store import Game


def page_fetching(cookies: Path | None = None, cache: Path | None = None) -> FetchOptions:
    """The commands' default fetching (paced, 0.2 s between requests to one board) with the
    page cache, as ``tally`` reads: a count again parses only the pages that changed."""
    return FetchOptions(cookies=cookies, cache=cache or default_cache_dir())


def board_skew(url: str, fetching: FetchOptions) -> float | None:
    """The board's clock less this machine's, in seconds, from the HTTP ``Date`` of one
    request to ``url`` (None: not a board's address, or no clock in its answer)."""
    if not url.startswith(("http://", "https://")):
        return None
    try:
        with Fetcher(fetching) as fetcher:
            asked = time.time()
            fetched = fetcher.fetch(url)
            answered = time.time()
    except KillmodError:
        return None
    if not fetched.exact_clock:
        return None
    midway = datetime.fromtimestamp((asked + answered) / 2, UTC)
    return round((fetched.fetched_at - midway).total_seconds())


def known_board(game: Game) -> str | None:
    """The board the judge speaks on: the one killmod last used for this game, else the
    board of its game thread or of a vote thread the file remembers (None: none known)."""
    from killmod.game.outbox import remembered_board
    from killmod.game.threads import remembered

    threads = remembered(game)
    known = [remembered_board(game), threads.game, *reversed(threads.votes.values())]
    return next((url for url in known if url and url.startswith(("http://", "https://"))), None)
