"""Discuz! X mobile API: ``api/mobile/index.php?version=1&module=viewthread&tid=T&ppp=N&page=P``.

The board's mobile plugin answers with JSON, ASCII with ``\\u`` escapes on UTF-8 and GBK
boards alike (``"Charset"`` names the board's)::

    {"Version":"1","Charset":"UTF-8","Variables":{…,"thread":{"tid":"3","subject":"…",
     "replies":"32","maxposition":"34",…},"postlist":[{"pid":"7","author":"法官",
     "authorid":"2","message":"…","number":"1","dbdateline":"1796049000",…},…],"ppp":"1000",…}}

Which version answers is the request's ``version`` (``source/plugin/mobile/mobile.php``
line 36: none named is 1); killmod asks for version 1 (``api/1/viewthread.php``), whose
messages go through the board's ordinary ``discuzcode``: the plugin's hook
(``mobile.class.php`` lines 342–364; version 4 at 355–357) runs its own
``mobile_discuzcode`` — which removes the edit notice first — for version 4 only.  So a
version-1 message is the thread page's HTML: an edited post starts with the board's
``<i class="pstatus"> 本帖最后由 X 于 Y 编辑 </i>`` (read and removed, as on the thread
pages), a quote is ``<div class="quote"><blockquote>``
(removed from the text, kept in ``quotes``), text the board renders invisible (white on
white…) is taken out as on the thread pages (``scrapers.hidden``) — but not text sized 0:
the hook deletes ``[size]`` tags for versions 1–3 (lines 358–363), and version 4's
``mobile_discuzcode`` too, so it arrives at the normal size; version 4 quotes in
``<div class="reply_wrap">`` and shows no edit notice (its pages say
``edits_shown=False``).

Per post: ``pid``; ``number``, the floor the thread pages show (counted, so renumbered
after a moderator's deletion, like them: the pid is the identity); ``author`` and
``authorid`` (the uid; 0 for a guest); ``dbdateline``, unix seconds: every time is exact to
the second (``dateline`` is display text, read only for the zone it shows); ``message``.
A banned author's message is "提示: <em>作者被禁止或删除 内容自动屏蔽</em>".  A thread that
keeps its posts' positions (抢楼) lists a deleted post as an empty placeholder (``pid`` and
``number``): skipped, its floor kept in ``vacant``.  A post numbered -1 is a hot reply
copied to the first page (``forum_viewthread.php`` lines 1129–1131), whose floor the answer
does not say: refused.

What an answer declares of the whole (``Page``): ``ppp``, the page size it used — not
always the one asked for: for a guest on a forum with 页面缓存 (``threadcaches``) the board
uses its ``postperpage`` (``forum_viewthread.php`` line 477); ``thread.replies`` and
``thread.maxposition`` (``hidden``: positions given but not shown).  The page is the one
holding the first post's ``number`` at the answer's ``ppp``, and the page count follows from
``replies`` (line 478).

The board's clock: the posts' times are absolute, but an edit notice ("本帖最后由 X 于
2026-12-2 09:47 编辑") is written on the reader's board clock, in a zone the answer does not
declare; it shows it beside absolute times (``scrapers.discuz_x_mobile_zone``: ``Page.zone``),
else the notice is read in the zone the board's pages declare (``zone_url``: the thread's
first page).

The board's refusals: ``{"error":"mobile_is_closed"}`` (the API switched off,
``mobile.class.php`` line 298, in its ``common()`` hook) and an answer that is no JSON (the
plugin disabled: the board's basic mobile page) are ``ApiClosed``;
``{"error":"module_not_exists"}`` (a plugin without this version's viewthread, ``mobile.php``
lines 54–70) is ``VersionRefused``; a
``Message`` (``thread_nonexistence``, ``viewperm_login_nopermission//1``, …) is the board's
answer in its words.
"""

from __future__ import annotations

import html as html_entities
import json
import math
import re
from datetime import datetime, tzinfo
from functools import lru_cache
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from lxml import etree

from killmod.core.model import Page, Post
from killmod.core.times import BoardClock
from scrapers import board_messages
from scrapers.base import (
    EXAMPLE_THREAD,
    Address,
    ScrapeError,
    VersionRefused,
    drop,
    element_text,
    fragment,
    no_seconds_view,
    require_parts,
    sha256_fingerprint,
    tidy_text,
)
from scrapers.discuz_x import board_root, edit_time, thread_url
from scrapers.discuz_x import views as views
from scrapers.hidden import take_hidden

NAME = "discuz_x_mobile"
# X3.4 answers the first request after a moderator's deletion with a 302 to a thread page
# under api/mobile/ (no page of the API): the request is made again instead.
AGAIN_ON_REDIRECT = True
WHO_AND_WHEN = True  # parse(texts=False): who posted when, without reading a message
seconds_view = no_seconds_view  # every time it shows is to the second
zone_url = thread_url  # its edit notices' times: the thread page's footer declares their zone
# Its answers are cached as bytes alone (killmod.fetch.pages: their posts parse as fast as
# they would load), so a fingerprint is never compared: the bytes' hash will do.
fingerprint = sha256_fingerprint

API = "api/mobile/index.php"
VERSION = 1  # the version killmod asks for: the one that keeps the edit notices
EDITLESS = 4  # the version to ask where the board refuses version 1
_BANNED = ("作者被禁止或删除", "该帖被管理员或版主屏蔽")
_QUOTES = etree.XPath(
    './/div[@class="reply_wrap"] | .//div[@class="quote"]'
    ' | .//blockquote[not(ancestor::div[@class="quote"] or ancestor::div[@class="reply_wrap"])]'
)
_QUOTE_LABEL = etree.XPath('./blockquote/p[1][normalize-space() = "引用:"]')
_NOISE = etree.XPath(
    './/font[@class="jammer"] | .//span[contains(translate(@style, " ", ""), "display:none")]'
    " | .//script"
)
# A message with no markup but line breaks and entities is read without lxml (most ballots).
_PLAIN = re.compile(r"(?:[^<&]|<br />|&(?:amp|lt|gt|quot|nbsp|#\d{1,7});)*")
# A text that ``tidy_text`` and unescaping would leave as it is (a name, "投5号").
_TIDY = re.compile(r"[^&\s\xa0\u3000]+(?: [^&\s\xa0\u3000]+)*")
_BREAK = "<br />"
# What the board's messages mean, for the ones whose text a board leaves as a language key
# ("mobile:viewperm_login_nopermission" on a UTF-8 X3.4).
_MESSAGES = {
    "thread_nonexistence": "抱歉，指定的主题不存在或已被删除或正在被审核",
    "viewperm_login_nopermission": "抱歉，您尚未登录，没有权限访问该版块",
    "thread_nopermission": "抱歉，您没有权限访问该帖子",
    "group_nopermission": "抱歉，您所在的用户组没有权限访问",
}
_CLOSED = {
    "mobile_is_closed": "论坛关闭了手机版接口（mobile_is_closed）",
    "plugin_not_exists": "论坛没有安装手机版接口（plugin_not_exists）",
}
_REFUSED = {
    "module_not_exists": "论坛的手机版接口没有这个版本的帖子模块（module_not_exists）",
    "param_error": "论坛的手机版接口不接受这个请求（param_error）",
}


class ApiClosed(ScrapeError):
    """The board offers no mobile API for this thread: switched off, absent, or not JSON."""


def matches(url: str, html: str) -> bool:
    """An answer of the mobile API's viewthread module, by its URL or its JSON's shape."""
    parts = urlsplit(url) if url else None
    if parts and parts.path.endswith(API):
        return dict(parse_qsl(parts.query)).get("module") == "viewthread"
    head = html[:512].lstrip()
    return head.startswith("{") and '"Variables"' in html[:4096] and '"postlist"' in html


def address(url: str) -> Address:
    """The thread and page an API URL asks for (page 1 when it names none)."""
    query = dict(parse_qsl(urlsplit(url).query))
    tid = query.get("tid", "")
    page = query.get("page", "1")
    return Address(tid if tid.isdigit() else None, int(page) if page.isdigit() else None)


def page_url(url: str, n: int) -> str:
    """The URL of page ``n`` at the same ``ppp`` as ``url``."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "page"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("page", str(n))]), fragment=""))


def api_url(url: str, *, ppp: int, page: int = 1, version: int = VERSION) -> str | None:
    """The API's viewthread URL for the thread a Discuz! X URL (any view) belongs to, with
    ``ppp`` posts a page; None when the URL names no thread."""
    found = board_root(url)
    if found is None:
        return None
    return thread_api_url(*found, ppp=ppp, page=page, version=version)


def thread_api_url(root: str, tid: str, *, ppp: int, page: int = 1, version: int = VERSION) -> str:
    """The API's viewthread URL for thread ``tid`` of the board at ``root``."""
    query = urlencode(
        {"version": version, "module": "viewthread", "tid": tid, "ppp": ppp, "page": page}
    )
    return urljoin(root, f"{API}?{query}")


def board_message(url: str, html: str) -> str | None:
    """Why the board answered ``url`` with ``html``: its message or error page in its own
    words, or, at an API address, a web page where JSON should be (the plugin disabled:
    X3.4 then answers with its basic mobile view)."""
    said = board_messages.board_message(url, html)
    web_page = matches(url, "") and html.lstrip()[:1] == "<"
    if web_page and (said is None or "手机版页面" in said):
        return "论坛的手机版接口回答的是网页而不是 JSON（手机版插件可能已关闭）"
    return said


def parse(html: str, *, tz: tzinfo, clock: BoardClock, texts: bool = True) -> Page:
    """Read one API answer into posts; the board's refusals are errors in Chinese.

    Post times are unix seconds, given in ``tz``; only an edit notice is on the board's
    clock, read in the zone the answer shows (``scrapers.discuz_x_mobile_zone``), else in
    ``tz``.  Without ``texts``, who posted when alone (pid, floor, author, uid, time): no
    message is read — its text, quotes, edit notice and hidden text are left empty — and
    the answer then shows no time on the board's clock (a game thread's posts for the
    lurkers count: reading 30,000 messages, an HTML tree for each with markup, is most of
    the work).  ``pages.parse_page`` asks for it only where posts are not cached."""
    from scrapers.discuz_x_mobile_zone import shown_zone  # loaded with the first answer read

    answer, variables = _variables(html)
    thread = variables.get("thread")
    postlist = variables.get("postlist")
    if not isinstance(thread, dict) or not isinstance(postlist, list):
        raise ScrapeError("手机接口的回答里没有帖子列表（回答不完整或被改动过）")
    zone = shown_zone(thread, postlist) if texts else None
    posts, vacant = [], []
    for raw in postlist:
        post = _read_post(raw, tz, zone or tz, texts)
        if isinstance(post, Post):
            posts.append(post)
        else:
            vacant.append(post)
    if not posts:
        raise ScrapeError("手机接口的回答里没有帖子（回答不完整，或帖子不存在）")
    ppp = _number(variables.get("ppp"), "ppp")
    if ppp < 1:
        raise ScrapeError(f"手机接口的回答里每页帖数不对（ppp={ppp}）")
    replies = _number(thread.get("replies"), "replies")
    positions = thread.get("maxposition")
    hidden = _number(positions, "maxposition") - 1 - replies if positions else None
    first = min(post.floor for post in posts if post.floor is not None)
    subject = thread.get("subject")
    return Page(
        posts=tuple(posts),
        page_no=(first - 1) // ppp + 1,
        page_count=max(1, math.ceil((replies + 1) / ppp)),
        title=tidy_text(html_entities.unescape(subject)) if isinstance(subject, str) else None,
        thread_id=str(thread.get("tid")) if thread.get("tid") is not None else None,
        counted=True,
        replies=replies,
        per_page=ppp,
        hidden=hidden if hidden is not None and hidden >= 0 else None,
        vacant=tuple(vacant),
        edits_shown=str(answer.get("Version")) != str(EDITLESS),
        zone=zone,
        local_times=texts and "pstatus" in html,  # an edit notice: the only board-clock time
    )


def _variables(text: str) -> tuple[dict, dict]:
    """The answer and its ``Variables``, once the answer is known to be no refusal."""
    try:
        answer = json.loads(text)
    except ValueError:
        if text.lstrip().startswith("{"):
            raise ScrapeError("手机接口的回答不完整（JSON 被截断或损坏）") from None
        raise ApiClosed("论坛的手机版接口没有回答 JSON（可能没有安装或没有开启）") from None
    if not isinstance(answer, dict):
        raise ScrapeError("手机接口的回答不是预期的格式")
    error = answer.get("error")
    if error in _REFUSED:
        raise VersionRefused(_REFUSED[error])
    if error:
        raise ApiClosed(_CLOSED.get(str(error), f"论坛的手机版接口回答了错误「{error}」"))
    message = answer.get("Message")
    if isinstance(message, dict) and message.get("messageval"):
        raise ScrapeError(f"论坛返回了提示：「{board_words(message)}」")
    variables = answer.get("Variables")
    if not isinstance(variables, dict):
        raise ScrapeError("手机接口的回答里没有 Variables（回答不完整或被改动过）")
    return answer, variables


def board_words(message: dict) -> str:
    """A ``Message``'s text: the board's own words, or what its key means when the board
    gave only the key ("mobile:viewperm_login_nopermission")."""
    key, _, login = str(message.get("messageval", "")).partition("//")
    text = tidy_text(str(message.get("messagestr") or ""))
    if not text or re.fullmatch(r"[\w:./-]+", text):
        text = _MESSAGES.get(key, f"{key}（论坛没有给出说明）")
    if login and "--cookies" not in text:  # "//1": the board asks the reader to log in
        text += "（可用 --cookies 以登录后的身份读取）"
    return text


_POST_PARTS = frozenset(("author", "authorid", "dbdateline", "message"))


def _read_post(raw: object, tz: tzinfo, shown_in: tzinfo, texts: bool = True) -> Post | int:
    """A post, or the floor of a kept position's placeholder (a deleted post's place): its
    time in ``tz``, its edit notice read on the board's clock in ``shown_in``; without
    ``texts``, its message is not read (``parse``)."""
    if not isinstance(raw, dict):
        raise ScrapeError("手机接口的帖子列表里有一项不是帖子（回答被改动过）")
    if _POST_PARTS.isdisjoint(raw):
        return _number(raw.get("number"), "空楼层的楼层", raw.get("pid"))
    pid = _number(raw.get("pid"), "pid")
    number = raw.get("number")
    if number == "-1":
        raise ScrapeError(
            f"手机接口的回答里有热门回复（pid={pid}，楼层 -1），看不出它在哪一楼"
            "（论坛开了“热门回复”）"
        )
    floor = _number(number, "楼层", pid)
    seconds = _number(raw.get("dbdateline"), "发帖时间", pid)
    author = _name(str(raw.get("author") or ""))
    message = raw.get("message")
    require_parts(f"pid={pid}", author, isinstance(message, str) and bool(message.strip()))
    posted_at = datetime.fromtimestamp(seconds, tz)
    uid = _number(raw.get("authorid") or 0, "作者编号", pid)
    if not texts:
        return Post(pid, floor, author, uid or None, posted_at, "second", "")
    body, quotes, edited_at, banned, hidden = message_parts(message, shown_in, posted_at)
    # Its fields in order (by keyword, 30,000 posts take 12 ms more): pid, floor, author,
    # uid, posted_at, precision, body, quotes, edited_at, banned, page, hidden.
    return Post(
        pid,
        floor,
        author,
        uid or None,
        posted_at,
        "second",
        body,
        quotes,
        edited_at,
        banned,
        1,
        hidden,
    )


@lru_cache(maxsize=4096)  # a thread of thousands of posts has a few dozen authors
def _name(html: str) -> str:
    return _text(html)


def _text(html: str) -> str:
    """Text with entities and without markup, as ``tidy_text`` leaves it."""
    return html if _TIDY.fullmatch(html) else tidy_text(html_entities.unescape(html))


def _number(value: object, what: str, pid: object = None) -> int:
    """A field that must be a whole number (every scalar of the answer is a string)."""
    if type(value) is str and value.isdigit():
        return int(value)
    text = str(value).strip() if value is not None else ""
    if not text.isdigit():
        whose = f"帖子 pid={pid} 的" if pid is not None else ""
        raise ScrapeError(f"手机接口的回答里{whose}{what}读不出来（「{value}」）")
    return int(text)


def message_parts(
    message: str, tz: tzinfo, posted_at: datetime
) -> tuple[str, tuple[str, ...], datetime | None, bool, tuple[str, ...]]:
    """A message's own text, its quotes, the time of the board's edit notice, whether the
    board blocked it (a banned author's) and the texts it renders invisible: the same steps
    as a thread page's message (``scrapers.discuz_x``), whose HTML it is in version 1 — the
    board's anti-copy noise dropped, the edit notice read and removed, quotes set apart,
    hidden text taken out (``scrapers.hidden``).  A message of plain text and line breaks
    (most ballots) has no markup to hide anything in and is read without building a tree.

    One thing the API cannot show: the plugin's ``discuzcode`` hook deletes every
    ``[size=…]`` and ``[/size]`` for versions 1 to 3 before the board renders the message
    (``source/plugin/mobile/mobile.class.php`` lines 358–363, run by ``discuzcode()``
    before it reads any tag: ``source/function/function_discuzcode.php`` lines 106–110),
    and version 4's ``mobile_discuzcode`` replaces them with nothing
    (``source/plugin/mobile/discuzcode.func.php`` lines 92–93), so text sized 0 on the
    thread pages arrives here at the normal size, like the rest
    (``killmod.fetch.api.SIZES_UNSEEN``: the audit and the judge's notes say so)."""
    if "<" not in message and _TIDY.fullmatch(message):  # "投5号": as it is
        return message, (), None, False, ()
    if _PLAIN.fullmatch(message):
        return _text(message.replace(_BREAK, "\n")), (), None, False, ()
    return _read_cell(fragment(message), tz, posted_at)


def _read_cell(
    cell, tz: tzinfo, posted_at: datetime
) -> tuple[str, tuple[str, ...], datetime | None, bool, tuple[str, ...]]:
    text = tidy_text(cell.text_content())
    if text.startswith("提示:") and any(reason in text for reason in _BANNED):
        return "", (), None, True, ()
    for noise in _NOISE(cell):
        drop(noise)
    edited_at = edit_time(cell, tz, posted_at)
    quotes = []
    for quote in _QUOTES(cell):
        for label in _QUOTE_LABEL(quote):  # version 1's "引用:", which the thread page lacks
            drop(label)
        quotes.append(element_text(quote))
        drop(quote)
    hidden = take_hidden(cell)
    return element_text(cell), tuple(quotes), edited_at, False, hidden


# This format's own examples (the yt-dlp habit): which page builder of tests/support/ serves
# the thread, and the posts reading ``url`` from it must yield
# (tests/test_scraper_examples.py runs every scraper's).
TESTS = [
    {
        "note": "the API's answer, version 1: pid, floor, uid, every time to the second",
        "site": "mobile_api_site",
        "args": {},
        "thread": EXAMPLE_THREAD,
        "url": "/api/mobile/index.php?version=1&module=viewthread&tid=3&ppp=1000&page=1",
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
