"""The floor: the least work any tool must do to read a thread's pages.

    python bench/floor.py URL...

As many processes as the machine has cores (forked), each with one keep-alive
``http.client`` connection to the board, fetching its share of the URLs in turn and parsing
each page with ``lxml.html.fromstring`` only: no posts read, no times, no cache, no
retries.  Run as its own process, like the commands it is the floor for.
"""

import http.client
import os
import sys
from multiprocessing import get_context
from urllib.parse import urlsplit

from lxml import html


def connect(url: str) -> http.client.HTTPConnection:
    """A keep-alive connection to ``url``'s host."""
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=30)


def fetch(connection: http.client.HTTPConnection, url: str) -> bytes:
    """The body at ``url``, asked over ``connection``."""
    parts = urlsplit(url)
    connection.request("GET", f"{parts.path}?{parts.query}" if parts.query else parts.path)
    return connection.getresponse().read()


def read(urls: list[str]) -> int:
    """Fetch and parse ``urls`` over one connection; the number of bytes read."""
    connection = connect(urls[0])
    size = 0
    for url in urls:
        body = fetch(connection, url)
        html.fromstring(body)
        size += len(body)
    connection.close()
    return size


def main(urls: list[str]) -> None:
    processes = min(os.cpu_count() or 1, len(urls))
    shares = [urls[n::processes] for n in range(processes)]
    if processes == 1:
        read(urls)
        return
    with get_context("fork").Pool(processes) as pool:
        pool.map(read, shares)


if __name__ == "__main__":
    main(sys.argv[1:])
