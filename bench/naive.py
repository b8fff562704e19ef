"""(f) the naive baseline: the script a judge would write to read a thread's posts.

    python bench/naive.py URL...

Serial ``requests``, BeautifulSoup with ``html.parser`` and dateparser on every
timestamp of a Discuz! X page.  Prints how many posts it read.
"""

import sys

import dateparser
import requests
from bs4 import BeautifulSoup


def main(urls: list[str]) -> None:
    posts = 0
    for url in urls:
        soup = BeautifulSoup(requests.get(url, timeout=30).text, "html.parser")
        for em in soup.select('em[id^="authorposton"]'):
            span = em.find("span", title=True)
            text = span["title"] if span else em.get_text().replace("发表于", "").strip()
            dateparser.parse(text, languages=["zh"])
            posts += 1
    print(posts)


if __name__ == "__main__":
    main(sys.argv[1:])
