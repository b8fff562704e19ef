"""Discuz! X3.x archiver: ``archiver/?tid-T.html&page=P`` (or ``archiver/tid-T.html?page=P``).

The view killmod reads for TIMES: it shows each post's time to the second (the viewthread's
``dgmdate``: "Y-n-j H:i:s", or a relative text in ``<span title="Y-n-j H:i:s">``), where
other views show minutes.  Its posts are a flat run inside ``div#content``
(``source/archiver/forum/viewthread.php``)::

    <p class="author"><strong>NAME</strong> 发表于 DATE</p>
    <h3>SUBJECT</h3>
    MESSAGE                      (archivermessage(): BBCode tags stripped, nl2br)

A banned author's or a blocked post has the author line only.  Deleted posts are left out
and pages go by stored position, so a page may hold fewer posts than the board's page size.
The page list is "页: [1] 2 3" (``div.page``, the current page in ``<strong>``): a window
of the pages from ten before this one to nine after it (``arch_multi()``), so page 1 of a
long thread lists 1–10 and the last page only the last pages; a page number past the end
is answered with the last page.  The thread's id is in the "查看完整版本" link.  There is
no charset meta: only the HTTP header says it (``scrapers.charset`` then takes UTF-8 when
the bytes are UTF-8).

Identity: no pid, floor or uid is shown.  ``pid`` is synthetic — ``page × 10000 +
position on the page`` (the page number read from the page itself, so a repeated last page
dedupes) — unique and in posting order within one reading.  ``floor`` is None: deleted
posts leave no trace, and the board's page size is not shown.

Quotes: with the ``[quote]`` tags stripped, a quote reads inline as "A 发表于 Y-n-j H:i",
then the excerpt (Discuz quotes at most 3 lines, 100 characters), then the reply.  The
header line is dropped with the excerpt: as many lines as match the start of A's post when
that post is on the same page, else one line.  The limit: an excerpt of several lines whose
post is on another page leaves its later lines in the body.  Ballots are read from
viewthread; this view settles times.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from urllib.parse import urlsplit, urlunsplit

from killmod.core.model import Page, Post
from killmod.core.times import BoardClock, clock_time, parse_edit_notice
from scrapers.base import (
    EXAMPLE_THREAD,
    Address,
    ScrapeError,
    document,
    no_seconds_view,
    no_views,
    require_after_posts,
    require_end,
    require_post_count,
    sha256_fingerprint,
    tidy_text,
)
from scrapers.board_messages import board_message as board_message
from scrapers.discuz_x import thread_url

NAME = "discuz_x_archiver"
AGAIN_ON_REDIRECT = False
fingerprint = sha256_fingerprint
seconds_view = no_seconds_view  # it is the view with seconds
views = no_views  # a view read as itself
zone_url = thread_url  # the view declares no zone: the thread page's footer does

PAGE_SPAN = 10000  # pid = page × PAGE_SPAN + position: far above any board's page size
EXCERPT_LINES = 3  # lines Discuz keeps of a quoted message
_TID = re.compile(r"tid-(\d+)\.html")
_FULL_VERSION_TID = re.compile(r"viewthread&(?:amp;)?tid=(\d+)")
_GENERATOR = re.compile(r'<meta name="generator" content="Discuz! X')
_EDIT_NOTICE = re.compile(r"\A\s*(本帖最[后後]由.+?[编編][辑輯])[^\n]*(?:\n|\Z)")
_QUOTE_HEADER = re.compile(r"(?P<author>.+?) 发表于 (?P<date>\d{4}-\d{1,2}-\d{1,2} \d{1,2}:\d{2})")
_WHITESPACE = re.compile(r"\s+")
# An author line: "<strong>NAME</strong> 发表于": one a post, whatever became of its <p>.
_AUTHOR_LINE = re.compile(r"</strong>\s*(?:发表于|發表於)")


def matches(url: str, html: str) -> bool:
    """A Discuz! X archiver thread page, by its generator meta and author lines."""
    return bool(_GENERATOR.search(html)) and "Archiver" in html and 'class="author"' in html


def page_url(url: str, n: int) -> str:
    """The URL of archiver page ``n`` of the thread that ``url`` belongs to."""
    parts = urlsplit(url)
    if _TID.search(parts.path):
        return urlunsplit(parts._replace(query=f"page={n}", fragment=""))
    tid = _TID.search(parts.query)
    if tid is None:
        raise ScrapeError(f"无法从网址中读出帖子编号：{url}")
    return urlunsplit(parts._replace(query=f"tid-{tid.group(1)}.html&page={n}", fragment=""))


def address(url: str) -> Address:
    """The thread and archiver page a URL asks for (page 1 when it names none)."""
    parts = urlsplit(url)
    tid = _TID.search(parts.path) or _TID.search(parts.query)
    page = re.search(r"(?:^|&)page=(\d+)", parts.query)
    return Address(tid.group(1) if tid else None, int(page.group(1)) if page else 1)


def parse(html: str, *, tz: tzinfo, clock: BoardClock) -> Page:
    """Read one archiver page into posts, its times in ``tz`` (the view declares no zone:
    it shows the board's, which the thread pages declare) counting relative ones back from
    ``clock``."""
    root = document(html)
    content = root.xpath('//div[@id="content"]')
    lines = content[0].xpath('./p[@class="author"]') if content else []
    if not lines:
        raise ScrapeError("页面里没有帖子（页面不完整，或不是 Discuz! X 的 Archiver 帖子页）")
    require_end(html)
    require_after_posts(bool(root.xpath('//div[@id="footer"]')), "页脚")
    require_post_count(len(lines), len(_AUTHOR_LINE.findall(html)))
    page_no, page_count = _pagination(content[0])
    posts: list[Post] = []
    for position, line in enumerate(lines, start=1):
        pid = page_no * PAGE_SPAN + position
        posts.append(_read_post(pid, line, posts, tz=tz, clock=clock))
    full = _FULL_VERSION_TID.search(html, max(0, len(html) - 4000)) or _FULL_VERSION_TID.search(
        html
    )
    return Page(
        posts=tuple(posts),
        page_no=page_no,
        page_count=page_count,
        title=_title(root),
        thread_id=full.group(1) if full else None,
    )


def _read_post(pid: int, line, earlier: list[Post], *, tz: tzinfo, clock: BoardClock) -> Post:
    names = line.xpath("./strong")
    author = tidy_text(names[0].text_content()) if names else ""
    posted_at, precision = _post_time(line, tz=tz, clock=clock)
    message = _message_text(line)
    body, quotes, edited_at = (
        ("", (), None) if message is None else _body(message, earlier, tz, posted_at)
    )
    return Post(
        pid=pid,
        floor=None,
        author=author,
        uid=None,
        posted_at=posted_at,
        precision=precision,
        body=body,
        quotes=quotes,
        edited_at=edited_at,
        banned=message is None,
    )


def _post_time(line, *, tz: tzinfo, clock: BoardClock):
    titled = line.xpath("./span[@title]")
    if titled:
        return clock_time(clock, titled[0].text_content(), tz, titled[0].get("title"))
    names = line.xpath("./strong")
    text = names[0].tail if names else line.text_content()
    return clock_time(clock, tidy_text(text or ""), tz)


def _following_text(line) -> str:
    """The text after an author line up to the next post's."""
    parts = [line.tail or ""]
    for element in line.itersiblings():
        if element.get("class") in ("author", "page"):
            break
        parts += [element.text_content(), element.tail or ""]
    return "".join(parts)


def _message_text(line) -> str | None:
    """The text after a post's author line up to the next one; None when the post has none.

    Discuz prints no ``<h3>`` (nor message) for a banned author's or a blocked post.
    """
    subject = line.getnext()
    if subject is None or subject.tag != "h3":
        if _following_text(line).strip():
            raise ScrapeError("帖子结构损坏：正文前缺少标题行（页面可能被改动过）")
        return None
    if subject.xpath(".//br"):  # a subject is one line: this one swallowed the message
        raise ScrapeError("帖子结构损坏：正文落在了标题行里（页面可能被改动过）")
    parts = [subject.tail or ""]
    for element in subject.itersiblings():
        if element.get("class") in ("author", "page"):
            break
        parts.append("\n" if element.tag == "br" else element.text_content())
        parts.append(element.tail or "")
    return "".join(parts)


def _body(
    text: str, earlier: list[Post], tz: tzinfo, posted_at: datetime
) -> tuple[str, tuple[str, ...], datetime | None]:
    # The archiver shows the board's notice as plain text, like one a player types: only
    # one at the very start, with a possible time after the post's, is taken as it.
    edited_at = None
    notice = _EDIT_NOTICE.match(text)
    if notice:
        edited_at = parse_edit_notice(notice.group(1), tz)
        if edited_at is not None and edited_at >= posted_at.replace(second=0):
            text = text[notice.end() :]
        else:
            edited_at = None
    lines = tidy_text(text).splitlines()
    quotes = ()
    header = _QUOTE_HEADER.fullmatch(lines[0]) if lines else None
    if header:
        size = 1 + _excerpt_lines(lines[1:], header, earlier, tz)
        quotes = ("\n".join(lines[:size]),)
        lines = lines[size:]
    return "\n".join(lines), quotes, edited_at


def _excerpt_lines(lines: list[str], header: re.Match[str], earlier: list[Post], tz) -> int:
    """How many of ``lines`` are the quote's excerpt (at least one, at most three)."""
    quoted_at = datetime.strptime(header["date"], "%Y-%m-%d %H:%M").replace(tzinfo=tz)
    source = next(
        (
            post
            for post in reversed(earlier)
            if post.author == header["author"] and post.posted_at.replace(second=0) == quoted_at
        ),
        None,
    )
    if source is None or not source.body:
        return min(1, len(lines))
    quoted = [_squeeze(line) for line in source.body.splitlines()]
    count = 0
    for mine, theirs in zip(lines[:EXCERPT_LINES], quoted, strict=False):
        excerpt = _squeeze(mine).removesuffix("...")
        if not excerpt or not theirs.startswith(excerpt):
            break
        count += 1
    return max(count, min(1, len(lines)))


def _squeeze(text: str) -> str:
    """Text without whitespace: the archiver drops double spaces, excerpts keep them."""
    return _WHITESPACE.sub("", text)


def _pagination(content) -> tuple[int, int]:
    """(this page, pages) from the page list "页: [2] 1 3": every page, this one in brackets."""
    bars = content.xpath('./div[@class="page"]')
    if not bars:
        if content.xpath('.//a[contains(@href, "page=")]'):
            raise ScrapeError("页面结构损坏：有其他页的链接却没有页码列表（页面可能被改动过）")
        return 1, 1
    text = bars[0].text_content()
    current = re.search(r"\[(\d+)\]", text)
    if current is None:
        raise ScrapeError("页面结构损坏：页码列表里没有当前页码（页面可能被改动过）")
    page_no = int(current.group(1))
    return page_no, max([page_no, *map(int, re.findall(r"\d+", text))])


def _title(root) -> str | None:
    """The thread title: the navigation line's last part, after the forum's link."""
    navigation = root.xpath('//div[@id="nav"]/a[last()]')
    if not navigation:
        return None
    return tidy_text((navigation[0].tail or "").replace("›", "")) or None


# This format's own examples (the yt-dlp habit): which page builder of tests/support/ serves
# the thread, and the posts reading ``url`` from it must yield
# (tests/test_scraper_examples.py runs every scraper's).
TESTS = [
    {
        "note": "no pid, floor or uid: pid is page × 10000 + position, times to the second",
        "site": "discuz_x_archiver_site",
        "args": {},
        "thread": EXAMPLE_THREAD,
        "url": "/archiver/?tid-3.html",
        "posts": [
            {
                "floor": None,
                "pid": 10001,
                "author": "法官",
                "uid": None,
                "time": "2019-05-12T21:00:05+08:00",
                "text": "第一天投票，22:00 截止",
            },
            {
                "floor": None,
                "pid": 10002,
                "author": "白开水",
                "uid": None,
                "time": "2019-05-12T21:59:30+08:00",
                "text": "投 3 号",
            },
            {
                "floor": None,
                "pid": 10003,
                "author": "花生米",
                "uid": None,
                "time": "2019-05-12T22:00:20+08:00",
                "text": "投白开水",
            },
        ],
    },
]
