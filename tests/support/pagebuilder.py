"""Builds Discuz! X3.4 viewthread pages, and a tiny board serving them, for the tests.

A thread is described abstractly (``FakeThread`` of ``FakePost``) and rendered the way
Discuz! X3.4's own templates render it (``forum/viewthread.htm``, ``viewthread_node.htm``,
``common/header.htm``, ``footer.htm``, ``showmessage.htm``): the same ids, classes, text
patterns and quirks a scraper meets on a real board — the user card repeating the author's
name, the thread author's 楼主 marker, ``dgmdate()``'s relative times with the exact time in a
``title``, the last page served for a page number past the end, GBK pages.  Page chrome, ads
and profiles are approximate but sized like the real thing (about 5 KB a post).

The board's clock is ``FakeThread.now``; times are shown in its time zone.
"""

# ruff: noqa: E501 -- the HTML templates keep Discuz's own long lines, as the board sends them

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit
from zoneinfo import ZoneInfo

TIME_STYLES = ("auto", "absolute", "minute", "relative", "relative_bare")

SITE_URL = "http://bbs.example.com/"  # the board's own address, as written into its pages

NO_THREAD_MESSAGE = "抱歉，指定的主题不存在或已被删除或正在被审核"
# Discuz! X3.4's ``to_login`` message (source/language/lang_message.php).
LOGIN_MESSAGE = "您需要先登录才能继续本操作"


@dataclass
class FakePost:
    """One post of a fake thread, as the board stores it.

    ``time_style`` picks how ``posted_at`` is shown: ``absolute`` (Y-n-j H:i:s), ``minute``
    (Y-n-j H:i, the board's ``dateconvert`` off), ``relative`` (relative text in a
    ``<span title="exact">``), ``relative_bare`` (relative text, no title), or ``auto``
    (what Discuz does: relative within the dgmdate window, else absolute).
    """

    pid: int
    author: str
    uid: int | None
    posted_at: datetime
    body: str
    edited_at: datetime | None = None
    quote: tuple[str, datetime, str] | None = None
    signature: str | None = None
    banned: bool = False
    deleted: bool = False
    account_deleted: bool = False
    time_style: str = "auto"


@dataclass
class FakeThread:
    """A thread: posts in order and the board's clock when rendering.

    Like X3.4, a moderator's deletion renumbers the thread: the first view of a page that
    held the deleted post answers with a 302 to ``forum.php?mod=viewthread&tid=T`` (and the
    board records the thread, ``positions_dropped``); from then on the deleted post is gone
    and later floors move up.  A thread that keeps its posts' positions
    (``keeps_positions``, as a 抢楼 thread does) shows "无效楼层，该帖已经被删除" in the
    deleted post's place instead and never renumbers: floor = index + 1.
    """

    tid: int
    title: str
    posts: list[FakePost]
    now: datetime
    per_page: int = 10
    keeps_positions: bool = False
    positions_dropped: bool = False

    @property
    def page_count(self) -> int:
        return max(1, math.ceil(len(self.shown()) / self.per_page))

    def shown(self) -> list[tuple[int, FakePost]]:
        """(floor, post) of every post the thread's pages show, in order."""
        if self.keeps_positions:
            return list(enumerate(self.posts, start=1))
        visible = [post for post in self.posts if not post.deleted]
        return list(enumerate(visible, start=1))

    def deletion_unseen(self, page: int) -> bool:
        """Whether page ``page``, by the posts' stored positions, holds a deleted post the
        board has not yet renumbered the thread for (its 302)."""
        pages = max(1, math.ceil(len(self.posts) / self.per_page))
        return self.deletion_unseen_in(
            (min(max(page, 1), pages) - 1) * self.per_page, self.per_page
        )

    def deletion_unseen_in(self, start: int, count: int) -> bool:
        """Whether the stored positions ``start`` to ``start + count`` (from 0) hold a deleted
        post the board has not yet renumbered the thread for (any view of them: its 302)."""
        if self.keeps_positions or self.positions_dropped:
            return False
        return any(post.deleted for post in self.posts[start : start + count])


@dataclass(frozen=True)
class Response:
    """What the fake board answers to one request."""

    status: int
    headers: dict[str, str]
    body: bytes


Site = Callable[[str], Response]


# --- dgmdate ------------------------------------------------------------------------------


def format_post_time(posted_at: datetime, now: datetime, style: str = "auto") -> str:
    """The HTML Discuz puts after "发表于 " for ``posted_at`` seen at ``now``.

    Follows ``dgmdate($dateline, 'u', '9999', 'Y-n-j H:i:s')`` of Discuz! X3.4: within
    today 刚刚 (0 s), N&nbsp;秒前, N&nbsp;分钟前, 半小时前 (> 30 min), N&nbsp;小时前 (> 1 h);
    the 6 days before: 昨天&nbsp;H:i, 前天&nbsp;H:i, N&nbsp;天前 (3–7); older or future
    posts: absolute with seconds.
    """
    if style not in TIME_STYLES:
        raise ValueError(f"unknown time_style {style!r}")
    local = posted_at.astimezone(now.tzinfo).replace(microsecond=0)
    exact = _ymd_his(local)
    if style == "absolute":
        return exact
    if style == "minute":
        return _ymd_hi(local)
    text = _relative_text(local, now.replace(microsecond=0))
    if style == "auto":
        return exact if text is None else f'<span title="{exact}">{text}</span>'
    if text is None:
        text = _unbounded_relative_text(local, now.replace(microsecond=0))
    return f'<span title="{exact}">{text}</span>' if style == "relative" else text


def _ymd_his(moment: datetime) -> str:
    return f"{moment.year}-{moment.month}-{moment.day} {moment:%H:%M:%S}"


def _ymd_hi(moment: datetime) -> str:
    return f"{moment.year}-{moment.month}-{moment.day} {moment:%H:%M}"


def _midnight(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def _relative_text(local: datetime, now: datetime) -> str | None:
    """dgmdate's relative text, or None where Discuz shows the absolute time."""
    if local > now:
        return None
    if local >= _midnight(now):
        return _same_day_text(int((now - local).total_seconds()))
    days = int((_midnight(now) - local).total_seconds()) // 86400
    return _past_day_text(days, local) if days < 7 else None


def _unbounded_relative_text(local: datetime, now: datetime) -> str:
    """dgmdate's day rule extended past a week, for posts forced to ``relative``."""
    if local > now:
        raise ValueError(f"a post at {local} is after the board's clock {now}")
    return _past_day_text(int((_midnight(now) - local).total_seconds()) // 86400, local)


def _same_day_text(seconds: int) -> str:
    if seconds > 3600:
        return f"{seconds // 3600}&nbsp;小时前"
    if seconds > 1800:
        return "半小时前"
    if seconds > 60:
        return f"{seconds // 60}&nbsp;分钟前"
    if seconds > 0:
        return f"{seconds}&nbsp;秒前"
    return "刚刚"


def _past_day_text(days: int, local: datetime) -> str:
    if days == 0:
        return f"昨天&nbsp;{local:%H:%M}"
    if days == 1:
        return f"前天&nbsp;{local:%H:%M}"
    return f"{days + 1}&nbsp;天前"


def _gmt_label(now: datetime) -> str:
    offset = now.utcoffset() or timedelta(0)
    hours = offset.total_seconds() / 3600
    return "GMT" if hours == 0 else f"GMT{hours:+g}"


# --- text to HTML ---------------------------------------------------------------------------

_INLINE_TAG = re.compile(r"</?(?:strong|b|i|u|em|font|span)(?:\s[^<>]*)?>", re.IGNORECASE)
_TEMPLATE_SLOT = re.compile(r"\{\{(\w+)\}\}")


def _escape(text: str) -> str:
    """Discuz's dhtmlspecialchars: & < > and double quotes."""
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _spaces(text: str) -> str:
    """discuzcode()'s tab and multiple-space replacement."""
    return (
        text.replace("\t", "&nbsp; &nbsp; &nbsp; &nbsp; ")
        .replace("   ", "&nbsp; &nbsp;")
        .replace("  ", "&nbsp;&nbsp;")
    )


def _message_html(text: str) -> str:
    """Post text as Discuz shows it: escaped, simple inline tags kept, nl2br'd."""
    parts: list[str] = []
    position = 0
    for tag in _INLINE_TAG.finditer(text):
        parts.append(_spaces(_escape(text[position : tag.start()])))
        parts.append(tag.group())
        position = tag.end()
    parts.append(_spaces(_escape(text[position:])))
    return "".join(parts).replace("\n", "<br />\n")


def _plain_text(text: str) -> str:
    return _INLINE_TAG.sub("", text).replace("\n", "")


def _fill(template: str, **values: object) -> str:
    """Replace every ``{{name}}`` in ``template`` (JS and CSS braces are left alone)."""
    return _TEMPLATE_SLOT.sub(lambda slot: str(values[slot.group(1)]), template)


# --- URLs -----------------------------------------------------------------------------------


def _thread_href(tid: int, rewrite: bool) -> str:
    return f"thread-{tid}-1-1.html" if rewrite else f"forum.php?mod=viewthread&amp;tid={tid}"


def _multi_href(tid: int, page: int, rewrite: bool) -> str:
    """A page link as Discuz's multi() writes it (raw ``&tid``, then ``&amp;``; X3.4 leaves
    ``extra`` empty)."""
    if rewrite:
        return f"thread-{tid}-{page}-1.html"
    return f"forum.php?mod=viewthread&tid={tid}&amp;extra=&amp;page={page}"


def _next_button_href(tid: int, page: int, rewrite: bool) -> str:
    if rewrite:
        return f"thread-{tid}-{page}-1.html"
    return f"forum.php?mod=viewthread&amp;tid={tid}&amp;extra=&amp;page={page}"


def _space_href(uid: int, rewrite: bool, *, amp: str = "&amp;") -> str:
    return f"space-uid-{uid}.html" if rewrite else f"home.php?mod=space{amp}uid={uid}"


# --- page chrome ----------------------------------------------------------------------------

_HEAD = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset={{charset}}" />
<title>{{title}} -  示例论坛 -  Powered by Discuz!</title>
{{canonical}}
<meta name="keywords" content="{{keywords}}" />
<meta name="description" content="{{description}}" />
<meta name="generator" content="Discuz! X3.4" />
<meta name="author" content="Discuz! Team and Comsenz UI Team" />
<meta name="copyright" content="2001-2017 Comsenz Inc." />
<meta name="MSSmartTagsPreventParsing" content="True" />
<meta http-equiv="MSThemeCompatible" content="Yes" />
<link rel="stylesheet" type="text/css" href="data/cache/style_1_common.css?Hq7" /><link rel="stylesheet" type="text/css" href="data/cache/style_1_forum_viewthread.css?Hq7" /><script type="text/javascript">var STYLEID = '1', STATICURL = 'static/', IMGDIR = 'static/image/common', VERHASH = 'Hq7', charset = '{{charset}}', discuz_uid = '0', cookiepre = 'Rk3e_2132_', cookiedomain = '', cookiepath = '/', showusercard = '1', attackevasive = '0', disallowfloat = 'newthread', creditnotice = '1|威望|,2|金钱|,3|贡献|', defaultstyle = '', REPORTURL = 'aHR0cDovL2Jicy5leGFtcGxlLmNvbS8=', SITEURL = 'http://bbs.example.com/', JSPATH = 'data/cache/', CSSPATH = 'data/cache/style_', DYNAMICURL = '';</script>
<script src="data/cache/common.js?Hq7" type="text/javascript"></script>
<meta name="application-name" content="示例论坛" />
<meta name="msapplication-tooltip" content="示例论坛" />
<meta name="msapplication-task" content="name=论坛;action-uri=http://bbs.example.com/forum.php;icon-uri=http://bbs.example.com/static/image/common/bbs.ico" />
<link rel="archives" title="示例论坛" href="http://bbs.example.com/archiver/" />
<script src="data/cache/forum.js?Hq7" type="text/javascript"></script>
</head>

<body id="nv_forum" class="{{body_class}}" onkeydown="if(event.keyCode==27) return false;">
<div id="append_parent"></div><div id="ajaxwaitid"></div>
<div id="toptb" class="cl">
<div class="wp">
<div class="z"><a href="javascript:;"  onclick="setHomepage('http://bbs.example.com/');">设为首页</a><a href="http://bbs.example.com/"  onclick="addFavorite(this.href, '示例论坛');return false;">收藏本站</a></div>
<div class="y">
<a id="switchblind" href="javascript:;" onclick="toggleBlind(this)" title="开启辅助访问" class="switchblind">开启辅助访问</a>
<a href="javascript:;" id="switchwidth" onclick="widthauto(this)" title="切换到宽版" class="switchwidth">切换到宽版</a>
</div>
</div>
</div>

<div class="wp a_h"><a href="http://ad.example.com/c?id=17" target="_blank"><img src="data/attachment/common/cf/banner_960x90.jpg" alt="横幅广告" /></a></div><div id="hd">
<div class="wp">
<div class="hdc cl"><h2><a href="./" title="示例论坛"><img src="static/image/common/logo.png" alt="示例论坛" border="0" /></a></h2><script src="data/cache/logging.js?Hq7" type="text/javascript"></script>
<form method="post" autocomplete="off" id="lsform" action="member.php?mod=logging&amp;action=login&amp;loginsubmit=yes&amp;infloat=yes&amp;lssubmit=yes" onsubmit="return lsSubmit();">
<div class="fastlg cl">
<span id="return_ls" style="display:none"></span>
<div class="y pns">
<table cellspacing="0" cellpadding="0">
<tr>
<td><label for="ls_username">帐号</label></td>
<td><input type="text" name="username" id="ls_username" class="px vm xg1"  value="用户名/Email" onfocus="if(this.value == '用户名/Email'){this.value = '';this.className = 'px vm';}" onblur="if(this.value == ''){this.value = '用户名/Email';this.className = 'px vm xg1';}" tabindex="901" /></td>
<td class="fastlg_l"><label for="ls_cookietime"><input type="checkbox" name="cookietime" id="ls_cookietime" class="pc" value="2592000" tabindex="903" />自动登录</label></td>
<td>&nbsp;<a href="javascript:;" onclick="showWindow('login', 'member.php?mod=logging&action=login&viewlostpw=1')">找回密码</a></td>
</tr>
</table>
<input type="hidden" name="quickforward" value="yes" />
<input type="hidden" name="handlekey" value="ls" />
</div>
</div>
</form>
</div>

<div id="nv">
<a href="javascript:;" id="qmenu" onmouseover="delayShow(this, function () {showMenu({'ctrlid':'qmenu','pos':'34!','ctrlclass':'a','duration':2});showForummenu(2);})">快捷导航</a>
<ul><li class="a" id="mn_forum" ><a href="forum.php" hidefocus="true" title="BBS"  >论坛<span>BBS</span></a></li><li id="mn_home" ><a href="home.php" hidefocus="true" title="Space"  >家园<span>Space</span></a></li><li id="mn_N12a7" ><a href="misc.php?mod=ranklist" hidefocus="true" title="Ranklist"  >排行榜<span>Ranklist</span></a></li></ul>
</div>
<div id="mu" class="cl">
</div><div id="scbar" class="cl">
<form id="scbar_form" method="post" autocomplete="off" onsubmit="searchFocus($('scbar_txt'))" action="search.php?searchsubmit=yes" target="_blank">
<input type="hidden" name="mod" id="scbar_mod" value="search" />
<input type="hidden" name="formhash" value="3f9a1c2e" />
<input type="hidden" name="srchtype" value="title" />
<input type="hidden" name="srhfid" value="2" />
<input type="hidden" name="srhlocality" value="forum::viewthread" />
<table cellspacing="0" cellpadding="0">
<tr>
<td class="scbar_icon_td"></td>
<td class="scbar_txt_td"><input type="text" name="srchtxt" id="scbar_txt" value="请输入搜索内容" autocomplete="off" x-webkit-speech speech /></td>
<td class="scbar_type_td"><a href="javascript:;" id="scbar_type" class="xg1" onclick="showMenu(this.id)" hidefocus="true">搜索</a></td>
<td class="scbar_btn_td"><button type="submit" name="searchsubmit" id="scbar_btn" sc="1" class="pn pnc" value="true"><strong class="xi2">搜索</strong></button></td>
</tr>
</table>
</form>
</div>
</div>
</div>

<div id="wp" class="wp">
"""

_FOOT = """</div>
<div id="ft" class="wp cl">
<div id="flk" class="y">
<p>
<a href="archiver/" >Archiver</a><span class="pipe">|</span><a href="forum.php?mobile=yes" >手机版</a><span class="pipe">|</span><a href="forum.php?mod=misc&action=showdarkroom" >小黑屋</a><span class="pipe">|</span><strong><a href="http://bbs.example.com/" target="_blank">示例论坛</a></strong>
<script type="text/javascript">var _hmt = _hmt || [];(function() {var hm = document.createElement("script");hm.src = "https://hm.baidu.com/hm.js?5a0c9e1b7d3f2a4c6e8b0d1f3a5c7e9b";var s = document.getElementsByTagName("script")[0];s.parentNode.insertBefore(hm, s);})();</script>
</p>
<p class="xs0">
{{gmt}}, {{clock}}
<span id="debuginfo">
, Processed in 0.0{{millis}} second(s), 24 queries
.
</span>
</p>
</div>
<div id="frt">
<p>Powered by <strong><a href="http://www.discuz.net" target="_blank">Discuz!</a></strong> <em>X3.4</em></p>
<p class="xs0">&copy; 2001-2017 <a href="http://www.comsenz.com" target="_blank">Comsenz Inc.</a></p>
</div></div>
<script src="home.php?mod=misc&ac=sendmail&rand={{rand}}" type="text/javascript"></script>

<div id="scrolltop">
<span hidefocus="true"><a title="返回顶部" onclick="window.scrollTo('0','0')" class="scrolltopa" ><b>返回顶部</b></a></span>
</div>
<script type="text/javascript">_attachEvent(window, 'scroll', function () { showTopLink(); });checkBlind();</script>
</body>
</html>
"""

_MESSAGE = """<div id="pt" class="bm cl">
<div class="z">
<a href="./" class="nvhm" title="首页">示例论坛</a> <em>&rsaquo;</em> 提示信息
</div>
</div>

<div id="ct" class="wp cl w">
<div class="nfl">
<div class="f_c altw">
<div id="messagetext" class="{{alert_class}}">
<p>{{message}}</p>
{{after}}</div>
{{login}}</div>
</div>
</div>
"""

_MESSAGE_BACK = """<script type="text/javascript">
if(history.length > (BROWSER.ie ? 0 : 1)) {
document.write('<p class="alert_btnleft"><a href="javascript:history.back()">[ 点击这里返回上一页 ]</a></p>');
} else {
document.write('<p class="alert_btnleft"><a href="./">[ 示例论坛 首页 ]</a></p>');
}
</script>
"""

_MESSAGE_LOGIN = """<div id="messagelogin"></div>
<script type="text/javascript">ajaxget('member.php?mod=logging&action=login&infloat=yes&frommessage', 'messagelogin');</script>
"""


def _document(head: dict[str, object], main: str, now: datetime) -> str:
    """A whole page: the common header, ``main`` and the footer with the board's clock."""
    stamp = int(now.timestamp())
    foot = _fill(
        _FOOT,
        gmt=_gmt_label(now),
        clock=_ymd_hi(now),
        millis=50000 + stamp % 49999,
        rand=stamp,
    )
    return _fill(_HEAD, **head) + main + foot


def _message_page(
    message: str, alert_class: str, after: str, login: str, now: datetime, charset: str
) -> str:
    """Discuz's showmessage page carrying ``message``."""
    head = {
        "charset": charset,
        "title": "提示信息",
        "canonical": "",
        "keywords": "",
        "description": ",示例论坛",
        "body_class": "pg_viewthread",
    }
    main = _fill(_MESSAGE, alert_class=alert_class, message=message, after=after, login=login)
    return _document(head, main, now)


def _encode(page: str, charset: str) -> bytes:
    """Encode as the board does; GBK boards are encoded as GB18030 (a superset)."""
    codec = "gb18030" if charset.lower() in ("gbk", "gb2312") else charset
    return page.encode(codec, errors="xmlcharrefreplace")


def _html_response(body: bytes, charset: str, header_charset: bool, now: datetime) -> Response:
    """A 200 page; its HTTP ``Date`` is the board's clock, like the page footer."""
    content_type = f"text/html; charset={charset}" if header_charset else "text/html"
    date = format_datetime(now.astimezone(UTC), usegmt=True)
    return Response(200, {"Content-Type": content_type, "Date": date}, body)


def login_page(*, charset: str = "utf-8", now: datetime | None = None) -> Response:
    """Discuz's "you must log in" message page (HTTP 200, like the real board)."""
    clock = now or datetime.now(ZoneInfo("Asia/Shanghai"))
    page = _message_page(LOGIN_MESSAGE, "alert_info", "", _MESSAGE_LOGIN, clock, charset)
    return _html_response(_encode(page, charset), charset, True, clock)


# --- one post -------------------------------------------------------------------------------

_POST = """<div id="post_{{pid}}" ><table id="pid{{pid}}" class="plhin" summary="pid{{pid}}" cellspacing="0" cellpadding="0">
<tr>
<td class="pls" rowspan="2">
<div id="favatar{{pid}}" class="pls cl favatar">
{{sidebar}}</div>
</td>
<td class="plc">
<div class="pi">
{{jump}}<strong>
<a href="{{postnum_href}}"   id="postnum{{pid}}" onclick="setCopy(this.href, '帖子地址复制成功');return false;">
{{floor_label}}</a>
</strong>
<div class="pti">
<div class="pdbt">
</div>
<div class="authi">
<img class="authicn vm" id="authicon{{pid}}" src="static/image/common/{{icon}}" />
{{lz}}<em id="authorposton{{pid}}">发表于 {{time}}</em>
<span class="pipe">|</span>
{{only_author}}{{first_links}}</div>
</div>
</div><div class="pct"><style type="text/css">.pcb{margin-right:0}</style><div class="pcb">
{{content}}</div>
</div>

</td></tr>
<tr><td class="plc plm">
{{plm}}</td>
</tr>
<tr id="_postposition{{pid}}"></tr>
<tr>
<td class="pls"></td>
<td class="plc" style="overflow:visible;">
<div class="po hin">
<div class="pob cl">
<em>
<a class="fastre" href="forum.php?mod=post&amp;action=reply&amp;fid=2&amp;tid={{tid}}&amp;{{repkey}}={{pid}}&amp;extra=&amp;page={{page}}" onclick="showWindow('reply', this.href)">回复</a>
</em>

<p>
<a href="javascript:;" onclick="showWindow('miscreport{{pid}}', 'misc.php?mod=report&rtype=post&rid={{pid}}&tid={{tid}}&fid=2', 'get', -1);return false;">举报</a>
</p>

</div>
</div>
</td>
</tr>
<tr class="ad">
<td class="pls">
</td>
<td class="plc">
</td>
</tr>
</table>
</div>
"""

_DELETED_FLOOR = """<div id="post_{{pid}}" ><table id="pid{{pid}}" summary="pid{{pid}}" cellspacing="0" cellpadding="0">
<tbody>
<tr>
<td class="pls"></td>
<td class="plc">
<div class="pi">
<strong><a>{{floor_label}}</a></strong>
</div>
<div class="pct">无效楼层，该帖已经被删除</div>
</td>
</tr>
<tr class="ad">
<td class="pls"></td>
<td class="plc"></td>
</tr>
</tbody>
</table>
</div>
"""

_SIDEBAR = """<div class="pi">
<div class="authi"><a href="{{space}}" target="_blank" class="xw1">{{name}}</a>
</div>
</div>
<div class="p_pop blk bui card_gender_0" id="userinfo{{pid}}" style="display: none; margin-top: -11px;">
<div class="m z">
<div id="userinfo{{pid}}_ma"></div>
</div>
<div class="i y">
<div>
<strong><a href="{{space}}" target="_blank" class="xi2">{{name}}</a></strong>
<em>当前离线</em>
</div><dl class="cl">
<dt>积分</dt><dd><a href="home.php?mod=space&uid={{uid}}&do=profile" target="_blank" class="xi2">{{credits}}</a></dd>
</dl><div class="imicn">
<a href="home.php?mod=space&amp;uid={{uid}}&amp;do=profile" target="_blank" title="查看详细资料"><img src="static/image/common/userinfo.gif" alt="查看详细资料" /></a>
</div>
<div id="avatarfeed"><span id="threadsortswait"></span></div>
</div>
</div>
<div>
<div class="avatar" onmouseover="showauthor(this, 'userinfo{{pid}}')"><a href="{{space}}" class="avtm" target="_blank"><img src="http://bbs.example.com/uc_server/avatar.php?uid={{uid}}&size=middle" /></a></div>
</div>
<div class="tns xg2"><table cellspacing="0" cellpadding="0"><th><p><a href="home.php?mod=space&uid={{uid}}&do=thread&type=thread&view=me&from=space" class="xi2">{{threads}}</a></p>主题</th><th><p><a href="home.php?mod=space&uid={{uid}}&do=thread&type=reply&view=me&from=space" class="xi2">{{replies}}</a></p>帖子</th><td><p><a href="home.php?mod=space&uid={{uid}}&do=profile" class="xi2">{{credits}}</a></p>积分</td></table></div>

<p><em><a href="home.php?mod=spacecp&amp;ac=usergroup&amp;gid={{gid}}" target="_blank">{{group}}</a></em></p>

<p><span id="g_up{{pid}}" onmouseover="showMenu({'ctrlid':this.id, 'pos':'12!'});">{{stars}}</span></p>
<div id="g_up{{pid}}_menu" class="tip tip_4" style="display: none;"><div class="tip_horn"></div><div class="tip_c">{{group}}, 积分 {{credits}}, 距离下一级还需 {{missing}} 积分</div></div>

<p><span class="pbg2"  id="upgradeprogress_{{pid}}" onmouseover="showMenu({'ctrlid':this.id, 'pos':'12!', 'menuid':'g_up{{pid}}_menu'});"><span class="pbr2" style="width:{{progress}}%;"></span></span></p>
<dl class="pil cl">
	<dt>积分</dt><dd><a href="home.php?mod=space&uid={{uid}}&do=profile" target="_blank" class="xi2">{{credits}}</a></dd>
</dl>
{{medals}}<dl class="pil cl"></dl><ul class="xl xl2 o cl">
<li class="addflw">
<a href="home.php?mod=spacecp&amp;ac=follow&amp;op=add&amp;hash=3f9a1c2e&amp;fuid={{uid}}" id="followmod_{{uid}}" title="收听TA" class="xi2" onclick="showWindow('followmod', this.href, 'get', 0);">收听TA</a>
</li>
<li class="pm2"><a href="home.php?mod=spacecp&amp;ac=pm&amp;op=showmsg&amp;handlekey=showmsg_{{uid}}&amp;touid={{uid}}&amp;pmid=0&amp;daterange=2&amp;pid={{pid}}&amp;tid={{tid}}" onclick="showWindow('sendpm', this.href);" title="发消息" class="xi2">发消息</a></li>
</ul>
"""

_JUMP = """<div id="fj" class="y">
<label class="z">电梯直达</label>
<input type="text" class="px p_fre z" size="2" onkeyup="$('fj_btn').href='forum.php?mod=redirect&ptid={{tid}}&authorid=&postno='+this.value" onkeydown="if(event.keyCode==13) {window.location=$('fj_btn').href;return false;}" title="跳转到指定楼层" />
<a href="javascript:;" id="fj_btn" class="z" title="跳转到指定楼层"><img src="static/image/common/fj_btn.png" alt="跳转到指定楼层" class="vm" /></a>
</div>
"""

_FIRST_LINKS = """<span class="none"><img src="static/image/common/arw_r.gif" class="vm" alt="回帖奖励" /></span>
<span class="pipe show">|</span><a href="forum.php?mod=viewthread&amp;tid={{tid}}&amp;extra=&amp;ordertype=1"  class="show">倒序浏览</a>
<span class="pipe show">|</span><a href="javascript:;" onclick="readmode($('thread_subject').innerHTML, {{pid}});" class="show">阅读模式</a>
"""

_MESSAGE_BODY = """ <div class="t_fsz">
<table cellspacing="0" cellpadding="0"><tr><td class="t_f" id="postmessage_{{pid}}">
{{message}}</td></tr></table>

</div>
<div id="comment_{{pid}}" class="cm">
</div>

<div id="post_rate_div_{{pid}}"></div>
"""

_LOCKED = '<div class="locked">提示: <em>作者被禁止或删除 内容自动屏蔽</em></div>\n'

_THANKS = """<div id="p_btn" class="mtw mbm hm cl">

<a href="home.php?mod=spacecp&amp;ac=favorite&amp;type=thread&amp;id={{tid}}&amp;formhash=3f9a1c2e" id="k_favorite" onclick="showWindow(this.id, this.href, 'get', 0);" onmouseover="this.title = $('favoritenumber').innerHTML + ' 人收藏'" title="收藏本帖"><i><img src="static/image/common/fav.gif" alt="收藏" />收藏<span id="favoritenumber" style="display:none">0</span></i></a>
<a class="sharep" href="home.php?mod=spacecp&amp;ac=share&amp;type=thread&amp;id={{tid}}" onclick="showWindow('sharethread', this.href, 'get', 0);" title="分享推精华"><i><img src="static/image/common/oshr.png" alt="分享" />分享</i></a>
</div>
"""

_POST_AD = '<div class="a_pb"><a href="http://ad.example.com/c?id=31" target="_blank">【广告】版杀道具商城，全场八折</a></div>\n'

_FLOOR_NAMES = {1: "楼主", 2: "沙发", 3: "板凳", 4: "地板"}

# (credits below, group, gid, rank): Discuz's default member groups.
_GROUPS = (
    (50, "新手上路", 10, 1),
    (200, "注册会员", 11, 2),
    (500, "中级会员", 12, 3),
    (1000, "高级会员", 13, 4),
    (3000, "金牌会员", 14, 5),
)
_MEDALS = {1: "最佳新人", 2: "活跃会员", 3: "热心会员", 4: "推广达人"}


@dataclass(frozen=True)
class _Context:
    """What every post of one rendered page shares."""

    thread: FakeThread
    page: int
    rewrite: bool
    floor_names: bool


def _floor_label(floor: int, floor_names: bool) -> str:
    if floor_names and floor in _FLOOR_NAMES:
        return _FLOOR_NAMES[floor]
    return f"<em>{floor}</em><sup>#</sup>"


def _profile(uid: int) -> dict[str, Any]:
    """A member's sidebar numbers, made up but stable per uid."""
    rng = random.Random(uid)
    credits = rng.choice((rng.randint(5, 49), rng.randint(50, 499), rng.randint(500, 2999)))
    ceiling, group, gid, rank = next(row for row in _GROUPS if credits < row[0])
    floor_credits = max((row[0] for row in _GROUPS if row[0] <= credits), default=0)
    medals = rng.sample(sorted(_MEDALS), rng.randint(0, 2))
    return {
        "threads": rng.randint(1, 60),
        "replies": rng.randint(100, 3000),
        "credits": credits,
        "group": group,
        "gid": gid,
        "rank": rank,
        "missing": ceiling - credits,
        "progress": (credits - floor_credits) * 100 // (ceiling - floor_credits),
        "medals": medals,
    }


def _medals_html(pid: int, medals: list[int]) -> str:
    if not medals:
        return ""
    images = "".join(
        f'<img id="md_{pid}_{medal}" src="static/image/common/medal{medal}.gif" '
        f'alt="{_MEDALS[medal]}" title="" onmouseover="showMenu({{\'ctrlid\':this.id, '
        f"'menuid':'md_{medal}_menu', 'pos':'12!'}})\" />"
        for medal in medals
    )
    return f'<p class="md_ctrl"><a href="home.php?mod=medal">{images}</a></p>\n'


def _sidebar(post: FakePost, ctx: _Context) -> str:
    name = _escape(post.author)
    if post.account_deleted or post.uid is None:
        suffix = " <em>该用户已被删除</em>" if post.account_deleted else ""
        return f'<div class="pi">\n{name}{suffix}\n</div>\n'
    profile = _profile(post.uid)
    rank = profile["rank"]
    star = f'<img src="static/image/common/star_level1.gif" alt="Rank: {rank}" />'
    return _fill(
        _SIDEBAR,
        threads=profile["threads"],
        replies=profile["replies"],
        credits=profile["credits"],
        group=profile["group"],
        gid=profile["gid"],
        missing=profile["missing"],
        progress=profile["progress"],
        stars=star * rank,
        medals=_medals_html(post.pid, profile["medals"]),
        pid=post.pid,
        tid=ctx.thread.tid,
        uid=post.uid,
        name=name,
        space=_space_href(post.uid, ctx.rewrite),
    )


def _quote_html(post: FakePost, ctx: _Context) -> str:
    if post.quote is None:
        return ""
    author, quoted_at, text = post.quote
    quoted_pid = next(
        (p.pid for p in ctx.thread.posts if p.author == author and p.posted_at == quoted_at), 0
    )
    when = _ymd_hi(quoted_at.astimezone(ctx.thread.now.tzinfo))
    link = (
        f'<a href="{SITE_URL}forum.php?mod=redirect&amp;goto=findpost&amp;pid={quoted_pid}'
        f'&amp;ptid={ctx.thread.tid}" target="_blank">'
        f'<font color="#999999">{_escape(author)} 发表于 {when}</font></a>'
    )
    return (
        f'<div class="quote"><blockquote><font size="2">{link}</font><br />\n'
        f"{_message_html(text)}</blockquote></div><br />\n"
    )


def _edit_notice(post: FakePost, ctx: _Context) -> str:
    """The 本帖最后由 notice; Discuz adds it only for edits more than 60 s after posting."""
    if post.edited_at is None or (post.edited_at - post.posted_at).total_seconds() <= 60:
        return ""
    when = _ymd_hi(post.edited_at.astimezone(ctx.thread.now.tzinfo))
    separator = "" if post.quote else "<br />\n"
    notice = f'<i class="pstatus"> 本帖最后由 {_escape(post.author)} 于 {when} 编辑 </i><br />\n'
    return notice + separator


def _content(post: FakePost, ctx: _Context) -> str:
    if post.banned:
        return _LOCKED
    message = _edit_notice(post, ctx) + _quote_html(post, ctx) + _message_html(post.body)
    return _fill(_MESSAGE_BODY, pid=post.pid, message=message)


def _plm(post: FakePost, floor: int, index_on_page: int, ctx: _Context) -> str:
    parts = []
    if floor == 1:
        parts.append(_fill(_THANKS, tid=ctx.thread.tid))
    if post.signature:
        parts.append(
            '<div class="sign" style="max-height:100px;maxHeightIE:100px;">'
            f"{_message_html(post.signature)}</div>\n"
        )
    if index_on_page == 1:
        parts.append(_POST_AD)
    return "".join(parts)


def _is_thread_author(post: FakePost, floor: int, ctx: _Context) -> bool:
    starter = ctx.thread.posts[0]
    return floor > 1 and post.uid is not None and post.uid == starter.uid


def _render_post(post: FakePost, floor: int, index_on_page: int, ctx: _Context) -> str:
    tid = ctx.thread.tid
    label = _floor_label(floor, ctx.floor_names)
    if post.deleted:
        return _fill(_DELETED_FLOOR, pid=post.pid, floor_label=label)
    first = floor == 1
    by_starter = _is_thread_author(post, floor, ctx)
    only_author = (
        ""
        if post.uid is None
        else f'<a href="forum.php?mod=viewthread&amp;tid={tid}&amp;page={ctx.page}'
        f'&amp;authorid={post.uid}" rel="nofollow">只看该作者</a>\n'
    )
    return _fill(
        _POST,
        pid=post.pid,
        tid=tid,
        page=ctx.page,
        sidebar=_sidebar(post, ctx),
        jump=_fill(_JUMP, tid=tid) if first else "",
        postnum_href=_postnum_href(post, first, ctx),
        floor_label=label,
        icon="ico_lz.png" if by_starter else "online_member.gif",
        lz='&nbsp;楼主<span class="pipe">|</span>\n' if by_starter else "",
        time=format_post_time(post.posted_at, ctx.thread.now, post.time_style),
        only_author=only_author,
        first_links=_fill(_FIRST_LINKS, tid=tid, pid=post.pid) if first else "",
        content=_content(post, ctx),
        plm=_plm(post, floor, index_on_page, ctx),
        repkey="reppost" if first else "repquote",
    )


def _postnum_href(post: FakePost, first: bool, ctx: _Context) -> str:
    tid = ctx.thread.tid
    if first:
        return f"thread-{tid}-1-1.html" if ctx.rewrite else f"forum.php?mod=viewthread&tid={tid}"
    return f"forum.php?mod=redirect&goto=findpost&ptid={tid}&pid={post.pid}"


# --- the viewthread page --------------------------------------------------------------------

_VIEWTHREAD_TOP = """<script type="text/javascript">var fid = parseInt('2'), tid = parseInt('{{tid}}');</script>

<script src="data/cache/forum_viewthread.js?Hq7" type="text/javascript"></script>
<script type="text/javascript">zoomstatus = parseInt(1);var imagemaxwidth = '600';var aimgcount = new Array();</script>

<style id="diy_style" type="text/css"></style>
<!--[diy=diynavtop]--><div id="diynavtop" class="area"></div><!--[/diy]-->
<div id="pt" class="bm cl">
<div class="z">
<a href="./" class="nvhm" title="首页">示例论坛</a><em>&raquo;</em><a href="forum.php">论坛</a> <em>&rsaquo;</em> <a href="forum.php?mod=forumdisplay&amp;fid=2">版杀专区</a> <em>&rsaquo;</em> <a href="{{thread_href}}">{{subject}}</a>
</div>
</div>

<div class="wp a_t"><table cellpadding="0" cellspacing="1"><tr><td width="50%"><a href="http://ad.example.com/c?id=5" target="_blank">【推广】新区开服，注册即送好礼</a></td><td width="50%"><a href="http://ad.example.com/c?id=6" target="_blank">版杀法官招募中</a></td></tr></table></div><style id="diy_style" type="text/css"></style>
<div class="wp">
<!--[diy=diy1]--><div id="diy1" class="area"></div><!--[/diy]-->
</div>

<div id="ct" class="wp cl">
<div id="pgt" class="pgs mbm cl ">
<div class="pgt">{{multipage}}</div>
<span class="y pgb"><a href="forum.php?mod=forumdisplay&amp;fid=2">返回列表</a></span>
<a id="newspecial" onmouseover="$('newspecial').id = 'newspecialtmp';this.id = 'newspecial';showMenu({'ctrlid':this.id})" onclick="showWindow('newthread', 'forum.php?mod=post&action=newthread&fid=2')" href="javascript:;" title="发新帖"><img src="static/image/common/pn_post.png" alt="发新帖" /></a>
</div>


<div id="postlist" class="pl bm">
<table cellspacing="0" cellpadding="0">
<tr>
<td class="pls ptn pbn">
{{stats}}</td>
<td class="plc ptm pbn vwthd">
<div class="y">
<a href="forum.php?mod=viewthread&amp;action=printable&amp;tid={{tid}}" title="打印" target="_blank"><img src="static/image/common/print.png" alt="打印" class="vm" /></a>
<a href="forum.php?mod=redirect&amp;goto=nextoldset&amp;tid={{tid}}" title="上一主题"><img src="static/image/common/thread-prev.png" alt="上一主题" class="vm" /></a>
<a href="forum.php?mod=redirect&amp;goto=nextnewset&amp;tid={{tid}}" title="下一主题"><img src="static/image/common/thread-next.png" alt="下一主题" class="vm" /></a>
</div>
<h1 class="ts">
<span id="thread_subject">{{subject}}</span>
</h1>
<span class="xg1">
<a href="{{thread_href}}" onclick="return copyThreadUrl(this, '示例论坛')" >[复制链接]</a>
</span>
</td>
</tr>
</table>


<table cellspacing="0" cellpadding="0" class="ad">
<tr>
<td class="pls">
</td>
<td class="plc">
</td>
</tr>
</table>"""

_VIEWTHREAD_BOTTOM = """<div id="postlistreply" class="pl"><div id="post_new" class="viewthread_table" style="display: none"></div></div>
</div>


<form method="post" autocomplete="off" name="modactions" id="modactions">
<input type="hidden" name="formhash" value="3f9a1c2e" />
<input type="hidden" name="optgroup" />
<input type="hidden" name="operation" />
<input type="hidden" name="listextra" value="" />
<input type="hidden" name="page" value="{{page}}" />
</form>


{{next_button}}
<div class="pgs mtm mbm cl">
{{multipage}}
<span class="pgb y"><a href="forum.php?mod=forumdisplay&amp;fid=2">返回列表</a></span>
<a id="newspecialtmp" onmouseover="$('newspecial').id = 'newspecialtmp';this.id = 'newspecial';showMenu({'ctrlid':this.id})" onclick="showWindow('newthread', 'forum.php?mod=post&action=newthread&fid=2')" href="javascript:;" title="发新帖"><img src="static/image/common/pn_post.png" alt="发新帖" /></a>
</div>

<!--[diy=diyfastposttop]--><div id="diyfastposttop" class="area"></div><!--[/diy]-->
<script type="text/javascript">
var postminchars = parseInt('10');
var postmaxchars = parseInt('10000');
var disablepostctrl = parseInt('0');
</script>

<div id="f_pst" class="pl bm bmw">
<form method="post" autocomplete="off" id="fastpostform" action="forum.php?mod=post&amp;action=reply&amp;fid=2&amp;tid={{tid}}&amp;extra=&amp;replysubmit=yes&amp;infloat=yes&amp;handlekey=fastpost" onSubmit="return fastpostvalidate(this)">
<table cellspacing="0" cellpadding="0">
<tr>
<td class="pls">
</td>
<td class="plc">
<div class="cl">
<div class="hasfsl" id="fastposteditor">
<div class="tedt mtn">
<div class="area">
<div class="pt hm">
您需要登录后才可以回帖 <a href="member.php?mod=logging&amp;action=login" onclick="showWindow('login', this.href)" class="xi2">登录</a> | <a href="member.php?mod=register" class="xi2">立即注册</a>
</div>
</div>
</div>
</div>
</div>
</td>
</tr>
</table>
</form>
</div>

{{medal_menus}}<script type="text/javascript">
function succeedhandle_followmod(url, msg, values) {
var fObj = $('followmod_'+values['fuid']);
if(values['type'] == 'add') {
fObj.innerHTML = '不收听';
fObj.href = 'home.php?mod=spacecp&ac=follow&op=del&fuid='+values['fuid'];
} else if(values['type'] == 'del') {
fObj.innerHTML = '收听TA';
fObj.href = 'home.php?mod=spacecp&ac=follow&op=add&hash=3f9a1c2e&fuid='+values['fuid'];
}
}
fixed_avatar([{{pids}}], 1);
</script>
</div>
<div class="wp mtn">
<!--[diy=diy3]--><div id="diy3" class="area"></div><!--[/diy]-->
</div>

"""

_STATS = """<div class="hm ptn">
<span class="xg1">查看:</span> <span class="xi1">{{views}}</span><span class="pipe">|</span><span class="xg1">回复:</span> <span class="xi1">{{replies}}</span>
</div>
"""

_STARTER = """<div id="tath" class="cl">
<a href="{{space}}" title="{{name}}"><img src="http://bbs.example.com/uc_server/avatar.php?uid={{uid}}&size=small" /></a>
楼主: <a href="{{space}}" title="{{name}}">{{name}}</a>
</div>
"""

_MEDAL_MENU = """<div id="md_{{medal}}_menu" class="tip tip_4" style="display: none;">
<div class="tip_horn"></div>
<div class="tip_c">
<h4>{{name}}</h4>
<p>{{name}}勋章</p>
</div>
</div>
"""


def _window(page: int, pages: int, width: int = 10) -> tuple[int, int]:
    """The first and last page number multi() lists around ``page``."""
    if width > pages:
        return 1, pages
    offset = width // 2
    first, last = page - offset, page - offset + width - 1
    if first < 1:
        return 1, max(page + 1 - first, width)
    if last > pages:
        return pages - width + 1, pages
    return first, last


def _multipage(tid: int, page: int, pages: int, rewrite: bool) -> str:
    """Discuz's multi() page bar; empty for a one-page thread."""
    if pages < 2:
        return ""
    first, last = _window(page, pages)
    links = []
    if page - 5 > 1 and pages > 10:
        links.append(f'<a href="{_multi_href(tid, 1, rewrite)}" class="first">1 ...</a>')
    if page > 1:
        links.append(
            f'<a href="{_multi_href(tid, page - 1, rewrite)}" class="prev">&nbsp;&nbsp;</a>'
        )
    for number in range(first, last + 1):
        links.append(
            f"<strong>{number}</strong>"
            if number == page
            else f'<a href="{_multi_href(tid, number, rewrite)}">{number}</a>'
        )
    if last < pages:
        links.append(f'<a href="{_multi_href(tid, pages, rewrite)}" class="last">... {pages}</a>')
    jump_url = f"forum.php?mod=viewthread&tid={tid}&amp;extra=&amp;page="
    links.append(
        '<label><input type="text" name="custompage" class="px" size="2" '
        f'title="输入页码，按回车快速跳转" value="{page}" onkeydown="if(event.keyCode==13) '
        f"{{window.location='{jump_url}'+this.value;; doane(event);}}\" />"
        f'<span title="共 {pages} 页"> / {pages} 页</span></label>'
    )
    if page < pages:
        links.append(f'<a href="{_multi_href(tid, page + 1, rewrite)}" class="nxt">下一页</a>')
    return '<div class="pg">' + "".join(links) + "</div>"


def _next_button(tid: int, page: int, pages: int, rewrite: bool) -> str:
    if page >= pages:
        return ""
    href = _next_button_href(tid, page + 1, rewrite)
    return f'<div class="pgbtn"><a href="{href}" hidefocus="true" class="bm_h">下一页 &raquo;</a></div>\n'


def _stats(thread: FakeThread, page: int, rewrite: bool) -> str:
    starter = thread.posts[0]
    if page == 1 or starter.uid is None:
        views = 37 * len(thread.posts) + thread.tid % 97
        return _fill(_STATS, views=views, replies=len(thread.posts) - 1)
    return _fill(
        _STARTER,
        space=_space_href(starter.uid, rewrite, amp="&"),
        name=_escape(starter.author),
        uid=starter.uid,
    )


def _medal_menus() -> str:
    return "".join(_fill(_MEDAL_MENU, medal=medal, name=name) for medal, name in _MEDALS.items())


def _head_fields(thread: FakeThread, page: int, rewrite: bool, charset: str) -> dict[str, object]:
    subject = _escape(thread.title)
    opening = _escape(_plain_text(thread.posts[0].body)[:100]) if thread.posts else ""
    canonical = (
        f'<link href="{SITE_URL}thread-{thread.tid}-{page}-1.html" rel="canonical" />'
        if rewrite
        else ""
    )
    return {
        "charset": charset,
        "title": subject if page == 1 else f"{subject} - 第{page}页",
        "canonical": canonical,
        "keywords": subject,
        "description": f"{opening} ... {subject} ,示例论坛",
        "body_class": "pg_viewthread",
    }


def render_discuz_x_page(
    thread: FakeThread,
    page_no: int,
    *,
    charset: str = "utf-8",
    rewrite: bool = False,
    floor_names: bool = True,
) -> bytes:
    """Page ``page_no`` of ``thread`` as Discuz! X3.4 serves it, encoded in ``charset``.

    Like the board, a page number past the end renders the last page (and one below 1, the
    first).  ``rewrite`` writes links the URL-rewrite way (thread-T-P-1.html,
    space-uid-N.html); ``floor_names`` names floors 1–4 楼主/沙发/板凳/地板, as X3.4 does by
    default (else "N#").
    """
    pages = thread.page_count
    page = min(max(page_no, 1), pages)
    ctx = _Context(thread, page, rewrite, floor_names)
    start = (page - 1) * thread.per_page
    shown = thread.shown()[start : start + thread.per_page]
    on_page = [post for _, post in shown]
    posts_html = "".join(
        _render_post(post, floor, index, ctx) for index, (floor, post) in enumerate(shown)
    )
    multipage = _multipage(thread.tid, page, pages, rewrite)
    top = _fill(
        _VIEWTHREAD_TOP,
        tid=thread.tid,
        subject=_escape(thread.title),
        thread_href=_thread_href(thread.tid, rewrite),
        multipage=multipage,
        stats=_stats(thread, page, rewrite),
    )
    bottom = _fill(
        _VIEWTHREAD_BOTTOM,
        tid=thread.tid,
        page=page,
        next_button=_next_button(thread.tid, page, pages, rewrite),
        multipage=multipage,
        medal_menus=_medal_menus(),
        pids=",".join(str(post.pid) for post in on_page),
    )
    head = _head_fields(thread, page, rewrite, charset)
    return _encode(_document(head, top + posts_html + bottom, thread.now), charset)


# --- the board ------------------------------------------------------------------------------

_REWRITE_PATH = re.compile(r"/thread-(\d+)-(\d+)-(\d+)\.html")
_VIEWTHREAD_KEYS = {"mod", "tid", "page", "extra", "mobile"}


def _intval(text: str) -> int:
    """PHP's intval() on a query value: the leading digits, else 0."""
    digits = re.match(r"\s*(\d+)", text)
    return int(digits.group(1)) if digits else 0


def _route(path_and_query: str, rewrite: bool) -> tuple[int, int, bool] | None:
    """(tid, page, mobile view asked for) of a viewthread URL; None for any other URL."""
    parts = urlsplit(path_and_query)
    if rewrite and (match := _REWRITE_PATH.fullmatch(parts.path)):
        return int(match.group(1)), int(match.group(2)), False
    if parts.path != "/forum.php":
        return None
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    if query.get("mod") != "viewthread" or "tid" not in query or set(query) - _VIEWTHREAD_KEYS:
        return None
    mobile = query.get("mobile", "") not in ("", "no", "0")
    return _intval(query["tid"]), _intval(query.get("page", "1")), mobile


# discuz_application::_xss_check: a request URI holding these is refused.
_XSS_CHARS = ("<", ">", '"', "CONTENT-TRANSFER-ENCODING")


def _not_found() -> Response:
    body = b"<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"
    return Response(404, {"Content-Type": "text/html; charset=iso-8859-1"}, body)


def discuz_x_site(
    thread: FakeThread,
    *,
    charset: str = "utf-8",
    rewrite: bool = False,
    floor_names: bool = True,
    header_charset: bool = True,
) -> Site:
    """A board serving ``thread``: ``site(path_and_query) -> Response``.

    Serves ``/forum.php?mod=viewthread&tid=T[&extra=…][&page=P]`` (and, with ``rewrite``,
    also ``/thread-T-P-1.html``); a page past the end is the last page (200); another tid is
    Discuz's "thread does not exist" message page (200); a request with ``<``, ``>`` or
    ``"`` in it the "Discuz! System Error" page (200); ``mobile=2`` (or ``yes``) the "手机版"
    page a desktop browser gets; the first view of a page after a deletion a 302 to
    ``forum.php?mod=viewthread&tid=T`` (``FakeThread``); anything else is a 404.  The HTTP
    ``Date`` of a page is ``thread.now``, the board's clock.  Pages are rendered on every
    request, so a test may change ``thread`` between fetches.
    """

    def site(path_and_query: str) -> Response:
        if any(mark in unquote(path_and_query).upper() for mark in _XSS_CHARS):
            return system_error_page(XSS_MESSAGE, charset=charset)
        asked = _route(path_and_query, rewrite)
        if asked is None:
            return _not_found()
        tid, page, mobile = asked
        if tid != thread.tid:
            message = _message_page(
                NO_THREAD_MESSAGE, "alert_error", _MESSAGE_BACK, "", thread.now, charset
            )
            return _html_response(_encode(message, charset), charset, header_charset, thread.now)
        if mobile:
            body = _encode(_mobile_page(thread.now, charset), charset)
            return _html_response(body, charset, header_charset, thread.now)
        if thread.deletion_unseen(page):
            thread.positions_dropped = True
            location = f"forum.php?mod=viewthread&tid={thread.tid}"
            headers = {"Location": location, "Content-Type": f"text/html; charset={charset}"}
            return Response(302, headers, b"")
        body = render_discuz_x_page(
            thread, page, charset=charset, rewrite=rewrite, floor_names=floor_names
        )
        return _html_response(body, charset, header_charset, thread.now)

    return site


# --- pages instead of a thread page ---------------------------------------------------------

# source/language/lang_error.php: request_tainting.
XSS_MESSAGE = "您当前的访问请求当中含有非法字符，已经被系统拒绝"

_SYSTEM_ERROR = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html>
<head>
	<title>bbs.example.com - System Error</title>
	<meta http-equiv="Content-Type" content="text/html; charset={{charset}}" />
	<meta name="ROBOTS" content="NOINDEX,NOFOLLOW,NOARCHIVE" />
	<style type="text/css">
	<!--
	body { background-color: white; color: black; font: 9pt/11pt verdana, arial, sans-serif;}
	#container { width: 1024px; }
	.info { background: none repeat scroll 0 0 #F3F3F3; border: 0px solid #aaaaaa; border-radius: 10px 10px 10px 10px; color: #000000; font-size: 11pt; line-height: 160%; margin-bottom: 1em; padding: 1em; }
	-->
	</style>
</head>
<body>
<div id="container">
<h1>Discuz! System Error</h1>
<div class='info'><li>{{message}}</li></div>

<div class="info"><p><strong>PHP Debug</strong></p><table cellpadding="5" cellspacing="1" width="100%" class="table"><tr><td><ul><li>[Line: 0057]forum.php(discuz_application->init)</li><li>[Line: 0603]source/class/discuz/discuz_application.php(discuz_application->_xss_check)</li><li>[Line: 0023]source/function/function_core.php(discuz_error::system_error)</li></ul></td></tr></table></div><div class="help"><a href="http://bbs.example.com">bbs.example.com</a> 已经将此出错信息详细记录, 由此给您带来的访问不便我们深感歉意. </div>
</div>
</body>
</html>"""


def system_error_page(message: str, *, charset: str = "utf-8") -> Response:
    """Discuz's "System Error" page (``discuz_error::system_error``), served with HTTP 200."""
    body = _encode(_fill(_SYSTEM_ERROR, charset=charset, message=message), charset)
    return Response(200, {"Content-Type": f"text/html; charset={charset}"}, body)


_MOBILE_MAIN = """<div id="ct" class="wp cl ptw pbw">
<table style="margin:0 auto"><tr><td>
<div class="z" style="width: 500px; height: 650px; background: url(static/image/mobile/browser_big.jpg) no-repeat 0 0;">
<iframe id="ifm0" frameborder="0" width="425" height="530" style="margin: 115px 0 0 23px;" src="misc.php?mod=mobile&view=true"></iframe>
</div>
<div class="z" style="margin-top: 60px; width: 430px;">
<div class="mtw bm bw0" style="background-color: #dfeaf4;">
<div class="bm_c">
<h1 class="xw1 xs2 mbn">现在就登录 - 示例论坛 手机版</h1>
<p class="mbw xg2">立即使用手机访问，获得极速移动体验</p>
</div>
</div>
</div></td></tr></table>
</div>"""


def _mobile_page(now: datetime, charset: str) -> str:
    """The "手机版" page X3.4 shows a desktop browser for a ``mobile=2`` URL."""
    head = {
        "charset": charset,
        "title": "手机版",
        "canonical": "",
        "keywords": "",
        "description": ",示例论坛",
        "body_class": "pg_mobile",
    }
    return _document(head, _MOBILE_MAIN, now)


_TOUCH_PAGE = """<?xml version="1.0" encoding="{{charset}}"?><!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset={{charset}}">
<meta name="viewport" content="width=device-width, initial-scale=1.0, user-scalable=no, minimum-scale=1.0, maximum-scale=1.0">
<title>{{title}} - 版杀专区 -  示例论坛 -  手机版 - Powered by Discuz!</title>
<link rel="stylesheet" href="static/image/mobile/style.css" type="text/css" media="all">
</head>
<body class="bg">
<header class="header">
<div class="nav">
<a href="forum.php?mod=forumdisplay&fid=2&&amp;mobile=2" class="z"><img src="static/image/mobile/images/icon_back.png" /></a>
<span class="name">版杀专区</span>
</div>
</header>
<div class="postlist">
<h2>{{title}}</h2>
{{posts}}</div>
{{pages}}
<div class="footer">
<div><a href="forum.php?mobile=2">首页</a></div>
</div>
</body>
</html>"""

_TOUCH_POST = """<div class="plc cl" id="pid{{pid}}">
<span class="avatar"><img src="http://bbs.example.com/uc_server/avatar.php?uid={{uid}}&size=small" style="width:32px;height:32px;" /></span>
<div class="display pi" href="#replybtn_{{pid}}">
<ul class="authi">
<li class="grey">
<em>
{{floor}}</em><b>
<a href="home.php?mod=space&amp;uid={{uid}}&amp;mobile=2" class="blue">{{name}}</a></b>
</li>
<li class="grey rela">
{{time}}</li>
</ul>
<div class="message">
{{message}}</div>
</div>
</div>
"""


def render_touch_page(thread: FakeThread, page_no: int, *, charset: str = "utf-8") -> bytes:
    """Page ``page_no`` of the touch view (``mobile=2`` with a phone's User-Agent): minute
    times without titles, no edit notices, a phone's layout."""
    page = min(max(page_no, 1), thread.page_count)
    start = (page - 1) * thread.per_page
    posts = "".join(
        _fill(
            _TOUCH_POST,
            pid=post.pid,
            uid=post.uid or 0,
            floor=_FLOOR_NAMES.get(floor, f"{floor}#"),
            name=_escape(post.author),
            time=_ymd_hi(post.posted_at.astimezone(thread.now.tzinfo)),
            message=_LOCKED if post.banned else _message_html(post.body),
        )
        for floor, post in thread.shown()[start : start + thread.per_page]
        if not post.deleted
    )
    bar = _multipage(thread.tid, page, thread.page_count, False).replace(
        "&amp;page=", "&amp;mobile=2&amp;page="
    )
    page_html = _fill(
        _TOUCH_PAGE, charset=charset, title=_escape(thread.title), posts=posts, pages=bar
    )
    return _encode(page_html, charset)


# --- the demo vote thread -------------------------------------------------------------------

SHANGHAI = ZoneInfo("Asia/Shanghai")
DEMO_TID = 7001
DEMO_DEADLINE = datetime(2019, 5, 12, 22, 0, 0, tzinfo=SHANGHAI)
DEMO_NOW = datetime(2019, 5, 12, 22, 10, 0, tzinfo=SHANGHAI)
JUDGE = ("法官大人", 100)
JUDGE_SIGNATURE = "[法官组] 有事请站内短信"


@dataclass(frozen=True)
class _Seat:
    seat: int
    name: str
    uid: int
    aliases: tuple[str, ...] = ()
    alive: bool = True
    role: str = "水民"


# 1.2 roles: 杀手 6 (dead), 9 and 14; 检查官 8; everyone else 水民.
DEMO_SEATS = (
    _Seat(1, "meer", 2000, ("米儿",)),
    _Seat(2, "阿狸", 2001),
    _Seat(3, "路人甲", 2002),
    _Seat(4, "狼人杀手", 2003),
    _Seat(5, "预言家本家", 2004, ("本家",)),
    _Seat(6, "潜水员", 2005, alive=False, role="杀手"),
    _Seat(7, "花生米", 2006, ("花生",)),
    _Seat(8, "闲云野鹤", 2007, ("野鹤",), role="检查官"),
    _Seat(9, "小明", 2008, role="杀手"),
    _Seat(10, "Tommy", 2009, ("汤姆",)),
    _Seat(11, "星期八", 2010, alive=False),
    _Seat(12, "白开水", 2011),
    _Seat(13, "夜猫子", 2012),
    _Seat(14, "老王", 2013, ("隔壁老王",), role="杀手"),
    _Seat(15, "红豆", 2014),
    _Seat(16, "小透明", 2015),
)


def _toml_list(items: tuple[str, ...]) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"


def _roster_toml(seats: tuple[_Seat, ...]) -> str:
    lines = [
        'rules = "1.2"',
        'timezone = "Asia/Shanghai"',
        f"judges = {_toml_list((JUDGE[0],))}",
        'substitutes = ["替补甲"]',
    ]
    for seat in seats:
        lines += [
            "",
            "[[players]]",
            f"seat = {seat.seat}",
            f'name = "{seat.name}"',
            f"uid = {seat.uid}",
            f"aliases = {_toml_list(seat.aliases)}",
            f"alive = {'true' if seat.alive else 'false'}",
            f'role = "{seat.role}"',
        ]
    return "\n".join(lines) + "\n"


DEMO_ROSTER_TOML = _roster_toml(DEMO_SEATS)

_OPENING = """【第二天投票帖】22:00 截止
请在 2019-5-12 22:00:00 前投票，格式：投 X号（可写座位号或 ID）
允许改票，但必须另外发帖，不得编辑原帖；22:00:00 之后的票无效。
弃权请写“弃权”；不投票视为自投并警告一次。
本帖只允许存活玩家投票，请勿讨论。

存活：1号 meer 2号 阿狸 3号 路人甲 4号 狼人杀手 5号 预言家本家 7号 花生米 8号 闲云野鹤
9号 小明 10号 Tommy 12号 白开水 13号 夜猫子 14号 老王 15号 红豆 16号 小透明
出局：6号 潜水员（杀手） 11号 星期八（好人）"""


def _at(hhmmss: str) -> datetime:
    hour, minute, second = (int(part) for part in hhmmss.split(":"))
    return datetime(2019, 5, 12, hour, minute, second, tzinfo=SHANGHAI)


def _demo_post(
    floor: int, seat_or_name: int | tuple[str, int | None], time: str, body: str, **extra: Any
) -> FakePost:
    """Floor ``floor`` of the demo thread, by a seat number or an explicit (name, uid)."""
    if isinstance(seat_or_name, int):
        seat = DEMO_SEATS[seat_or_name - 1]
        author, uid = seat.name, seat.uid
    else:
        author, uid = seat_or_name
    return FakePost(90000 + 7 * floor, author, uid, _at(time), body, **extra)


def demo_thread(now: datetime | None = None) -> FakeThread:
    """A day-2 vote thread of a 16-seat 1.2 game (roster: ``DEMO_ROSTER_TOML``), 31 floors.

    The thread keeps its posts' positions (a deleted post leaves 无效楼层 in its place and
    floors never move), so a floor names the same post on every reading of it.

    Deadline ``DEMO_DEADLINE`` (2019-05-12 22:00:00 +08:00); the board's clock ``now``
    defaults to ``DEMO_NOW`` (22:10:00), so every post shows a relative time.  Seats 6 and 11
    are dead.  Floor by floor, what each post exercises (strict edits):

    1  法官大人 10:00:12  opening post (has "投 X号" in its text): judge, skipped
    2  meer(1)   "投5号"                         vote 5
    3  阿狸(2)   "投 7"                          vote 7
    4  路人甲(3) "5号"                           bare seat → vote 5
    5  狼人杀手(4) "五号"                        Chinese numeral → vote 5
    6  路过的 (uid 3001) "路过，投5号凑个热闹"   not_player
    7  花生米(7) "十二号"                        → vote 12
    8  闲云野鹤(8) "投给 预言家本家"             by forum name → vote 5
    9  白开水(12) "投花生"                       by alias (花生 = 7) → vote 7
    10 Tommy(10) "弃权"                          abstain
    11 预言家本家(5) "投 7号", time_style relative_bare ("9&nbsp;小时前", no title): only
       resolvable against the board's clock (HTTP Date / footer: 22:10) → about 13:10 → vote 7
    12 广告机器人 (uid 3002) banned: div.locked, no body            not_player
    13 meer(1)   "改票：投 7号"                  vote change 5 → 7
    14 夜猫子(13) quotes floor 13 ("改票：投 7号"), own text "我不跟，投 5号" → vote 5
    15 deleted floor (老王 had written "投 9")   无效楼层: no post content at all
    16 已注销 (uid None) deleted account, content locked               not_player
    17 老王(14)  "投 9号", edited at 16:20:10 (notice 16:20)           edited → no ballot
    18 红豆(15)  "投 12号", signature "投我一票！我是 15 号红豆"       vote 12 (sig ignored)
    19 小透明(16) "还没想好 <_<，再看看"          no_vote (escaped text)
    20 路人甲(3) "替 9 号投 2 号（他掉线了）"     proxy; 3 stays on 5
    21 潜水员(6, dead) "投 3号"                  dead
    22 阿狸(2)   "<strong>投 11号</strong>"      inline HTML; 11 is dead → invalid_target
    23 狼人杀手(4) "改投12"                      vote change 5 → 12
    24 法官大人 reply (楼主 marker) "提醒：……"   judge, skipped
    25 闲云野鹤(8) "还是投 5，不改"              same ballot again: no change; 半小时前
    26 白开水(12) 22:00:00 "改票：投 5号"        at the deadline: counts, change 7 → 5
    27 花生米(7) 22:00:01 "改票：投 7号"         late (would make a 5/7 tie)
    28 Tommy(10) 22:03:30 "投 7号"               late (would make a 5/7 tie)
    29 法官大人 22:05:12 "投票截止，统计中"      judge, skipped
    30 路过的 22:09:30 "围观"                    not_player ("30&nbsp;秒前")
    31 阿狸(2) 22:10:00 "刚看到，投 5"           late ("刚刚"); alone on page 4

    Ballots at the deadline: 1→7, 2→7, 3→5, 4→12, 5→7, 7→12, 8→5, 10 abstain, 12→5, 13→5,
    15→12; seats 9, 14, 16 have no accepted ballot: self votes, one warning each.
    Counts: 5 (预言家本家) 4 [3, 8, 12, 13]; 7 (花生米) 3 [1, 2, 5]; 12 (白开水) 3 [4, 7, 15];
    9, 14, 16 one self vote each.  Outcome: seat 5 eliminated.
    """
    judge = JUDGE
    passerby = ("路过的", 3001)
    posts = [
        _demo_post(1, judge, "10:00:12", _OPENING, signature=JUDGE_SIGNATURE),
        _demo_post(2, 1, "10:05:33", "投5号"),
        _demo_post(3, 2, "10:12:08", "投 7"),
        _demo_post(4, 3, "10:30:41", "5号"),
        _demo_post(5, 4, "10:47:19", "五号"),
        _demo_post(6, passerby, "11:02:55", "路过，投5号凑个热闹"),
        _demo_post(7, 7, "11:20:03", "十二号"),
        _demo_post(8, 8, "11:41:27", "投给 预言家本家"),
        _demo_post(9, 12, "12:03:10", "投花生"),
        _demo_post(10, 10, "12:15:49", "弃权"),
        _demo_post(11, 5, "12:30:00", "投 7号", time_style="relative_bare"),
        _demo_post(12, ("广告机器人", 3002), "13:05:27", "加群领福利，投5号送积分", banned=True),
        _demo_post(13, 1, "13:40:52", "改票：投 7号"),
        _demo_post(
            14, 13, "14:11:16", "我不跟，投 5号", quote=("meer", _at("13:40:52"), "改票：投 7号")
        ),
        _demo_post(15, 14, "14:50:38", "投 9", deleted=True),
        _demo_post(16, ("已注销", None), "15:20:09", "投 3号", banned=True, account_deleted=True),
        _demo_post(17, 14, "15:55:44", "投 9号", edited_at=_at("16:20:10")),
        _demo_post(18, 15, "16:30:21", "投 12号", signature="投我一票！我是 15 号红豆"),
        _demo_post(19, 16, "17:02:33", "还没想好 <_<，再看看"),
        _demo_post(20, 3, "17:45:06", "替 9 号投 2 号（他掉线了）"),
        _demo_post(21, 6, "18:20:47", "投 3号"),
        _demo_post(22, 2, "19:05:12", "<strong>投 11号</strong>"),
        _demo_post(23, 4, "19:48:30", "改投12"),
        _demo_post(
            24,
            judge,
            "20:30:05",
            "提醒：还有一个半小时截止，请尚未表态的玩家抓紧。",
            signature=JUDGE_SIGNATURE,
        ),
        _demo_post(25, 8, "21:15:40", "还是投 5，不改"),
        _demo_post(26, 12, "22:00:00", "改票：投 5号"),
        _demo_post(27, 7, "22:00:01", "改票：投 7号"),
        _demo_post(28, 10, "22:03:30", "投 7号"),
        _demo_post(29, judge, "22:05:12", "投票截止，统计中。", signature=JUDGE_SIGNATURE),
        _demo_post(30, passerby, "22:09:30", "围观"),
        _demo_post(31, 2, "22:10:00", "刚看到，投 5"),
    ]
    title = "【第二天投票帖】22:00 截止"
    return FakeThread(DEMO_TID, title, posts, now or DEMO_NOW, keeps_positions=True)


# --- a big synthetic thread -----------------------------------------------------------------

_CHINESE_DIGITS = "零一二三四五六七八九"


def _chinese_number(number: int) -> str:
    """1–99 in Chinese numerals (十二, 二十, 二十一)."""
    tens, ones = divmod(number, 10)
    head = "" if tens == 0 else ("十" if tens == 1 else _CHINESE_DIGITS[tens] + "十")
    return head + (_CHINESE_DIGITS[ones] if ones else "")


def _random_ballot(rng: random.Random, players: int) -> str:
    target = rng.randint(1, players)
    forms = (
        f"投{target}号",
        f"投 {target}",
        f"{target}号",
        f"{_chinese_number(target)}号",
        f"改票：投 {target}号",
        "弃权",
    )
    return rng.choice(forms)


def big_roster_toml(players: int = 16) -> str:
    """The roster matching ``big_thread(…, players=players)``: seats 玩家01… all alive."""
    return _roster_toml(_big_seats(players))


def _big_seats(players: int) -> tuple[_Seat, ...]:
    return tuple(_Seat(n, f"玩家{n:02d}", 5000 + n) for n in range(1, players + 1))


def big_thread(pages: int, per_page: int = 10, players: int = 16, seed: int = 0) -> FakeThread:
    """A full ``pages``-page vote thread of random valid ballots, the same for the same seed.

    The judge opens it at 10:00:00 on 2019-05-12 (+08:00); replies are spread evenly up to
    21:59:59, before the 22:00 deadline; the board's clock is 22:10:00.  Roster:
    ``big_roster_toml(players)``.
    """
    rng = random.Random(seed)
    seats = _big_seats(players)
    count = pages * per_page
    start = _at("10:00:00")
    span = int((DEMO_DEADLINE - start).total_seconds()) - 1
    posts = [FakePost(100001, JUDGE[0], JUDGE[1], start, "【投票帖】22:00 截止，格式：投 X号")]
    for index in range(1, count):
        seat = rng.choice(seats)
        posted_at = start + timedelta(seconds=index * span // max(count - 1, 1))
        body = _random_ballot(rng, players)
        posts.append(FakePost(100001 + 3 * index, seat.name, seat.uid, posted_at, body))
    return FakeThread(8001, "【投票帖】22:00 截止", posts, DEMO_NOW, per_page)
