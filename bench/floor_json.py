"""The least work to read a thread from the mobile API: a bare keep-alive client.

    python bench/floor_json.py [--libraries | --modules FILE] URL...

One ``http.client`` connection to the board, the URLs asked in turn and each answer parsed
with ``json.loads``: no posts read out, no times, no cache, no checks, no retries.  Run as
its own process, like the commands it is the floor for.  Prints how many posts it got.

``--libraries``: first import what any command built on the project's base libraries loads
before it reads a post — requests (urllib3 and ``ssl`` with it), click and jinja2 — and
nothing of killmod: what the least work costs a process that starts like a command.
``--modules FILE``: first import every module named in FILE, one a line — every module a
command loaded (``bench.run`` lists them from the command's ``-X importtime``): what the
least work costs a process that has loaded what the command loads, before it reads a post.
"""

import contextlib
import http.client
import importlib
import json
import sys
from collections.abc import Iterator
from urllib.parse import urlsplit

BASE_LIBRARIES = ("requests", "click", "jinja2")


def answers(urls: list[str]) -> Iterator[dict]:
    """Each URL's answer, parsed, asked in turn over one keep-alive connection."""
    parts = urlsplit(urls[0])
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=60)
    for url in urls:
        parts = urlsplit(url)
        connection.request("GET", f"{parts.path}?{parts.query}")
        yield json.loads(connection.getresponse().read())
    connection.close()


def main(urls: list[str]) -> None:
    print(sum(len(answer["Variables"]["postlist"]) for answer in answers(urls)))


def load_base_libraries() -> None:
    for name in BASE_LIBRARIES:
        __import__(name)


def load_modules(listed: str) -> None:
    with open(listed, encoding="utf-8") as names:
        listed_names = names.read().split()
    # killmod's own modules first: they import the rest as the command did (the game file's
    # module imports sqlite-utils with numpy hidden, killmod.game.store), the others after.
    ours = [name for name in listed_names if name.partition(".")[0] in ("killmod", "scrapers")]
    for name in ours + [name for name in listed_names if name not in ours]:
        # a platform's module the command looked for in vain (_winapi) is skipped
        with contextlib.suppress(ModuleNotFoundError):
            importlib.import_module(name)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--libraries"]:
        load_base_libraries()
        main(sys.argv[2:])
    elif sys.argv[1:2] == ["--modules"]:
        load_modules(sys.argv[2])
        main(sys.argv[3:])
    else:
        main(sys.argv[1:])
