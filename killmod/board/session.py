"""The judge's own session on a Discuz! X board: reading pages as him, posting forms.

The judge's login is a cookies.txt: exported by his browser (``--cookies cookies.txt``), or
kept by the judge's page after he logged in through the board's own form
(``killmod.board.login``; the password only passes through, never kept). Before anything is
posted or sent, the session is checked (``Board.judge``): the board must show the page to a
logged-in member, and that member must be a judge of the game by uid (the roster's ``judges
= [{ name = …, uid = … }]``). Pages are read with killmod's fetcher (its timeouts, retries,
host check and size limits, no cache); a form is posted once, never retried by the HTTP
layer: whether a post that timed out reached the board is for the caller to find out on the
board (``killmod.board.posting``, ``killmod.board.sending``). Cookie values are never
printed.
"""

from __future__ import annotations

import codecs
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import requests

from killmod.core.errors import BadInput, KillmodError
from killmod.core.model import Roster
from killmod.core.redact import redact_url
from killmod.fetch.cache import Fetched
from killmod.fetch.http import CONNECT_TIMEOUT, Fetcher, FetchOptions
from scrapers import discuz_x_posting as dzx
from scrapers.base import ScrapeError
from scrapers.charset import codec_for, declared_charset, decode_html

_XML_CHARSET = re.compile(rb"""<\?xml[^>]*encoding=["']([A-Za-z0-9_-]+)""")


class BoardRefused(KillmodError):
    """The board did not do what was asked (a closed thread, flood control twice…): exit 1."""


class NotSent(KillmodError):
    """Nothing reached the board: the connection failed before the form was sent."""


class Unknown(KillmodError):
    """The form was sent and no answer came (a timeout, a connection cut): the board may
    have done it.  Look on the board before sending again."""


@dataclass(frozen=True)
class BoardOptions:
    """The judge's cookies (None: a guest's session, to log in with), the read timeout, the
    least seconds between two writes (the board's flood control: Discuz X3's default is
    15 s) and how to wait."""

    cookies: Path | None
    timeout: float = 20.0
    interval: float = 16.0
    sleep: Callable[[float], None] = time.sleep


@dataclass(frozen=True)
class Read:
    """A page read from the board: its text, its charset and what was fetched."""

    url: str
    html: str
    charset: str
    fetched: Fetched


@dataclass(frozen=True)
class Session:
    """Whom the board shows its pages to: a judge of the game, and the session's formhash."""

    uid: int
    name: str
    formhash: str


def judges_by_uid(roster: Roster, nothing: str = "什么也没有发出") -> dict[int, str]:
    """The game's judges by forum uid; none is bad input (the board shows who is logged in
    by uid): ``nothing`` says what did not happen."""
    judges = {uid: name for name, uid in roster.judge_uids.items()}
    if not judges:
        raise BadInput(
            "游戏文件里的法官没有论坛 uid，无法确认登录的是法官本人："
            "用 killmod judge 法官名 --uid 123 记下（或在建立游戏的名单里写 "
            f'judges = [{{ name = "法官", uid = 123 }}]）。{nothing}。'
        )
    return judges


def refuse_unready(url: str, options: BoardOptions, roster: Roster) -> None:
    """What replying to ``url`` needs that is known before the board is asked — a board's
    address, a cookie of that board, a judge's uid — checked before a step that posts once
    it is recorded is recorded."""
    nothing = "什么也没有记录，也没有发出"
    if not re.match(r"https?://", url):
        raise BadInput(f"--post 要给帖子的网址（http:// 或 https:// 开头）：{url}。{nothing}。")
    with Board(url, options):
        pass  # its cookies are checked
    judges_by_uid(roster, nothing)


class Board:
    """One board (its root address) read and written as the judge."""

    def __init__(self, url: str, options: BoardOptions) -> None:
        if not re.match(r"https?://", url):
            raise BadInput(f"论坛网址应以 http:// 或 https:// 开头：{url}")
        self.root = dzx.board_root(url)
        self.options = options
        self.fetcher = Fetcher(
            FetchOptions(jobs=1, delay=0.2, timeout=options.timeout, cookies=options.cookies)
        )
        if options.cookies is not None:
            self._refuse_foreign_cookies()

    def __enter__(self) -> Board:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.fetcher.close()

    @property
    def host(self) -> str:
        return urlsplit(self.root).hostname or self.root

    # --- reading ----------------------------------------------------------------------

    def read(self, url: str) -> Read:
        """The page at ``url`` as the judge sees it, decoded by its declared charset."""
        fetched = self.fetcher.fetch(url)
        text = decode_html(fetched.body, fetched.header_charset, source=redact_url(url))
        charset = declared_charset(fetched.body, fetched.header_charset) or "utf-8"
        return Read(url, text, charset, fetched)

    # --- who is logged in -------------------------------------------------------------

    def judge(self, html: str, roster: Roster, where: str) -> Session:
        """The session the page ``where`` (already read) shows, refused unless it is a
        judge of the game's: before anything is sent."""
        try:
            seen = dzx.viewer(html)
        except ScrapeError as error:
            raise BoardRefused(f"读不出登录状态：{redact_url(where)}（{error.message}）") from None
        cookies = self.options.cookies
        if seen.uid == 0:
            prefix = f"（{seen.cookiepre}auth）" if seen.cookiepre else ""
            raise BadInput(
                f"cookies 文件 {cookies} 在 {self.host} 没有登录{prefix}：论坛把页面当作游客显示。"
                "请在浏览器里登录法官的帐号后重新导出 cookies.txt。什么也没有发出。"
            )
        judges = judges_by_uid(roster)
        if seen.uid not in judges:
            shown = "、".join(f"{name}（uid {uid}）" for uid, name in judges.items())
            raise BadInput(
                f"cookies 文件 {cookies} 登录的是 {seen.name or '?'}（uid {seen.uid}），"
                f"不是名单里的法官 {shown}：换用法官帐号的 cookies。什么也没有发出。"
            )
        if not seen.formhash:
            raise BoardRefused(f"页面里没有表单校验码（formhash）：{redact_url(where)}")
        return Session(seen.uid, seen.name or judges[seen.uid], seen.formhash)

    def _refuse_foreign_cookies(self) -> None:
        """A cookies file without one cookie for this board cannot be its login."""
        from killmod.fetch.http import load_cookies

        host = self.host.lower()
        for cookie in load_cookies(self.options.cookies):
            domain = cookie.domain.lstrip(".").lower()
            if host == domain or host.endswith("." + domain):
                return
        raise BadInput(
            f"cookies 文件 {self.options.cookies} 里没有 {self.host} 的 cookie："
            "请在浏览器里登录这个论坛后导出 cookies.txt。什么也没有发出。"
        )

    # --- writing ----------------------------------------------------------------------

    def submit(self, url: str, fields: dict[str, str], charset: str, referer: str) -> dzx.Answer:
        """Post a form once and read the board's answer.

        ``NotSent`` when no connection was made; ``Unknown`` when the form went out and
        no whole answer came back within the timeout.
        """
        try:
            body = dzx.encode_form(fields, charset)
        except UnicodeEncodeError as error:
            bad = "".join(dict.fromkeys(error.object[error.start : error.end]))
            raise BadInput(
                f"论坛的字符编码是 {charset}，写不出这些字符：{bad}（请改掉它们再发）。"
                "什么也没有发出。"
            ) from None
        headers = {
            "Content-Type": f"application/x-www-form-urlencoded; charset={charset}",
            "Referer": referer,
        }
        timeout = (min(CONNECT_TIMEOUT, self.options.timeout), self.options.timeout)
        self.fetcher.pacer.wait(url)
        try:
            response = self.fetcher.session.post(
                url, data=body, headers=headers, timeout=timeout, allow_redirects=False
            )
        except requests.exceptions.ConnectTimeout:
            raise NotSent(f"无法连接论坛 {self.host}（连接超时）：什么也没有发出。") from None
        except requests.exceptions.ConnectionError as error:
            if _never_connected(error):
                raise NotSent(f"无法连接论坛 {self.host}：什么也没有发出。") from None
            raise Unknown(f"论坛 {self.host} 中途断开了连接，不知道是否已经收到。") from None
        except requests.exceptions.Timeout:
            raise Unknown(
                f"论坛 {self.host} 在 {self.options.timeout:g} 秒内没有回应，不知道是否已经收到。"
            ) from None
        except requests.exceptions.RequestException as error:
            raise Unknown(
                f"向论坛 {self.host} 提交时出错（{type(error).__name__}），不知道是否已经收到。"
            ) from None
        if response.status_code in (301, 302, 303, 307, 308):
            where = response.headers.get("Location", "")
            if "logging" in where:
                return dzx.Answer("error", "您需要先登录才能继续本操作", {})
            return dzx.Answer("unknown", f"论坛把提交重定向到了 {where}", {})
        if response.status_code != 200:
            return dzx.Answer("unknown", f"HTTP {response.status_code}", {})
        return dzx.answer(_decoded(response))


def _never_connected(error: requests.exceptions.ConnectionError) -> bool:
    """Whether a connection error happened before anything was sent (refused, no route,
    no such host), as opposed to a connection cut while the answer was awaited."""
    text = repr(error)
    return any(
        mark in text
        for mark in (
            "NewConnectionError",
            "Connection refused",
            "Name or service",
            "NameResolution",
        )
    )


def _decoded(response: requests.Response) -> str:
    """An answer's text by its declared charset: the header's, else the XML declaration's."""
    content_type = response.headers.get("Content-Type", "")
    body = response.content
    if "charset" not in content_type.lower():
        declared = _XML_CHARSET.search(body[:200])
        if declared:
            codec = codec_for(declared.group(1).decode("ascii"))
            try:
                codecs.lookup(codec)
            except LookupError:
                codec = "utf-8"
            return body.decode(codec, errors="replace")
    return decode_html(body, response.encoding if "charset" in content_type.lower() else None)
