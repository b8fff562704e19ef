# ruff: noqa: E501 -- the basic mobile page keeps Discuz's own long lines, as the board sends them
"""Builds the Discuz! X3.4 mobile API's answers for a ``FakeThread``, and a whole board.

``api/mobile/index.php?version=V&module=viewthread&tid=T&ppp=N&page=P`` answers as the real
board's mobile plugin does, modelled on real X3.4 answers (version 1 and version 4 of the same
thread: its posts, a quote made with the quote button, two edits, a deletion, a ban):

- The plugin's ``mobile.php`` runs ``api/V/viewthread.php``; without ``version`` (or with 1,
  or 2, which has no viewthread of its own) that is version 1, with 4 version 4
  (``source/plugin/mobile/mobile.php`` lines 36–70).  ``mobile_core::result`` writes JSON,
  ASCII with ``\\u`` escapes and ``\\/`` for ``/`` on UTF-8 and GBK boards alike (``"Charset"``
  names the board's), every scalar a string, sent as ``Content-type: application/json``
  (no charset) with the plugin's CORS headers.  ``Variables`` holds the session fields (a
  new ``saltkey`` and ``formhash`` on every answer; ``member_uid`` 0 for a guest), ``thread``
  (``tid``, ``subject``, ``replies``, ``maxposition``…), ``postlist`` and ``ppp``.
- **Version 1** (``api/1/viewthread.php``): 16 fields a post — pid, tid, first, author,
  authorid, dateline (dgmdate's text, ``9&nbsp;分钟前``), message, anonymous, attachment,
  status (1024 for a reply too short for ``threadfilternum``), username, adminid, groupid,
  memberstatus, number (the floor shown), dbdateline (unix seconds).  The message is the
  ordinary ``discuzcode``'s HTML: an edited post starts with the board's notice
  ``<i class="pstatus"> 本帖最后由 X 于 Y 编辑 </i><br />\\n`` (then ``<br />\\n``, or the
  quote), a quote is ``<div class="quote"><blockquote><p>引用:</p><a …><font
  color="#999999">A 发表于 T</font></a><br />\\n…</blockquote></div><br />\\n``, a line break
  typed in the browser ``<br />\\r\\n``.
- **Version 4** (``api/4/viewthread.php``, messages through the plugin's own
  ``mobile_discuzcode``): 19 fields (``position``, ``groupiconid``, ``replycredit`` added), the
  edit notice removed, a quote as ``<div class="reply_wrap">`` (its link with ``&amp;amp;``).
- A banned author's message is the board's notice, ``提示: <em>作者被禁止或删除 内容自动屏蔽
  </em>`` (adminid -1, groupid 4), in both versions.
- ``ppp`` is honoured without an upper limit (``mobile.class.php``'s ``common()``), except
  for a guest on a forum with 页面缓存 (``threadcaches``), where ``forum_viewthread.php``
  line 477 puts the board's ``postperpage`` in its place: the answer says ``"ppp":"10"``.
  A logged-in member (the ``auth`` cookie of a member the board knows) is not capped.
- A thread that keeps its posts' positions (抢楼) lists a deleted post as a placeholder
  (``pid`` and ``number``; version 4 also ``position``).  Otherwise, as X3.4 does, the first
  view after a moderator's deletion answers with a 302 to
  ``forum.php?mod=viewthread&tid=T&mobile=1`` (relative: under ``api/mobile/``) and floors
  are counted from then on (shared with the thread pages: ``FakeThread``).

The board's other answers: ``{"error":"mobile_is_closed"}`` with the API switched off
(``closed``), a 404 without the plugin's files (``absent``), the board's basic mobile page
(HTML, 5 posts) with the plugin disabled (``disabled``), ``{"error":"module_not_exists"}`` for
version 1 only on a board whose plugin lacks ``api/1/viewthread.php`` (``v1_refused``), and a
``Message`` (``thread_nonexistence``, ``viewperm_login_nopermission//1``) with an empty
``postlist``.

``whole_board`` serves one thread in every view: thread pages, printable view, archiver and
mobile API.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from datetime import UTC
from email.utils import format_datetime
from urllib.parse import parse_qsl, quote, urlsplit

from tests.support.pagebuilder import (
    SITE_URL,
    FakePost,
    FakeThread,
    Response,
    Site,
    _escape,
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
POSTPERPAGE = 10  # the board's thread page size: a capped guest's ppp
API_STATES = ("open", "closed", "absent", "disabled", "v1_refused")
BANNED_MESSAGE = "提示: <em>作者被禁止或删除 内容自动屏蔽</em>"
COOKIEPRE = "Rk3e_2132_"
CORS = {
    "Access-Control-Allow-Origin": "http://wsq.discuz.com",
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    "Vary": "Accept-Encoding",
}
_TAGS = re.compile(r"<[^>]+>")
# discuzcode's rendering of [size=N] and [size=Npx] (a thread page's), around its text.
_SIZED = re.compile(r'<font (?:size="[^"]*"|style="font-size:[^"]*")>(.*?)</font>', re.S)
# What threadfilternum's length check leaves out (extend_thread_filter.php, _check_post_length).
_NOT_COUNTED = re.compile(r"[,.?!，。？！~…\s]")
THREADFILTERNUM = 10
# The messages of source/language/mobile (lang_mobile.php) and lang_message.php.
MESSAGES = {
    "thread_nonexistence": "抱歉，指定的主题不存在或已被删除或正在被审核",
    "viewperm_login_nopermission//1": "抱歉，您尚未登录，没有权限访问该版块",
}


@dataclass(frozen=True)
class Viewer:
    """Who asks: a guest (uid 0) or a member the board knows by his ``auth`` cookie."""

    uid: int = 0
    name: str = ""


GUEST = Viewer()


def api_path(
    tid: int, *, ppp: int | None = None, page: int | None = None, version: int | None = 1
) -> str:
    """The API's viewthread path and query for ``tid`` (version 1: as killmod asks)."""
    query = "" if version is None else f"version={version}&"
    query += f"module=viewthread&tid={tid}"
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


def _session(rng: random.Random, viewer: Viewer) -> dict:
    """The fields every answer starts with (``mobile_core::variable``)."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    auth = "".join(rng.choice(letters) for _ in range(90)) if viewer.uid else None
    return {
        "cookiepre": COOKIEPRE,
        "auth": auth,
        "saltkey": "".join(rng.choice(letters) for _ in range(8)),
        "member_uid": str(viewer.uid),
        "member_username": viewer.name,
        "member_avatar": f"{SITE_URL}uc_server/avatar.php?uid={viewer.uid}&size=small&ts=1",
        "groupid": "10" if viewer.uid else "7",
        "formhash": f"{rng.getrandbits(32):08x}",
        "ismoderator": "0",
        "readaccess": "10" if viewer.uid else "1",
        "notice": {"newpush": "0", "newpm": "0", "newprompt": "0", "newmypost": "0"},
    }


def _answer(
    variables: dict, charset: str, version: int, message: tuple[str, str] | None = None
) -> dict:
    document: dict = {"Version": str(version), "Charset": charset.upper(), "Variables": variables}
    if message is not None:
        document["Message"] = {"messageval": message[0], "messagestr": message[1]}
    return document


def _quoted(post: FakePost, thread: FakeThread) -> tuple[str, str, int, str]:
    """The quoted author, the time shown (to the minute), the quoted post's pid (0 when
    none is his at that time) and the quoted text."""
    author, quoted_at, text = post.quote
    pid = next((p.pid for p in thread.posts if p.author == author and p.posted_at == quoted_at), 0)
    return author, _ymd_hi(quoted_at.astimezone(thread.now.tzinfo)), pid, text


def _quote_v4(post: FakePost, thread: FakeThread) -> str:
    """``mobile_quote()``: the quoted author and time as a link, then the quoted text."""
    if post.quote is None:
        return ""
    author, when, pid, text = _quoted(post, thread)
    href = (
        f"{SITE_URL}forum.php?mod=redirect&amp;amp;goto=findpost&amp;amp;"
        f"pid={pid}&amp;amp;ptid={thread.tid}"
    )
    return (
        f'<div class="reply_wrap"><a href="{href}"><font color="#999999">{author} 发表于 {when}'
        f"</font></a><br />\n{_message_html(text)}</div><br />\n"
    )


def _typed(text: str) -> str:
    """Text typed in the browser's form as discuzcode shows it: its line breaks are CRLF —
    and no size: the mobile plugin deletes every [size] tag before discuzcode reads the
    message (versions 1–3: mobile.class.php lines 358–363; version 4's mobile_discuzcode:
    discuzcode.func.php lines 92–93), so the <font size>/font-size a thread page shows for
    one is not there."""
    unsized = _SIZED.sub(r"\1", text)
    return _message_html(unsized).replace("<br />\n", "<br />\r\n")


def _typed_v4(text: str) -> str:
    """The same through ``mobile_discuzcode``, which makes a blank line three breaks."""
    return _typed(text).replace("<br />\r\n<br />\r\n", "<br />\n<br />\n<br />\n")


def _position(post: FakePost, floor: int, thread: FakeThread) -> int:
    """The post's stored position (given when it was posted; a deletion renumbers floors,
    never positions)."""
    return floor if thread.keeps_positions else thread.posts.index(post) + 1


def _quote_v1(post: FakePost, thread: FakeThread) -> str:
    """discuzcode's ``[quote]`` of the quote button's text (the quoted author and time as a
    link, then the quoted text; the ``[size=2]`` the button wrote is dropped by the mobile
    plugin's ``discuzcode`` hook for versions other than 4)."""
    if post.quote is None:
        return ""
    author, when, pid, text = _quoted(post, thread)
    href = f"{SITE_URL}forum.php?mod=redirect&amp;goto=findpost&amp;pid={pid}&amp;ptid={thread.tid}"
    return (
        f'<div class="quote"><blockquote><p>引用:</p><a href="{href}" target="_blank">'
        f'<font color="#999999">{_escape(author)} 发表于 {when}</font></a><br />\n'
        f"{_typed(text)}</blockquote></div><br />\n"
    )


def _edit_notice_v1(post: FakePost, thread: FakeThread) -> str:
    """The notice the board writes at an edit made more than 60 s after posting
    (``[i=s] 本帖最后由 X 于 Y 编辑 [/i]`` then a blank line, discuzcode's HTML)."""
    if post.edited_at is None or (post.edited_at - post.posted_at).total_seconds() <= 60:
        return ""
    when = _ymd_hi(post.edited_at.astimezone(thread.now.tzinfo))
    notice = f'<i class="pstatus"> 本帖最后由 {_escape(post.author)} 于 {when} 编辑 </i><br />\n'
    return notice + ("" if post.quote else "<br />\n")


def _water(post: FakePost, floor: int) -> bool:
    """A reply too short for threadfilternum (its length as dstrlen counts it: two for a
    character past ASCII) is marked as such in its ``status`` (bit 11)."""
    if floor == 1 or post.quote is not None:
        return False
    text = _NOT_COUNTED.sub("", _TAGS.sub("", post.body))
    return sum(1 if ord(c) < 128 else 2 for c in text) < THREADFILTERNUM


def _groups(post: FakePost) -> tuple[str, str]:
    """(adminid, groupid) of the post's author: the board's founder (uid 1) is its admin, a
    banned member is in group 4 (禁止发言)."""
    if post.banned:
        return "-1", "4"
    return ("1", "1") if post.uid == 1 else ("0", "10")


def _post_v1(post: FakePost, floor: int, thread: FakeThread) -> dict:
    """One ``postlist`` entry of version 1, the fields in the order the board sends them."""
    if post.deleted:  # a kept position's placeholder: all getvalues keeps of it
        return {"pid": str(post.pid), "number": str(floor)}
    banned = post.banned or post.account_deleted
    adminid, groupid = _groups(post)
    message = (
        BANNED_MESSAGE
        if banned
        else _edit_notice_v1(post, thread) + _quote_v1(post, thread) + _typed(post.body)
    )
    return {
        "pid": str(post.pid),
        "tid": str(thread.tid),
        "first": "1" if floor == 1 else "0",
        "author": post.author,
        "authorid": str(post.uid or 0),
        "dateline": _TAGS.sub("", format_post_time(post.posted_at, thread.now, "auto")),
        "message": message,
        "anonymous": "0",
        "attachment": "0",
        "status": "1024" if _water(post, floor) else "0",
        "username": post.author,
        "adminid": adminid,
        "groupid": groupid,
        "memberstatus": "0",
        "number": str(floor),
        "dbdateline": str(int(post.posted_at.timestamp())),
    }


def _post_v4(post: FakePost, floor: int, thread: FakeThread) -> dict:
    """One ``postlist`` entry of version 4 (``mobile_core::getvalues``)."""
    if post.deleted:
        return {"pid": str(post.pid), "number": str(floor), "position": str(floor)}
    banned = post.banned or post.account_deleted
    adminid, groupid = _groups(post)
    return {
        "pid": str(post.pid),
        "tid": str(thread.tid),
        "first": "1" if floor == 1 else "0",
        "author": post.author,
        "authorid": str(post.uid or 0),
        "dateline": _TAGS.sub("", format_post_time(post.posted_at, thread.now, "auto")),
        "message": BANNED_MESSAGE if banned else _quote_v4(post, thread) + _typed_v4(post.body),
        "anonymous": "0",
        "attachment": "0",
        "status": "1024" if _water(post, floor) else "0",
        "replycredit": "0",
        "position": str(_position(post, floor, thread)),
        "username": post.author,
        "adminid": adminid,
        "groupid": groupid,
        "memberstatus": "0",
        "number": str(floor),
        "dbdateline": str(int(post.posted_at.timestamp())),
        "groupiconid": None if post.banned else "admin" if adminid == "1" else "1",
    }


def _short(subject: str) -> str:
    """cutstr($subject, 52): the subject with " ..." when its bytes pass 52."""
    return f"{subject} ..." if len(subject.encode("utf-8")) > 52 else subject


def _thread_fields(thread: FakeThread) -> dict:
    """``$_G['thread']`` as the answer carries it (replies: the posts shown but the first;
    maxposition: every position ever given)."""
    shown = thread.shown()
    first = thread.posts[0]
    last = shown[-1][1]
    replies = str(len(shown) - 1)
    return {
        "tid": str(thread.tid),
        "fid": "2",
        "posttableid": "0",
        "typeid": "0",
        "sortid": "0",
        "readperm": "0",
        "price": "0",
        "author": first.author,
        "authorid": str(first.uid or 0),
        "subject": thread.title,
        "dateline": str(int(first.posted_at.timestamp())),
        "lastpost": _ymd_hi(last.posted_at.astimezone(thread.now.tzinfo)),
        "lastposter": last.author,
        "views": replies,
        "replies": replies,
        "displayorder": "0",
        "highlight": "0",
        "digest": "0",
        "rate": "0",
        "special": "0",
        "attachment": "0",
        "moderated": "0",
        "closed": "0",
        "stickreply": "0",
        "recommends": "0",
        "recommend_add": "0",
        "recommend_sub": "0",
        "heats": "0",
        "status": "32",
        "isgroup": "0",
        "favtimes": "0",
        "sharetimes": "0",
        "stamp": "-1",
        "icon": "-1",
        "pushedaid": "0",
        "cover": "0",
        "replycredit": "0",
        "relatebytag": "0",
        "maxposition": str(len(thread.posts)),
        "bgcolor": "",
        "comments": "0",
        "hidden": "0",
        "threadtable": "forum_thread",
        "threadtableid": "0",
        "posttable": "forum_post",
        "allreplies": replies,
        "is_archived": "",
        "archiveid": "0",
        "subjectenc": quote(thread.title, safe=""),
        "short_subject": _short(thread.title),
        "replycredit_rule": {"extcreditstype": "2"},
        "recommendlevel": "0",
        "heatlevel": "0",
        "relay": "0",
    }


def render_api_page(
    thread: FakeThread,
    page_no: int,
    *,
    ppp: int = MOBILE_PPP,
    charset: str = "utf-8",
    ascii_only: bool = True,
    seed: int = 0,
    version: int = 1,
    viewer: Viewer = GUEST,
) -> bytes:
    """The viewthread answer for page ``page_no`` at ``ppp`` posts a page (a page past the
    end is the last one, as the board does), in ``version`` 1 or 4.  ``seed`` varies the
    session fields."""
    shown = thread.shown()
    pages = max(1, -(-len(shown) // ppp))
    page = min(max(page_no, 1), pages)
    entry = _post_v1 if version == 1 else _post_v4
    entries = [entry(post, floor, thread) for floor, post in shown[(page - 1) * ppp : page * ppp]]
    fields = _thread_fields(thread)
    if version == 4:
        fields.update({"ordertype": "0", "recommend": "0"})
    variables = {
        **_session(random.Random(seed), viewer),
        "thread": fields,
        "fid": "2",
        "postlist": entries,
    }
    if version == 1:
        variables["imagelist"] = []
    else:
        variables.update({"allowpostcomment": ["1", "2"], "comments": [], "commentcount": []})
    variables.update(
        {
            "ppp": str(ppp),
            "setting_rewriterule": "",
            "setting_rewritestatus": "",
            "forum_threadpay": "",
            "cache_custominfo_postno": ["<sup>#</sup>", "楼主", "沙发", "板凳", "地板"],
            "forum": {"password": "0"},
        }
    )
    answer = _answer(variables, charset, version)
    return php_json(answer, ascii_only=ascii_only, charset=charset)


def api_message(
    messageval: str, *, charset: str = "utf-8", seed: int = 0, version: int = 1
) -> bytes:
    """An answer refusing the request with the board's ``Message`` and no posts."""
    variables = {
        **_session(random.Random(seed), GUEST),
        "thread": {"allreplies": "0", "lastpost": "1970-1-1 08:00"},
        "fid": "0",
        "postlist": [],
        "ppp": str(MOBILE_PPP),
    }
    text = MESSAGES.get(messageval, messageval)
    return php_json(_answer(variables, charset, version, (messageval, text)))


def _json(body: bytes, thread: FakeThread) -> Response:
    """An answer as ``mobile_core::result`` sends it (the header's own spelling)."""
    date = format_datetime(thread.now.astimezone(UTC), usegmt=True)
    return Response(200, {"Date": date, "Content-type": "application/json", **CORS}, body)


_BASIC_PAGE = """<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html PUBLIC "-//WAPFORUM//DTD XHTML Mobile 1.0//EN" "http://www.wapforum.org/DTD/xhtml-mobile10.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="application/xhtml+xml; charset=utf-8"/>
<title>{title} - 版杀专区 -  示例论坛 -  手机版 - Powered by Discuz!</title>
</head>
<body>
<div class="hd"><a href="forum.php?mobile=1" title=" 示例论坛 - 手机版"><img src="./static/image/mobile/logo.gif" /></a></div>
<div class="wp">
<div class="vt">
<div class="bm">
<div class="bm_h"><a href="forum.php?mod=viewthread&amp;tid={tid}&amp;extra=&amp;mobile=1" id="thread_subject" >{title}</a></div>
{posts}<div class="pg"><strong>1</strong><span title="共 {pages} 页"> / {pages} 页</span></div></div>
</div>
</div>
<div class="ft">
<p>Powered by <strong><a href="https://www.discuz.vip/" target="_blank">Discuz!</a></strong> <em>X3.4</em></p>
</div>
</body>
</html>"""

_BASIC_POST = """<div id="post_{pid}" class="bm_c bm_c_bg">
<div class="bm_user" id="pid{pid}">{floor}# <a href="home.php?mod=space&amp;uid={uid}&amp;mobile=1" target="_blank" >{author}</a>
<br /><em id="authorposton{pid}"><font class="xs0 xg1">{time}</font></em>
</div>
</div>
<div><div class="pbody"><div class="mes"><div id="postmessage_{pid}" class="postmessage">{message}</div></div></div></div>
"""


def basic_mobile_page(thread: FakeThread) -> bytes:
    """What ``api/mobile/index.php`` answers with the plugin disabled: no plugin hook makes
    JSON of it, so the board's basic mobile view (手机版, 5 posts a page, ``ppp`` ignored)."""
    shown = [(floor, post) for floor, post in thread.shown() if not post.deleted]
    posts = "".join(
        _BASIC_POST.format(
            pid=post.pid,
            floor=floor,
            uid=post.uid or 0,
            author=_escape(post.author),
            time=format_post_time(post.posted_at, thread.now, "auto"),
            message=BANNED_MESSAGE if post.banned else _message_html(post.body),
        )
        for floor, post in shown[:MOBILE_PPP]
    )
    pages = max(1, -(-len(shown) // MOBILE_PPP))
    page = _BASIC_PAGE.format(title=_escape(thread.title), tid=thread.tid, posts=posts, pages=pages)
    return page.encode("utf-8")


def asked_version(query: dict[str, str]) -> int:
    """The version of the plugin's API that answers (``mobile.php`` lines 36–70): none
    named is 1, 2 has no viewthread of its own and falls back to 1, past 4 is 4.  Version 3
    (a phone app's web view, ``IS_WEBVIEW``) is not modelled."""
    version = min(_intval(query.get("version", "")) or 1, 4)
    if version == 3:
        raise ValueError("version 3 of the mobile API is not modelled")
    return 1 if version == 2 else version


@dataclass
class MobileApi:
    """A board's ``api/mobile/index.php`` serving ``thread`` (see the module's docstring):
    ``state`` is one of ``API_STATES``; ``members_only``: a guest is refused with
    ``viewperm_login_nopermission``; ``threadcaches``: the forum caches its pages for
    guests, whose ``ppp`` is then the board's ``postperpage``; ``members``: the ``auth``
    cookie values of logged-in members.  Anything else is a 404."""

    thread: FakeThread
    charset: str = "utf-8"
    state: str = "open"
    ascii_only: bool = True
    members_only: bool = False
    threadcaches: bool = False
    postperpage: int = POSTPERPAGE
    members: dict[str, Viewer] = field(default_factory=dict)
    answers: int = 0

    def __post_init__(self) -> None:
        if self.state not in API_STATES:
            raise ValueError(f"unknown API state {self.state!r}")

    def __call__(self, path_and_query: str) -> Response:
        return self.answer(path_and_query, GUEST)

    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Response:
        """The answer to ``path`` for whoever the request's cookies say is asking."""
        if method != "GET":
            return Response(405, {"Content-Type": "text/plain; charset=utf-8"}, b"")
        return self.answer(path, self.viewer(headers))

    def viewer(self, headers: dict[str, str]) -> Viewer:
        """The member the request's ``auth`` cookie names, else a guest."""
        cookie = next((v for k, v in headers.items() if k.lower() == "cookie"), "")
        for part in cookie.split(";"):
            name, _, value = part.strip().partition("=")
            if name == f"{COOKIEPRE}auth" and value in self.members:
                return self.members[value]
        return GUEST

    def answer(self, path_and_query: str, viewer: Viewer) -> Response:
        thread = self.thread
        parts = urlsplit(path_and_query)
        if parts.path != API_PATH or self.state == "absent":
            return _not_found()
        if not parts.query:  # the plugin's index.php does nothing without a query
            return Response(200, {"Content-Type": "text/html"}, b"")
        if self.state == "disabled":
            body = basic_mobile_page(thread)
            return Response(200, {"Content-Type": "text/html; charset=utf-8"}, body)
        if self.state == "closed":
            return _json(php_json({"error": "mobile_is_closed"}), thread)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        if query.get("module") != "viewthread":
            return _json(php_json({"error": "module_not_exists"}), thread)
        version = asked_version(query)
        if version == 1 and self.state == "v1_refused":
            return _json(php_json({"error": "module_not_exists"}), thread)
        self.answers += 1
        seed = self.answers
        if _intval(query.get("tid", "")) != thread.tid:
            message = api_message(
                "thread_nonexistence", charset=self.charset, seed=seed, version=version
            )
            return _json(message, thread)
        if self.members_only and not viewer.uid:
            message = "viewperm_login_nopermission//1"
            body = api_message(message, charset=self.charset, seed=seed, version=version)
            return _json(body, thread)
        ppp = _intval(query.get("ppp", "")) or MOBILE_PPP
        if self.threadcaches and not viewer.uid:
            ppp = self.postperpage  # forum_viewthread.php line 477
        page = max(1, _intval(query.get("page", "1")))
        if thread.deletion_unseen_in((page - 1) * ppp, ppp):
            thread.positions_dropped = True
            location = f"forum.php?mod=viewthread&tid={thread.tid}&mobile=1"
            return Response(302, {"Location": location, "Content-Type": "text/html"}, b"")
        body = render_api_page(
            thread,
            page,
            ppp=ppp,
            charset=self.charset,
            ascii_only=self.ascii_only,
            seed=seed,
            version=version,
            viewer=viewer,
        )
        return _json(body, thread)


def mobile_api_site(
    thread: FakeThread,
    *,
    charset: str = "utf-8",
    state: str = "open",
    ascii_only: bool = True,
    members_only: bool = False,
    threadcaches: bool = False,
    members: dict[str, Viewer] | None = None,
) -> MobileApi:
    """A board's ``api/mobile/index.php`` serving ``thread`` (``MobileApi``)."""
    return MobileApi(
        thread,
        charset=charset,
        state=state,
        ascii_only=ascii_only,
        members_only=members_only,
        threadcaches=threadcaches,
        members=members or {},
    )


@dataclass
class WholeBoard:
    """One board serving a thread as thread pages, printable view, archiver and mobile API,
    each with its own HTTP ``Date``; the API answers the member a request's cookies name."""

    pages: Site
    printable: Site
    archiver: Site
    mobile: MobileApi

    def __call__(self, path_and_query: str) -> Response:
        return self.answer(path_and_query, GUEST)

    def handle(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Response:
        if method != "GET":
            return Response(405, {"Content-Type": "text/plain; charset=utf-8"}, b"")
        return self.answer(path, self.mobile.viewer(headers))

    def answer(self, path_and_query: str, viewer: Viewer) -> Response:
        if path_and_query.startswith("/api/"):
            return self.mobile.answer(path_and_query, viewer)
        if path_and_query.startswith("/archiver/"):
            return self.archiver(path_and_query)
        if "action=printable" in path_and_query:
            return self.printable(path_and_query)
        return self.pages(path_and_query)


def whole_board(
    thread: FakeThread,
    *,
    charset: str = "utf-8",
    api: str = "open",
    rewrite: bool = False,
    ascii_only: bool = True,
    threadcaches: bool = False,
    members: dict[str, Viewer] | None = None,
) -> WholeBoard:
    """One board serving ``thread`` as thread pages, printable view, archiver and mobile
    API (``api``: one of ``API_STATES``)."""
    return WholeBoard(
        discuz_x_site(thread, charset=charset, rewrite=rewrite),
        discuz_x_printable_site(thread, charset=charset),
        discuz_x_archiver_site(thread, charset=charset),
        mobile_api_site(
            thread,
            charset=charset,
            state=api,
            ascii_only=ascii_only,
            threadcaches=threadcaches,
            members=members,
        ),
    )
