"""Builds a ``FakeThread`` as other boards and views show it, and tiny boards serving them.

The same abstract thread ``pagebuilder`` renders as Discuz! X3.4's viewthread, here rendered
the way each of these renders it, with its ids, classes, text patterns and quirks:

- Discuz! X3.4 printable view (``forum/viewthread_printable.htm``): one page, the first 100
  visible posts, "作者: … 时间: …" with ``dgmdate(…, 'u')`` minute times;
- Discuz! X3.4 archiver (``source/archiver/forum/viewthread.php``): ``archivermessage()`` text
  (BBCode stripped, double spaces dropped), seconds, pages by stored position, no charset meta;
- SOHU club (approximate, like the reference pages): posts as a JSON string inside a
  ``club.render.fill`` script call, "yy-mm-dd HH:MM" times, GBK;
- phpBB 3.3 prosilver (``viewtopic_body.html``): ``div.post#pN``, ``p.author`` with
  ``a.username`` and ``<time datetime>`` (RFC 3339, UTC), ``div.content``, ``blockquote``
  quotes with a ``cite``, the "Last edited by" notice, ``div.pagination`` and ``start=``;
- Baidu Tieba PC pages (approximate, like the reference pages): ``div.l_post`` with
  ``data-pid`` and ``data-field`` JSON, "N楼" and "YYYY-MM-DD HH:MM" tail spans, ``?pn=N``.

Deleted posts are left out everywhere (SOHU and Tieba keep the gap in their numbering).
Page chrome is approximate and small.  The board's clock is ``FakeThread.now``.
"""

# ruff: noqa: E501 -- the HTML templates keep the boards' own long lines

from __future__ import annotations

import base64
import json
import math
import re
from dataclasses import replace
from datetime import UTC, datetime
from urllib.parse import parse_qsl, urlsplit

from tests.support.pagebuilder import (
    _INLINE_TAG,
    SITE_URL,
    FakePost,
    FakeThread,
    Response,
    Site,
    _Context,
    _edit_notice,
    _encode,
    _escape,
    _fill,
    _html_response,
    _intval,
    _message_html,
    _not_found,
    _quote_html,
    _relative_text,
    _ymd_hi,
    discuz_x_site,
    format_post_time,
)

SOHU_PER_PAGE = 20
TIEBA_PER_PAGE = 30
PHPBB_PER_PAGE = 10
PRINTABLE_LIMIT = 100


def _visible(thread: FakeThread) -> list[tuple[int, FakePost]]:
    """(floor, post) of every post the board still shows: deleted posts leave gaps."""
    return [(floor, post) for floor, post in enumerate(thread.posts, start=1) if not post.deleted]


def _clamp(page_no: int, pages: int) -> int:
    """Like the boards: a page past the end is the last page, one below 1 the first."""
    return min(max(page_no, 1), max(pages, 1))


def _quoted_floor(thread: FakeThread, post: FakePost) -> int:
    """The floor of the post ``post`` quotes (0 when it is not in the thread)."""
    if post.quote is None:
        return 0
    author, quoted_at, _ = post.quote
    return next(
        (
            floor
            for floor, other in enumerate(thread.posts, start=1)
            if other.author == author and other.posted_at == quoted_at
        ),
        0,
    )


def _plain(text: str) -> str:
    """Post text without the inline markup some boards cannot show."""
    return _INLINE_TAG.sub("", text)


def _page_response(page: str, thread: FakeThread, charset: str, header_charset: bool = True):
    return _html_response(_encode(page, charset), charset, header_charset, thread.now)


# --- Discuz! X3.4 printable view --------------------------------------------------------------

_PRINTABLE_HEAD = """<html>
<head>
<title>{{title}} - 示例论坛 - Powered by Discuz!</title>
<meta http-equiv="Content-Type" content="text/html; charset={{charset}}" />
<style type="text/css">
body 	   {margin: 10px 80px;}
body,table {font-size: FONTSIZE; font-family: FONT;}
h1 { font-size: 24px; margin-bottom: 20px; color: #999; }
</style>
<script src="static/js/common.js?Hq7" type="text/javascript"></script>
<script src="static/js/forum_viewthread.js?Hq7" type="text/javascript"></script>
<script type="text/javascript">var STYLEID = '1', STATICURL = 'static/', IMGDIR = 'static/image/common', VERHASH = 'Hq7', charset = '{{charset}}', discuz_uid = '0', cookiepre = 'Rk3e_2132_', cookiedomain = '', cookiepath = '/', showusercard = '1', attackevasive = '0', disallowfloat = 'newthread', creditnotice = '1|威望|,2|金钱|,3|贡献|', defaultstyle = '', REPORTURL = '{{report_url}}', SITEURL = 'http://bbs.example.com/', JSPATH = 'static/js/';</script>
</head>

<body>
<h1>示例论坛</h1>
<b>标题: </b>{{title}} <b><a href="###" onclick="this.style.visibility='hidden';window.print();this.style.visibility='visible'">[打印本页]</a></b><br />
<script type="text/javascript">var zoomstatus = 0;var aimgcount = new Array();</script>"""

# viewthread_printable.htm: each post after a rule; the literal FONTSIZE, SMFONT… are the
# template's own (X3.4 prints them as they are).
_PRINTABLE_POST = """<hr noshade size="2" width="100%" color="#808080">
<b>作者: </b>{{author}}&nbsp; &nbsp; <b>时间: </b>{{time}}<br />
{{message}}"""

_PRINTABLE_FOOT = """
<br /><br /><br /><br /><hr noshade size="2" width="100%" color="BORDERCOLOR">
<table cellspacing="0" cellpadding="0" border="0" width="95%" align="center" style="font-size: SMFONTSIZE; font-family: SMFONT">
<tr><td>欢迎光临 示例论坛 (http://bbs.example.com/)</td>
<td align="right">
Powered by Discuz! X3.4</td></tr></table>

</body>
</html>"""

_BANNED_TIP = "提示: <em>作者被禁止或删除 内容自动屏蔽</em>\n"


def printable_time(posted_at: datetime, now: datetime, style: str = "auto") -> str:
    """``dgmdate(dateline, 'u')``: relative within the window with a "Y-n-j H:i" title, else absolute."""
    local = posted_at.astimezone(now.tzinfo).replace(microsecond=0)
    exact = _ymd_hi(local)
    text = None if style in ("absolute", "minute") else _relative_text(local, now)
    return exact if text is None else f'<span title="{exact}">{text}</span>'


def _printable_message(post: FakePost, floor: int, ctx: _Context) -> str:
    if post.banned:
        return _BANNED_TIP
    subject = f"<b>标题: </b>{_escape(ctx.thread.title)}<br />" if floor == 1 else ""
    return subject + _edit_notice(post, ctx) + _quote_html(post, ctx) + _message_html(post.body)


def printable_url(thread: FakeThread) -> str:
    """The printable view's own address, as the board knows it."""
    return f"{SITE_URL}forum.php?mod=viewthread&action=printable&tid={thread.tid}"


def render_printable_page(thread: FakeThread, *, charset: str = "utf-8") -> bytes:
    """The printable view of ``thread``: its first 100 visible posts on one page."""
    ctx = _Context(thread, 1, False, False)
    posts = "".join(
        _fill(
            _PRINTABLE_POST,
            author=_escape(post.author),
            time=printable_time(post.posted_at, thread.now, post.time_style),
            message=_printable_message(post, floor, ctx),
        )
        for floor, post in _visible(thread)[:PRINTABLE_LIMIT]
    )
    report_url = base64.b64encode(printable_url(thread).encode()).decode()
    head = _fill(
        _PRINTABLE_HEAD, title=_escape(thread.title), charset=charset, report_url=report_url
    )
    return _encode(head + posts + _PRINTABLE_FOOT, charset)


def discuz_x_printable_site(thread: FakeThread, *, charset: str = "utf-8") -> Site:
    """A board serving ``/forum.php?mod=viewthread&action=printable&tid=T`` and, like a real
    board, the thread's pages (``discuz_x_site``: their footers declare the zone the
    printable view's times are shown in)."""
    pages = discuz_x_site(thread, charset=charset)

    def site(path_and_query: str) -> Response:
        parts = urlsplit(path_and_query)
        query = dict(parse_qsl(parts.query))
        if query.get("action") != "printable":
            return pages(path_and_query)
        asked = (query.get("mod"), query.get("action"), _intval(query.get("tid", "")))
        if parts.path != "/forum.php" or asked != ("viewthread", "printable", thread.tid):
            return _not_found()
        body = render_printable_page(thread, charset=charset)
        return _html_response(body, charset, True, thread.now)

    return site


# --- Discuz! X3.4 archiver ---------------------------------------------------------------------

_ARCHIVER_PAGE = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<base href="http://bbs.example.com/archiver/" />
<title>{{title}}{{page_label}} - 版杀专区 - 示例论坛 -  Powered by Discuz! Archiver</title>
<link href="http://bbs.example.com/forum.php?mod=viewthread&tid={{tid}}" rel="canonical" />
<meta name="keywords" content="{{title}}" />
<meta name="description" content="{{title}} ,示例论坛" />
<meta name="generator" content="Discuz! X3.4" />
<meta name="author" content="Discuz! Team and Comsenz UI Team" />
<meta name="copyright" content="2001-2017 Comsenz Inc." />
<style type="text/css">
	body {font-family: Verdana;FONT-SIZE: 12px;MARGIN: 0;color: #000000;background: #ffffff;}
	.author {background-color:#EEEEFF; padding: 6px; border-top: 1px #ddddee solid}
</style>
</head>
<body vlink="#333333" link="#333333">
<center id="header">
<h2>示例论坛's Archiver </h2>
</center><div id="nav">
	<a href="./">论坛</a> &rsaquo; <a href="?fid-2.html">版杀专区</a> &rsaquo; {{title}}
</div>

<div id="content">
	{{posts}}		<div class="page">
		{{pages}}	</div>
</div>

<div id="end">
	查看完整版本:
	<a href="../forum.php?mod=viewthread&tid={{tid}}&page={{page}}" target="_blank"><strong>{{title}}</strong></a>
</div>
<br />
<center>
	<div id="footer">
		Powered by <strong><a target="_blank" href="http://www.discuz.net">Discuz! X3.4 Archiver</a></strong> &nbsp; &copy 2001-2017 <a target="_blank" href="http://www.comsenz.com">Comsenz Inc.</a>
		<br />
		<br />
	</div>
</center>
</body>
</html>"""

_ARCHIVER_BBCODE = re.compile(r"\[/?\w+=?.*?\]")


def _archiver_raw(post: FakePost, thread: FakeThread) -> str:
    """The post's stored BBCode message: edit notice, quote, then the text."""
    zone = thread.now.tzinfo
    parts = []
    if post.edited_at is not None and (post.edited_at - post.posted_at).total_seconds() > 60:
        parts.append(
            f"[i=s] 本帖最后由 {post.author} 于 {_ymd_hi(post.edited_at.astimezone(zone))} 编辑 [/i]\n\n"
        )
    if post.quote is not None:
        author, quoted_at, text = post.quote
        when = _ymd_hi(quoted_at.astimezone(zone))
        parts.append(
            f"[quote][size=2][url=forum.php?mod=redirect&goto=findpost&ptid={thread.tid}]"
            f"[color=#999999]{author} 发表于 {when}[/color][/url][/size]\n{_plain(text)}[/quote]\n"
        )
    parts.append(_plain(post.body))
    return "".join(parts)


def archiver_message(message: str) -> str:
    """``archivermessage()`` of Discuz! X3.4: escaped, BBCode tags stripped, double spaces dropped, nl2br."""
    escaped = (
        message.replace("&", "&amp;")
        .replace('"', "&quot;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\t", "&nbsp; &nbsp; &nbsp; &nbsp; ")
        .replace("   ", "&nbsp; &nbsp;")
        .replace("  ", "")
    )
    return _ARCHIVER_BBCODE.sub("", escaped).replace("\n", "<br />\n")


def _archiver_post(post: FakePost, floor: int, thread: FakeThread) -> str:
    when = format_post_time(post.posted_at, thread.now, post.time_style)
    line = f'\n\t<p class="author">\n\t\t\t<strong>{_escape(post.author)}</strong>\n\t\t发表于 {when}\t</p>\n'
    if post.banned:
        return line
    subject = _escape(thread.title) if floor == 1 else ""
    return line + f"\t\t<h3>{subject}</h3>\n\t\t{archiver_message(_archiver_raw(post, thread))}\t"


def _archiver_pages(thread: FakeThread, page: int) -> str:
    """``arch_multi()``: "页: " then a window of page numbers, the current one as [N]: from
    ten before this page to nine after it (page 1 of a long thread lists 1–10 only)."""
    pages = thread.page_count + 1  # arch_multi's $pages: one more than there are
    first = max(1, page - 10)
    last = pages if page + 10 >= pages else page + 10
    links = (
        f"<strong>[{n}]</strong>"
        if n == page
        else f'<a href="?tid-{thread.tid}.html&page={n}">{n}</a>'
        for n in range(first, last)
    )
    return "页: \n" + "".join(f"{link} \n" for link in links)


def render_archiver_page(thread: FakeThread, page_no: int, *, charset: str = "utf-8") -> bytes:
    """Archiver page ``page_no``: stored positions ``(page-1)·per_page+1…``, deleted ones left out."""
    page = _clamp(page_no, thread.page_count)
    start = (page - 1) * thread.per_page
    posts = "".join(
        _archiver_post(post, floor, thread)
        for floor, post in _visible(thread)
        if start < floor <= start + thread.per_page
    )
    return _encode(
        _fill(
            _ARCHIVER_PAGE,
            title=_escape(thread.title),
            page_label="" if page == 1 else f" - 第{page}页",
            posts=posts,
            pages=_archiver_pages(thread, page),
            tid=thread.tid,
            page=page,
        ),
        charset,
    )


def _archiver_route(path_and_query: str) -> tuple[int, int] | None:
    """(tid, page) of ``/archiver/?tid-T.html[&page=P]`` or ``/archiver/tid-T.html[?page=P]``."""
    parts = urlsplit(path_and_query)
    rewritten = re.fullmatch(r"/archiver/tid-(\d+)\.html", parts.path)
    if rewritten:
        query = dict(parse_qsl(parts.query))
        return int(rewritten.group(1)), _intval(query.get("page", "1"))
    plain = re.fullmatch(r"tid-(\d+)\.html(?:&page=(\d+))?", parts.query)
    if parts.path == "/archiver/" and plain:
        return int(plain.group(1)), int(plain.group(2) or 1)
    return None


def discuz_x_archiver_site(thread: FakeThread, *, charset: str = "utf-8") -> Site:
    """A board serving the archiver pages of ``thread`` (the charset is in the HTTP header
    only) and, like a real board, the thread's pages (``discuz_x_site``: their footers
    declare the zone the archiver's times are shown in)."""
    pages = discuz_x_site(thread, charset=charset)

    def site(path_and_query: str) -> Response:
        if not urlsplit(path_and_query).path.startswith("/archiver/"):
            return pages(path_and_query)
        asked = _archiver_route(path_and_query)
        if asked is None or asked[0] != thread.tid:
            return _not_found()
        body = render_archiver_page(thread, asked[1], charset=charset)
        return _html_response(body, charset, True, thread.now)

    return site


# --- SOHU club ---------------------------------------------------------------------------------

SOHU_BOARD = "zz2286"

_SOHU_PAGE = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=gbk" />
<title>{{title}}_版杀专区_搜狐社区</title>
<meta name="keywords" content="{{title}}" />
<link rel="stylesheet" type="text/css" href="http://s1.club.itc.cn/css/club_base.css" />
<script type="text/javascript" src="http://s1.club.itc.cn/js/jquery.js"></script>
<script type="text/javascript" src="http://s1.club.itc.cn/js/club.render.js"></script>
</head>
<body>
<div id="sohu_header"><a href="http://www.sohu.com/">搜狐</a> | <a href="http://club.sohu.com/">搜狐社区</a></div>
<div class="location"><a href="http://club.sohu.com/">搜狐社区</a> &gt; <a href="/{{board}}/">版杀专区</a> &gt; 正文</div>
<div class="ad_banner"><a href="http://ad.sohu.example/c?id=1" target="_blank"><img src="http://images.sohu.example/ad/950x90.jpg" /></a></div>
<div id="thread_head">
<h3 class="postitle"><em class="title ">{{title}}</em></h3>
<span class="thread_reads">阅读:{{views}} 回复: {{replies}}</span>
</div>
<div id="bbs_postlist"></div>
<script type="text/javascript">club.render.fill({{postlist}})</script>
<script type="text/javascript">club.render.fill({"tag":"#grade_map","content":"","css":[],"grades":{"bbs_grade_1":"等级：1级","bbs_grade_2":"等级：2级"}})</script>
<div id="footer">Copyright &copy; 2019 Sohu.com Inc. All Rights Reserved. 搜狐公司 版权所有</div>
</body>
</html>"""

_SOHU_POST = """<table id="post_{{number}}" class="post_table" cellspacing="0" cellpadding="0"><tr><th class="user"><div class="avatar"><img src="http://i0.itc.cn/face/{{face}}.jpg" width="60" height="60" /></div><div class="nick_bg"></div><div id="userinfo"><a href="{{profile}}" target="_blank">{{author}}</a></div><div class="grade"><span class="bbs_grade_1"></span></div></th><td class="content"><p class="floor">{{label}}</p><div class="wrap">{{wrap}}</div><div class="sign">{{sign}}</div><div class="grey">{{time}}</div></td></tr></table>"""

_SOHU_LABELS = {0: "楼主", 1: "沙发", 2: "板凳"}


def sohu_thread_id(thread: FakeThread) -> str:
    """The thread's id in SOHU URLs (letters and digits)."""
    return f"t{thread.tid}demo"


def sohu_time(moment: datetime, now: datetime) -> str:
    """SOHU's "yy-mm-dd HH:MM"."""
    return f"{moment.astimezone(now.tzinfo):%y-%m-%d %H:%M}"


def _sohu_paragraphs(text: str) -> str:
    return "".join(f"<p>{_message_html(line)}</p>" for line in text.split("\n"))


def _sohu_wrap(post: FakePost, thread: FakeThread) -> str:
    if post.banned:
        return "<p>该帖子已被屏蔽</p>"
    parts = []
    if post.quote is not None:
        author, _, text = post.quote
        number = _quoted_floor(thread, post) - 1
        href = f"/{SOHU_BOARD}/thread/{sohu_thread_id(thread)}#post_{number}"
        parts.append(
            f'<dl class="quote"><dt><span class="fright"><a href="{href}">原帖</a></span>'
            f"引用 {number}楼 {_escape(author)} 的帖子：</dt><dd>{_message_html(text)}</dd></dl>"
        )
    parts.append(_sohu_paragraphs(post.body))
    if post.edited_at is not None:
        when = sohu_time(post.edited_at, thread.now)
        parts.append(f'<p class="edit">[本帖最后由 {_escape(post.author)} 于 {when} 编辑]</p>')
    return "".join(parts)


def _sohu_post(post: FakePost, floor: int, thread: FakeThread) -> str:
    number = floor - 1
    when = sohu_time(post.posted_at, thread.now)
    if number == 0:
        time = f'<span class="lz_mark">楼主</span>发表于 {when}'
    else:
        time = f'<span class="new_format">{when}</span> <a href="javascript:;" class="reply_btn">回复</a>'
    return _fill(
        _SOHU_POST,
        number=number,
        face=post.uid or 0,
        profile=f"http://i.sohu.com/p/{post.uid}" if post.uid else "javascript:;",
        author=_escape(post.author),
        label=_SOHU_LABELS.get(number, f"{number}楼"),
        wrap=_sohu_wrap(post, thread),
        sign=_message_html(post.signature) if post.signature else "&nbsp;",
        time=time,
    )


def _sohu_pages(thread: FakeThread, page: int, pages: int) -> str:
    base = f"/{SOHU_BOARD}/thread/{sohu_thread_id(thread)}"

    def href(n: int) -> str:
        return base if n == 1 else f"{base}/p{n}"

    spans = [f'<span><a href="{href(page - 1)}">上一页</a></span>'] if page > 1 else []
    spans += [
        f'<span class="cur">{n}</span>'
        if n == page
        else f'<span><a href="{href(n)}">{n}</a></span>'
        for n in range(1, pages + 1)
    ]
    if page < pages:
        spans.append(f'<span><a href="{href(page + 1)}">下一页</a></span>')
    return f'<form class="page_form" action="#" method="get"><div class="pages">{"".join(spans)}</div></form>'


def render_sohu_page(thread: FakeThread, page_no: int, *, per_page: int = SOHU_PER_PAGE) -> bytes:
    """Page ``page_no`` of ``thread`` on a SOHU club board (GBK), ``per_page`` visible posts a page."""
    visible = _visible(thread)
    pages = max(1, math.ceil(len(visible) / per_page))
    page = _clamp(page_no, pages)
    shown = visible[(page - 1) * per_page : page * per_page]
    content = (
        '<div id="bbs_postlist">'
        + "".join(_sohu_post(post, floor, thread) for floor, post in shown)
        + (_sohu_pages(thread, page, pages) if pages > 1 else "")
        + "</div>"
    )
    postlist = json.dumps(
        {"tag": "#bbs_postlist", "content": content, "css": ["club_post.css"]},
        separators=(",", ":"),
    )
    page_html = _fill(
        _SOHU_PAGE,
        title=_escape(thread.title),
        board=SOHU_BOARD,
        views=37 * len(thread.posts),
        replies=len(visible) - 1,
        postlist=postlist.replace("</", "<\\/"),
    )
    return _encode(page_html, "gbk")


def sohu_site(thread: FakeThread, *, per_page: int = SOHU_PER_PAGE) -> Site:
    """A SOHU club board serving ``/zz2286/thread/ID`` and ``/zz2286/thread/ID/pN`` (GBK)."""
    pattern = re.compile(rf"/{SOHU_BOARD}/thread/{sohu_thread_id(thread)}(?:/p(\d+))?/?")

    def site(path_and_query: str) -> Response:
        found = pattern.fullmatch(urlsplit(path_and_query).path)
        if found is None:
            return _not_found()
        body = render_sohu_page(thread, int(found.group(1) or 1), per_page=per_page)
        return _html_response(body, "gbk", True, thread.now)

    return site


# --- phpBB 3.3 prosilver -----------------------------------------------------------------------

_PHPBB_PAGE = """<!DOCTYPE html>
<html dir="ltr" lang="en-gb">
<head>
<meta charset="utf-8" />
<meta http-equiv="X-UA-Compatible" content="IE=edge">
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>{{title}} - 示例论坛</title>
<link href="./styles/prosilver/theme/stylesheet.css?assets_version=3" rel="stylesheet">
</head>
<body id="phpbb" class="nojs notouch section-viewtopic ltr ">
<div id="wrap" class="wrap">
	<a id="top" class="top-anchor" accesskey="t"></a>
	<div id="page-header">
		<div class="headerbar" role="banner">
			<div class="inner">
			<div id="site-description" class="site-description">
				<a id="logo" class="logo" href="./index.php" title="Board index"><span class="site_logo"></span></a>
				<h1>示例论坛</h1>
				<p>版杀专区</p>
			</div>
			</div>
		</div>
		<div class="navbar" role="navigation">
			<ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks" role="menubar">
				<li class="breadcrumbs"><span class="crumb"><a href="./index.php" accesskey="h" itemprop="url">Board index</a></span><span class="crumb"><a href="./viewforum.php?f=2" itemprop="url">版杀专区</a></span></li>
			</ul>
		</div>
	</div>
	<div id="page-body" class="page-body" role="main">
<h2 class="topic-title"><a href="./viewtopic.php?t={{tid}}">{{title}}</a></h2>
<div class="action-bar bar-top">
	<a href="./posting.php?mode=reply&amp;t={{tid}}" class="button" title="Post a reply"><span>Post Reply</span> <i class="icon fa-reply fa-fw" aria-hidden="true"></i></a>
	<div class="pagination">
		{{total}} posts
		{{pagination}}
	</div>
</div>
{{posts}}
<div class="action-bar bar-bottom">
	<div class="pagination">
		{{total}} posts
		{{pagination}}
	</div>
</div>
	</div>
<div id="page-footer" class="page-footer" role="contentinfo">
	<div class="copyright">
		<p class="footer-row"><span class="footer-copyright">Powered by <a href="https://www.phpbb.com/">phpBB</a>&reg; Forum Software &copy; phpBB Limited</span></p>
	</div>
</div>
</div>
</body>
</html>"""

_PHPBB_POST = """<div id="p{{pid}}" class="post has-profile {{bg}}">
		<div class="inner">

		<dl class="postprofile" id="profile{{pid}}">
			<dt class="no-profile-rank no-avatar">
				{{profile_name}}
			</dt>
			{{profile_posts}}
		</dl>

		<div class="postbody">
			<div id="post_content{{pid}}">

			<h3 {{first}}><a href="#p{{pid}}">{{subject}}</a></h3>

				<ul class="post-buttons">
					<li><a href="./posting.php?mode=quote&amp;p={{pid}}" title="Reply with quote" class="button button-icon-only"><i class="icon fa-quote-left fa-fw" aria-hidden="true"></i><span class="sr-only">Quote</span></a></li>
				</ul>

			<p class="author">
				<a class="unread" href="./viewtopic.php?p={{pid}}#p{{pid}}" title="Post"><i class="icon fa-file fa-fw icon-lightgray icon-md" aria-hidden="true"></i><span class="sr-only">Post</span></a>
				<span class="responsive-hide">by <strong>{{author}}</strong> &raquo; </span><time datetime="{{rfc3339}}">{{date}}</time>
			</p>

			<div class="content">{{message}}</div>

			{{notice}}{{signature}}
			</div>

		</div>

		<div class="back2top"><a href="#top" class="top" title="Top"><i class="icon fa-chevron-circle-up fa-fw icon-gray" aria-hidden="true"></i><span class="sr-only">Top</span></a></div>

		</div>
	</div>

	<hr class="divider" />
"""


def phpbb_date(moment: datetime, now: datetime) -> str:
    """phpBB's default date format "D M d, Y g:i a" in the board's time zone."""
    local = moment.astimezone(now.tzinfo)
    hour = local.hour % 12 or 12
    return f"{local:%a %b %d, %Y} {hour}:{local:%M} {'pm' if local.hour >= 12 else 'am'}"


def phpbb_rfc3339(moment: datetime) -> str:
    """``gmdate(DATE_RFC3339, post_time)``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def _phpbb_username(post: FakePost, judge_uid: int | None) -> str:
    """get_username_string('full'): a profile link, coloured for the judge; a guest's name bare."""
    if post.uid is None or post.account_deleted:
        return f'<span class="username">{_escape(post.author)}</span>'
    href = f"./memberlist.php?mode=viewprofile&amp;u={post.uid}"
    if post.uid == judge_uid:
        return f'<a href="{href}" style="color: #AA0000;" class="username-coloured">{_escape(post.author)}</a>'
    return f'<a href="{href}" class="username">{_escape(post.author)}</a>'


def _phpbb_quote(post: FakePost, thread: FakeThread) -> str:
    if post.quote is None:
        return ""
    author, quoted_at, text = post.quote
    floor = _quoted_floor(thread, post)
    quoted = thread.posts[floor - 1] if floor else None
    quoted_pid, quoted_uid = (quoted.pid, quoted.uid) if quoted else (0, 0)
    return (
        f'<blockquote><div><cite><a href="./memberlist.php?mode=viewprofile&amp;u={quoted_uid}">{_escape(author)}</a> wrote: '
        f'<a href="./viewtopic.php?p={quoted_pid}#p{quoted_pid}" data-post-id="{quoted_pid}">↑</a>'
        f'<span class="responsive-hide">{phpbb_date(quoted_at, thread.now)}</span></cite>'
        f"{_message_html(text)}</div></blockquote>\n\n"
    )


def _phpbb_post(post: FakePost, floor: int, index: int, thread: FakeThread) -> str:
    judge_uid = thread.posts[0].uid
    name = _phpbb_username(post, judge_uid)
    notice = (
        f'<div class="notice">Last edited by {name} on {phpbb_date(post.edited_at, thread.now)}, edited 1 time in total.</div>\n'
        if post.edited_at is not None
        else ""
    )
    signature = (
        f'<div id="sig{post.pid}" class="signature">{_message_html(post.signature)}</div>'
        if post.signature
        else ""
    )
    posts = "" if post.uid is None else '<dd class="profile-posts"><strong>Posts:</strong> 42</dd>'
    return _fill(
        _PHPBB_POST,
        pid=post.pid,
        bg="bg2" if index % 2 == 0 else "bg1",
        profile_name=name if post.uid is not None else f"<strong>{name}</strong>",
        profile_posts=posts,
        first='class="first"' if floor == 1 else "",
        subject=_escape(thread.title if floor == 1 else f"Re: {thread.title}"),
        author=name,
        rfc3339=phpbb_rfc3339(post.posted_at),
        date=phpbb_date(post.posted_at, thread.now),
        message=_phpbb_quote(post, thread) + _message_html(post.body),
        notice=notice,
        signature=signature,
    )


def _phpbb_pagination(thread: FakeThread, page: int, pages: int, per_page: int) -> str:
    """prosilver's pagination.html: first, last, the pages around the current one, ellipses."""
    if pages < 2:
        return f"&bull; Page <strong>{page}</strong> of <strong>{pages}</strong>"

    def href(n: int) -> str:
        start = (n - 1) * per_page
        return f"./viewtopic.php?t={thread.tid}" + (f"&amp;start={start}" if start else "")

    shown = sorted({n for n in (1, page - 1, page, page + 1, pages) if 1 <= n <= pages})
    items = []
    if page > 1:
        items.append(
            f'<li class="arrow previous"><a class="button button-icon-only" href="{href(page - 1)}" rel="prev" role="button"><i class="icon fa-chevron-left fa-fw" aria-hidden="true"></i><span class="sr-only">Previous</span></a></li>'
        )
    for before, number in zip([0, *shown], shown, strict=False):
        if number - before > 1 and before:
            items.append('<li class="ellipsis" role="separator"><span>…</span></li>')
        items.append(
            f'<li class="active"><span>{number}</span></li>'
            if number == page
            else f'<li><a class="button" href="{href(number)}" role="button">{number}</a></li>'
        )
    if page < pages:
        items.append(
            f'<li class="arrow next"><a class="button button-icon-only" href="{href(page + 1)}" rel="next" role="button"><i class="icon fa-chevron-right fa-fw" aria-hidden="true"></i><span class="sr-only">Next</span></a></li>'
        )
    return "&bull;\n\t\t<ul>\n" + "\n".join(items) + "\n\t\t</ul>"


def render_phpbb_page(thread: FakeThread, start: int, *, per_page: int = PHPBB_PER_PAGE) -> bytes:
    """``viewtopic.php?t=T&start=N`` of a phpBB 3.3 board (prosilver), UTF-8."""
    visible = _visible(thread)
    pages = max(1, math.ceil(len(visible) / per_page))
    page = _clamp(start // per_page + 1, pages)
    shown = visible[(page - 1) * per_page : page * per_page]
    pagination = _phpbb_pagination(thread, page, pages, per_page)
    page_html = _fill(
        _PHPBB_PAGE,
        tid=thread.tid,
        title=_escape(thread.title),
        total=len(visible),
        pagination=pagination,
        posts="".join(
            _phpbb_post(post, floor, index, thread) for index, (floor, post) in enumerate(shown)
        ),
    )
    return _encode(page_html, "utf-8")


def phpbb_site(thread: FakeThread, *, per_page: int = PHPBB_PER_PAGE) -> Site:
    """A phpBB board serving ``/viewtopic.php?[f=2&]t=T[&start=N]``; else 404."""

    def site(path_and_query: str) -> Response:
        parts = urlsplit(path_and_query)
        query = dict(parse_qsl(parts.query))
        if parts.path != "/viewtopic.php" or _intval(query.get("t", "")) != thread.tid:
            return _not_found()
        body = render_phpbb_page(thread, _intval(query.get("start", "0")), per_page=per_page)
        return _html_response(body, "utf-8", True, thread.now)

    return site


# --- Baidu Tieba -------------------------------------------------------------------------------

_TIEBA_PAGE = """<!DOCTYPE html><!--STATUS OK--><html><head><meta name="keywords" content="百度贴吧,版杀,{{title}}"/><meta charset="UTF-8"><meta furl="tieba.baidu.com/f?kw=版杀" fname="版杀"><meta http-equiv="X-UA-Compatible" content="IE=edge,chrome=1"><title>{{title}}【版杀吧】_百度贴吧</title>
<script>var PageData = {"tbs":"8a9c5e1f2b3d4a6c1566712345","charset":"UTF-8","product":"pb","page":"pb"};PageData.thread = {author:"{{starter}}", thread_id:{{tid}}, title:"{{title}}", reply_num:{{replies}}, is_good:false};</script>
</head>
<body class="skin_normal">
<div id="com_userbar" class="userbar"><ul><li><a href="https://passport.baidu.com/v2/?login">登录</a></li><li><a href="https://passport.baidu.com/v2/?reg">注册</a></li></ul></div>
<div class="wrap1"><div class="wrap2">
<div class="card_top_wrap clearfix card_top_theme"><a class="card_title_fname" title="" href="/f?kw=版杀&ie=utf-8">版杀吧</a></div>
<div class="l_container" id="container">
<div class="core_title_wrap_bright clearfix" id="j_core_title_wrap"><div class="core_title core_title_theme_bright"><h3 class="core_title_txt pull-left text-overflow  " title="{{title}}" style="width: 396px">{{title}}</h3></div></div>
{{pager}}
<div class="p_postlist" id="j_p_postlist">
{{posts}}</div>
{{pager}}
<div class="ad_bottom_view"><a href="http://ad.example.com/tb" target="_blank">推广</a></div>
</div>
</div></div>
<div class="footer"><span>&copy;2019 Baidu</span><a href="/tb/eula.html" target="_blank">贴吧协议</a></div>
</body></html>"""

_TIEBA_POST = """<div class="l_post l_post_bright j_l_post clearfix  " data-field='{{field}}' data-pid="{{pid}}">
<div class="d_author">
<ul class="p_author">
<li class="d_name" data-field='{&quot;user_id&quot;:{{uid}}}'>
<a rel="noopener" alog-group="p_author" class="p_author_name j_user_card" href="/home/main?id=tb.1.{{portrait}}&fr=pb&ie=utf-8" target="_blank">{{author}}</a>
</li>
</ul>
</div>
<div class="d_post_content_main {{first}}">
<div class="p_content  ">
<cc>
            <div id="post_content_{{pid}}" class="d_post_content j_d_post_content " style="display:;">                    {{content}}</div><br>
        </cc>
<br>
</div>
<div class="core_reply j_lzl_wrapper">
<div class="core_reply_tail clearfix">
<div class="j_lzl_r p_reply" data-field='{&quot;pid&quot;:{{pid}},&quot;total_num&quot;:null}'><a rel="noopener" href="#" class="lzl_link_unfold">回复</a></div>
<div class="post-tail-wrap">{{client}}<span class="tail-info">{{floor}}楼</span><span class="tail-info">{{time}}</span><div class="post-tail-right"><a rel="noopener" href="#" class="tail_jb">举报</a></div></div>
</div>
<div class="j_lzl_container core_reply_wrapper" data-field='{&quot;pid&quot;:{{pid}},&quot;floor_num&quot;:{{floor}}}' style="display:none;"></div>
</div>
</div>
</div>
"""


def tieba_time(moment: datetime, now: datetime) -> str:
    """Tieba's "YYYY-MM-DD HH:MM"."""
    return f"{moment.astimezone(now.tzinfo):%Y-%m-%d %H:%M}"


def _tieba_content(post: FakePost, thread: FakeThread) -> str:
    """Plain text, <br> line breaks; a reply to a floor starts "回复 N楼 NAME :"."""
    text = _escape(_plain(post.body)).replace("\n", "<br>")
    if post.quote is None:
        return text
    return f"回复 {_quoted_floor(thread, post)}楼 {_escape(post.quote[0])} :{text}"


def _tieba_post(post: FakePost, floor: int, index: int, thread: FakeThread) -> str:
    content = _tieba_content(post, thread)
    field = {
        "author": {"user_id": post.uid, "user_name": post.author, "user_nickname": post.author},
        "content": {
            "post_id": post.pid,
            "is_anonym": False,
            "thread_id": thread.tid,
            "content": content,
            "post_no": floor,
            "post_index": index,
        },
    }
    return _fill(
        _TIEBA_POST,
        field=json.dumps(field).replace("'", "&#39;"),
        pid=post.pid,
        uid=post.uid or 0,
        portrait=f"{(post.uid or 0) * 7919:08x}",
        author=_escape(post.author),
        first="d_post_content_firstfloor" if floor == 1 else "",
        content=content,
        client='<span class="tail-info">来自<a rel="noopener" href="/mo/q/wise-bawu-core/download" target="_blank">Android客户端</a></span>'
        if floor % 3 == 2
        else "",
        floor=floor,
        time=tieba_time(post.posted_at, thread.now),
    )


def _tieba_pager(thread: FakeThread, page: int, pages: int, replies: int) -> str:
    links = [
        f'<span class="tP">{n}</span>' if n == page else f'<a href="/p/{thread.tid}?pn={n}">{n}</a>'
        for n in range(1, pages + 1)
    ]
    if page < pages:
        links.append(f'<a href="/p/{thread.tid}?pn={page + 1}">下一页</a>')
        links.append(f'<a href="/p/{thread.tid}?pn={pages}">尾页</a>')
    return (
        '<div class="p_thread thread_theme_5"><div class="l_thread_info"><ul class="l_posts_num">'
        f'<li class="l_pager pager_theme_4 pb_list_pager">{"".join(links)}</li>'
        f'<li class="l_reply_num" style="margin-left:8px" ><span class="red" style="margin-right:3px">{replies}</span>'
        f'回复贴，共<span class="red">{pages}</span>页</li></ul></div></div>'
    )


def render_tieba_page(thread: FakeThread, page_no: int, *, per_page: int = TIEBA_PER_PAGE) -> bytes:
    """``/p/TID?pn=N`` of a Tieba thread, ``per_page`` visible posts a page, UTF-8."""
    visible = _visible(thread)
    pages = max(1, math.ceil(len(visible) / per_page))
    page = _clamp(page_no, pages)
    shown = visible[(page - 1) * per_page : page * per_page]
    pager = _tieba_pager(thread, page, pages, len(visible) - 1)
    page_html = _fill(
        _TIEBA_PAGE,
        title=_escape(thread.title),
        starter=_escape(thread.posts[0].author),
        tid=thread.tid,
        replies=len(visible) - 1,
        pager=pager,
        posts="".join(
            _tieba_post(post, floor, (page - 1) * per_page + index, thread)
            for index, (floor, post) in enumerate(shown)
        ),
    )
    return _encode(page_html, "utf-8")


def tieba_site(thread: FakeThread, *, per_page: int = TIEBA_PER_PAGE) -> Site:
    """A Tieba serving ``/p/TID[?pn=N]``; else 404."""

    def site(path_and_query: str) -> Response:
        parts = urlsplit(path_and_query)
        if parts.path != f"/p/{thread.tid}":
            return _not_found()
        query = dict(parse_qsl(parts.query))
        body = render_tieba_page(thread, _intval(query.get("pn", "1")), per_page=per_page)
        return _html_response(body, "utf-8", True, thread.now)

    return site


# --- the demo thread as each board can show it -------------------------------------------------


def as_board_shows(thread: FakeThread, *, edits: bool = True, banned: bool = True) -> FakeThread:
    """``thread`` with what a board cannot show taken out: edits (Tieba cannot edit), or
    banned authors' posts (Tieba removes them: they read as deleted)."""
    posts = [
        FakePost(
            **{
                **vars(post),
                "edited_at": post.edited_at if edits else None,
                "deleted": post.deleted or (post.banned and not banned),
            }
        )
        for post in thread.posts
    ]
    return replace(thread, posts=posts)


def with_time_style(thread: FakeThread, style: str) -> FakeThread:
    """``thread`` with every post's time shown in ``style`` (e.g. "minute")."""
    posts = [FakePost(**{**vars(post), "time_style": style}) for post in thread.posts]
    return replace(thread, posts=posts)
