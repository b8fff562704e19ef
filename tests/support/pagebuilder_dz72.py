"""Builds Discuz! 7.2 pages of a ``FakeThread``, and a tiny board serving them, for the tests.

The thread of ``pagebuilder`` (``FakeThread`` of ``FakePost``) is rendered the way Discuz! 7.2's
own code renders it: the normal view (``viewthread.htm`` + ``viewthread_node.htm``), the
printable view (``viewthread_printable.htm``), the archiver (``archiver/include/
thread.inc.php``) and the message pages (``showmessage.htm``, ``nopermission.htm``), with
``dgmdate()``'s minute times and relative texts and ``multi()``'s page bar from
``include/global.func.php`` — the ids, classes, text patterns and quirks a scraper meets on a
real board.  Page chrome, ads and profiles are approximate.

Where Discuz! 7.2 differs from X: a deleted post is gone (not rendered; later floors move up),
times never show seconds, the archiver shows raw BBCode, does not clamp a page number past
the end (an empty page), and a missing thread is an HTTP 404 message page.

Editions are Discuz's own: ``SC_UTF8``, ``SC_GBK``, ``TC_BIG5``, ``TC_UTF8`` — the charset
and the language pack (发表于 / 發表於 …).  A Big5 page carries the characters Big5 lacks
(simplified chrome, players' simplified names) as HTML entities, as the board does.
"""

# ruff: noqa: E501 -- the HTML templates keep Discuz's own long lines, as the board sends them

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email.utils import format_datetime
from urllib.parse import parse_qsl, urlsplit

# pagebuilder's text helpers too: 7.2's discuzcode escapes, spaces and breaks lines as X's does.
from tests.support.pagebuilder import (
    NO_THREAD_MESSAGE,
    SITE_URL,
    TIME_STYLES,
    FakePost,
    FakeThread,
    Response,
    Site,
    _escape,
    _fill,
    _intval,
    _message_html,
    _not_found,
    _spaces,
    demo_thread,
)

PRINTABLE_LIMIT = 100  # posts the printable view shows
LOGIN_MESSAGE = "抱歉，您还未登录，无法进行此操作"
ARCHIVER_NO_THREAD = "您没有权限查看这个主题或该主题不存在。"


@dataclass(frozen=True)
class Edition:
    """A Discuz! 7.2 build: the charset it sends and the words of its language pack."""

    charset: str
    words: dict[str, str]


_SC_WORDS = {
    "poston": "发表于",
    "edited": "本帖最后由 {author} 于 {when} 编辑",
    "hour": "小时",
    "half": "半",
    "minute": "分钟",
    "second": "秒",
    "ago": "前",
    "day": "天",
    "yesterday": "昨天",
    "before_yesterday": "前天",
    "just_now": "刚才",
    "next_page": "下一页",
    "only_author": "只看该作者",
    "locked": "提示: <em>作者被禁止或删除 内容自动屏蔽</em>",
    "member_deleted": "该用户已被删除",
    "board_message": "提示信息",
    "no_thread": NO_THREAD_MESSAGE,
    "not_logged_in": LOGIN_MESSAGE,
    "go_back": "[ 点击这里返回上一页 ]",
    "author": "作者",
    "time": "时间",
    "subject": "标题",
    "print": "打印本页",
    "page": "页",
    "full_version": "查看完整版本",
    "archiver_banned": "**** 作者被禁止或删除 内容自动屏蔽 ****",
    "archiver_no_thread": ARCHIVER_NO_THREAD,
}
_TC_WORDS = {
    "poston": "發表於",
    "edited": "本帖最後由 {author} 於 {when} 編輯",
    "hour": "小時",
    "half": "半",
    "minute": "分鐘",
    "second": "秒",
    "ago": "前",
    "day": "天",
    "yesterday": "昨天",
    "before_yesterday": "前天",
    "just_now": "剛才",
    "next_page": "下一頁",
    "only_author": "只看該作者",
    "locked": "提示: <em>作者被禁止或刪除 內容自動屏蔽</em>",
    "member_deleted": "該用戶已被刪除",
    "board_message": "提示信息",
    "no_thread": "抱歉，指定的主題不存在或已被刪除或正在被審核",
    "not_logged_in": "抱歉，您還未登錄，無法進行此操作",
    "go_back": "[ 點擊這裡返回上一頁 ]",
    "author": "作者",
    "time": "時間",
    "subject": "標題",
    "print": "打印本頁",
    "page": "頁",
    "full_version": "查看完整版本",
    "archiver_banned": "**** 作者被禁止或刪除 內容自動屏蔽 ****",
    "archiver_no_thread": "您沒有權限查看這個話題或該話題不存在。",
}
EDITIONS = {
    "SC_UTF8": Edition("utf-8", _SC_WORDS),
    "SC_GBK": Edition("gbk", _SC_WORDS),
    "TC_BIG5": Edition("big5", _TC_WORDS),
    "TC_UTF8": Edition("utf-8", _TC_WORDS),
}


# --- dgmdate and multi ----------------------------------------------------------------------


def _minute(moment: datetime) -> str:
    """Discuz's "Y-n-j H:i"."""
    return f"{moment.year}-{moment.month}-{moment.day} {moment:%H:%M}"


def format_dz72_time(
    posted_at: datetime, now: datetime, style: str = "auto", edition: str = "SC_UTF8"
) -> str:
    """The HTML Discuz! 7.2 puts after "发表于 " for ``posted_at`` seen at ``now``.

    ``dgmdate("Y-n-j H:i")`` with ``dateconvert`` on: today 刚才 (0 s), N&nbsp;秒前,
    N&nbsp;分钟前, 半小时前 (> 30 min), N&nbsp;小时前 (> 1 h); the 6 days before 昨天&nbsp;H:i,
    前天&nbsp;H:i, N&nbsp;天前&nbsp;H:i — each in ``<span title="Y-n-j H:i">``; older or future
    posts "Y-n-j H:i".  ``style`` as ``FakePost.time_style`` (``absolute`` and ``minute`` are
    the same here: 7.2 never shows seconds).
    """
    if style not in TIME_STYLES:
        raise ValueError(f"unknown time_style {style!r}")
    words = EDITIONS[edition].words
    local = posted_at.astimezone(now.tzinfo)
    exact = _minute(local)
    if style in ("absolute", "minute"):
        return exact
    text = _relative_text(local, now, words)
    if style == "auto":
        return exact if text is None else f'<span title="{exact}">{text}</span>'
    if text is None:
        text = _days_ago_text(_days_before(local, now), local, words)
    return f'<span title="{exact}">{text}</span>' if style == "relative" else text


def _midnight(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def _days_before(local: datetime, now: datetime) -> int:
    """PHP's intval((todaytimestamp - timestamp) / 86400)."""
    return int((_midnight(now) - local).total_seconds()) // 86400


def _relative_text(local: datetime, now: datetime, words: dict[str, str]) -> str | None:
    """dgmdate's relative text, or None where Discuz shows the absolute time."""
    if local > now:
        return None
    if local >= _midnight(now):
        return _same_day_text(int((now - local).total_seconds()), words)
    days = _days_before(local, now)
    return _days_ago_text(days, local, words) if days < 7 else None


def _same_day_text(seconds: int, w: dict[str, str]) -> str:
    if seconds > 3600:
        return f"{seconds // 3600}&nbsp;{w['hour']}{w['ago']}"
    if seconds > 1800:
        return f"{w['half']}{w['hour']}{w['ago']}"
    if seconds > 60:
        return f"{seconds // 60}&nbsp;{w['minute']}{w['ago']}"
    if seconds > 0:
        return f"{seconds}&nbsp;{w['second']}{w['ago']}"
    return w["just_now"]


def _days_ago_text(days: int, local: datetime, w: dict[str, str]) -> str:
    if days == 0:
        return f"{w['yesterday']}&nbsp;{local:%H:%M}"
    if days == 1:
        return f"{w['before_yesterday']}&nbsp;{local:%H:%M}"
    return f"{days + 1}&nbsp;{w['day']}{w['ago']}&nbsp;{local:%H:%M}"


def _page_window(page: int, pages: int, width: int = 10, offset: int = 2) -> tuple[int, int]:
    """The first and last page number multi() lists around ``page``."""
    if width > pages:
        return 1, pages
    first, last = page - offset, page - offset + width - 1
    if first < 1:
        return 1, max(page + 1 - first, width)
    if last > pages:
        return pages - width + 1, pages
    return first, last


def _multipage(tid: int, page: int, pages: int, words: dict[str, str]) -> str:
    """Discuz! 7.2's multi() page bar (``div.pages``); empty for a one-page thread."""
    if pages < 2:
        return ""
    url = f"viewthread.php?tid={tid}&amp;extra=page%3D1&amp;page="
    first, last = _page_window(page, pages)
    links = []
    if page - 2 > 1 and pages > 10:
        links.append(f'<a href="{url}1" class="first">1 ...</a>')
    if page > 1:
        links.append(f'<a href="{url}{page - 1}" class="prev">&nbsp</a>')
    links += [
        f"<strong>{n}</strong>" if n == page else f'<a href="{url}{n}">{n}</a>'
        for n in range(first, last + 1)
    ]
    if last < pages:
        links.append(f'<a href="{url}{pages}" class="last">... {pages}</a>')
    if page < pages:
        links.append(f'<a href="{url}{page + 1}" class="next">{words["next_page"]}</a>')
    return '<div class="pages">' + "".join(links) + "</div>"


# --- the page around the posts --------------------------------------------------------------

_HEAD = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset={{charset}}" />
<title>{{title}} -  示例论坛  - Powered by Discuz!</title>
<meta name="keywords" content="{{keywords}}" />
<meta name="description" content="{{description}} 示例论坛  - Discuz! Board" />
<meta name="generator" content="Discuz! 7.2" />
<meta name="author" content="Discuz! Team and Comsenz UI Team" />
<meta name="copyright" content="2001-2009 Comsenz Inc." />
<meta name="MSSmartTagsPreventParsing" content="True" />
<meta http-equiv="MSThemeCompatible" content="Yes" />
<meta http-equiv="x-ua-compatible" content="ie=7" />
<link rel="archives" title="示例论坛" href="http://bbs.example.com/archiver/" />
<link rel="stylesheet" type="text/css" href="forumdata/cache/style_1_common.css?Hq7" /><link rel="stylesheet" type="text/css" href="forumdata/cache/scriptstyle_1_viewthread.css?Hq7" />
<script type="text/javascript">var STYLEID = '1', IMGDIR = 'images/default', VERHASH = 'Hq7', charset = '{{charset}}', discuz_uid = 0, cookiedomain = '', cookiepath = '/', attackevasive = '0', disallowfloat = 'login|register|sendpm|newthread|reply|viewratings|viewwarning|viewthreadmod|viewvote|tradeorder|activity|debate|nav|usergroups|task', creditnotice = '1|威望|,2|金钱|', gid = parseInt('1'), fid = parseInt('2'), tid = parseInt('{{tid}}')</script>
<script src="forumdata/cache/common.js?Hq7" type="text/javascript"></script>
</head>

<body id="{{body_id}}" onkeydown="if(event.keyCode==27) return false;">

<div id="append_parent"></div><div id="ajaxwaitid"></div>

<div id="header">
<div class="wrap s_clear">
<h2><a href="index.php" title="示例论坛"><img src="images/default/logo.gif" alt="示例论坛" border="0" /></a></h2>
<div id="umenu">
<a href="register.php" onclick="showWindow('register', this.href);return false;" class="noborder">注册</a>
<a href="logging.php?action=login" onclick="showWindow('login', this.href);return false;">登录</a>
</div>
<div id="ad_headerbanner"><a href="http://ad.example.com/c?id=72" target="_blank"><img src="attachments/common/banner_468x60.gif" alt="广告" /></a></div>
<div id="menu">
<ul>
<li class="menu_1"><a href="index.php" hidefocus="true" id="mn_index">论坛</a></li><li class="menu_2"><a href="search.php" hidefocus="true" id="mn_search">搜索</a></li><li class="menu_4"><a href="faq.php" hidefocus="true" id="mn_faq">帮助</a></li><li class="menu_5"><a href="misc.php?action=nav" hidefocus="true" onclick="showWindow('nav', this.href);return false;">导航</a></li>
</ul>
<script type="text/javascript">var currentMenu = $('mn_index') ? $('mn_index') : $('mn_index');currentMenu.parentNode.className = 'current';</script>
</div>
</div>
</div>
"""

_FOOT = """
<div id="ad_footerbanner1"></div><div id="ad_footerbanner2"></div><div id="ad_footerbanner3"></div>

<div id="footer">
<div class="wrap s_clear">
<div id="footlink">
<p>
<strong><a href="http://bbs.example.com/" target="_blank">示例论坛</a></strong>
<span class="pipe">|</span><a href="mailto:admin@example.com">联系我们</a>
<span class="pipe">|</span><a href="archiver/" target="_blank">Archiver</a>
</p>
<p class="smalltext">
{{gmt}}, {{clock}}, <span id="debuginfo">Processed in 0.0{{millis}} second(s), 8 queries</span>.
</p>
</div>
<div id="rightinfo">
<p>Powered by <strong><a href="http://www.discuz.net" target="_blank">Discuz!</a></strong> <em>7.2</em></p>
<p class="smalltext">&copy; 2001-2009 <a href="http://www.comsenz.com" target="_blank">Comsenz Inc.</a></p>
</div></div>
</div>
</body>
</html>"""

_VIEWTHREAD_TOP = """
<script src="forumdata/cache/viewthread.js?Hq7" type="text/javascript"></script>
<script type="text/javascript">zoomstatus = parseInt(1);var imagemaxwidth = '600';var aimgcount = new Array();</script>

<div id="nav">
<a href="index.php" id="fjump" onmouseover="showMenu({'ctrlid':this.id})" class="dropmenu">示例论坛</a> &raquo; <a href="forumdisplay.php?fid=2&amp;page=1">版杀专区</a> &raquo; {{subject}}
</div>


<div class="ad_text" id="ad_text"><table summary="Text Ad" cellpadding="0" cellspacing="1"><tr><td width="50%"><a href="http://ad.example.com/c?id=8" target="_blank">版杀新手教程</a></td><td width="50%"><a href="http://ad.example.com/c?id=9" target="_blank">法官工具下载</a></td></tr></table></div>

<div id="wrap" class="wrap s_clear threadfix">
<div class="forumcontrol">
<table cellspacing="0" cellpadding="0">
<tr>
<td class="modaction">
</td>
<td>
{{multipage}}
<span class="pageback" id="visitedforums" onmouseover="$('visitedforums').id = 'visitedforumstmp';this.id = 'visitedforums';showMenu({'ctrlid':this.id})"><a href="forumdisplay.php?fid=2&amp;page=1">返回列表</a></span>
<span class="postbtn" id="newspecial" prompt="post_newthread" onmouseover="$('newspecial').id = 'newspecialtmp';this.id = 'newspecial';showMenu({'ctrlid':this.id})"><a href="post.php?action=newthread&fid=2" onclick="showWindow('newthread', this.href);return false;">发帖</a></span>
</td>
</tr>
</table>
</div>

<div id="postlist" class="mainbox viewthread">
"""

_VIEWTHREAD_BOTTOM = """</div>

<div id="postlistreply" class="mainbox viewthread"><div id="post_new" class="viewthread_table" style="display: none"></div></div>

<form method="post" name="modactions" id="modactions">
<input type="hidden" name="formhash" value="3f9a1c2e" />
<input type="hidden" name="optgroup" />
<input type="hidden" name="operation" />
<input type="hidden" name="listextra" value="page%3D1" />
</form>


<div class="forumcontrol s_clear">
<table cellspacing="0" cellpadding="0" >
<tr>
<td class="modaction">
</td>
<td>
{{multipage}}
<span class="pageback"><a href="forumdisplay.php?fid=2&amp;page=1">返回列表</a></span>
<span class="replybtn"><a href="post.php?action=reply&fid=2&tid={{tid}}" onclick="showWindow('reply', this.href);return false;">回复</a></span>
<span class="postbtn" id="newspecialtmp" onmouseover="$('newspecial').id = 'newspecialtmp';this.id = 'newspecial';showMenu({'ctrlid':this.id})"><a href="post.php?action=newthread&fid=2" onclick="showWindow('newthread', this.href);return false;">发帖</a></span>
</td>
</tr>
</table>
</div>

</div>
"""

# showmessage.htm / nopermission.htm of 7.2: the message in div.alert_error's plain <p>.
_MESSAGE = """
<div id="nav"><a href="index.php">示例论坛</a> &raquo; {{board_message}}</div>

<div id="wrap" class="wrap s_clear"><div class="main"><div class="content nofloat">
<div class="fcontent alert_win">
<h3 class="float_ctrl"><em>示例论坛 {{board_message}}</em></h3>
<hr class="shadowline" />
<div class="postbox"><div class="alert_error">
<p>{{message}}</p>
{{after}}</div>
{{act}}</div>
</div>
</div></div></div>
"""

_MESSAGE_BACK = '<p class="alert_btnleft"><a href="javascript:history.back()">{{go_back}}</a></p>\n'

_LOGIN_FORM = """<div class="alert_act">
<form method="post" name="login" id="loginform" class="gateform" onsubmit="pwdclear = 1;" action="logging.php?action=login&loginsubmit=yes">
<input type="hidden" name="formhash" value="3f9a1c2e" />
<table cellspacing="0" cellpadding="0" class="formtable">
<tr><th><select name="loginfield" id="loginfield"><option value="username">用户名</option><option value="uid">UID</option></select></th>
<td><input type="text" name="username" autocomplete="off" size="36" class="txt" tabindex="1" value="" /></td></tr>
<tr><th><label for="password3">密码</label></th><td><input type="password" id="password3" name="password" size="36" class="txt" tabindex="2" /></td></tr>
<tr><th>&nbsp;</th><td><button class="submit" type="submit" name="loginsubmit" value="true" tabindex="6">登录</button></td></tr>
</table>
</form>
</div>
"""


def _encode(page: str, charset: str) -> bytes:
    """Encode as the board does: GBK as GB18030, Big5 as cp950; the rest as entities."""
    codec = {"gbk": "gb18030", "big5": "cp950"}.get(charset, charset)
    return page.encode(codec, errors="xmlcharrefreplace")


def _document(head: dict[str, object], main: str, now: datetime) -> str:
    """A whole page: the common header, ``main`` and the footer with the board's clock."""
    utc_offset = now.utcoffset()
    offset = utc_offset.total_seconds() / 3600 if utc_offset else 0
    foot = _fill(
        _FOOT,
        gmt=f"GMT{offset:+g}" if offset else "GMT",
        clock=_minute(now),
        millis=10000 + int(now.timestamp()) % 89999,
    )
    return _fill(_HEAD, **head) + main + foot


def _message_page(
    edition: str, message: str, now: datetime, *, after: str = "", act: str = ""
) -> str:
    """Discuz! 7.2's message box (showmessage.htm, nopermission.htm) carrying ``message``."""
    words = EDITIONS[edition].words
    head = {
        "charset": EDITIONS[edition].charset,
        "title": words["board_message"],
        "keywords": "",
        "description": "",
        "tid": 0,
        "body_id": "showmessage",
    }
    main = _fill(
        _MESSAGE, board_message=words["board_message"], message=message, after=after, act=act
    )
    return _document(head, main, now)


# --- one post ---------------------------------------------------------------------------------

_POST = """<div id="post_{{pid}}">
<table id="pid{{pid}}" summary="pid{{pid}}" cellspacing="0" cellpadding="0">
<tr>
<td class="postauthor" rowspan="2">
{{sidebar}}</td>
<td class="postcontent">
{{stamp}}
<div class="postinfo">
<strong><a title="复制本帖链接" id="postnum{{pid}}" href="javascript:;" onclick="setCopy('{{copy_url}}', '帖子地址已经复制到剪贴板')"><em>{{floor}}</em><sup>#</sup></a>
{{jump}}</strong>
<div class="posterinfo">
<div class="pagecontrol">
{{print}}</div>
<div class="authorinfo">
<img class="authicon" id="authicon{{pid}}" src="images/common/online_member.gif" onclick="showauthor(this, 'userinfo{{pid}}');" />
{{poster}}<em id="authorposton{{pid}}">{{poston}} {{time}}</em>
{{only_author}}</div>
</div>
</div>
<div class="defaultpost">
<div id="ad_thread2_{{index}}"></div><div id="ad_thread3_{{index}}"></div><div id="ad_thread4_{{index}}"></div>
<div class="postmessage {{first}}">
{{content}}</div>

</div>
</td></tr>
<tr><td class="postcontent postbottom">
{{signature}}<div id="ad_thread1_{{index}}"></div>
</td>
</tr>
<tr>
<td class="postauthor"></td>
<td class="postcontent">
<div class="postactions">
<div class="postact s_clear">
<em>
</em>
<p>
{{top}}
</p>
</div>
</div>
</td>
</tr>
<tr class="threadad">
<td class="postauthor"></td>
<td class="adcontent">
</td>
</tr>
</table>
</div>
"""

_SIDEBAR = """<div class="popupmenu_popup userinfopanel" id="userinfo{{pid}}" style="display: none; position: absolute;">
<div class="popavatar">
<div id="userinfo{{pid}}_ma"></div>
<ul class="profile_side">
<li class="pm"><a href="pm.php?action=new&uid={{uid}}" onclick="hideMenu('userinfo{{pid}}');showWindow('sendpm', this.href);return false;" title="发短消息">发短消息</a></li>
<li class="buddy"><a href="my.php?item=buddylist&newbuddyid={{uid}}&buddysubmit=yes" target="_blank" id="ajax_buddy_{{index}}" title="加为好友" onclick="ajaxmenu(this, 3000);doane(event);">加为好友</a></li>
</ul>
</div>
<div class="popuserinfo">
<p>
<a href="space.php?uid={{uid}}" target="_blank">{{name}}</a>
<em>当前离线
</em>
</p>
<dl class="s_clear"><dt>UID</dt><dd>{{uid}}&nbsp;</dd><dt>帖子</dt><dd>{{posts}}&nbsp;</dd><dt>精华</dt><dd>0&nbsp;</dd><dt>积分</dt><dd>{{credits}}&nbsp;</dd><dt>阅读权限</dt><dd>10&nbsp;</dd><dt>在线时间</dt><dd>{{hours}} 小时&nbsp;</dd><dt>注册时间</dt><dd>{{regdate}}&nbsp;</dd><dt>最后登录</dt><dd>{{lastdate}}&nbsp;</dd></dl>
<div class="imicons">
<a href="space.php?uid={{uid}}" target="_blank" title="查看详细资料"><img src="images/default/userinfo.gif" alt="查看详细资料"  /></a>
</div>
<div id="avatarfeed"><span id="threadsortswait"></span></div>
</div>
</div>

<div>
<div class="avatar" onmouseover="showauthor(this, 'userinfo{{pid}}')"><a href="space.php?uid={{uid}}" target="_blank"><img src="http://bbs.example.com/uc_server/avatar.php?uid={{uid}}&size=middle" /></a></div>
<p><em><a href="faq.php?action=grouppermission&searchgroupid={{gid}}" target="_blank">{{group}}</a></em></p>
</div>
<p>{{stars}}</p>
<dl class="profile s_clear"><dt>UID</dt><dd>{{uid}}&nbsp;</dd><dt>帖子</dt><dd>{{posts}}&nbsp;</dd><dt>积分</dt><dd>{{credits}}&nbsp;</dd><dt>注册时间</dt><dd>{{regdate}}&nbsp;</dd></dl>{{medals}}"""

_JUMP = """<em class="rpostno" title="跳转到指定楼层">跳转到 <input id="rpostnovalue" size="3" type="text" class="txtarea" onkeydown="if(event.keyCode==13) {$('rpostnobtn').click();return false;}" /><span id="rpostnobtn" onclick="window.location='redirect.php?ptid={{tid}}&ordertype=0&postno='+$('rpostnovalue').value">&raquo;</span></em>
"""

_FIRST_JUMP = (
    _JUMP
    + '<a href="viewthread.php?tid={{tid}}&extra=page%3D1&ordertype=1" class="left">倒序看帖</a>\n'
)

_PRINT = """<a href="viewthread.php?action=printable&amp;tid={{tid}}" target="_blank" class="print left">打印</a>
<div class="msgfsize right">
<label>字体大小: </label><small onclick="$('postlist').className='mainbox viewthread'" title="正常">t</small><big onclick="$('postlist').className='mainbox viewthread t_bigfont'" title="放大">T</big>
</div>
"""

_MESSAGE_BODY = """<div class="t_msgfontfix">
<table cellspacing="0" cellpadding="0"><tr><td class="t_msgfont" id="postmessage_{{pid}}">{{message}}</td></tr></table>
</div>
<div id="post_rate_div_{{pid}}"></div>
"""

_USERACTION = """<div class="useraction">
<a href="javascript:;" onclick="showDialog($('favoritewin').innerHTML, 'info', '收藏/关注')">收藏</a>
<a href="javascript:;" id="share" onclick="showDialog($('sharewin').innerHTML, 'info', '分享')">分享</a>
</div>
"""

# (credits below, group, searchgroupid, stars): Discuz's default member groups.
_GROUPS = (
    (50, "新手上路", 10, 1),
    (200, "注册会员", 11, 2),
    (500, "中级会员", 12, 3),
    (1000, "高级会员", 13, 4),
    (3000, "金牌会员", 14, 5),
)
_MEDALS = {2: "活跃会员", 3: "热心会员", 4: "推广达人"}


@dataclass(frozen=True)
class _Context:
    """What every post of one rendered page shares."""

    thread: FakeThread
    edition: str
    page: int

    @property
    def words(self) -> dict[str, str]:
        return EDITIONS[self.edition].words


def _sidebar(post: FakePost, index: int, ctx: _Context) -> str:
    if post.uid is None:
        suffix = f" <em>{ctx.words['member_deleted']}</em>" if post.account_deleted else ""
        return f'<div class="avatar">\n{_escape(post.author)}{suffix}\n</div>\n'
    rng = random.Random(post.uid)  # a member's made-up but stable profile
    credits = rng.choice((rng.randint(5, 49), rng.randint(50, 499), rng.randint(500, 2999)))
    _, group, gid, stars = next(row for row in _GROUPS if credits < row[0])
    medals = rng.sample(sorted(_MEDALS), rng.randint(0, 2))
    medal_html = "".join(
        f'<img src="images/common/medal{m}.gif" alt="{_MEDALS[m]}" title="{_MEDALS[m]}" />\n'
        for m in medals
    )
    star = f'<img src="images/default/star_level1.gif" alt="Rank: {stars}" />'
    return _fill(
        _SIDEBAR,
        pid=post.pid,
        uid=post.uid,
        index=index,
        name=_escape(post.author),
        posts=rng.randint(100, 3000),
        credits=credits,
        hours=rng.randint(10, 900),
        regdate=f"{rng.randint(2008, 2015)}-{rng.randint(1, 12)}-{rng.randint(1, 28)}",
        lastdate=f"{ctx.thread.now.year}-{ctx.thread.now.month}-{ctx.thread.now.day}",
        gid=gid,
        group=group,
        stars=star * stars,
        medals=f"<p>\n{medal_html}</p>\n" if medals else "",
    )


def _quoted(post: FakePost, ctx: _Context) -> tuple[str, str, int, str] | None:
    """(quoted text, its author, its pid, its time as Y-n-j H:i), or None."""
    if post.quote is None:
        return None
    author, quoted_at, text = post.quote
    pid = next(
        (p.pid for p in ctx.thread.posts if p.author == author and p.posted_at == quoted_at), 0
    )
    return text, author, pid, _minute(quoted_at.astimezone(ctx.thread.now.tzinfo))


def _edit_notice(post: FakePost, ctx: _Context) -> str | None:
    """The 本帖最后由 notice's text; Discuz adds it only for edits more than 60 s after posting."""
    if post.edited_at is None or (post.edited_at - post.posted_at).total_seconds() <= 60:
        return None
    when = _minute(post.edited_at.astimezone(ctx.thread.now.tzinfo))
    return ctx.words["edited"].format(author=_escape(post.author), when=when)


def _discuzcode(post: FakePost, ctx: _Context) -> str:
    """A message as discuzcode renders it in the normal and printable views."""
    notice, quoted = _edit_notice(post, ctx), _quoted(post, ctx)
    parts = []
    if notice:
        parts.append(f'<i class="pstatus"> {notice} </i><br />\n' + ("" if quoted else "<br />\n"))
    if quoted:
        text, author, pid, when = quoted
        link = f"{SITE_URL}redirect.php?goto=findpost&amp;pid={pid}&amp;ptid={ctx.thread.tid}"
        parts.append(
            f'<div class="quote"><blockquote>{_message_html(text)}<br />\n<font size="2">'
            f'<font color="#999999">{_escape(author)} {ctx.words["poston"]} {when}</font> '
            f'<a href="{link}" target="_blank"><img src="{SITE_URL}images/common/back.gif" '
            'onload="thumbImg(this)" alt="" /></a></font></blockquote></div>'
        )
    parts.append(_message_html("\n\n\n    " + post.body if quoted else post.body))
    return "".join(parts)


def _content(post: FakePost, floor: int, ctx: _Context) -> str:
    if post.banned:
        return f'<div class="locked">{ctx.words["locked"]}</div>\n'
    title = (
        f'<div id="threadtitle">\n<h1>{_escape(ctx.thread.title)}</h1>\n</div>\n'
        if floor == 1
        else ""
    )
    body = _fill(_MESSAGE_BODY, pid=post.pid, message=_discuzcode(post, ctx))
    return title + body + (_USERACTION if floor == 1 else "")


def _render_post(post: FakePost, floor: int, index: int, ctx: _Context) -> str:
    tid = ctx.thread.tid
    first = floor == 1
    poster = (
        ""
        if post.uid is None
        else f'<a href="space.php?uid={post.uid}" class="posterlink" target="_blank">{_escape(post.author)}</a>'
    )
    only_author = (
        ""
        if post.uid is None
        else f' | <a href="viewthread.php?tid={tid}&amp;page={ctx.page}&authorid={post.uid}" rel="nofollow">{ctx.words["only_author"]}</a>\n'
    )
    copy_url = (
        f"http://bbs.example.com/viewthread.php?tid={tid}"
        if first
        else f"http://bbs.example.com/redirect.php?goto=findpost&amp;ptid={tid}&amp;pid={post.pid}"
    )
    jump = _FIRST_JUMP if first else _JUMP if index == 0 else ""
    signature = (
        '<div class="signatures" style="max-height:100px;maxHeightIE:100px;">'
        f"{_message_html(post.signature)}</div>\n"
        if post.signature
        else ""
    )
    return _fill(
        _POST,
        pid=post.pid,
        index=index,
        sidebar=_sidebar(post, index, ctx),
        stamp='<div id="threadstamp"></div>' if first else "",
        copy_url=copy_url,
        floor=floor,
        jump=_fill(jump, tid=tid),
        print=_fill(_PRINT, tid=tid) if first else "",
        poster=poster,
        poston=ctx.words["poston"],
        time=format_dz72_time(post.posted_at, ctx.thread.now, post.time_style, ctx.edition),
        only_author=only_author,
        first="firstpost" if first else "",
        content=_content(post, floor, ctx),
        signature=signature,
        top="" if first else '<a href="javascript:;" onclick="scrollTo(0,0);">TOP</a>',
    )


# --- the three views ------------------------------------------------------------------------


def visible_posts(thread: FakeThread) -> list[FakePost]:
    """The posts a 7.2 board shows: a deleted post is gone, later floors move up."""
    return [post for post in thread.posts if not post.deleted]


def _page_count(posts: int, per_page: int) -> int:
    return max(1, math.ceil(posts / per_page))


def _description(thread: FakeThread) -> str:
    """The meta description: the opening post's first 100 characters, tags and lines dropped."""
    visible = visible_posts(thread)
    opening = re.sub(r"<[^<>]*>|\n", "", visible[0].body) if visible else ""
    return _escape(opening[:100]) + " ..."


def render_dz72_page(thread: FakeThread, page_no: int, *, edition: str = "SC_UTF8") -> bytes:
    """Page ``page_no`` of ``thread``'s normal view, encoded as ``edition`` sends it.

    Like the board, a page number past the end renders the last page (and one below 1,
    the first).  Floors count from the page offset over the posts not deleted.
    """
    visible = visible_posts(thread)
    pages = _page_count(len(visible), thread.per_page)
    page = min(max(page_no, 1), pages)
    ctx = _Context(thread, edition, page)
    start = (page - 1) * thread.per_page
    on_page = visible[start : start + thread.per_page]
    posts_html = "".join(
        _render_post(post, start + index + 1, index, ctx) for index, post in enumerate(on_page)
    )
    multipage = _multipage(thread.tid, page, pages, ctx.words)
    subject = _escape(thread.title)
    main = (
        _fill(_VIEWTHREAD_TOP, subject=subject, multipage=multipage)
        + posts_html
        + _fill(_VIEWTHREAD_BOTTOM, tid=thread.tid, multipage=multipage)
    )
    head = {
        "charset": EDITIONS[edition].charset,
        "title": f"{subject} - 版杀专区",
        "keywords": subject,
        "description": _description(thread),
        "tid": thread.tid,
        "body_id": "viewthread",
    }
    return _encode(_document(head, main, thread.now), EDITIONS[edition].charset)


_PRINTABLE = """<html>
<head>
<title>示例论坛 - Powered by Discuz! Board</title>
<meta http-equiv="Content-Type" content="text/html; charset={{charset}}" />
<style type="text/css">
body 	   {margin: 10px 80px;}
body,table {font-size: 12px; font-family: Verdana, Tahoma;}
</style>
<script type="text/javascript" src="forumdata/cache/common.js?Hq7"></script>
<script type="text/javascript" src="forumdata/cache/viewthread.js?Hq7"></script>
<script type="text/javascript">zoomstatus = 0;</script>
</head>

<body>
<img src="images/default/logo.gif" alt="Board logo" border="0" /><br /><br />
<b>{{subject_label}}: </b>{{subject}} <b><a href="###" onclick="this.style.visibility='hidden';window.print();this.style.visibility='visible'">[{{print}}]</a></b></span><br />
{{posts}}

<br /><br /><br /><br /><hr noshade size="2" width="100%" color="#CAD9EA">
<table cellspacing="0" cellpadding="0" border="0" width="95%" align="center" style="font-size: 11px; font-family: Verdana, Tahoma">
<tr><td>欢迎光临 示例论坛 (http://bbs.example.com/)</td>
<td align="right">
Powered by Discuz! 7.2</td></tr></table>

</body>
</html>"""

_PRINTABLE_POST = """
	<hr noshade size="2" width="100%" color="#808080">
	<b>{{author_label}}: </b>{{author}}&nbsp; &nbsp; <b>{{time_label}}: </b>{{time}}
	{{subject}}
	<br /><br />
		{{message}}
"""


def render_dz72_printable(thread: FakeThread, *, edition: str = "SC_UTF8") -> bytes:
    """The printable view (打印本页) of ``thread``: its first 100 posts not deleted."""
    ctx = _Context(thread, edition, 1)
    words = ctx.words
    posts = []
    for floor, post in enumerate(visible_posts(thread)[:PRINTABLE_LIMIT], start=1):
        subject = (
            f" &nbsp; &nbsp; <b>{words['subject']}: </b>{_escape(thread.title)}"
            if floor == 1
            else ""
        )
        posts.append(
            _fill(
                _PRINTABLE_POST,
                author_label=words["author"],
                author=_escape(post.author),
                time_label=words["time"],
                time=format_dz72_time(post.posted_at, thread.now, post.time_style, edition),
                subject=subject,
                message=words["locked"] if post.banned else _discuzcode(post, ctx),
            )
        )
    page = _fill(
        _PRINTABLE,
        charset=EDITIONS[edition].charset,
        subject_label=words["subject"],
        subject=_escape(thread.title),
        print=words["print"],
        posts="".join(posts),
    )
    return _encode(page, EDITIONS[edition].charset)


_ARCHIVER = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<base href="http://bbs.example.com/" />
<title>{{navtitle}}  示例论坛  - Powered by Discuz! Archiver</title>

<meta http-equiv="Content-Type" content="text/html; charset={{charset}}" />
<meta name="keywords" content="Discuz!,Board,Comsenz,forums,bulletin board," />
<meta name="description" content="{{description}} 示例论坛  - Discuz! Archiver" />
<meta name="generator" content="Discuz! Archiver 7.2" />
<meta name="author" content="Discuz! Team & Comsenz UI Team" />
<meta name="copyright" content="2001-2009 Comsenz Inc." />
<style type="text/css">
	body {font-family: Verdana;FONT-SIZE: 12px;MARGIN: 0;color: #000000;background: #ffffff;}
	img {border:0;}
	li {margin-top: 8px;}
	.page {padding: 4px; border-top: 1px #EEEEEE solid}
	.author {background-color:#EEEEFF; padding: 6px; border-top: 1px #ddddee solid}
	#nav, #content, #footer {padding: 8px; border: 1px solid #EEEEEE; clear: both; width: 95%; margin: auto; margin-top: 10px;}
</style>
</head>
<body vlink="#333333" link="#333333">
<h2 style="text-align: center; margin-top: 20px">示例论坛's Archiver </h2>
<center></center>
<div id="nav"><a href="archiver/"><strong>示例论坛</strong></a> {{nav}}</div>
<div id="content">
{{content}}</div><div id="footer">{{full_version}}: <strong><a href="{{full_link}}" target="_blank">{{full_title}}</a></strong></div><br /><center>
<div style="text-algin: center; font-size: 11px">Powered by <strong><a href="http://www.discuz.net" target="_blank">Discuz! Archiver</a></strong> 7.2&nbsp;
&copy; 2001-2009 <a href="http://www.comsenz.com" target="_blank">Comsenz Inc.</a><br /><br /></div>
</center>
</body>
</html>"""

_INLINE_BBCODE = {"strong": "b", "b": "b", "i": "i", "em": "i", "u": "u"}
_INLINE_TAG = re.compile(r"<(/?)(\w+)(?:\s[^<>]*)?>")


_FONT_LOOKS = (
    (re.compile(r'color="([^"]+)"'), "color"),
    (re.compile(r'style="\s*font-size:\s*([^";]+)"'), "size"),
    (re.compile(r'style="\s*background-color:\s*([^";]+)"'), "backcolor"),
    (re.compile(r'style="\s*color:\s*([^";]+)"'), "color"),
)


def _bbcode(text: str) -> str:
    """A body's inline HTML as the BBCode the board stored ([b]…[/b]; a ``<font>`` as the
    [color=…], [size=…] or [backcolor=…] discuzcode renders that way); other tags dropped."""
    fonts: list[str] = []

    def tag(match: re.Match[str]) -> str:
        name = match.group(2).lower()
        if name == "font":
            if match.group(1):
                return f"[/{fonts.pop()}]" if fonts else ""
            for pattern, code in _FONT_LOOKS:
                found = pattern.search(match.group(0))
                if found:
                    fonts.append(code)
                    return f"[{code}={found.group(1).strip()}]"
            return ""
        code = _INLINE_BBCODE.get(name)
        return f"[{match.group(1)}{code}]" if code else ""

    return _INLINE_TAG.sub(tag, text)


def _archiver_message(post: FakePost, ctx: _Context) -> str:
    """A post's stored message (raw BBCode) as the archiver prints it: escaped, nl2br'd."""
    notice, quoted = _edit_notice(post, ctx), _quoted(post, ctx)
    raw = f"[i=s] {notice} [/i]\n\n" if notice else ""
    if quoted:
        text, author, pid, when = quoted
        link = f"{SITE_URL}redirect.php?goto=findpost&pid={pid}&ptid={ctx.thread.tid}"
        raw += (
            f"[quote]{text}\n[size=2][color=#999999]{author} {ctx.words['poston']} {when}[/color]"
            f" [url={link}][img]{SITE_URL}images/common/back.gif[/img][/url][/size][/quote]"
            "\n\n\n    "
        )
    raw += _bbcode(post.body)
    escaped = re.sub(r"&amp;(#\d{3,5};)", r"&\1", _spaces(_escape(raw)))
    return escaped.replace("\n", "<br />\n")


def render_dz72_archiver(thread: FakeThread, page_no: int, *, edition: str = "SC_UTF8") -> bytes:
    """Archiver page ``page_no`` of ``thread``: twice the normal page size, raw BBCode.

    Unlike the normal view, a page past the end is not clamped: it has no posts, and its
    page list still names every page.
    """
    words = EDITIONS[edition].words
    per_page = thread.per_page * 2
    visible = visible_posts(thread)
    page = max(page_no, 1)
    ctx = _Context(thread, edition, page)
    parts = []
    for index, post in enumerate(visible[(page - 1) * per_page : page * per_page]):
        first = index == 0 and page == 1
        message = words["archiver_banned"] if post.banned else _archiver_message(post, ctx)
        subject = f"<h3>{_escape(thread.title)}</h3>" if first else ""
        parts.append(
            f'<p class="author"><strong>{_escape(post.author)}</strong> {words["poston"]} '
            f"{_minute(post.posted_at.astimezone(thread.now.tzinfo))}</p>\n{subject}{message}"
        )
    pages = _page_count(len(visible), per_page)
    content = "".join(parts) + "\n<br /><br />\n" + _archiver_pages(thread.tid, page, pages, words)
    subject = _escape(thread.title)
    html = _fill(
        _ARCHIVER,
        navtitle=f"{subject}({words['page']} {page})  - 版杀专区 - ",
        charset=EDITIONS[edition].charset,
        description=_description(thread),
        nav=f' &raquo; <a href="archiver/?fid-2.html">版杀专区</a> &raquo; {subject}',
        content=content,
        full_version=words["full_version"],
        full_link=f"viewthread.php?tid={thread.tid}",
        full_title=subject,
    )
    return _encode(html, EDITIONS[edition].charset)


def _archiver_pages(tid: int, page: int, pages: int, words: dict[str, str]) -> str:
    """The archiver's own multi(): "页: [1] 2 3", ten pages either side of this one."""
    links = "".join(
        f"<strong>[{n}]</strong> \n"
        if n == page
        else f"<a href=archiver/?tid-{tid}-page-{n}.html>{n}</a> \n"
        for n in range(max(1, page - 10), min(pages + 1, page + 10))
    )
    return f'<div class="page">{words["page"]}: \n{links}</div>'


def _archiver_missing(thread: FakeThread, edition: str) -> bytes:
    """The archiver's answer for a thread it cannot show: a bare message, no posts, no list."""
    words = EDITIONS[edition].words
    html = _fill(
        _ARCHIVER,
        navtitle="",
        charset=EDITIONS[edition].charset,
        description="",
        nav="",
        content=words["archiver_no_thread"],
        full_version=words["full_version"],
        full_link="index.php",
        full_title="示例论坛",
    )
    return _encode(html, EDITIONS[edition].charset)


# --- the board ------------------------------------------------------------------------------

# sid: the session 7.2 takes from the query when its 传递 SID setting is on (common.inc.php)
_VIEWTHREAD_KEYS = {"tid", "page", "extra", "action", "sid"}


def _html_response(body: bytes, edition: str, now: datetime, status: int = 200) -> Response:
    """A page with the edition's charset in its header; its HTTP ``Date`` is the board's clock."""
    headers = {
        "Content-Type": f"text/html; charset={EDITIONS[edition].charset}",
        "Date": format_datetime(now.astimezone(UTC), usegmt=True),
    }
    return Response(status, headers, body)


def _archiver_query(query: str) -> dict[str, int]:
    """archiver/index.php's reading of "tid-T-page-N.html": name-value pairs split by "-"."""
    parts = re.sub(r"\.html$", "", query.strip(), flags=re.IGNORECASE).split("-")
    return {
        name: _intval(value)
        for name, value in zip(parts[::2], parts[1::2], strict=False)
        if name in ("fid", "tid", "page")
    }


def dz72_site(thread: FakeThread, *, edition: str = "SC_UTF8") -> Site:
    """A Discuz! 7.2 board serving ``thread``: ``site(path_and_query) -> Response``.

    Serves ``/viewthread.php?tid=T[&extra=…][&page=P]`` (a page past the end is the last
    page), ``/viewthread.php?action=printable&tid=T`` and ``/archiver/?tid-T[-page-N].html``
    (a page past the end is empty).  Another tid is, like on the board, "thread does not
    exist": a message page sent as HTTP 404 by viewthread.php, a bare 200 message by the
    archiver.  Anything else is a 404.  Pages are rendered on every request, so a test may
    change ``thread`` between fetches.
    """

    def site(path_and_query: str) -> Response:
        parts = urlsplit(path_and_query)
        if parts.path == "/archiver/":
            asked = _archiver_query(parts.query)
            if asked.get("tid") != thread.tid:
                return _html_response(_archiver_missing(thread, edition), edition, thread.now)
            body = render_dz72_archiver(thread, asked.get("page", 1), edition=edition)
            return _html_response(body, edition, thread.now)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        if parts.path != "/viewthread.php" or set(query) - _VIEWTHREAD_KEYS:
            return _not_found()
        if query.get("action") not in (None, "printable"):
            return _not_found()
        if _intval(query.get("tid", "")) != thread.tid:
            words = EDITIONS[edition].words
            after = _fill(_MESSAGE_BACK, go_back=words["go_back"])
            page = _message_page(edition, words["no_thread"], thread.now, after=after)
            return _html_response(
                _encode(page, EDITIONS[edition].charset), edition, thread.now, status=404
            )
        if "action" in query:
            return _html_response(
                render_dz72_printable(thread, edition=edition), edition, thread.now
            )
        page_no = _intval(query.get("page", "1"))
        return _html_response(
            render_dz72_page(thread, page_no, edition=edition), edition, thread.now
        )

    return site


def dz72_login_page(*, edition: str = "SC_UTF8", now: datetime) -> Response:
    """Discuz! 7.2's "you are not logged in" page for a guest (nopermission.htm, HTTP 200)."""
    words = EDITIONS[edition].words
    page = _message_page(edition, words["not_logged_in"], now, act=_LOGIN_FORM)
    return _html_response(_encode(page, EDITIONS[edition].charset), edition, now)


# --- the demo vote thread, traditional ------------------------------------------------------

# demo_thread()'s texts as a TC board's players write them (names are accounts: unchanged).
_TC_BODIES = {
    1: """【第二天投票帖】22:00 截止
請在 2019-5-12 22:00:00 前投票，格式：投 X號（可寫座位號或 ID）
允許改票，但必須另外發帖，不得編輯原帖；22:00:00 之後的票無效。
棄權請寫“棄權”；不投票視為自投並警告一次。
本帖只允許存活玩家投票，請勿討論。

存活：1號 meer 2號 阿狸 3號 路人甲 4號 狼人杀手 5號 预言家本家 7號 花生米 8號 闲云野鹤
9號 小明 10號 Tommy 12號 白开水 13號 夜猫子 14號 老王 15號 红豆 16號 小透明
出局：6號 潜水员（殺手） 11號 星期八（好人）""",
    2: "投5號",
    4: "5號",
    5: "五號",
    6: "路過，投5號湊個熱鬧",
    7: "十二號",
    8: "投給 预言家本家",
    10: "棄權",
    11: "投 7號",
    12: "加群領福利，投5號送積分",
    13: "改票：投 7號",
    14: "我不跟，投 5號",
    16: "投 3號",
    17: "投 9號",
    18: "投 12號",
    19: "還沒想好 <_<，再看看",
    20: "替 9 號投 2 號（他掉線了）",
    21: "投 3號",
    22: "<strong>投 11號</strong>",
    24: "提醒：還有一個半小時截止，請尚未表態的玩家抓緊。",
    25: "還是投 5，不改",
    26: "改票：投 5號",
    27: "改票：投 7號",
    28: "投 7號",
    29: "投票截止，統計中。",
    30: "圍觀",
    31: "剛看到，投 5",
}
_TC_SIGNATURES = {
    "[法官组] 有事请站内短信": "[法官組] 有事請站內短信",
    "投我一票！我是 15 号红豆": "投我一票！我是 15 號紅豆",
}


def demo_thread_tc(now: datetime | None = None) -> FakeThread:
    """``demo_thread()`` as on a traditional-Chinese board: 投5號, 棄權, 投給 … (same tally)."""
    thread = demo_thread(now)
    posts = []
    for floor, post in enumerate(thread.posts, start=1):
        quote = post.quote and (post.quote[0], post.quote[1], _TC_BODIES[13])
        posts.append(
            replace(
                post,
                body=_TC_BODIES.get(floor, post.body),
                quote=quote,
                signature=_TC_SIGNATURES.get(post.signature or "", post.signature),
            )
        )
    return replace(thread, posts=posts)
