"""Discuz! 7.2 archiver: ``archiver/?tid-T.html`` and ``archiver/?tid-T-page-N.html``.

``archiver/include/thread.inc.php`` prints twice the board's page size (20 posts by
default) as a flat run inside ``div#content``::

    <p class="author"><strong>NAME</strong> 发表于 Y-n-j H:i</p>
    [<h3>SUBJECT</h3>]MESSAGE

MESSAGE is the raw BBCode, HTML-escaped and nl2br'd: the edit notice is
"[i=s] 本帖最后由 X 于 … 编辑 [/i]", quotes are "[quote]…[/quote]" (nested too), and a banned
author's post reads "**** 作者被禁止或删除 内容自动屏蔽 ****".  Times are absolute, to the minute.
The page list is "页: [1] 2 3" (``div.page``, the current page in ``<strong>``, at most ten
pages after it: later pages widen it).  A page number past the end is not clamped: it is an
empty page whose list still names every page — a page count, not an error.  A missing
thread is a bare message in ``div#content`` (no posts, no list).

Identity: no pid, uid or floor is shown.  ``pid`` is synthetic — ``page × PAGE_SPAN +
position on the page`` — unique and in posting order within one reading.  ``floor`` is
None: the archiver's page size follows the board's setting, which the page does not show.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo

from killmod.core.model import Page, Post
from killmod.core.times import BoardClock, clock_time, parse_edit_notice
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
from scrapers.discuz7 import NOISE, thread_url
from scrapers.hidden import bbcode_hidden

NAME = "discuz7_archiver"
AGAIN_ON_REDIRECT = False
fingerprint = sha256_fingerprint
board_message = no_board_message  # its message pages are read by parse
seconds_view = no_seconds_view
views = no_views
zone_url = thread_url  # the view declares no zone: the thread page's footer does

PAGE_SPAN = 10000  # pid = page × PAGE_SPAN + position: far above any board's page size
_GENERATOR = re.compile(r'<meta name="generator" content="Discuz! Archiver [67]\.')
_PAGED_URL = re.compile(r"/archiver/.*tid-\d+-page-\d+\.html")
_TID = re.compile(r"tid-(\d+)(?:-page-\d+)?\.html")
_PAGED = re.compile(r"tid-\d+-page-(\d+)\.html")
_FULL_VERSION_TID = re.compile(r"viewthread\.php\?tid=(\d+)")
_TITLE_PAGE = re.compile(r"\((?:页|頁) (\d+)\)")
_NUMBER = re.compile(r"\d+")
# An author line: "<strong>NAME</strong> 发表于": one a post, whatever became of its <p>.
_AUTHOR_LINE = re.compile(r"</strong>\s*(?:发表于|發表於)")
_BANNED = re.compile(r"\A\*{4} .*屏蔽 \*{4}\Z")
_EDIT_NOTICE = re.compile(r"\[i=s\]\s*(本帖最[后後]由.+?[编編][辑輯])\s*\[/i\]", re.DOTALL)
_QUOTE_TAG = re.compile(r"\[(/?)quote(?:=[^\]\n]*)?\]", re.IGNORECASE)
# BBCode whose content is an address, not text: dropped whole.
_EMBED = re.compile(
    r"\[(img|attach|attachimg|media|flash|audio)(?:=[^\]\n]*)?\].*?\[/\1\]",
    re.IGNORECASE | re.DOTALL,
)
# Discuz's other BBCode tags: dropped, their content kept.
_TAG = re.compile(
    r"\[/?(?:b|i|u|s|p|color|size|font|align|backcolor|url|email|code|list|\*|indent|float"
    r"|table|tr|td|hr|free|hide|sup|sub|qq)(?:=[^\]\n]*)?\]",
    re.IGNORECASE,
)


def matches(url: str, html: str) -> bool:
    """A Discuz! 7.2 archiver thread page, by its generator meta or its paged URL."""
    return bool(_GENERATOR.search(html, 0, 4096) or _PAGED_URL.search(url or ""))


def page_url(url: str, n: int) -> str:
    """The URL of archiver page ``n`` of the thread that ``url`` belongs to."""
    found = _TID.search(url)
    if found is None:
        raise ScrapeError(f"无法从网址中读出帖子编号：{url}")
    return f"{url[: found.start()]}tid-{found.group(1)}-page-{n}.html{url[found.end() :]}"


def address(url: str) -> Address:
    """The thread and archiver page a URL asks for (page 1 when it names none)."""
    tid, page = _TID.search(url), _PAGED.search(url)
    return Address(tid.group(1) if tid else None, int(page.group(1)) if page else 1)


def parse(html: str, *, tz: tzinfo, clock: BoardClock) -> Page:
    """Read one archiver page into posts; a page past the end has none, and says how many exist.

    The view declares no zone (it shows the board's, which the thread pages declare): its
    times are read in ``tz``."""
    root = document(html)
    content = root.xpath('//div[@id="content"]')
    if not content:
        raise ScrapeError("页面里没有帖子（页面不完整，或不是 Discuz! 7.2 的 Archiver 帖子页）")
    for noise in content[0].xpath(NOISE):
        drop(noise)
    lines = content[0].xpath('./p[@class="author"]')
    bars = content[0].xpath('./div[@class="page"]')
    if not lines and not bars:
        message = tidy_text(content[0].text_content())
        raise ScrapeError(f"论坛返回了提示页面：「{message}」" if message else "页面里没有帖子")
    require_end(html)
    require_after_posts(bool(root.xpath('//div[@id="footer"]')), "页脚（查看完整版本）")
    require_post_count(len(lines), len(_AUTHOR_LINE.findall(html)))
    if lines and not bars and content[0].xpath('.//a[contains(@href, "-page-")]'):
        raise ScrapeError("页面结构损坏：有其他页的链接却没有页码列表（页面可能被改动过）")
    page_no, page_count = _pagination(root, bars, posts=bool(lines))
    posts = tuple(
        _read_post(page_no * PAGE_SPAN + position, line, tz=tz, clock=clock)
        for position, line in enumerate(lines, start=1)
    )
    full = _FULL_VERSION_TID.search(html, max(0, len(html) - 4000))
    return Page(
        posts=posts,
        page_no=page_no,
        page_count=page_count,
        title=_title(root),
        thread_id=full.group(1) if full else None,
    )


def _read_post(pid: int, line, *, tz: tzinfo, clock: BoardClock) -> Post:
    names = line.xpath("./strong")
    author = tidy_text(names[0].text_content()) if names else ""
    posted = names[0].tail if names else line.text_content()
    posted_at, precision = clock_time(clock, tidy_text(posted or ""), tz)
    text = _message_text(line)
    banned = bool(_BANNED.match(text))
    body, quotes, edited_at, hidden = (
        ("", (), None, ()) if banned else _message_parts(text, tz, posted_at)
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
        banned=banned,
        hidden=hidden,
    )


def _message_text(line) -> str:
    """The text after a post's author line up to the next one, without the subject."""
    parts = [line.tail or ""]
    for element in line.itersiblings():
        if element.get("class") in ("author", "page"):
            break
        if element.tag == "br":
            parts.append("\n")
        elif element.tag != "h3":  # the subject
            parts.append(element.text_content())
        parts.append(element.tail or "")
    return tidy_text("".join(parts))


def _message_parts(
    text: str, tz: tzinfo, posted_at: datetime
) -> tuple[str, tuple[str, ...], datetime | None, tuple[str, ...]]:
    """Raw BBCode to (own text, quoted texts, edit time, hidden texts: what the thread pages
    render invisible, ``scrapers.hidden.bbcode_hidden``).

    The board's notice "[i=s] 本帖最后由 … 编辑 [/i]" heads the message; one a player typed
    elsewhere, or with an impossible time, is the player's text.
    """
    edited_at = None
    notice = _EDIT_NOTICE.match(text)
    if notice:
        edited_at = parse_edit_notice(notice.group(1), tz)
        if edited_at is not None and edited_at >= posted_at.replace(second=0):
            text = text[notice.end() :]
        else:
            edited_at = None
    own, quoted = _split_quotes(text)
    own, hidden = bbcode_hidden(own)
    quotes = tuple(_plain(quote) for quote in quoted)
    return _plain(own), quotes, edited_at, tuple(_plain(part) for part in hidden)


def _split_quotes(text: str) -> tuple[str, list[str]]:
    """The text outside ``[quote]…[/quote]`` and each outermost quote's content.

    Nested quotes belong to the quote around them.  An unclosed ``[quote]`` quotes nothing
    (the board does not render it as a quote): its text stays.
    """
    own, quotes = [], []
    depth = cursor = opened = 0
    for tag in _QUOTE_TAG.finditer(text):
        if not tag.group(1):
            if depth == 0:
                own.append(text[cursor : tag.start()])
                opened = tag.start()
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                quotes.append(text[text.index("]", opened) + 1 : tag.start()])
                cursor = tag.end()
    own.append(text[opened:] if depth else text[cursor:])
    return "".join(own), quotes


def _plain(text: str) -> str:
    """BBCode text as read: embeds dropped, every other tag removed, blank lines squeezed."""
    return tidy_text(_TAG.sub("", _QUOTE_TAG.sub("", _EMBED.sub("", text))))


def _pagination(root, bars: list, *, posts: bool) -> tuple[int, int]:
    """(this page, pages): the page list names every page, the current one as "[N]".

    A page past the end (no posts) names no current page: its number is in the title
    ("(页 4)").  A page with posts whose list names no current page is damaged.
    """
    bar = bars[0] if bars else None
    text = bar.text_content() if bar is not None else ""
    current = re.search(r"\[(\d+)\]", text)
    listed = [int(n) for n in _NUMBER.findall(text)]
    if bar is not None and posts and current is None:
        raise ScrapeError("页面结构损坏：页码列表里没有当前页码（页面可能被改动过）")
    if current:
        page_no = int(current.group(1))
        return page_no, max([page_no, *listed])
    titled = _TITLE_PAGE.search(root.findtext(".//title") or "")
    return int(titled.group(1)) if titled else 1, max(listed, default=1)


def _title(root) -> str | None:
    """The thread title: the footer's "查看完整版本" link to the viewthread."""
    links = root.xpath('//div[@id="footer"]//a[contains(@href, "viewthread.php")]')
    return tidy_text(links[0].text_content()) or None if links else None


# This format's own examples (the yt-dlp habit): which page builder of tests/support/ serves
# the thread, and the posts reading ``url`` from it must yield
# (tests/test_scraper_examples.py runs every scraper's).
TESTS = [
    {
        "note": "no pid, floor or uid: pid is page × PAGE_SPAN + position, times to the minute",
        "site": "dz72_site",
        "args": {},
        "thread": EXAMPLE_THREAD,
        "url": "/archiver/?tid-3.html",
        "posts": [
            {
                "floor": None,
                "pid": 10001,
                "author": "法官",
                "uid": None,
                "time": "2019-05-12T21:00:00+08:00",
                "text": "第一天投票，22:00 截止",
            },
            {
                "floor": None,
                "pid": 10002,
                "author": "白开水",
                "uid": None,
                "time": "2019-05-12T21:59:00+08:00",
                "text": "投 3 号",
            },
            {
                "floor": None,
                "pid": 10003,
                "author": "花生米",
                "uid": None,
                "time": "2019-05-12T22:00:00+08:00",
                "text": "投白开水",
            },
        ],
    },
]
