"""Logging in to a Discuz! X board through its own login form, as the judge's browser does:
his name and password, and the board's captcha (验证码) when it asks for one.

A login is a guest's session with the board (``BoardLogin``), kept in memory while the
judge fills in the form: its cookies (the board's ``saltkey``, ``sid`` and the captcha's
``seccode…``) and the form the board gave.  The judge's password passes through to the
board once and is kept nowhere; what stays is the session the board opens, written as a
cookies.txt in the game's private folder (0600, ``keep``) — the file every command reads
with ``--cookies``.  What the board's pages say is read by ``scrapers.discuz_x_login``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

import requests

from killmod.board.cookies import keep_session
from killmod.board.session import Board, BoardOptions, BoardRefused
from killmod.core.errors import BadInput
from killmod.core.redact import redact_url
from scrapers import discuz_x_login as dzl
from scrapers import discuz_x_posting as dzx
from scrapers.base import ScrapeError

# What the judge's page names the login form's fields by (the refusal shows beside them).
NAME, PASSWORD, CAPTCHA = "用户名", "密码", "验证码"
MAX_CAPTCHA_BYTES = 512 * 1024
CAPTCHA_TYPES = ("image/png", "image/gif", "image/jpeg", "image/webp", "image/bmp")


@dataclass(frozen=True)
class Captcha:
    """The board's captcha picture, to be shown to the judge as it came."""

    data: bytes
    mime: str


@dataclass(frozen=True)
class Signed:
    """Who the board now shows its pages to."""

    uid: int
    name: str


class BoardLogin:
    """A login in progress on the board of ``url``: the guest session and its form."""

    def __init__(self, url: str, *, timeout: float = 20.0) -> None:
        self.board = Board(url, BoardOptions(None, timeout=timeout, interval=0))
        self.form: dzl.LoginForm | None = None
        self.captcha: Captcha | None = None
        self.charset = "utf-8"
        self.page = dzl.login_url(self.board.root)
        self.started = time.monotonic()
        self.lock = threading.Lock()  # one form at a time: a second tab waits its turn

    @property
    def root(self) -> str:
        return self.board.root

    @property
    def asks_password(self) -> bool:
        return self.form is None or self.form.asks_password

    def close(self) -> None:
        self.board.__exit__()

    def start(self) -> None:
        """Read the board's login form (and its captcha, when it asks for one)."""
        self._read_form(self.page)

    def _read_form(self, url: str) -> None:
        page = self.board.read(url)
        try:
            self.form = dzl.login_form(page.html, page.url)
        except ScrapeError as error:
            said = dzx.board_message(page.url, page.html)
            raise BoardRefused(
                f"论坛 {self.board.host} 没有给出登录表单：{said or error.message}"
                f"（{redact_url(page.url)}）"
            ) from None
        self.page, self.charset = page.url, page.charset
        self.captcha = self._captcha() if self.form.seccode else None

    def _captcha(self) -> Captcha:
        """A new captcha picture for the form (the board keeps its code for this session)."""
        url = dzl.seccode_url(self.root, self.form.seccode)
        timeout = self.board.options.timeout
        try:
            response = self.board.fetcher.session.get(
                url, headers={"Referer": self.page}, timeout=(timeout, timeout), stream=True
            )
            with response:
                data = response.raw.read(MAX_CAPTCHA_BYTES + 1, decode_content=True)
        except requests.exceptions.RequestException as error:
            raise BoardRefused(
                f"读不到论坛的验证码图片（{type(error).__name__}）：{redact_url(url)}"
            ) from None
        mime = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if response.status_code != 200 or mime not in CAPTCHA_TYPES:
            shown = data[:80].decode("utf-8", "replace").strip()
            raise BoardRefused(
                f"论坛没有给出验证码图片（HTTP {response.status_code}，{mime or '没有类型'}"
                f"{'：' + shown if shown and not mime.startswith('image/') else ''}）："
                f"{redact_url(url)}"
            )
        if len(data) > MAX_CAPTCHA_BYTES:
            raise BoardRefused(f"论坛的验证码图片大于 {MAX_CAPTCHA_BYTES // 1024} KB：{url}")
        return Captcha(data, mime)

    def submit(self, name: str, password: str, code: str | None) -> Signed | None:
        """Post the form once: the member the board now shows its pages to, or None when the
        board asks for a captcha to go on (the new form and its picture are ready)."""
        if self.form is None:
            self.start()
        form = self.form
        if form.asks_password and not name.strip():
            raise BadInput("请填写论坛的用户名。", option=NAME)
        if form.asks_password and not password:
            raise BadInput("请填写密码。", option=PASSWORD)
        if form.seccode is not None and not (code or "").strip():
            raise BadInput("请填写图片里的验证码。", option=CAPTCHA)
        fields = form.fields(name.strip(), password, (code or "").strip())
        answer = self.board.submit(form.action, fields, self.charset, self.page)
        if answer.kind == "ok":
            return self._signed()
        if answer.kind == "error" and dzl.SECCHECK2 in answer.message and answer.location:
            self._read_form(urljoin(self.root, answer.location))
            return None
        said = answer.message or "论坛没有说明原因"
        if dzl.SECCODE_INVALID in said:
            self.captcha = self._captcha() if form.seccode else None
            raise BadInput(f"论坛说：{said}。请看新的验证码图片再填。", option=CAPTCHA)
        if answer.kind == "error" and "登录失败" in said:
            self._refresh()
            raise BadInput(f"论坛说：{said}。", option=PASSWORD)
        self._refresh()
        raise BoardRefused(f"论坛没有让登录：{said}")

    def _refresh(self) -> None:
        """After a refusal, the board's form again (a new captcha for the next try)."""
        try:
            self._read_form(dzl.login_url(self.root))
        except BoardRefused:
            self.form = None

    def _signed(self) -> Signed:
        """Who the board shows its pages to now: the login's proof."""
        page = self.board.read(dzl.login_url(self.root))
        try:
            seen = dzx.viewer(page.html)
        except ScrapeError as error:
            raise BoardRefused(f"登录后读不出登录状态：{error.message}") from None
        if seen.uid == 0:
            raise BoardRefused(
                "论坛说登录成功，但页面仍把法官当作游客：请改用浏览器导出 cookies.txt。"
            )
        return Signed(seen.uid, seen.name or "")

    def keep(self, path: Path) -> int:
        """Keep the session the board opened as a cookies.txt at ``path`` (0600); the
        number of cookies."""
        return keep_session(self.board.fetcher.session.cookies, path)
