"""Discuz! X3.x printable view (打印本页): ``forum.php?mod=viewthread&action=printable&tid=T``.

The board's ``forum/viewthread_printable.htm`` prints the first 100 visible posts of a
thread on one page, each after an ``<hr noshade …>``::

    <b>作者: </b>NAME&nbsp; &nbsp; <b>时间: </b>DATE
    <br />
    [<b>标题: </b>SUBJECT<br />] MESSAGE

DATE is ``dgmdate(dateline, 'u')``: "Y-n-j H:i", or a relative text inside
``<span title="Y-n-j H:i">`` — never seconds, so every post is minute precision.  The
message is the viewthread's (``div.quote`` quotes, ``i.pstatus`` edit notice); a banned
author's or a blocked post's message is "提示: <em>作者被禁止或删除 内容自动屏蔽</em>" (or
"…该帖被管理员或版主屏蔽").  Signatures are not shown.

Identity: the page shows no pid, floor or uid of its posts (a quote link names the *quoted*
post's pid only), and deleted posts are left out without a gap.  So ``pid`` is the post's
position in the view (1 = the opening post): a synthetic id, unique and in posting order
within the view, not the board's pid.  ``floor`` is None: after a deleted post the position
is no longer the board's floor, and a wrong floor would misplace the judge's rulings.
``uid`` is None.  A page holding 100 posts may stop short of the thread's end: it says so
(``Page.partial``), and is read alone only by a plan that knows the thread's length.
"""

from __future__ import annotations

import base64
import binascii
import re
from datetime import datetime, tzinfo
from urllib.parse import parse_qs, urlsplit

from lxml import html as lxml_html

from killmod.core.model import Page, Post
from killmod.core.times import BoardClock, clock_time
from scrapers.base import (
    EXAMPLE_THREAD,
    Address,
    ScrapeError,
    document,
    drop,
    element_text,
    fragment,
    no_views,
    require_after_posts,
    require_end,
    require_post_count,
    sha256_fingerprint,
    tidy_text,
)
from scrapers.board_messages import board_message as board_message
from scrapers.discuz_x import board_root, edit_time, thread_url
from scrapers.discuz_x import seconds_view as seconds_view
from scrapers.hidden import take_hidden

NAME = "discuz_x_printable"
AGAIN_ON_REDIRECT = False
fingerprint = sha256_fingerprint
views = no_views  # a view read as itself: --forum discuz_x_printable
zone_url = thread_url  # the view declares no zone: the thread page's footer does

LIMIT = 100  # posts the printable view shows at most
_SEPARATOR = re.compile(r"<hr\s+noshade[^>]*>", re.IGNORECASE)
_BANNED = ("作者被禁止或删除", "该帖被管理员或版主屏蔽")
_GENERATOR = re.compile(r"Powered by Discuz! X")
# The page's own address, base64 in the head's script (for the board's report link).
_REPORT_URL = re.compile(r"REPORTURL = '([A-Za-z0-9+/=]+)'")
# Anti-copy noise Discuz inserts into messages, and the image-viewer scripts it adds after
# them: never part of what a player wrote.
_NOISE = (
    './/font[@class="jammer"] | .//span[contains(translate(@style, " ", ""), "display:none")]'
    " | .//script"
)


def matches(url: str, html: str) -> bool:
    """A Discuz! X printable page, by its URL or by its header lines and footer."""
    parts = urlsplit(url) if url else None
    if parts and parts.path.endswith("forum.php") and "action=printable" in parts.query:
        return True
    return "[打印本页]" in html and "<b>作者: </b>" in html and bool(_GENERATOR.search(html))


def page_url(url: str, n: int) -> str:
    """The printable view is one page: every ``n`` is the same URL."""
    return url


def printable_url(url: str) -> str | None:
    """The printable view of the thread a Discuz! X URL (any view) names; None when it names
    no thread."""
    found = board_root(url)
    return thread_printable_url(*found) if found else None


def thread_printable_url(root: str, tid: str) -> str:
    """The printable view of thread ``tid`` of the board at ``root``."""
    return f"{root}forum.php?mod=viewthread&action=printable&tid={tid}"


def address(url: str) -> Address:
    """The thread a printable URL asks for; the view is one page."""
    tid = parse_qs(urlsplit(url).query).get("tid", [""])[0]
    return Address(tid if tid.isdigit() else None, 1)


def parse(html: str, *, tz: tzinfo, clock: BoardClock) -> Page:
    """Read the printable page into posts, its times in ``tz`` (the view declares no zone:
    it shows the board's, which the thread pages declare) counting relative ones back from
    ``clock``."""
    head, *chunks = _SEPARATOR.split(html)
    blocks = [block for chunk in chunks if (block := _post_block(chunk)) is not None]
    posts = tuple(
        _read_post(position, block, tz=tz, clock=clock)
        for position, block in enumerate(blocks, start=1)
    )
    if not posts:
        raise ScrapeError("页面里没有帖子（页面不完整，或不是 Discuz! X 的打印版页面）")
    require_end(html)
    require_after_posts(bool(_GENERATOR.search(chunks[-1])), "页脚（Powered by Discuz! X）")
    # Each post has a rule before it, an author and a time label: the footer one more rule.
    for shown in (len(chunks) - 1, html.count("<b>作者: </b>"), html.count("<b>时间: </b>")):
        require_post_count(len(posts), shown)
    return Page(
        posts=posts,
        page_no=1,
        page_count=1,
        title=_title(head),
        thread_id=_thread_id(head),
        partial=len(posts) >= LIMIT,
    )


def _thread_id(head: str) -> str | None:
    """The tid of the page's own address, as the head's script gives it."""
    found = _REPORT_URL.search(head)
    try:
        own = base64.b64decode(found.group(1)).decode("utf-8") if found else ""
    except (binascii.Error, UnicodeDecodeError):
        return None
    tid = parse_qs(urlsplit(own).query).get("tid", [""])[0]
    return tid if tid.isdigit() else None


def _post_block(chunk: str) -> lxml_html.HtmlElement | None:
    """The chunk between two rules as one element, or None for the page's footer."""
    if "<b>作者: </b>" not in chunk:
        return None
    return fragment(chunk)


def _read_post(position: int, block, *, tz: tzinfo, clock: BoardClock) -> Post:
    author_label, time_label = _labels(block)
    author = tidy_text(author_label.tail or "")
    posted_at, precision = _post_time(time_label, tz=tz, clock=clock)
    message = _message(block, author_label, time_label)
    banned = _is_banned(message)
    body, quotes, edited_at, hidden = (
        ("", (), None, ()) if banned else _body(message, tz, posted_at)
    )
    return Post(
        pid=position,
        floor=None,
        author=author,
        uid=None,
        posted_at=posted_at,
        precision=precision,
        body=body,
        quotes=quotes,
        edited_at=edited_at,
        banned=banned,
        hidden=hidden,
    )


def _labels(block) -> tuple[lxml_html.HtmlElement, lxml_html.HtmlElement]:
    """The "作者:" and "时间:" labels that open a post."""
    labels: dict[str, lxml_html.HtmlElement] = {}
    for label in block.iterchildren("b"):  # the header's come first: a message may hold more
        labels.setdefault(tidy_text(label.text_content()), label)
    if "作者:" not in labels or "时间:" not in labels:
        raise ScrapeError("打印版帖子缺少作者或时间（页面不完整）")
    return labels["作者:"], labels["时间:"]


def _post_time(label, *, tz: tzinfo, clock: BoardClock):
    following = label.getnext()
    if following is not None and following.tag == "span" and not (label.tail or "").strip():
        return clock_time(clock, following.text_content(), tz, following.get("title"))
    return clock_time(clock, tidy_text(label.tail or ""), tz)


def _message(block, author_label, time_label):
    """The block with its header (author, time, the first <br>, a subject line) removed."""
    header = [author_label, time_label]
    following = time_label.getnext()
    if following is not None and following.tag == "span":
        header.append(following)
        following = following.getnext()
    for element in header:
        element.tail = None
        drop(element)
    block.text = None
    if following is not None and following.tag == "br":
        drop(following)
    first = block[0] if len(block) else None
    if first is not None and first.tag == "b" and tidy_text(first.text_content()) == "标题:":
        subject_end = first.getnext()
        first.tail = None
        drop(first)
        if subject_end is not None and subject_end.tag == "br":
            drop(subject_end)
    return block


def _is_banned(message) -> bool:
    text = tidy_text(message.text_content())
    return text.startswith("提示:") and any(reason in text for reason in _BANNED)


def _body(
    message, tz: tzinfo, posted_at: datetime
) -> tuple[str, tuple[str, ...], datetime | None, tuple[str, ...]]:
    for noise in message.xpath(_NOISE):
        drop(noise)
    edited_at = edit_time(message, tz, posted_at)
    quotes = []
    for quote in message.xpath(
        './/div[@class="quote"] | .//blockquote[not(ancestor::div[@class="quote"])]'
    ):
        quotes.append(element_text(quote))
        drop(quote)
    hidden = take_hidden(message)
    return element_text(message), tuple(quotes), edited_at, hidden


def _title(head: str) -> str | None:
    """The thread title after the page's "标题:" label, before the print link."""
    root = document(head)
    for label in root.iter("b"):
        if tidy_text(label.text_content()) == "标题:":
            return tidy_text(label.tail or "") or None
    return None


# This format's own examples (the yt-dlp habit): which page builder of tests/support/ serves
# the thread, and the posts reading ``url`` from it must yield
# (tests/test_scraper_examples.py runs every scraper's).
TESTS = [
    {
        "note": "no pid, floor or uid: pid is the position, times to the minute",
        "site": "discuz_x_printable_site",
        "args": {},
        "thread": EXAMPLE_THREAD,
        "url": "/forum.php?mod=viewthread&action=printable&tid=3",
        "posts": [
            {
                "floor": None,
                "pid": 1,
                "author": "法官",
                "uid": None,
                "time": "2019-05-12T21:00:00+08:00",
                "text": "第一天投票，22:00 截止",
            },
            {
                "floor": None,
                "pid": 2,
                "author": "白开水",
                "uid": None,
                "time": "2019-05-12T21:59:00+08:00",
                "text": "投 3 号",
            },
            {
                "floor": None,
                "pid": 3,
                "author": "花生米",
                "uid": None,
                "time": "2019-05-12T22:00:00+08:00",
                "text": "投白开水",
            },
        ],
    },
]
