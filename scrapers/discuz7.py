"""Discuz! 7.2 thread pages (``viewthread.php``): SC_UTF8, SC_GBK, TC_BIG5 and TC_UTF8 builds.

URL: ``viewthread.php?tid=T[&extra=page%3D1][&page=P]``.  Structure (Discuz! 7.2's
``viewthread.htm`` / ``viewthread_node.htm``): ``div#post_PID > table#pidPID``; author
``div.authorinfo a.posterlink`` (``space.php?uid=N``); time ``em#authorpostonPID``
("发表于 …" / "發表於 …"); floor ``a#postnumPID``; body ``td.t_msgfont#postmessage_PID``;
signature ``div.signatures`` (outside the body); a banned author's or a blocked post shows
``div.locked`` instead of a body; a deleted account has no link, only
``div.avatar`` "NAME <em>该用户已被删除</em>".  Title ``div#threadtitle > h1``, on page 1
only.  Pages ``div.pages`` (multi(): "1 ...", the numbers, "... N", ``a.next`` 下一页),
absent for a one-page thread; a page number past the end is answered with the last page.

Times never have seconds: ``dgmdate`` prints "Y-n-j H:i", or a relative text (刚才, N 秒前,
N 分钟前, 半小时前, N 小时前, 昨天 H:i, 前天 H:i, N 天前 H:i) in ``<span title="Y-n-j H:i">``.
Every post is minute precision (or coarser: a relative text without its title names a
span, "5 小时前" a whole hour), a relative text read without its title too: the board's
clock it counts from is itself shown to the minute.

Floors are page offsets: a deleted post vanishes and later floors move up, so a post's
identity is its pid, never its floor.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from lxml import html as lxml_html

from killmod.core.model import PRECISION_SPAN, Page, Post, Precision
from killmod.core.times import BoardClock, clock_time, parse_edit_notice
from scrapers.base import (
    EXAMPLE_THREAD,
    Address,
    ScrapeError,
    board_clock,
    board_edit_notice,
    declared_zone,
    document,
    drop,
    element_text,
    named_pids,
    no_board_message,
    no_seconds_view,
    no_views,
    no_zone_url,
    page_clock,
    require_after_posts,
    require_agreement,
    require_end,
    require_named_posts,
    require_not_nested,
    require_parts,
    sha256_fingerprint,
    tidy_text,
)
from scrapers.hidden import take_hidden

NAME = "discuz7"
AGAIN_ON_REDIRECT = False
fingerprint = sha256_fingerprint
board_message = no_board_message  # its message pages are read by parse
seconds_view = no_seconds_view
views = no_views
zone_url = no_zone_url  # every thread page declares its zone in the footer

_GENERATOR = re.compile(r'<meta name="generator" content="Discuz! [67]\.')
_UID = re.compile(r"uid[=-](\d+)")
_POST_ID = re.compile(r"post_(\d+)$")
# Every part of a post names its pid: a damaged container still leaves the others.
_POST_PARTS = re.compile(
    r'id="(?:post_|pid|userinfo|postnum|authicon|authorposton|postmessage_|post_rate_div_)'
    r'(\d+)"'
)
_NUMBER = re.compile(r"\d+")
_POSTED = re.compile(r"^\s*(?:发表于|發表於)")
_TID_VAR = re.compile(r"tid = parseInt\('(\d+)'\)")
# Anti-copy noise 7.2's jammer() puts between a message's lines (X marks it font.jammer):
# never part of what a player wrote.  Its font is ``style="font-size:0px;color:WRAPBG"``; a
# player's own [size=0px] is ``style="font-size: 0px"`` alone — text the board hides, kept
# apart as hidden (``scrapers.hidden``), not dropped as noise.
NOISE = (
    './/font[@class="jammer"]'
    ' | .//font[starts-with(translate(@style, " ", ""), "font-size:0px;color:")]'
    ' | .//span[contains(translate(@style, " ", ""), "display:none")]'
)
# Discuz 7.2's showmessage/nopermission boxes (div.alert_error…), 7.0's div.showmessage and
# 6.x's div.box.message: the message is in their plain <p>s, the back links have a class.
_MESSAGE = (
    '//div[contains(@class, "alert_error") or contains(@class, "alert_info")'
    ' or contains(@class, "alert_right") or @class="showmessage"'
    ' or (contains(@class, "box") and contains(@class, "message"))]/p[not(@class)]'
)


def matches(url: str, html: str) -> bool:
    """A Discuz! 7.2 viewthread page, by its URL or by the board's generator meta."""
    path = urlsplit(url).path if url else ""
    if path.endswith("viewthread.php"):
        return "action=printable" not in url
    return bool(_GENERATOR.search(html, 0, 4096))


def page_url(url: str, n: int) -> str:
    """The URL of page ``n`` of the thread that ``url`` belongs to."""
    parts = urlsplit(url)
    query = [(key, value) for key, value in parse_qsl(parts.query) if key != "page"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("page", str(n))]), fragment=""))


def thread_url(url: str) -> str | None:
    """The first thread page (``viewthread.php?tid=T``) of the thread a Discuz! 7.2 URL names:
    a thread page, the printable view or the archiver (``archiver/?tid-T.html``); None when
    it names none."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return None
    archived = _ARCHIVED.search(parts.query) if "/archiver/" in parts.path else None
    if archived is not None:
        root = parts.path[: parts.path.index("/archiver/") + 1]
        tid = archived.group(1)
    else:
        root = parts.path.rsplit("/", 1)[0] + "/"
        tid = dict(parse_qsl(parts.query)).get("tid", "")
    if not tid.isdigit():
        return None
    return urlunsplit(parts._replace(path=f"{root}viewthread.php", query=f"tid={tid}", fragment=""))


_ARCHIVED = re.compile(r"^tid-(\d+)(?:-page-\d+)?\.html")


def address(url: str) -> Address:
    """The thread and page a viewthread URL asks for (page 1 when it names none)."""
    query = dict(parse_qsl(urlsplit(url).query))
    tid, page = query.get("tid", ""), query.get("page", "1")
    return Address(tid if tid.isdigit() else None, int(page) if page.isdigit() else None)


def parse(html: str, *, tz: tzinfo, clock: BoardClock) -> Page:
    """Read one viewthread page into posts; a page that is no thread page is a ScrapeError.

    Times are read in the zone the footer declares (``GMT+8``), else in ``tz``; relative
    ones count back from the HTTP ``Date`` when the footer clock agrees with it, else from
    the footer clock (``page_clock``).
    """
    root = document(html)
    for noise in root.xpath(NOISE):
        drop(noise)
    containers = [
        (int(match.group(1)), div)
        for div in root.xpath('//div[starts-with(@id, "post_")]')
        if (match := _POST_ID.match(div.get("id", "")))
    ]
    if not containers:
        raise no_posts(root, "页面里没有帖子列表（页面不完整，或不是 Discuz! 7.2 的帖子页）")
    require_end(html)
    require_named_posts([pid for pid, _ in containers], named_pids(_POST_PARTS, html))
    require_not_nested([div for _, div in containers])
    after = root.xpath('//div[@id="postlistreply" or @id="footer"]')
    require_after_posts(bool(after), "页脚")
    zone = declared_zone(html)
    shown = board_clock(html)
    clock = page_clock(shown, clock, tz)
    posts = tuple(_read_post(pid, div, tz=zone or tz, clock=clock) for pid, div in containers)
    page_no, page_count = _pagination(root)
    tid = _TID_VAR.search(html)
    return Page(
        posts=posts,
        page_no=page_no,
        page_count=page_count,
        title=_title(root),
        thread_id=tid.group(1) if tid else None,
        counted=True,  # a deleted post is gone and later floors move up
        zone=zone,
        clock=shown,
    )


def no_posts(root: lxml_html.HtmlElement, otherwise: str) -> ScrapeError:
    """The error for a page without posts: the board's own message (提示信息: no thread, not
    logged in…) when it is a Discuz! 7 message page, else ``otherwise``."""
    texts = [tidy_text(p.text_content()) for p in root.xpath(_MESSAGE)]
    message = " ".join(text for text in texts if text)
    return ScrapeError(f"论坛返回了提示页面：「{message}」" if message else otherwise)


def post_time(
    em: lxml_html.HtmlElement, *, tz: tzinfo, clock: BoardClock
) -> tuple[datetime, Precision]:
    """A post time as ``dgmdate`` shows it: the exact minute in a span's title, else the
    text; never finer than the minute (7.2 shows no seconds)."""
    titled = em.xpath(".//span[@title]")
    title = titled[0].get("title") if titled else None
    text = _POSTED.sub("", em.text_content())
    posted_at, precision = clock_time(clock, text, tz, title)
    return posted_at, max(precision, "minute", key=lambda p: PRECISION_SPAN[p])


def message_parts(
    cell: lxml_html.HtmlElement, tz: tzinfo, posted_at: datetime
) -> tuple[str, tuple[str, ...], datetime | None, tuple[str, ...]]:
    """A message as discuzcode renders it: (own text, quoted texts, edit time, hidden texts:
    ``scrapers.hidden``).

    The board's "本帖最后由 X 于 … 编辑" notice (an ``i.pstatus`` heading the message, with
    a possible time) gives the edit time; the same words typed by the author change
    nothing.  Quotes (``div.quote > blockquote``) are kept apart.  Viewthread and
    printable views share it.
    """
    edited_at = None
    notice = board_edit_notice(cell)
    if notice is not None:
        edited_at = parse_edit_notice(notice.text_content(), tz)
        if edited_at is not None and edited_at >= posted_at.replace(second=0):
            drop(notice)
        else:
            edited_at = None
    quotes = []
    for quote in cell.xpath(
        './/div[@class="quote"] | .//blockquote[not(ancestor::div[@class="quote"])]'
    ):
        quotes.append(element_text(quote))
        drop(quote)
    hidden = take_hidden(cell)
    return element_text(cell), tuple(quotes), edited_at, hidden


def _read_post(pid: int, div, *, tz: tzinfo, clock: BoardClock) -> Post:
    times = div.xpath(f'.//em[@id="authorposton{pid}"]')
    if not times:
        raise ScrapeError(f"帖子 pid={pid} 没有发帖时间（页面不完整）")
    author, uid = _author(div)
    cells = div.xpath(f'.//td[@id="postmessage_{pid}"]')
    banned = not cells and bool(div.xpath('.//div[@class="locked"]'))
    require_parts(f"pid={pid}", author, bool(cells) or banned)
    posted_at, precision = post_time(times[0], tz=tz, clock=clock)
    body, quotes, edited_at, hidden = (
        message_parts(cells[0], tz, posted_at) if cells else ("", (), None, ())
    )
    return Post(
        pid=pid,
        floor=_floor(div, pid),
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


def _author(div) -> tuple[str, int | None]:
    links = div.xpath('.//div[@class="authorinfo"]/a[contains(@class, "posterlink")]')
    if links:
        uid = _UID.search(links[0].get("href", ""))
        return tidy_text(links[0].text_content()), int(uid.group(1)) if uid else None
    # A deleted account, a guest or an anonymous post: "NAME <em>…</em>", no link.
    for avatar in div.xpath('.//td[contains(@class, "postauthor")]/div[@class="avatar"]'):
        name = tidy_text(avatar.text or "")
        if name:
            return name, None
    return "", None


def _floor(div, pid: int) -> int | None:
    links = div.xpath(f'.//a[@id="postnum{pid}"]')
    if not links:
        raise ScrapeError(f"帖子 pid={pid} 没有楼层号（页面不完整或被改动过）")
    numbers = links[0].xpath("./em/text()")
    found = _NUMBER.search(numbers[0]) if numbers else None
    return int(found.group()) if found else None


def _pagination(root) -> tuple[int, int]:
    """(this page, pages) from the page bars above and below the posts, which must agree.

    A thread of one page has no bar; a "下一页" link without a bar is a damaged page.
    """
    outside = '[not(ancestor::div[starts-with(@id, "post_")])]'  # a post's own bars are not
    bars = root.xpath(f'//div[@class="pages"]{outside}')
    if not bars:
        if root.xpath(f'//a[@class="next"]{outside}'):
            raise ScrapeError("页面结构损坏：有“下一页”链接却没有页码栏（页面可能被改动过）")
        return 1, 1
    readings = {_page_bar(bar) for bar in bars}
    require_agreement(readings, "页码栏")
    return readings.pop()


def _page_bar(bar) -> tuple[int, int]:
    current = _NUMBER.search("".join(bar.xpath(".//strong/text()")))
    if current is None:
        raise ScrapeError("页面结构损坏：页码栏里没有当前页码（页面可能被改动过）")
    numbers = [int(n) for t in bar.xpath(".//a/text()") for n in _NUMBER.findall(t)]
    page_no = int(current.group())
    return page_no, max([page_no, *numbers])


def _title(root) -> str | None:
    heading = root.xpath('//div[@id="threadtitle"]/h1')
    return tidy_text(heading[0].text_content()) or None if heading else None


# This format's own examples (the yt-dlp habit): which page builder of tests/support/ serves
# the thread, and the posts reading ``url`` from it must yield
# (tests/test_scraper_examples.py runs every scraper's).
TESTS = [
    {
        "note": "Discuz! 7.2 viewthread: pid, floor, uid, times to the minute",
        "site": "dz72_site",
        "args": {},
        "thread": EXAMPLE_THREAD,
        "url": "/viewthread.php?tid=3",
        "posts": [
            {
                "floor": 1,
                "pid": 501,
                "author": "法官",
                "uid": 1,
                "time": "2019-05-12T21:00:00+08:00",
                "text": "第一天投票，22:00 截止",
            },
            {
                "floor": 2,
                "pid": 502,
                "author": "白开水",
                "uid": 12,
                "time": "2019-05-12T21:59:00+08:00",
                "text": "投 3 号",
            },
            {
                "floor": 3,
                "pid": 503,
                "author": "花生米",
                "uid": 13,
                "time": "2019-05-12T22:00:00+08:00",
                "text": "投白开水",
            },
        ],
    },
]
