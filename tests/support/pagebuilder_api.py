"""Builds the Discuz! X3.4 mobile API's answers for a ``FakeThread``, and a whole board.

``api/mobile/index.php?version=4&module=viewthread&tid=T&ppp=N&page=P`` answers as the real
board's mobile plugin does (``source/plugin/mobile/api/4/viewthread.php``,
``mobile_core::result``): JSON, ASCII with ``\\u`` escapes and ``\\/`` for ``/`` on UTF-8 and
GBK boards alike (``"Charset"`` names the board's), sent as ``application/json`` without a
charset.  ``Variables`` holds the session fields (a new ``saltkey`` and ``formhash`` on every
answer), ``thread`` (``tid``, ``subject``, ``replies``, ``maxposition``…), ``postlist`` (per post
``pid``, ``number`` = the floor shown, ``position``, ``author``, ``authorid``, ``dbdateline`` =
unix seconds, ``dateline`` = dgmdate's text, ``message``) and ``ppp``.  ``ppp`` is honoured
without an upper limit; without one the board's mobile page size (5) applies.  A message is
rendered the way ``mobile_discuzcode`` renders it: the edit notice removed, a quote as
``<div class="reply_wrap">`` (its link with ``&amp;amp;``), a banned author's message replaced
by the board's notice.  A thread that keeps its posts' positions (抢楼) lists a deleted post as
the board's empty placeholder (``pid``, ``number``, ``position`` and nothing else).

The board's own answers: ``{"error":"mobile_is_closed"}`` with the API switched off,
``{"error":"module_not_exists"}`` for another module, a ``Message`` (``thread_nonexistence``,
``viewperm_login_nopermission//1``) with an empty ``postlist``, and, as X3.4 does, a 302 to
``forum.php?mod=viewthread&tid=T&mobile=1`` (relative: under ``api/mobile/``) for the first
view after a moderator's deletion, shared with the thread pages (``FakeThread``).

``whole_board`` serves one thread in every view: thread pages, printable view, archiver and
mobile API.
"""

from __future__ import annotations

import json
import random
import re
from datetime import UTC
from email.utils import format_datetime
from urllib.parse import parse_qsl, urlsplit

from tests.support.pagebuilder import (
    SITE_URL,
    FakePost,
    FakeThread,
    Response,
    Site,
    _intval,
    _message_html,
    _not_found,
    _ymd_hi,
    discuz_x_site,
    format_post_time,
)
from tests.support.pagebuilder_more import discuz_x_archiver_site, discuz_x_printable_site

API_PATH = "/api/mobile/index.php"
MOBILE_PPP = 5  # the board's mobile page size, when the request names no ppp
API_STATES = ("open", "closed", "absent")
BANNED_MESSAGE = "提示: <em>作者被禁止或删除 内容自动屏蔽</em>"
_TAGS = re.compile(r"<[^>]+>")
# The messages of source/language/mobile (lang_mobile.php) and lang_message.php.
MESSAGES = {
    "thread_nonexistence": "抱歉，指定的主题不存在或已被删除或正在被审核",
    "viewperm_login_nopermission//1": "抱歉，您尚未登录，没有权限访问该版块",
}


def api_path(tid: int, *, ppp: int | None = None, page: int | None = None) -> str:
    """The API's viewthread path and query for ``tid`` (as killmod asks for it)."""
    query = f"version=4&module=viewthread&tid={tid}"
    if ppp is not None:
        query += f"&ppp={ppp}"
    if page is not None:
        query += f"&page={page}"
    return f"{API_PATH}?{query}"


def php_json(document: object, *, ascii_only: bool = True, charset: str = "utf-8") -> bytes:
    """JSON as the mobile plugin's CJSON writes it: ``\\u`` escapes and ``\\/``; without
    the escapes (``ascii_only`` off, as a board's own JSON encoder may write it) in the
    board's charset."""
    text = json.dumps(document, ensure_ascii=ascii_only, separators=(",", ":"))
    codec = "gb18030" if charset.lower() in ("gbk", "gb2312") else charset
    return text.replace("/", "\\/").encode(codec)


def _session(rng: random.Random, charset: str) -> dict:
    """The fields every answer starts with (a guest's session)."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return {
        "cookiepre": "Rk3e_2132_",
        "auth": None,
        "saltkey": "".join(rng.choice(letters) for _ in range(8)),
        "member_uid": "0",
        "member_username": "",
        "member_avatar": f"{SITE_URL}uc_server/avatar.php?uid=0&size=small",
        "groupid": "7",
        "formhash": f"{rng.getrandbits(32):08x}",
        "ismoderator": "0",
        "readaccess": "1",
        "notice": {"newpush": "0", "newpm": "0", "newprompt": "0", "newmypost": "0"},
    }


def _answer(variables: dict, charset: str, message: tuple[str, str] | None = None) -> dict:
    document: dict = {"Version": "4", "Charset": charset.upper(), "Variables": variables}
    if message is not None:
        document["Message"] = {"messageval": message[0], "messagestr": message[1]}
    return document


def _quote(post: FakePost, thread: FakeThread) -> str:
    """``mobile_quote()``: the quoted author and time as a link, then the quoted text."""
    if post.quote is None:
        return ""
    author, quoted_at, text = post.quote
    quoted = next(
        (p.pid for p in thread.posts if p.author == author and p.posted_at == quoted_at), 0
    )
    when = _ymd_hi(quoted_at.astimezone(thread.now.tzinfo))
    href = (
        f"{SITE_URL}forum.php?mod=redirect&amp;amp;goto=findpost&amp;amp;pid={quoted}"
        f"&amp;amp;ptid={thread.tid}"
    )
    return (
        f'<div class="reply_wrap"><a href="{href}"><font color="#999999">{author} 发表于 {when}'
        f"</font></a><br />\n{_message_html(text)}</div><br />\n"
    )


def _post_entry(post: FakePost, floor: int, thread: FakeThread) -> dict:
    """One ``postlist`` entry as ``mobile_core::getvalues`` keeps it."""
    if post.deleted:  # a kept position's placeholder: what getvalues keeps of it
        return {"pid": str(post.pid), "number": str(floor), "position": str(floor)}
    banned = post.banned or post.account_deleted
    shown = _TAGS.sub("", format_post_time(post.posted_at, thread.now, "auto"))
    return {
        "pid": str(post.pid),
        "tid": str(thread.tid),
        "first": "1" if floor == 1 else "0",
        "author": post.author,
        "authorid": str(post.uid or 0),
        "dateline": shown,
        "message": BANNED_MESSAGE if banned else _quote(post, thread) + _message_html(post.body),
        "anonymous": "0",
        "attachment": "0",
        "status": "0",
        "replycredit": "0",
        "position": str(floor),
        "username": post.author,
        "adminid": "-1" if post.banned else "0",
        "groupid": "4" if post.banned else "10",
        "memberstatus": "0",
        "number": str(floor),
        "dbdateline": str(int(post.posted_at.timestamp())),
        "groupiconid": "1",
    }


def _thread_fields(thread: FakeThread) -> dict:
    shown = thread.shown()
    first = thread.posts[0]
    last = shown[-1][1]
    return {
        "tid": str(thread.tid),
        "fid": "2",
        "author": first.author,
        "authorid": str(first.uid or 0),
        "subject": thread.title,
        "dateline": str(int(first.posted_at.timestamp())),
        "lastpost": _ymd_hi(last.posted_at.astimezone(thread.now.tzinfo)),
        "lastposter": last.author,
        "views": str(37 * len(thread.posts)),
        "replies": str(len(shown) - 1),
        "maxposition": str(len(thread.posts)),
        "allreplies": str(len(shown) - 1),
        "closed": "0",
        "status": "32",
    }


def render_api_page(
    thread: FakeThread,
    page_no: int,
    *,
    ppp: int = MOBILE_PPP,
    charset: str = "utf-8",
    ascii_only: bool = True,
    seed: int = 0,
) -> bytes:
    """The viewthread answer for page ``page_no`` at ``ppp`` posts a page (a page past the
    end is the last one, as the board does).  ``seed`` varies the session fields."""
    shown = thread.shown()
    pages = max(1, -(-len(shown) // ppp))
    page = min(max(page_no, 1), pages)
    entries = [
        _post_entry(post, floor, thread) for floor, post in shown[(page - 1) * ppp : page * ppp]
    ]
    variables = {
        **_session(random.Random(seed), charset),
        "thread": _thread_fields(thread),
        "fid": "2",
        "postlist": entries,
        "allowpostcomment": ["1", "2"],
        "comments": [],
        "commentcount": [],
        "ppp": str(ppp),
        "setting_rewriterule": None,
        "setting_rewritestatus": "",
        "forum_threadpay": "",
        "cache_custominfo_postno": ["<sup>#</sup>", "楼主", "沙发", "板凳", "地板"],
        "forum": {"password": "0"},
    }
    return php_json(_answer(variables, charset), ascii_only=ascii_only, charset=charset)


def api_message(messageval: str, *, charset: str = "utf-8", seed: int = 0) -> bytes:
    """An answer refusing the request with the board's ``Message`` and no posts."""
    variables = {
        **_session(random.Random(seed), charset),
        "thread": {"allreplies": "0", "lastpost": "1970-1-1 08:00"},
        "fid": "0",
        "postlist": [],
        "ppp": str(MOBILE_PPP),
    }
    text = MESSAGES.get(messageval, messageval)
    return php_json(_answer(variables, charset, (messageval, text)))


def _json(body: bytes, thread: FakeThread) -> Response:
    date = format_datetime(thread.now.astimezone(UTC), usegmt=True)
    return Response(200, {"Content-Type": "application/json", "Date": date}, body)


def mobile_api_site(
    thread: FakeThread,
    *,
    charset: str = "utf-8",
    state: str = "open",
    ascii_only: bool = True,
    members_only: bool = False,
) -> Site:
    """A board's ``api/mobile/index.php`` serving ``thread``; ``state`` is ``open``,
    ``closed`` (the plugin's ``allowmobile`` off) or ``absent`` (404).  ``members_only``: a
    guest is refused with ``viewperm_login_nopermission``.  Anything else is a 404."""
    if state not in API_STATES:
        raise ValueError(f"unknown API state {state!r}")
    answers = iter(range(1, 1_000_000))

    def site(path_and_query: str) -> Response:
        parts = urlsplit(path_and_query)
        if parts.path != API_PATH or state == "absent":
            return _not_found()
        if not parts.query:  # the plugin's index.php does nothing without a query
            return Response(200, {"Content-Type": "text/html"}, b"")
        if state == "closed":
            return _json(php_json({"error": "mobile_is_closed"}), thread)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        if query.get("module") != "viewthread":
            return _json(php_json({"error": "module_not_exists"}), thread)
        seed = next(answers)
        if _intval(query.get("tid", "")) != thread.tid:
            return _json(api_message("thread_nonexistence", charset=charset, seed=seed), thread)
        if members_only:
            message = "viewperm_login_nopermission//1"
            return _json(api_message(message, charset=charset, seed=seed), thread)
        ppp = _intval(query.get("ppp", "")) or MOBILE_PPP
        page = max(1, _intval(query.get("page", "1")))
        if thread.deletion_unseen_in((page - 1) * ppp, ppp):
            thread.positions_dropped = True
            location = f"forum.php?mod=viewthread&tid={thread.tid}&mobile=1"
            return Response(302, {"Location": location, "Content-Type": "text/html"}, b"")
        body = render_api_page(
            thread, page, ppp=ppp, charset=charset, ascii_only=ascii_only, seed=seed
        )
        return _json(body, thread)

    return site


def whole_board(
    thread: FakeThread,
    *,
    charset: str = "utf-8",
    api: str = "open",
    rewrite: bool = False,
    ascii_only: bool = True,
) -> Site:
    """One board serving ``thread`` as thread pages, printable view, archiver and mobile
    API (``api``: ``open``, ``closed`` or ``absent``), each with its own HTTP ``Date``."""
    pages = discuz_x_site(thread, charset=charset, rewrite=rewrite)
    printable = discuz_x_printable_site(thread, charset=charset)
    archiver = discuz_x_archiver_site(thread, charset=charset)
    mobile = mobile_api_site(thread, charset=charset, state=api, ascii_only=ascii_only)

    def site(path_and_query: str) -> Response:
        if path_and_query.startswith("/api/"):
            return mobile(path_and_query)
        if path_and_query.startswith("/archiver/"):
            return archiver(path_and_query)
        if "action=printable" in path_and_query:
            return printable(path_and_query)
        return pages(path_and_query)

    return site
