"""The reading of a thread alone, timed inside its own process: killmod's or the least work's.

    python -m bench.read_only killmod URL CACHE
    python -m bench.read_only floor URL...

``killmod``: ``killmod.fetch.thread.read_thread`` of the thread at URL with the page cache
in CACHE, as a command reads it (imports done first, not timed).  ``floor``: the least work
of reading the same answers (``bench/floor_json.py``).  Prints the seconds the reading
took: what the fetch layer costs without a command's start, count or announcement.
"""

import sys
import time
from pathlib import Path
from zoneinfo import ZoneInfo


def main(mode: str, args: list[str]) -> None:
    if mode == "killmod":
        from killmod.fetch.http import Fetcher, FetchOptions
        from killmod.fetch.thread import read_thread

        url, cache = args
        started = time.perf_counter()
        with Fetcher(FetchOptions(cache=Path(cache))) as fetcher:
            read_thread(url, tz=ZoneInfo("Asia/Shanghai"), fetcher=fetcher)
    else:
        from bench.floor_json import main as least_work

        started = time.perf_counter()
        least_work(args)
    print(time.perf_counter() - started, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
