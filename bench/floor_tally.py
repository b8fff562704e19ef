"""The least a tally can do with a thread read from the mobile API, in a process that starts
like a command.

    python bench/floor_tally.py URL...

The base libraries loaded (``floor_json.load_base_libraries``: requests, click, jinja2),
then the least work (``floor_json.answers``: one keep-alive ``http.client`` connection,
the URLs in turn, ``json.loads``) and, for each post, the least a count needs: its author's uid, its
unix seconds, its message with any markup cut out by one pattern, one pattern for a ballot
(``投 N 号``, ``N号``, ``弃权``; Chinese numerals read by their digits), the author's standing
ballot, and a line of the change record when it changes — printed as one text.  Nothing a
judge could rely on: no identity or completeness check, no quotes, no edit notices, no
hidden text, no deadline, no roster, no template, no cache.  It bounds from below what
``tally`` of the same thread costs in Python.
"""

import re
import sys

from floor_json import answers, load_base_libraries

BALLOT = re.compile(r"(?:投\s*)?([0-9一二三四五六七八九十]+)\s*号?|弃权")
MARKUP = re.compile(r"<[^>]*>")


def main(urls: list[str]) -> None:
    standing: dict[str, str] = {}
    record = []
    for answer in answers(urls):
        for post in answer["Variables"]["postlist"]:
            uid, seconds, message = post["authorid"], int(post["dbdateline"]), post["message"]
            if "<" in message:
                message = MARKUP.sub("", message)
            ballot = BALLOT.search(message)
            if ballot is None:
                continue
            target = ballot.group(1) or "弃权"
            if standing.get(uid) != target:
                standing[uid] = target
                record.append(f"{uid}：{target}（{post['number']}楼 {seconds}）")
    sys.stdout.write("\n".join(record) + "\n")


if __name__ == "__main__":
    load_base_libraries()
    main(sys.argv[1:])
