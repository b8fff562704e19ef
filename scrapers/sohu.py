"""SOHU club (搜狐社区) thread pages: ``…/BOARD/thread/ID`` and ``…/BOARD/thread/ID/pN``.

Only third-party scrapers of these boards survive, so the structure is approximate.  The
page's ``div#bbs_postlist`` is empty; the posts arrive as a JSON string inside a script
call ``club.render.fill({"tag":"#bbs_postlist","content":"…"})``.  In that content
``table#post_0`` is the opening post and ``table#post_N`` reply N (沙发, 板凳, then "N楼");
deleted replies leave a gap.  Name ``th #userinfo a``; text ``div.wrap`` (paragraphs,
``dl.quote`` quotes, ``p.edit`` "[本帖最后由 X 于 yy-mm-dd HH:MM 编辑]"); signature
``div.sign`` outside it; time ``div.grey span.new_format`` "yy-mm-dd HH:MM" (two-digit year,
no seconds), or, on the opening post, "发表于 yy-mm-dd HH:MM" after ``span.lz_mark``; a
blocked post's text is "该帖子已被屏蔽".  Pages: ``div.pages`` (current page
``span.cur``, others ``span a``, "下一页").  Pages are GBK.

Identity: ``pid`` is the board's post number N of ``table#post_N`` (stable: deleted posts
keep their gap); ``floor`` is N + 1 (killmod counts the opening post as floor 1);
``uid`` is the number in the author's profile link when it is one.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, tzinfo
from urllib.parse import urlsplit, urlunsplit

from lxml import html as lxml_html

from killmod.core.model import Page, Post
from killmod.core.times import BoardClock, clock_time, parse_edit_notice
from scrapers.base import (
    EXAMPLE_THREAD,
    Address,
    ScrapeError,
    document,
    drop,
    element_text,
    fragment,
    no_board_message,
    no_seconds_view,
    no_views,
    no_zone_url,
    require_end,
    require_not_nested,
    require_post_count,
    sha256_fingerprint,
    tidy_text,
)
from scrapers.hidden import take_hidden

NAME = "sohu"
AGAIN_ON_REDIRECT = False
fingerprint = sha256_fingerprint
board_message = no_board_message  # its message pages are read by parse
seconds_view = no_seconds_view
views = no_views
zone_url = no_zone_url  # the board declares no zone: its times are read in the game's

POSTLIST = "#bbs_postlist"
BLOCKED = "该帖子已被屏蔽"
_FILL = "club.render.fill("
_THREAD_PATH = re.compile(r"(/thread/[0-9A-Za-z]+)(?:/p\d+)?/?$")
_POST_ID = re.compile(r"post_(\d+)$")
_UID = re.compile(r"/p/(\d+)/?$")
_PAGE_LINK = re.compile(r"/thread/[0-9A-Za-z]+/p\d+/?$")
_THREAD_LINK = re.compile(r"/thread/([0-9A-Za-z]+)")
_PAGE_NO = re.compile(r"/thread/[0-9A-Za-z]+/p(\d+)/?$")
_POSTLIST_CALL = re.compile(r'"tag"\s*:\s*"#bbs_postlist"')


def matches(url: str, html: str) -> bool:
    """A SOHU club thread page: its post list arrives through ``club.render.fill``."""
    parts = urlsplit(url) if url else None
    if parts and parts.hostname and parts.hostname.endswith("club.sohu.com"):
        return bool(_THREAD_PATH.search(parts.path))
    return _FILL in html and bool(_POSTLIST_CALL.search(html))


def page_url(url: str, n: int) -> str:
    """The URL of page ``n``: the thread's own path for page 1, ``…/pN`` after it."""
    parts = urlsplit(url)
    found = _THREAD_PATH.search(parts.path)
    if found is None:
        raise ScrapeError(f"无法从网址中读出帖子路径：{url}")
    base = parts.path[: found.start()] + found.group(1)
    path = base if n == 1 else f"{base}/p{n}"
    return urlunsplit(parts._replace(path=path, query="", fragment=""))


def address(url: str) -> Address:
    """The thread and page a thread URL asks for (page 1 for the thread's own path)."""
    found = _THREAD_PATH.search(urlsplit(url).path)
    if found is None:
        return Address()
    page = re.search(r"/p(\d+)/?$", urlsplit(url).path)
    return Address(found.group(1).rsplit("/", 1)[-1], int(page.group(1)) if page else 1)


def parse(html: str, *, tz: tzinfo, clock: BoardClock) -> Page:
    """Read one SOHU club page into posts; a page without its post list is a ScrapeError."""
    root = document(html)
    content = _postlist(root)
    tables = [
        (int(match.group(1)), table)
        for table in content.iter("table")
        if (match := _POST_ID.match(table.get("id", "")))
    ]
    if not tables:
        raise ScrapeError("帖子列表里没有帖子（页面不完整，或不是搜狐社区的帖子页）")
    require_end(html)
    require_not_nested([table for _, table in tables])
    for part in ("wrap", "grey"):  # a post's text and its time, once each
        require_post_count(len(tables), len(content.xpath(f'.//div[@class="{part}"]')))
    posts = tuple(_read_post(number, table, tz=tz, clock=clock) for number, table in tables)
    page_no, page_count = _pagination(content)
    return Page(
        posts=posts,
        page_no=page_no,
        page_count=page_count,
        title=_title(root),
        thread_id=_thread_id(content),
    )


def _thread_id(content) -> str | None:
    """The thread the post list's own links point into."""
    for href in content.xpath(".//a/@href"):
        found = _THREAD_LINK.search(href)
        if found:
            return found.group(1)
    return None


def _postlist(root) -> lxml_html.HtmlElement:
    """The post list's HTML, taken out of its ``club.render.fill`` script call."""
    decoder = json.JSONDecoder()
    for script in root.iter("script"):
        code = script.text or ""
        start = code.find(_FILL)
        while start != -1:
            try:
                call, _ = decoder.raw_decode(code, start + len(_FILL))
            except json.JSONDecodeError:
                raise ScrapeError("帖子列表的脚本数据不完整（页面被截断？）") from None
            if isinstance(call, dict) and call.get("tag") == POSTLIST and call.get("content"):
                return fragment(call["content"])
            start = code.find(_FILL, start + len(_FILL))
    raise ScrapeError("页面里没有帖子列表（页面不完整，或不是搜狐社区的帖子页）")


def _read_post(number: int, table, *, tz: tzinfo, clock: BoardClock) -> Post:
    author, uid = _author(table)
    posted_at, precision = _post_time(table, number, tz=tz, clock=clock)
    wraps = table.xpath('.//div[@class="wrap"]')
    if not wraps:
        raise ScrapeError(f"帖子 post_{number} 没有正文（页面不完整）")
    banned = tidy_text(wraps[0].text_content()) == BLOCKED
    body, quotes, edited_at, hidden = (
        ("", (), None, ()) if banned else _body(wraps[0], tz, posted_at)
    )
    return Post(
        pid=number,
        floor=number + 1,
        author=author,
        uid=uid,
        posted_at=posted_at,
        precision=precision,
        body=body,
        quotes=quotes,
        edited_at=edited_at,
        banned=banned,
        hidden=hidden,
    )


def _author(table) -> tuple[str, int | None]:
    links = table.xpath('.//th//*[@id="userinfo"]//a')
    if not links:
        return "", None
    uid = _UID.search(links[0].get("href", ""))
    return tidy_text(links[0].text_content()), int(uid.group(1)) if uid else None


def _post_time(table, number: int, *, tz: tzinfo, clock: BoardClock):
    greys = table.xpath('.//div[@class="grey"]')
    if not greys:
        raise ScrapeError(f"帖子 post_{number} 没有发帖时间（页面不完整）")
    stamps = greys[0].xpath('.//span[@class="new_format"]')
    if stamps:
        return clock_time(clock, stamps[0].text_content(), tz)
    # The opening post: "<span class="lz_mark">楼主</span>发表于 yy-mm-dd HH:MM".
    own_text = (greys[0].text or "") + "".join(child.tail or "" for child in greys[0])
    return clock_time(clock, tidy_text(own_text), tz)


def _body(
    wrap, tz: tzinfo, posted_at: datetime
) -> tuple[str, tuple[str, ...], datetime | None, tuple[str, ...]]:
    edited_at = None
    for notice in wrap.xpath('.//p[@class="edit"]'):
        noticed = parse_edit_notice(notice.text_content(), tz)
        if noticed is not None and noticed >= posted_at.replace(second=0):
            edited_at = noticed
            drop(notice)
    quotes = []
    for quote in wrap.xpath('.//dl[@class="quote"]'):
        quotes.append(_text(quote))
        drop(quote)
    hidden = take_hidden(wrap)
    return _text(wrap), tuple(quotes), edited_at, hidden


def _text(element) -> str:
    """Visible text with a line break after each paragraph and quote line."""
    for block in element.iter("p", "dt", "dd"):
        block.tail = "\n" + (block.tail or "")
    return element_text(element)


def _pagination(content) -> tuple[int, int]:
    bars = content.xpath('.//div[@class="pages"]')
    if not bars:
        if any(_PAGE_LINK.search(href) for href in content.xpath(".//a/@href")):
            raise ScrapeError("页面结构损坏：有其他页的链接却没有页码栏（页面可能被改动过）")
        return 1, 1
    current = [int(t) for t in bars[0].xpath('.//span[@class="cur"]/text()') if t.strip().isdigit()]
    if not current:
        raise ScrapeError("页面结构损坏：页码栏里没有当前页码（页面可能被改动过）")
    # Every page number the bar shows, linked or not, and every page its links go to: a
    # link that lost its tag still leaves its number, and "下一页" its page.
    shown = [int(t) for t in bars[0].xpath(".//text()") if t.strip().isdigit()]
    linked = [int(m.group(1)) for h in bars[0].xpath(".//a/@href") if (m := _PAGE_NO.search(h))]
    return current[0], max([current[0], *shown, *linked])


def _title(root) -> str | None:
    titles = root.xpath('//h3[@class="postitle"]/em')
    return tidy_text(titles[0].text_content()) or None if titles else None


# This format's own examples (the yt-dlp habit): which page builder of tests/support/ serves
# the thread, and the posts reading ``url`` from it must yield
# (tests/test_scraper_examples.py runs every scraper's).
TESTS = [
    {
        "note": "GBK pages: pid is the board's post number (0 opens), times to the minute",
        "site": "sohu_site",
        "args": {},
        "thread": EXAMPLE_THREAD,
        "url": "/zz2286/thread/t3demo",
        "posts": [
            {
                "floor": 1,
                "pid": 0,
                "author": "法官",
                "uid": 1,
                "time": "2019-05-12T21:00:00+08:00",
                "text": "第一天投票，22:00 截止",
            },
            {
                "floor": 2,
                "pid": 1,
                "author": "白开水",
                "uid": 12,
                "time": "2019-05-12T21:59:00+08:00",
                "text": "投 3 号",
            },
            {
                "floor": 3,
                "pid": 2,
                "author": "花生米",
                "uid": 13,
                "time": "2019-05-12T22:00:00+08:00",
                "text": "投白开水",
            },
        ],
    },
]
