"""Discuz! 7.2 printable view (打印本页): ``viewthread.php?action=printable&tid=T``.

The board's ``viewthread_printable.htm`` prints the thread's first 100 visible posts on one
page, each after an ``<hr noshade …>``::

    <b>作者: </b>NAME&nbsp; &nbsp; <b>时间: </b>DATE [&nbsp; &nbsp; <b>标题: </b>SUBJECT]
    <br /><br />
    MESSAGE

DATE is the viewthread's ``dgmdate``: "Y-n-j H:i" or a relative text inside
``<span title="Y-n-j H:i">`` — never seconds, so every post is minute precision.  MESSAGE
is the viewthread's (``div.quote`` quotes, ``i.pstatus`` edit notice); a banned author's or
a blocked post's is just "提示: <em>作者被禁止或删除 内容自动屏蔽</em>" (or "…该帖被管理员或版主
屏蔽").  Signatures, uids and pids are not shown.

Identity: with no pid on the page, ``pid`` is the post's position in the view (1 = the
opening post) — unique and in posting order within the view, read whole in one fetch, but
a synthetic id, not the board's.  ``floor`` is the same position: Discuz! 7.2 numbers its
floors by position too (deleted posts vanish, later floors move up), so it is the floor
the viewthread shows at the same moment.  A view of 100 posts may be cut short and is
refused: the viewthread and archiver views show every post.
"""

from __future__ import annotations

import copy
import re
from datetime import tzinfo
from urllib.parse import parse_qsl, urlsplit

from lxml import html as lxml_html

from killmod.core.model import Page, Post
from killmod.core.times import BoardClock
from scrapers.base import (
    EXAMPLE_THREAD,
    Address,
    ScrapeError,
    document,
    drop,
    no_board_message,
    no_seconds_view,
    no_views,
    require_after_posts,
    require_end,
    require_post_count,
    sha256_fingerprint,
    tidy_text,
)
from scrapers.discuz7 import NOISE, message_parts, no_posts, post_time, thread_url

NAME = "discuz7_printable"
AGAIN_ON_REDIRECT = False
fingerprint = sha256_fingerprint
board_message = no_board_message  # its message pages are read by parse
seconds_view = no_seconds_view
views = no_views
zone_url = thread_url  # the view declares no zone: the thread page's footer does

LIMIT = 100  # posts the printable view shows at most
_POWERED = re.compile(r"Powered by Discuz! [67]\.")
_LABEL = re.compile(r"^\s*(作者|时间|時間|标题|標題)\s*[:：]\s*$")
_BLOCKED = ("提示:", "提示：")
# What every post shows once: the rule before it, its author and time labels.
_MARKS = (
    re.compile(r"<hr noshade", re.IGNORECASE),
    re.compile(r"<b>\s*作者\s*[:：]\s*</b>"),
    re.compile(r"<b>\s*(?:时间|時間)\s*[:：]\s*</b>"),
)


def matches(url: str, html: str) -> bool:
    """A Discuz! 7.2 printable page, by its URL or by its print link and footer."""
    parts = urlsplit(url) if url else None
    if parts and parts.path.endswith("viewthread.php") and "action=printable" in parts.query:
        return True
    printable = "[打印本页]" in html or "[打印本頁]" in html
    return printable and bool(_POWERED.search(html, max(0, len(html) - 2000)))


def page_url(url: str, n: int) -> str:
    """The printable view is one page: every ``n`` is the same URL."""
    return url


def address(url: str) -> Address:
    """The thread a printable URL asks for; the view is one page."""
    tid = dict(parse_qsl(urlsplit(url).query)).get("tid", "")
    return Address(tid if tid.isdigit() else None, 1)


def parse(html: str, *, tz: tzinfo, clock: BoardClock) -> Page:
    """Read the printable view into posts; a message page or a cut-short view is a ScrapeError.

    The view declares no zone (it shows the board's, which the thread pages declare): its
    times are read in ``tz``, relative ones counting back from ``clock``."""
    root = document(html)
    body = root.body
    for noise in body.xpath(NOISE):
        drop(noise)
    segments = _segments(body)
    if not segments:
        raise no_posts(root, "页面里没有帖子（页面不完整，或不是 Discuz! 7.2 的打印页）")
    require_end(html)
    require_after_posts(bool(_POWERED.search(html)), "页脚（Powered by Discuz!）")
    rules, authors, times = (len(mark.findall(html)) for mark in _MARKS)
    for shown in (rules - 1, authors, times):  # the footer has a rule of its own
        require_post_count(len(segments), shown)
    if len(segments) >= LIMIT:
        raise ScrapeError(
            f"打印页只显示前 {LIMIT} 帖，本帖可能更长："
            "请改用帖子页（viewthread.php）或 Archiver 的网址"
        )
    posts = tuple(
        _read_post(position, segment, tz=tz, clock=clock)
        for position, segment in enumerate(segments, start=1)
    )
    return Page(posts=posts, page_no=1, page_count=1, title=_title(body))


def _segments(body) -> list[list]:
    """The nodes of each post: what follows an ``<hr>`` that starts with "作者:"."""
    segments: list[list] = []
    current: list | None = None
    for node in body.iterchildren():
        if node.tag == "hr":
            current = []
            segments.append(current)
        elif current is not None:
            current.append(node)
    return [nodes for nodes in segments if nodes and _label(nodes[0]) == "作者"]


def _label(node) -> str | None:
    """The label a ``<b>作者: </b>``-like node carries, in simplified form."""
    if node.tag != "b":
        return None
    found = _LABEL.match(node.text_content())
    return found.group(1).replace("時間", "时间").replace("標題", "标题") if found else None


def _read_post(position: int, nodes: list, *, tz: tzinfo, clock: BoardClock) -> Post:
    author = tidy_text(nodes[0].tail or "")
    times = [node for node in nodes if _label(node) == "时间"]
    if not times:
        raise ScrapeError(f"第 {position} 帖没有发帖时间（页面不完整）")
    cell = _message(nodes)
    banned = _blocked(cell)
    posted_at, precision = post_time(_time_element(times[0], nodes), tz=tz, clock=clock)
    body, quotes, edited_at, hidden = (
        ("", (), None, ()) if banned else message_parts(cell, tz, posted_at)
    )
    return Post(
        pid=position,
        floor=position,
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


def _time_element(label, nodes: list) -> lxml_html.HtmlElement:
    """An ``em`` holding what follows "时间:": its text, or the relative time's span."""
    holder = lxml_html.Element("em")
    holder.text = label.tail
    following = nodes[nodes.index(label) + 1]
    if following.tag == "span":
        span = copy.deepcopy(following)
        span.tail = None
        holder.append(span)
    return holder


def _message(nodes: list) -> lxml_html.HtmlElement:
    """The message after the header's ``<br /><br />``, gathered into one ``div``.

    The message starts at the first text after the header's run of line breaks: a run
    of one (a damaged page) loses no text.
    """
    breaks = [index for index, node in enumerate(nodes) if node.tag == "br"]
    start = breaks[0] if breaks else len(nodes) - 1
    while (
        start + 1 < len(nodes)
        and nodes[start + 1].tag == "br"
        and not (nodes[start].tail or "").strip()
    ):
        start += 1
    cell = lxml_html.Element("div")
    cell.text = nodes[start].tail
    for node in nodes[start + 1 :]:
        cell.append(node)
    return cell


def _blocked(cell) -> bool:
    """The message is the board's "提示: <em>…</em>" in place of a banned or blocked post."""
    children = list(cell)
    return (
        (cell.text or "").strip() in _BLOCKED
        and len(children) == 1
        and children[0].tag == "em"
        and not (children[0].tail or "").strip()
    )


def _title(body) -> str | None:
    for node in body.iterchildren():
        if node.tag == "hr":
            return None
        if _label(node) == "标题":
            return tidy_text(node.tail or "") or None
    return None


# This format's own examples (the yt-dlp habit): which page builder of tests/support/ serves
# the thread, and the posts reading ``url`` from it must yield
# (tests/test_scraper_examples.py runs every scraper's).
TESTS = [
    {
        "note": "pid and floor are the position, no uid, times to the minute",
        "site": "dz72_site",
        "args": {},
        "thread": EXAMPLE_THREAD,
        "url": "/viewthread.php?action=printable&tid=3",
        "posts": [
            {
                "floor": 1,
                "pid": 1,
                "author": "法官",
                "uid": None,
                "time": "2019-05-12T21:00:00+08:00",
                "text": "第一天投票，22:00 截止",
            },
            {
                "floor": 2,
                "pid": 2,
                "author": "白开水",
                "uid": None,
                "time": "2019-05-12T21:59:00+08:00",
                "text": "投 3 号",
            },
            {
                "floor": 3,
                "pid": 3,
                "author": "花生米",
                "uid": None,
                "time": "2019-05-12T22:00:00+08:00",
                "text": "投白开水",
            },
        ],
    },
]
