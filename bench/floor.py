"""(e) the floor: the least work any tool must do to read a thread's pages.

    python bench/floor.py URL...

Fetches the URLs with a bare concurrent ``requests`` loop (4 at once) and parses each
page with ``lxml.html.fromstring`` only: no posts read, no times, no cache.  Run as its
own process, like the commands it is the floor for.
"""

import sys
from concurrent.futures import ThreadPoolExecutor

import requests
from lxml import html


def main(urls: list[str]) -> None:
    session = requests.Session()
    with ThreadPoolExecutor(4) as pool:
        bodies = list(pool.map(lambda url: session.get(url, timeout=30).content, urls))
    for body in bodies:
        html.fromstring(body)


if __name__ == "__main__":
    main(sys.argv[1:])
