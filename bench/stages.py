"""Where a cold page's time goes: each stage of reading one Discuz! X thread page, beside
the floor's two (``bench/floor.py``).

    .venv/bin/python -m bench.stages [--pages N]

(run from the repository's folder, like ``bench.run``)

The unpaced board of ``bench.run`` serves a vote thread of N pages (default 100); every
page is asked once before timing, so the board only sends.  Each stage runs over all the
pages in one process, the best of 5 passes, as milliseconds per page.  The fixed costs of
a command (start, imports, the count, the document) are ``bench.run``'s start rows.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lxml import html as lxml_html

from bench.floor import connect, fetch
from bench.run import SHANGHAI, big_thread, page_urls, unpaced_board
from killmod.fetch.cache import PageCache, ParsedPage
from killmod.fetch.http import Fetcher, FetchOptions
from killmod.fetch.pages import parse_page
from scrapers import discuz_x
from scrapers.base import document
from scrapers.charset import decode_html

PASSES = 5


def per_page(stage: Callable[[], object], pages: int) -> float:
    """The best of ``PASSES`` runs of ``stage`` over every page, in ms per page."""
    best = float("inf")
    for _ in range(PASSES):
        started = time.perf_counter()
        stage()
        best = min(best, time.perf_counter() - started)
    return best / pages * 1000


def stages(urls: list[str], fetcher: Fetcher, cache: PageCache) -> list[tuple[str, float]]:
    n = len(urls)
    connection = connect(urls[0])
    fetched = [fetcher.fetch(url) for url in urls]
    bodies = [page.body for page in fetched]
    texts = [decode_html(page.body, page.header_charset) for page in fetched]
    parsed = [parse_page(page, tz=SHANGHAI, forum=discuz_x.NAME)[1] for page in fetched]
    kept = [
        ParsedPage(discuz_x.NAME, SHANGHAI.key, page, discuz_x.fingerprint(body))
        for page, body in zip(parsed, bodies, strict=True)
    ]
    rows = [
        (
            "fetch: http.client, keep-alive (the floor's)",
            per_page(lambda: [fetch(connection, u) for u in urls], n),
        ),
        (
            "fetch: killmod's Fetcher (requests)",
            per_page(lambda: [fetcher.fetch(u) for u in urls], n),
        ),
        (
            "parse: lxml of the bytes (the floor's)",
            per_page(lambda: [lxml_html.fromstring(b) for b in bodies], n),
        ),
        (
            "decode the page's charset (part of the read)",
            per_page(lambda: [decode_html(p.body, p.header_charset) for p in fetched], n),
        ),
        (
            "parse: lxml of the text (killmod's tree)",
            per_page(lambda: [document(t) for t in texts], n),
        ),
        (
            "read: bytes to posts (charset and tree included)",
            per_page(lambda: [parse_page(p, tz=SHANGHAI, forum=discuz_x.NAME) for p in fetched], n),
        ),
        (
            "fingerprint of the bytes",
            per_page(lambda: [discuz_x.fingerprint(b) for b in bodies], n),
        ),
        (
            "cache: the page and its posts written",
            per_page(lambda: [cache.put(p, k) for p, k in zip(fetched, kept, strict=True)], n),
        ),
        (
            "hand-over from a worker (pickle both ways)",
            per_page(lambda: [pickle.loads(pickle.dumps(p)) for p in parsed], n),
        ),
    ]
    connection.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=100, help="pages of the thread (≥ 2)")
    pages = max(parser.parse_args().pages, 2)
    thread = big_thread(pages)
    with (
        unpaced_board(thread) as (base, _server, _env),
        Fetcher(FetchOptions()) as fetcher,
        tempfile.TemporaryDirectory(prefix="killmod-stages-") as folder,
    ):
        urls = page_urls(base, thread)
        for url in urls:  # every answer rendered once: the board only sends
            fetcher.fetch(url)
        rows = stages(urls, fetcher, PageCache(Path(folder)))
    width = max(len(name) for name, _ in rows)
    python = sys.version.split()[0]
    print(f"ms per page, best of {PASSES} passes over {pages} pages (Python {python}):")
    for name, ms in rows:
        print(f"  {name:<{width}}  {ms:6.3f}")


if __name__ == "__main__":
    main()
