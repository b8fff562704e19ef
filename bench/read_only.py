"""The reading of a thread alone, timed inside its own process: killmod's or the least work's.

    python -m bench.read_only killmod URL CACHE
    python -m bench.read_only floor URL...

``killmod``: ``killmod.fetch.thread.read_thread`` of the thread at URL with the page cache
in CACHE, as a command reads it.  ``floor``: the least work of reading the same answers
(``bench/floor_json.py``).  Both import their modules before the clock starts — the ones
``read_thread`` loads only once it is given a URL too (``READ_MODULES``): a module still
imported while the clock runs is named on stderr, so that the two are timed alike.  Prints
the seconds the reading took: what the fetch layer costs without a command's start, count
or announcement.
"""

import importlib
import sys
import time
from pathlib import Path
from zoneinfo import ZoneInfo

# What reading a thread from the API loads on first use (killmod imports them lazily, so
# that a saved page's tally loads none of them).
READ_MODULES = (
    "requests",
    "requests.utils",
    "urllib3",
    "concurrent.futures.thread",
    "encodings.idna",
    "killmod.fetch.plan",
    "killmod.fetch.api",
    "killmod.fetch.pages",
    "killmod.fetch.clocks",
    "scrapers",
    "scrapers.discuz_x_mobile_zone",
)


def main(mode: str, args: list[str]) -> None:
    if mode == "killmod":
        from killmod.fetch.http import Fetcher, FetchOptions
        from killmod.fetch.thread import read_thread

        for name in READ_MODULES:
            importlib.import_module(name)
        url, cache = args
        before = set(sys.modules)
        started = time.perf_counter()
        with Fetcher(FetchOptions(cache=Path(cache))) as fetcher:
            read_thread(url, tz=ZoneInfo("Asia/Shanghai"), fetcher=fetcher)
    else:
        from bench.floor_json import main as least_work

        importlib.import_module("encodings.idna")  # what http.client loads for a host name
        before = set(sys.modules)
        started = time.perf_counter()
        least_work(args)
    seconds = time.perf_counter() - started
    late = sorted(set(sys.modules) - before)
    if late:
        print(f"imported while timed: {', '.join(late)}", file=sys.stderr)
    print(seconds, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
