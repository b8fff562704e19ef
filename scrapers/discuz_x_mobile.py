"""Discuz! X mobile API: ``api/mobile/index.php?version=4&module=viewthread&tid=T&ppp=N&page=P``.

The board's mobile plugin (``source/plugin/mobile/api/4/viewthread.php``) answers with JSON,
ASCII with ``\\u`` escapes on UTF-8 and GBK boards alike (``"Charset"`` names the board's)::

    {"Version":"4","Charset":"UTF-8","Variables":{…,"thread":{"tid":"3","subject":"…",
     "replies":"32",…},"postlist":[{"pid":"7","number":"1","author":"法官","authorid":"2",
     "dbdateline":"1796049000","message":"…",…},…],"ppp":"100",…}}

Per post: ``pid``; ``number``, the floor the thread pages show (renumbered after a
moderator's deletion, like them); ``author`` and ``authorid`` (the uid; 0 for a guest);
``dbdateline``, unix seconds: every time is exact to the second; ``message``, HTML as
``mobile_discuzcode`` renders it: a quote is ``<div class="reply_wrap">`` (stripped from the
text, kept in ``quotes``), a banned author's message is "提示: <em>作者被禁止或删除 内容自动屏蔽
</em>", and the board's edit notice is removed — an edit cannot be seen here (an ``i.pstatus``
notice, should a board leave it, is read as on the thread pages).  ``ppp`` is honoured
without an upper limit, so a whole thread comes in one request.  A thread that keeps its
posts' positions (抢楼) lists a deleted post as an empty placeholder (``pid``, ``number``,
``position`` only), skipped like the thread page's 无效楼层.

Identity: the thread's ``tid`` and ``subject``; the page is the one holding the first post's
``number`` at the answer's own ``ppp``, and the page count follows from ``replies``.

The board's refusals: ``{"error":"mobile_is_closed"}`` (the API switched off) and
``{"error":"module_not_exists"}`` are ``ApiClosed``; a ``Message`` (``thread_nonexistence``,
``viewperm_login_nopermission//1``, …) is the board's answer in its words; an answer that is no
JSON (a board without the plugin) is ``ApiClosed`` too.
"""

from __future__ import annotations

import hashlib
import html as html_entities
import json
import math
import re
from datetime import datetime, tzinfo
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit, urlunsplit

from lxml import etree

from killmod.core.model import Page, Post
from killmod.core.times import BoardClock
from scrapers.base import (
    EXAMPLE_THREAD,
    Address,
    ScrapeError,
    drop,
    element_text,
    fragment,
    no_seconds_view,
    require_parts,
    tidy_text,
)
from scrapers.board_messages import board_message as board_message
from scrapers.discuz_x import board_root, edit_time, thread_url
from scrapers.discuz_x import views as views
from scrapers.discuz_x_mobile_zone import shown_zone

NAME = "discuz_x_mobile"
# X3.4 answers the first request after a moderator's deletion with a 302 to a thread page
# under api/mobile/ (no page of the API): the request is made again instead.
AGAIN_ON_REDIRECT = True
seconds_view = no_seconds_view  # every time it shows is to the second
zone_url = thread_url  # its edit notices' times: the thread page's footer declares their zone

API = "api/mobile/index.php"
_BANNED = ("作者被禁止或删除", "该帖被管理员或版主屏蔽")
_QUOTES = etree.XPath(
    './/div[@class="reply_wrap"] | .//div[@class="quote"]'
    ' | .//blockquote[not(ancestor::div[@class="quote"] or ancestor::div[@class="reply_wrap"])]'
)
_NOISE = etree.XPath(
    './/font[@class="jammer"] | .//span[contains(translate(@style, " ", ""), "display:none")]'
    " | .//script"
)
# What the board's messages mean, for the ones whose text a board leaves as a language key
# ("mobile:viewperm_login_nopermission" on a UTF-8 X3.4).
_MESSAGES = {
    "thread_nonexistence": "抱歉，指定的主题不存在或已被删除或正在被审核",
    "viewperm_login_nopermission": "抱歉，您尚未登录，没有权限访问该版块",
    "thread_nopermission": "抱歉，您没有权限访问该帖子",
    "group_nopermission": "抱歉，您所在的用户组没有权限访问",
}
_ERRORS = {
    "mobile_is_closed": "论坛关闭了手机版接口（mobile_is_closed）",
    "module_not_exists": "论坛的手机版接口没有帖子模块（module_not_exists）",
    "plugin_not_exists": "论坛没有安装手机版接口（plugin_not_exists）",
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


def api_url(url: str, *, ppp: int, page: int = 1) -> str | None:
    """The API's viewthread URL for the thread a Discuz! X URL (any view) belongs to, with
    ``ppp`` posts a page; None when the URL names no thread."""
    found = board_root(url)
    if found is None:
        return None
    return thread_api_url(*found, ppp=ppp, page=page)


def thread_api_url(root: str, tid: str, *, ppp: int, page: int = 1) -> str:
    """The API's viewthread URL for thread ``tid`` of the board at ``root``."""
    query = urlencode(
        {"version": "4", "module": "viewthread", "tid": tid, "ppp": ppp, "page": page}
    )
    return urljoin(root, f"{API}?{query}")


def parse(html: str, *, tz: tzinfo, clock: BoardClock) -> Page:
    """Read one API answer into posts; the board's refusals are errors in Chinese.

    Post times are unix seconds; only an edit notice is on the board's clock, read in the
    zone the answer shows (``scrapers.discuz_x_mobile_zone``), else in ``tz``."""
    variables = _variables(html)
    thread = variables.get("thread")
    postlist = variables.get("postlist")
    if not isinstance(thread, dict) or not isinstance(postlist, list):
        raise ScrapeError("手机接口的回答里没有帖子列表（回答不完整或被改动过）")
    zone = shown_zone(thread, postlist)
    posts = tuple(post for raw in postlist if (post := _read_post(raw, zone or tz)) is not None)
    if not posts:
        raise ScrapeError("手机接口的回答里没有帖子（回答不完整，或帖子不存在）")
    ppp = _number(variables.get("ppp"), "ppp")
    if ppp < 1:
        raise ScrapeError(f"手机接口的回答里每页帖数不对（ppp={ppp}）")
    replies = _number(thread.get("replies"), "replies")
    first = min(post.floor for post in posts if post.floor is not None)
    subject = thread.get("subject")
    return Page(
        posts=posts,
        page_no=(first - 1) // ppp + 1,
        page_count=max(1, math.ceil((replies + 1) / ppp)),
        title=tidy_text(html_entities.unescape(subject)) if isinstance(subject, str) else None,
        thread_id=str(thread.get("tid")) if thread.get("tid") is not None else None,
        zone=zone,
        local_times="pstatus" in html,  # an edit notice: the only time on the board's clock
    )


def fingerprint(body: bytes) -> str:
    """What an answer holds, without the session fields (``saltkey``, ``formhash``…) that
    change on every answer: a page fetched again with the same fingerprint has the same
    posts."""
    try:
        answer = json.loads(body)
    except ValueError:
        return hashlib.sha256(body).hexdigest()
    variables = answer.get("Variables") if isinstance(answer, dict) else None
    if not isinstance(variables, dict):
        return hashlib.sha256(body).hexdigest()
    held = {key: variables.get(key) for key in ("thread", "postlist", "ppp")}
    held["Message"] = answer.get("Message")
    canonical = json.dumps(held, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(canonical).hexdigest()


def _variables(text: str) -> dict:
    """The answer's ``Variables``, once the answer is known to be no refusal."""
    try:
        answer = json.loads(text)
    except ValueError:
        if text.lstrip().startswith("{"):
            raise ScrapeError("手机接口的回答不完整（JSON 被截断或损坏）") from None
        raise ApiClosed("论坛的手机版接口没有回答 JSON（可能没有安装或没有开启）") from None
    if not isinstance(answer, dict):
        raise ScrapeError("手机接口的回答不是预期的格式")
    error = answer.get("error")
    if error:
        raise ApiClosed(_ERRORS.get(str(error), f"论坛的手机版接口回答了错误「{error}」"))
    message = answer.get("Message")
    if isinstance(message, dict) and message.get("messageval"):
        raise ScrapeError(f"论坛返回了提示：「{board_words(message)}」")
    variables = answer.get("Variables")
    if not isinstance(variables, dict):
        raise ScrapeError("手机接口的回答里没有 Variables（回答不完整或被改动过）")
    return variables


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


def _read_post(raw: object, tz: tzinfo) -> Post | None:
    if not isinstance(raw, dict):
        raise ScrapeError("手机接口的帖子列表里有一项不是帖子（回答被改动过）")
    pid = raw.get("pid")
    if not {"author", "authorid", "dbdateline", "message"} & raw.keys():
        return None  # a kept position's placeholder for a deleted post
    pid = _number(pid, "pid")
    floor = _number(raw.get("number"), f"帖子 pid={pid} 的楼层")
    seconds = _number(raw.get("dbdateline"), f"帖子 pid={pid} 的发帖时间")
    author = tidy_text(html_entities.unescape(str(raw.get("author") or "")))
    message = raw.get("message")
    require_parts(f"pid={pid}", author, isinstance(message, str) and bool(message.strip()))
    posted_at = datetime.fromtimestamp(seconds, tz)
    cell = fragment(message)
    banned = _is_banned(cell)
    body, quotes, edited_at = ("", (), None) if banned else _body(cell, tz, posted_at)
    uid = _number(raw.get("authorid") or 0, f"帖子 pid={pid} 的作者编号")
    return Post(
        pid=pid,
        floor=floor,
        author=author,
        uid=uid or None,
        posted_at=posted_at,
        precision="second",
        body=body,
        quotes=quotes,
        edited_at=edited_at,
        banned=banned,
    )


def _number(value: object, what: str) -> int:
    text = str(value).strip() if value is not None else ""
    if not text.isdigit():
        raise ScrapeError(f"手机接口的回答里{what}读不出来（「{value}」）")
    return int(text)


def _is_banned(cell) -> bool:
    text = tidy_text(cell.text_content())
    return text.startswith("提示:") and any(reason in text for reason in _BANNED)


def _body(cell, tz: tzinfo, posted_at: datetime) -> tuple[str, tuple[str, ...], datetime | None]:
    for noise in _NOISE(cell):
        drop(noise)
    edited_at = edit_time(cell, tz, posted_at)
    quotes = []
    for quote in _QUOTES(cell):
        quotes.append(element_text(quote))
        drop(quote)
    return element_text(cell), tuple(quotes), edited_at


# This format's own examples (the yt-dlp habit): which page builder of tests/support/ serves
# the thread, and the posts reading ``url`` from it must yield
# (tests/test_scraper_examples.py runs every scraper's).
TESTS = [
    {
        "note": "the API's answer: pid, floor, uid, every time to the second",
        "site": "mobile_api_site",
        "args": {},
        "thread": EXAMPLE_THREAD,
        "url": "/api/mobile/index.php?version=4&module=viewthread&tid=3&ppp=1000&page=1",
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
