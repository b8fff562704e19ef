"""Discuz! X3.x thread pages (viewthread), UTF-8 and GBK builds, both URL schemes.

URL forms: ``forum.php?mod=viewthread&tid=T&page=P`` and, with URL rewriting,
``thread-T-P-1.html``.  Structure (Discuz! X3.1–X3.5 templates):
``div#post_PID > table#pidPID``; author ``td.pls div.pi div.authi a.xw1``;
time ``em#authorpostonPID``; floor ``a#postnumPID``; body ``td.t_f``.
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from functools import lru_cache
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit, urlunsplit

from lxml import etree
from lxml import html as lxml_html

from killmod.core.model import Page, Post
from killmod.core.times import BoardClock, clock_time, parse_edit_notice
from scrapers.base import (
    EXAMPLE_THREAD,
    Address,
    ScrapeError,
    SecondsView,
    ThreadViews,
    board_clock,
    board_edit_notice,
    declared_zone,
    document,
    drop,
    element_text,
    named_pids,
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
from scrapers.board_messages import board_message as board_message
from scrapers.hidden import take_hidden

NAME = "discuz_x"
AGAIN_ON_REDIRECT = False
fingerprint = sha256_fingerprint
zone_url = no_zone_url  # every thread page declares its zone in the footer

PAGE_SIZE = 10  # X3.4's default thread page size, until a page read shows the board's

_REWRITE = re.compile(r"thread-(\d+)-(\d+)-(\d+)\.html")
_UID = re.compile(r"uid[=-](\d+)")
_PAGE_COUNT = re.compile(r"(\d+)")
_CONTAINER_ID = re.compile(r'id="post_(\d+)"')
# Every part of a post names its pid: a damaged container still leaves the others.
_POST_PARTS = re.compile(
    r'id="(?:post_|pid|favatar|postnum|authicon|authorposton|postmessage_|comment_'
    r'|post_rate_div_|_postposition)(\d+)"'
)
# Discuz X lets a board name its first floors instead of numbering them.
_FLOOR_NAMES = {"楼主": 1, "樓主": 1, "沙发": 2, "沙發": 2, "板凳": 3, "地板": 4}
# Anti-copy noise Discuz inserts into post bodies: never part of what a player wrote.
_NOISE = etree.XPath(
    './/font[@class="jammer"] | .//span[contains(translate(@style, " ", ""), "display:none")]'
)
# Compiled once: these run for every post of every page.
_TITLED = etree.XPath(".//span[@title]")
_AUTHOR_LINK = etree.XPath('.//div[@class="pi"]/div[@class="authi"]/a[contains(@class, "xw1")]')
# The author's box: the user card (div#favatarPID) or the post's left column.
_AUTHOR_BOX = etree.XPath(
    'self::div[contains(@class, "favatar")]/div[@class="pi"]'
    ' | .//td[contains(@class, "pls")]//div[@class="pi"]'
)
_LOCKED = etree.XPath('.//div[@class="locked"]')
# The page's own thread id, in the script every viewthread page starts with.
_TID_VAR = re.compile(r"tid = parseInt\('(\d+)'\)")
_QUOTES = etree.XPath('.//div[@class="quote"] | .//blockquote[not(ancestor::div[@class="quote"])]')


def matches(url: str, html: str) -> bool:
    """A Discuz! X viewthread page, by URL or by the page's own markers."""
    path = urlsplit(url).path if url else ""
    if _REWRITE.search(path) or "mod=viewthread" in url:
        return "action=printable" not in url
    return 'id="thread_subject"' in html or ('class="plhin"' in html and "Discuz! X" in html)


def address(url: str) -> Address:
    """The thread and page a viewthread URL asks for (page 1 when it names none)."""
    parts = urlsplit(url)
    rewritten = _REWRITE.search(parts.path)
    if rewritten:
        return Address(rewritten.group(1), int(rewritten.group(2)))
    query = parse_qs(parts.query)
    tid = query.get("tid", [""])[0]
    if not tid.isdigit():  # a post's link (mod=redirect&goto=findpost…) names no page
        return Address()
    page = query.get("page", ["1"])[0]
    return Address(tid, int(page) if page.isdigit() else None)


# Where the board's root is in the path of each view's URL, and how the view names the tid.
_VIEW_PATHS = re.compile(
    r"^(?P<root>.*/)(?:forum\.php|thread-(?P<rewritten>\d+)-\d+-\d+\.html"
    r"|archiver/(?:tid-(?P<archived>\d+)\.html)?|api/mobile/index\.php)$"
)
_ARCHIVER_QUERY = re.compile(r"^tid-(\d+)")


def board_root(url: str) -> tuple[str, str] | None:
    """The board's root URL (ending in ``/``) and the thread id a Discuz! X URL names, in
    any of its views (thread pages in both forms, printable, archiver, mobile API); None
    when it names no thread."""
    parts = urlsplit(url)
    found = _VIEW_PATHS.match(parts.path) if parts.scheme in ("http", "https") else None
    if found is None:
        return None
    tid = found.group("rewritten") or found.group("archived")
    if tid is None and (archived := _ARCHIVER_QUERY.match(parts.query)):
        tid = archived.group(1)
    if tid is None:
        tid = parse_qs(parts.query).get("tid", [""])[0]
    if not tid.isdigit():
        return None
    root = urlunsplit((parts.scheme, parts.netloc, found.group("root"), "", ""))
    return root, tid


# A thread page's path, in the rewritten form, when the URL names one that way.
_REWRITTEN_PATH = re.compile(r"thread-(\d+)-\d+-\d+\.html$")


def archiver_url(url: str) -> str | None:
    """The archiver's first page for a Discuz! X thread URL (either URL form), if it has a tid."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return None
    rewritten = _REWRITTEN_PATH.search(parts.path)
    tids = [rewritten.group(1)] if rewritten else parse_qs(parts.query).get("tid", [])
    if not tids or not tids[0].isdigit():
        return None
    return urljoin(url, f"archiver/?tid-{tids[0]}.html")


def seconds_view(url: str) -> SecondsView | None:
    """The archiver, which shows every post's time to the second where the thread pages
    (and the printable view) show minutes; None when the URL names no thread."""
    from scrapers import discuz_x_archiver

    archiver = archiver_url(url)
    if archiver is None:
        return None
    return SecondsView(discuz_x_archiver, archiver, "archiver", "归档页")


def views(url: str) -> ThreadViews | None:
    """The views of the thread a Discuz! X URL (any view) names: the thread pages, the
    mobile API, the printable view and the archiver; None when it names no thread."""
    from scrapers import discuz_x, discuz_x_archiver, discuz_x_mobile, discuz_x_printable

    found = board_root(url)
    if found is None:
        return None
    root, tid = found
    if discuz_x_mobile.matches(url, ""):
        given = "api"
    elif discuz_x_printable.matches(url, ""):
        given = "printable"
    elif discuz_x_archiver.matches(url, ""):
        given = "archiver"
    else:
        given = "pages"
    return ThreadViews(
        given=given,
        pages=discuz_x,
        pages_url=_first_page(root, tid),
        page_size=PAGE_SIZE,
        api=discuz_x_mobile,
        api_url=lambda ppp, page, version: discuz_x_mobile.thread_api_url(
            root, tid, ppp=ppp, page=page, version=version
        ),
        api_versions=(discuz_x_mobile.VERSION, discuz_x_mobile.EDITLESS),
        printable=discuz_x_printable,
        printable_url=discuz_x_printable.thread_printable_url(root, tid),
        printable_limit=discuz_x_printable.LIMIT,
        archiver=discuz_x_archiver,
    )


def thread_url(url: str) -> str | None:
    """The first thread page (``forum.php?mod=viewthread&tid=T``) of the thread a Discuz! X
    URL of any view names; None when it names none."""
    found = board_root(url)
    return _first_page(*found) if found else None


def _first_page(root: str, tid: str) -> str:
    return f"{root}forum.php?mod=viewthread&tid={tid}"


def page_url(url: str, n: int) -> str:
    """The URL of page ``n`` of the thread that ``url`` belongs to."""
    before, after = _page_url_around(url)
    return f"{before}{n}{after}"


@lru_cache(maxsize=64)
def _page_url_around(url: str) -> tuple[str, str]:
    """What comes before and after the page number in the URLs of ``url``'s thread:
    worked out once per thread, not once for each of its hundreds of pages."""
    parts = urlsplit(url)
    rewritten = _REWRITE.search(parts.path)
    if rewritten:
        start, end = rewritten.span(2)
        before = urlunsplit(parts._replace(path=parts.path[:start], query="", fragment=""))
        after = urlunsplit(("", "", parts.path[end:], parts.query, parts.fragment))
        return before, after
    query = parse_qs(parts.query, keep_blank_values=True)
    kept = urlencode({k: v[0] for k, v in query.items() if k not in ("page", "extra")})
    before = urlunsplit(parts._replace(query=f"{kept}&page=" if kept else "page=", fragment=""))
    return before, f"#{parts.fragment}" if parts.fragment else ""


def parse(html: str, *, tz: tzinfo, clock: BoardClock) -> Page:
    """Read one viewthread page into posts; a page that is no thread page is a ScrapeError.

    Times are read in the zone the footer declares (``GMT+8``: the reader's, when logged
    in with an account set to another zone), else in ``tz``.  Relative times count back
    from the HTTP ``Date`` when the footer clock agrees with it, else from the footer clock
    (minutes): ``page_clock``.  Elements are found through the page's id table (``id()``),
    all in one look-up, not by walking the page: a page has ~1,500 elements and a judge's
    tally reads hundreds of pages.
    """
    root = document(html)
    pids = list(dict.fromkeys(named_pids(_CONTAINER_ID, html)))
    ids = _by_ids(root, [*_PAGE_IDS, *(f"{part}{pid}" for pid in pids for part in _POST_IDS)])
    message = ids.get("messagetext")
    if message is not None:
        text = tidy_text(message.xpath("string(p[1])") or message.text_content())
        raise ScrapeError(f"论坛返回了提示页面：「{text}」")
    require_end(html)
    require_after_posts("postlistreply" in ids or "ft" in ids, "页脚")
    # A container whose id is damaged is missed here; the page then fails on the parts
    # that still name its pid (require_named_posts).
    containers = [(pid, div) for pid in pids if _is_div(div := ids.get(f"post_{pid}"))]
    if not containers:
        raise ScrapeError("页面里没有帖子列表（页面不完整，或不是 Discuz! X 的帖子页）")
    require_named_posts([pid for pid, _ in containers], named_pids(_POST_PARTS, html))
    require_not_nested([div for _, div in containers])
    zone = declared_zone(html)
    shown_in = zone or tz
    shown = board_clock(html)
    clock = page_clock(shown, clock, tz)
    read = [(div, _read_post(ids, pid, div, tz=shown_in, clock=clock)) for pid, div in containers]
    posts = tuple(post for _, post in read if post is not None)
    # A deleted post's empty place (无效楼层) keeps its floor: no post is missing there.
    vacant = tuple(
        floor for div, post in read if post is None and (floor := _vacant_floor(div)) is not None
    )
    page_no, page_count = _pagination(root, ids.get("postlist"))
    subject = ids.get("thread_subject")
    title = tidy_text(subject.text_content()) if subject is not None else None
    tid = _TID_VAR.search(html)
    return Page(
        posts=posts,
        page_no=page_no,
        page_count=page_count,
        title=title,
        thread_id=tid.group(1) if tid else None,
        counted=True,  # forum_viewthread.php numbers floors by counting (or keeps places)
        vacant=vacant,
        zone=zone,
        clock=shown,
    )


# The ids the page is read by: its own, and each post's (suffixed with the pid).
_PAGE_IDS = ("messagetext", "postlistreply", "ft", "postlist", "thread_subject")
_POST_IDS = ("post_", "authorposton", "favatar", "postmessage_", "postnum")
_ID = etree.XPath("id($names)")
_OUTSIDE_POSTS = '[not(ancestor::div[@id="postlist"])]'
# The page bars before and after the post list, whose ~1,500 elements are not walked.
_BARS_AROUND = etree.XPath('preceding::div[@class="pg"] | following::div[@class="pg"]')


def _is_div(element) -> bool:
    return element is not None and element.tag == "div"


def _by_ids(root, names: list[str]) -> dict:
    """The elements with these ids (the first one of an id used twice), in one look-up."""
    found: dict = {}
    for element in _ID(root, names=" ".join(names)):
        found.setdefault(element.get("id"), element)
    return found


def _read_post(ids: dict, pid: int, div, *, tz: tzinfo, clock: BoardClock) -> Post | None:
    time = ids.get(f"authorposton{pid}")
    if time is None:
        if "无效楼层" in div.text_content() or "無效樓層" in div.text_content():
            return None  # a deleted post: nothing to read, its floor number stays unused
        raise ScrapeError(f"帖子 pid={pid} 没有发帖时间（页面不完整）")
    posted_at, precision = _post_time(time, tz=tz, clock=clock)
    avatar = ids.get(f"favatar{pid}")
    author, uid = _author(avatar if avatar is not None else div)
    cell = ids.get(f"postmessage_{pid}")
    banned = cell is None and bool(_LOCKED(div))
    require_parts(f"pid={pid}", author, cell is not None or banned)
    body, quotes, edited_at, hidden = (
        _body(cell, tz, posted_at) if cell is not None else ("", (), None, ())
    )
    floor = ids.get(f"postnum{pid}")
    if floor is None:
        raise ScrapeError(f"帖子 pid={pid} 没有楼层号（页面不完整或被改动过）")
    return Post(
        pid=pid,
        floor=_floor(floor),
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


_VACANT_FLOOR = etree.XPath('.//div[@class="pi"]/strong/a')


def _vacant_floor(div) -> int | None:
    """The floor a deleted post's empty place shows (``viewthread_node.htm``: its number in
    ``div.pi strong a``, or the board's name for it)."""
    links = _VACANT_FLOOR(div)
    return _floor(links[0]) if links else None


def _post_time(em, *, tz: tzinfo, clock: BoardClock):
    titled = _TITLED(em)
    title = titled[0].get("title") if titled else None
    text = em.text_content().replace("发表于", "").replace("發表於", "")
    return clock_time(clock, text, tz, title)


def _author(div) -> tuple[str, int | None]:
    links = _AUTHOR_LINK(div)
    if links:
        uid = _UID.search(links[0].get("href", ""))
        return tidy_text(links[0].text_content()), int(uid.group(1)) if uid else None
    # A deleted account: "NAME <em>该用户已被删除</em>" with no link.
    for pi in _AUTHOR_BOX(div):
        name = tidy_text(pi.text or "")
        if name:
            return name, None
    return "", None


def _floor(link) -> int | None:
    if link is None:
        return None
    text = tidy_text(link.text_content()).rstrip("#")
    if text in _FLOOR_NAMES:
        return _FLOOR_NAMES[text]
    digits = re.search(r"\d+", text)
    return int(digits.group()) if digits else None


def _body(
    cell, tz: tzinfo, posted_at: datetime
) -> tuple[str, tuple[str, ...], datetime | None, tuple[str, ...]]:
    """(own text, quoted texts, edit time, hidden texts) of a message cell."""
    for noise in _NOISE(cell):
        drop(noise)
    edited_at = edit_time(cell, tz, posted_at)
    quotes = []
    for quote in _QUOTES(cell):
        quotes.append(element_text(quote))
        drop(quote)
    hidden = take_hidden(cell)
    return element_text(cell), tuple(quotes), edited_at, hidden


def edit_time(message: lxml_html.HtmlElement, tz: tzinfo, posted_at: datetime) -> datetime | None:
    """The time of the board's edit notice at the head of ``message`` (removed from it), or
    None.  A notice whose time is impossible or before the post was written is no notice
    the board wrote: it stays in the text as the author typed it."""
    notice = board_edit_notice(message)
    edited_at = parse_edit_notice(notice.text_content(), tz) if notice is not None else None
    if edited_at is None or edited_at < posted_at.replace(second=0):
        return None
    drop(notice)
    return edited_at


def _pagination(root, postlist) -> tuple[int, int]:
    """(this page, pages) from the page bars above and below the posts, which must agree.

    A thread of one page has no bar; a "下一页" button without a bar is a damaged page.
    Page bars inside the post list (a post's 点评 have their own) are not the thread's.
    """
    bars = _BARS_AROUND(postlist) if postlist is not None else root.xpath('//div[@class="pg"]')
    if not bars:
        if root.xpath(f'//a[@class="nxt"]{_OUTSIDE_POSTS} | //div[@class="pgbtn"]'):
            raise ScrapeError("页面结构损坏：有“下一页”按钮却没有页码栏（页面可能被改动过）")
        return 1, 1
    readings = {_page_bar(bar) for bar in bars}
    require_agreement(readings, "页码栏")
    return readings.pop()


def _page_bar(bar) -> tuple[int, int]:
    current = [t for t in bar.xpath(".//strong/text()") if t.strip().isdigit()]
    if not current:
        raise ScrapeError("页面结构损坏：页码栏里没有当前页码（页面可能被改动过）")
    page_no = int(current[0])
    totals = bar.xpath('.//span[starts-with(@title, "共")]/@title')
    if totals and (found := _PAGE_COUNT.search(totals[0])):
        return page_no, int(found.group(1))
    numbers = [int(n) for t in bar.xpath(".//a/text()") for n in re.findall(r"\d+", t)]
    return page_no, max([page_no, *numbers])


# This format's own examples (the yt-dlp habit): which page builder of tests/support/ serves
# the thread, and the posts reading ``url`` from it must yield
# (tests/test_scraper_examples.py runs every scraper's).
TESTS = [
    {
        "note": "viewthread pages in the rewritten URL form: pid, floor, uid, seconds",
        "site": "discuz_x_site",
        "args": {"rewrite": True},
        "thread": EXAMPLE_THREAD,
        "url": "/thread-3-1-1.html",
        "posts": [
            {
                "floor": 1,
                "pid": 501,
                "author": "法官",
                "uid": 1,
                "time": "2019-05-12T21:00:05+08:00",
                "text": "第一天投票，22:00 截止",
            },
            {
                "floor": 2,
                "pid": 502,
                "author": "白开水",
                "uid": 12,
                "time": "2019-05-12T21:59:30+08:00",
                "text": "投 3 号",
            },
            {
                "floor": 3,
                "pid": 503,
                "author": "花生米",
                "uid": 13,
                "time": "2019-05-12T22:00:20+08:00",
                "text": "投白开水",
            },
        ],
    },
]
