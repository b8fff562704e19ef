"""Discuz! X3.x as a program writes to it: the reply form, 站内短信, the inbox.

What a logged-in member's browser does, read from the board's own exchange (README,
“Speaking on the board”): the thread page carries the session's ``formhash`` and the
quick-reply form (``form#fastpostform``: its ``fid`` and ``tid``); a reply is a POST
to that form with ``inajax=1``; a 站内短信 is the dialog ``home.php?mod=spacecp&ac=pm&
op=showmsg&touid=U`` (the recipient's name and the form), then a POST to ``op=send``.
The answers to both are HTTP 200 ``text/xml`` wrapping ``<root><![CDATA[…]]></root>``:

- ``succeedhandle_KEY('URL', '非常感谢，回复发布成功…', {'tid':'4','pid':'49',…})`` — done;
  a 站内短信's values carry its ``pmid``;
- ``succeedhandle_KEY('URL', '回复需要审核，请等待通过', {'tid':'4',…})`` — taken but held for
  moderation (``post_reply_mod_succeed``, X3.4's ``source/language/lang_message.php``: the
  board stores the reply invisible and, in X3.4, leaves its ``pid`` out of the answer —
  ``source/class/model/model_forum_post.php``, ``newreply()``); nobody else sees it until a
  moderator passes it;
- ``errorhandle_KEY('抱歉，您两次发表间隔少于 15 秒，请稍候再发表', {'floodctrl':'15'})`` —
  refused in the board's words (flood control, a closed thread, not logged in, no
  permission…);
- a wrong ``formhash`` gets the "Discuz! System Error" HTML page instead.

The inbox (``home.php?mod=space&do=pm&filter=privatepm``) lists one ``dl#pmlist_PLID``
per conversation (X3.4 keeps no outbox: a message sent is in the conversation with its
recipient); a conversation (``…&subop=view&touid=U``) one ``dl#pmlist_PMID`` per
message, the judge's own marked ``您``, ten a page, its last page (the newest) when no
``page`` is asked for.  Times there are shown to the minute (a relative text carries the
minute in its ``title``) on the reader's clock, in the zone the page's footer declares
(``GMT+8``: the judge's account may be set to another), and messages are listed by the
board's time, those of one second not in ``pmid`` order.  The ``pmid`` is the order they
were sent in: UCenter gives every message of the board the next number of one counter
(``pm_indexes``' insert id, ``uc_client/model/pm.php``, ``sendpm()`` and ``replypm()``).

This module knows the board and nothing of games: URLs, fields and parsers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Literal
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

from lxml import html as lxml_html

from killmod.core.names import fold
from scrapers.base import (
    ScrapeError,
    declared_zone,
    document,
    element_text,
    fragment,
    tidy_text,
)
from scrapers.board_messages import board_message

# --- addresses --------------------------------------------------------------------------


def board_root(url: str) -> str:
    """The board's address (``http://host/`` or ``http://host/bbs/``) from any of its URLs."""
    parts = urlsplit(url)
    path = parts.path if parts.path.endswith("/") else parts.path.rsplit("/", 1)[0] + "/"
    return f"{parts.scheme}://{parts.netloc}{path}"


def inbox_url(root: str, page: int | None = None) -> str:
    """The judge's private messages (私人消息), newest conversation first."""
    query = {"mod": "space", "do": "pm", "filter": "privatepm"}
    if page is not None:
        query["page"] = str(page)
    return urljoin(root, "home.php?" + urlencode(query))


def conversation_url(root: str, uid: int, page: int | None = None) -> str:
    """The conversation with ``uid`` (查看与…的聊天记录); without ``page`` the board shows
    its last page."""
    query = {"mod": "space", "do": "pm", "subop": "view", "touid": str(uid)}
    if page is not None:
        query["page"] = str(page)
    return urljoin(root, "home.php?" + urlencode(query))


def pm_dialog_url(root: str, uid: int) -> str:
    """The 发消息 dialog to ``uid``: the recipient's name on the board and the form."""
    query = {
        "mod": "spacecp",
        "ac": "pm",
        "op": "showmsg",
        "handlekey": f"showmsg_{uid}",
        "touid": str(uid),
        "pmid": "0",
        "daterange": "2",
        "infloat": "yes",
        "inajax": "1",
    }
    return urljoin(root, "home.php?" + urlencode(query))


def pm_send_url(root: str, uid: int) -> str:
    """Where the dialog's form sends a 站内短信 to ``uid``."""
    query = {"mod": "spacecp", "ac": "pm", "op": "send", "touid": str(uid), "inajax": "1"}
    return urljoin(root, "home.php?" + urlencode(query))


def pm_fields(formhash: str, uid: int, message: str) -> dict[str, str]:
    """The dialog form's fields, as the board's page sends them."""
    return {
        "formhash": formhash,
        "pmsubmit": "true",
        "touid": str(uid),
        "handlekey": f"showmsg_{uid}",
        "message": message,
    }


@dataclass(frozen=True)
class ReplyForm:
    """The quick-reply form of a thread page: where to post and the fields it carries."""

    fid: int
    tid: int
    posttime: str

    def url(self, root: str) -> str:
        """The form's action with ``inajax=1``, as the board's script posts it."""
        query = {
            "mod": "post",
            "action": "reply",
            "fid": str(self.fid),
            "tid": str(self.tid),
            "extra": "",
            "replysubmit": "yes",
            "infloat": "yes",
            "handlekey": "fastpost",
            "inajax": "1",
        }
        return urljoin(root, "forum.php?" + urlencode(query))

    def fields(self, formhash: str, message: str) -> dict[str, str]:
        """The fields a reply is posted with (plain BBCode: ``wysiwyg=0``)."""
        return {
            "formhash": formhash,
            "posttime": self.posttime,
            "wysiwyg": "0",
            "noticeauthor": "",
            "noticetrimstr": "",
            "noticeauthormsg": "",
            "subject": "",
            "message": message,
            "usesig": "1",
            "save": "",
        }


def encode_form(fields: dict[str, str], charset: str) -> bytes:
    """The form body in the board's charset (a GBK board reads GBK); a character the
    charset has not is a ``UnicodeEncodeError`` for the caller to name."""
    codec = "gbk" if charset.lower() in ("gbk", "gb2312", "gb18030", "x-gbk") else charset
    return urlencode(fields, encoding=codec, errors="strict").encode("ascii")


# --- who is logged in -------------------------------------------------------------------

_DISCUZ_UID = re.compile(r"discuz_uid\s*=\s*'(\d+)'")
_COOKIEPRE = re.compile(r"cookiepre\s*=\s*'([^']*)'")
_FORMHASH_INPUT = re.compile(r'name="formhash"[^>]*value="([0-9A-Za-z]+)"')
_FORMHASH_LINK = re.compile(r"formhash=([0-9A-Za-z]{8})")
_UID = re.compile(r"uid[=-](\d+)")


@dataclass(frozen=True)
class Viewer:
    """Who the board shows the page to: ``uid`` 0 is a guest (not logged in)."""

    uid: int
    name: str | None
    formhash: str | None
    cookiepre: str | None


def viewer(html: str) -> Viewer:
    """The logged-in member a Discuz X page was rendered for (its ``discuz_uid``, the name
    in the header's ``strong.vwmy``), the session's ``formhash`` and the cookie prefix.

    A page without ``discuz_uid`` is not a Discuz X page of the board: a ``ScrapeError``
    in the board's own words when it is one of its message pages.
    """
    found = _DISCUZ_UID.search(html)
    if found is None:
        raise ScrapeError(
            board_message("", html) or "页面里没有 discuz_uid：不是 Discuz! X 论坛的页面"
        )
    uid = int(found.group(1))
    name = None
    if uid:
        root = document(html)
        link = root.xpath('//strong[contains(@class, "vwmy")]/a')
        name = tidy_text(link[0].text_content()) if link else None
    hashed = _FORMHASH_INPUT.search(html) or _FORMHASH_LINK.search(html)
    prefix = _COOKIEPRE.search(html)
    return Viewer(
        uid, name, hashed.group(1) if hashed else None, prefix.group(1) if prefix else None
    )


def reply_form(html: str) -> ReplyForm | None:
    """The thread page's quick-reply form, None when the page offers none (a closed
    thread, a forum the member may not reply in, a guest's page)."""
    root = document(html)
    forms = root.xpath('//form[@id="fastpostform"]')
    if not forms or not forms[0].xpath('.//textarea[@name="message"]'):
        return None
    action = parse_qs(urlsplit(forms[0].get("action", "")).query)
    try:
        fid, tid = int(action["fid"][0]), int(action["tid"][0])
    except (KeyError, ValueError):
        return None
    posttime = forms[0].xpath('.//input[@name="posttime"]/@value') or root.xpath(
        '//input[@name="posttime"]/@value'
    )
    return ReplyForm(fid, tid, posttime[0] if posttime else "")


# --- the board's answers ----------------------------------------------------------------

_CDATA = re.compile(r"<!\[CDATA\[(.*)\]\]>", re.DOTALL)
_SUCCEED = re.compile(
    r"succeedhandle_\w*\(\s*'((?:[^'\\]|\\.)*)'\s*,\s*'((?:[^'\\]|\\.)*)'\s*,\s*\{([^}]*)\}"
)
_ERROR = re.compile(r"errorhandle_\w*\(\s*'((?:[^'\\]|\\.)*)'\s*,\s*\{([^}]*)\}")
_VALUE = re.compile(r"'(\w+)'\s*:\s*'((?:[^'\\]|\\.)*)'")
# A script of the answer sending the browser on (``showmessage``'s ``extrajs``).
_LOCATION = re.compile(r"location\.href\s*=\s*'((?:[^'\\]|\\.)*)'")

AnswerKind = Literal["ok", "held", "error", "system_error", "message", "unknown"]
# The board's word for moderation (审核, 審核 on a traditional-Chinese board), in its answer
# to a form it took but holds: 回复需要审核，请等待通过.
_HELD = "审核"


@dataclass(frozen=True)
class Answer:
    """What the board answered a form with.

    ``ok``: done (``values`` hold the new ``pid`` or ``pmid``); ``held``: taken but held
    for moderation (待审核: ``values`` may hold a ``pid`` or not); ``error``: refused in the
    board's words (``values`` may hold ``floodctrl``, the seconds between two posts);
    ``system_error``: the "Discuz! System Error" page (a wrong formhash); ``message``: a
    showmessage page; ``unknown``: anything else (``message`` holds its first words).
    ``location``: where a refusal's script sends the browser on (the login's captcha form).
    """

    kind: AnswerKind
    message: str
    values: dict[str, str]
    url: str | None = None
    location: str | None = None


def answer(text: str) -> Answer:
    """The board's answer to a form posted with ``inajax=1``."""
    wrapped = _CDATA.search(text)
    inner = wrapped.group(1) if wrapped else text
    succeeded = _SUCCEED.search(inner)
    if succeeded:
        url, message, values = succeeded.groups()
        said = _js(message).strip()
        kind: AnswerKind = "held" if _HELD in fold(said) else "ok"
        return Answer(kind, said, _values(values), _js(url))
    failed = _ERROR.search(inner)
    if failed:
        message, values = failed.groups()
        sent = _LOCATION.search(inner)
        where = _js(sent.group(1)) if sent else None
        return Answer("error", _js(message).strip(), _values(values), location=where)
    said = board_message("", text)
    if said is not None and "System Error" in said:
        return Answer("system_error", said, {})
    if said is not None:
        return Answer("message", said, {})
    words = tidy_text(fragment(inner).text_content()) if inner.strip() else ""
    return Answer("unknown", words[:200], {})


def _values(text: str) -> dict[str, str]:
    return {key: _js(value) for key, value in _VALUE.findall(text)}


def _js(text: str) -> str:
    """A single-quoted JavaScript string's text (Discuz escapes quotes with a backslash)."""
    return re.sub(r"\\(.)", r"\1", text)


# --- the 站内短信 dialog -----------------------------------------------------------------

_SPACE_LINK = re.compile(r"^访问(.+)的空间$")


@dataclass(frozen=True)
class PmDialog:
    """The 发消息 dialog: whom it writes to (the board's name for the uid) and the form."""

    uid: int
    name: str
    formhash: str | None


def pm_dialog(text: str) -> PmDialog:
    """The dialog's recipient (its “访问NAME的空间” link) and the form's ``formhash``."""
    wrapped = _CDATA.search(text)
    if wrapped is None:
        raise ScrapeError(board_message("", text) or "不是论坛的发消息对话框")
    root = fragment(wrapped.group(1))
    for link in root.xpath("//a[@href]"):
        shown = _SPACE_LINK.match(tidy_text(link.text_content()))
        uid = _UID.search(link.get("href", ""))
        if shown and uid:
            hashed = root.xpath('//input[@name="formhash"]/@value')
            return PmDialog(int(uid.group(1)), shown.group(1), hashed[0] if hashed else None)
    raise ScrapeError("发消息对话框里没有收信人的名字（论坛改了页面？）")


# --- the inbox and a conversation -------------------------------------------------------

_MINUTE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{2})$")
_PAGE = re.compile(r"[?&]page=(\d+)")
_PMLIST = re.compile(r"^pmlist_(\d+)$")


@dataclass(frozen=True)
class Conversation:
    """One line of the inbox: the other member, the last message's minute, how many."""

    plid: int
    uid: int
    name: str
    last_at: datetime
    count: int | None


@dataclass(frozen=True)
class Message:
    """One message of a conversation: ``mine`` when the judge wrote it; ``at`` its minute."""

    pmid: int
    uid: int | None
    mine: bool
    text: str
    at: datetime


@dataclass(frozen=True)
class PmPage:
    """A page of the inbox or of a conversation, the page bar's numbers, and the zone the
    page declares its times in (None: it declares none, they were read in the zone given)."""

    page: int
    pages: int
    conversations: tuple[Conversation, ...] = ()
    messages: tuple[Message, ...] = ()
    zone: tzinfo | None = None


def inbox(html: str, tz: tzinfo) -> PmPage:
    """One page of the inbox: its conversations, newest first, their times in the zone the
    page declares (else ``tz``) and given in ``tz``."""
    root = _pm_document(html)
    zone = declared_zone(html)
    found = []
    for dl in root.xpath('//dl[starts-with(@id, "pmlist_")]'):
        plid = _PMLIST.match(dl.get("id", ""))
        reply = dl.xpath('.//a[contains(@href, "subop=view")]/@href')
        touid = parse_qs(urlsplit(reply[0]).query).get("touid") if reply else None
        if plid is None or not touid:
            raise ScrapeError(f"消息列表里 {dl.get('id')} 读不出对方（页面改了？）")
        uid = int(touid[0])
        name = _name_of(dl, uid)
        count = re.search(r"共\s*(\d+)\s*条", dl.text_content())
        found.append(
            Conversation(
                int(plid.group(1)),
                uid,
                name,
                _minute(dl, zone, tz),
                int(count.group(1)) if count else None,
            )
        )
    page, pages = _page_bar(root)
    return PmPage(page, pages, conversations=tuple(found), zone=zone)


def conversation(html: str, tz: tzinfo) -> PmPage:
    """One page of a conversation: its messages as listed (sort them by ``pmid``), their
    times in the zone the page declares (else ``tz``) and given in ``tz``.

    A conversation with no message yet is the count line (“共有 0 条与…的交谈记录”,
    ``span#membernum``) and “当前没有相应的短消息” (``div.emp``) where the list would be:
    no message (``template/default/home/space_pm.htm``, the ``subop=view`` branches)."""
    root = _pm_document(html)
    zone = declared_zone(html)
    box = root.xpath('//div[@id="pm_ul"]')
    if not box and root.xpath('//span[@id="membernum"]') and root.xpath('//div[@class="emp"]'):
        return PmPage(1, 1, zone=zone)
    if not box:
        raise ScrapeError("不是论坛的聊天记录页面（没有 pm_ul）")
    found = []
    for dl in box[0].xpath('./dl[starts-with(@id, "pmlist_")]'):
        pmid = _PMLIST.match(dl.get("id", ""))
        cell = dl.xpath('./dd[contains(@class, "ptm")]')
        if pmid is None or not cell:
            raise ScrapeError(f"聊天记录里 {dl.get('id')} 读不出来（页面改了？）")
        avatar = dl.xpath('./dd[contains(@class, "avt")]//a/@href')
        uid = _UID.search(avatar[0]) if avatar else None
        mine = bool(cell[0].xpath('./span[contains(@class, "xi2") and normalize-space()="您"]'))
        at = _minute(cell[0], zone, tz)
        text = _message_text(cell[0])
        found.append(
            Message(int(pmid.group(1)), int(uid.group(1)) if uid else None, mine, text, at)
        )
    page, pages = _page_bar(root)
    return PmPage(page, pages, messages=tuple(found), zone=zone)


def _pm_document(html: str) -> lxml_html.HtmlElement:
    said = board_message("", html)
    if said is not None:
        raise ScrapeError(said)
    return document(html)


def _name_of(dl: lxml_html.HtmlElement, uid: int) -> str:
    for link in dl.xpath('.//a[contains(@class, "xw1")]'):
        if _UID.search(link.get("href", "")) and int(_UID.search(link.get("href")).group(1)) == uid:
            return tidy_text(link.text_content())
    raise ScrapeError(f"消息列表里读不出 uid {uid} 的名字（页面改了？）")


def _minute(element: lxml_html.HtmlElement, zone: tzinfo | None, tz: tzinfo) -> datetime:
    """The minute an inbox line or a message shows: the ``title`` of a relative time, else
    the time written out (Y-n-j H:i); on the clock of ``zone`` (else ``tz``), given in
    ``tz``."""
    spans = element.xpath('.//span[@class="xg1"]')
    if not spans:
        raise ScrapeError("消息没有时间（页面改了？）")
    shown = spans[0]
    titled = shown.xpath(".//span[@title]/@title")
    text = titled[0] if titled else tidy_text(shown.text_content())
    found = _MINUTE.match(text.strip())
    if found is None:
        raise ScrapeError(f"消息时间「{text}」读不出（应为 年-月-日 时:分）")
    year, month, day, hour, minute = (int(part) for part in found.groups())
    try:
        shown = datetime(year, month, day, hour, minute, tzinfo=zone or tz)
    except ValueError:
        raise ScrapeError(f"消息时间「{text}」不是存在的日期") from None
    return shown.astimezone(tz)


def _message_text(cell: lxml_html.HtmlElement) -> str:
    """A message's text: the cell without its author line and its time."""
    for part in cell.xpath('./span[@class="xg1"] | ./a[contains(@class, "xw1")]'):
        part.drop_tree()
    for mark in cell.xpath('./span[contains(@class, "xi2")]'):
        mark.drop_tree()
    return element_text(cell)


def _page_bar(root: lxml_html.HtmlElement) -> tuple[int, int]:
    """(this page, the last page) from a ``div.pg`` page bar; (1, 1) without one."""
    bars = root.xpath('//div[@class="pg"]')
    if not bars:
        return 1, 1
    numbers = [int(n) for n in _PAGE.findall(" ".join(bars[0].xpath(".//a/@href")))]
    current = bars[0].xpath("./strong/text()")
    page = int(current[0]) if current and current[0].strip().isdigit() else 1
    return page, max([page, *numbers])
