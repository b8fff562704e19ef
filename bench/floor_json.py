"""The least work to read a thread from the mobile API: a bare keep-alive client.

    python bench/floor_json.py URL...

One ``http.client`` connection to the board, the URLs asked in turn and each answer parsed
with ``json.loads``: no posts read out, no times, no cache, no checks, no retries.  Run as
its own process, like the commands it is the floor for.  Prints how many posts it got.
"""

import http.client
import json
import sys
from urllib.parse import urlsplit


def main(urls: list[str]) -> None:
    parts = urlsplit(urls[0])
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=60)
    posts = 0
    for url in urls:
        parts = urlsplit(url)
        connection.request("GET", f"{parts.path}?{parts.query}")
        posts += len(json.loads(connection.getresponse().read())["Variables"]["postlist"])
    connection.close()
    print(posts)


if __name__ == "__main__":
    main(sys.argv[1:])
