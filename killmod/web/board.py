"""发到论坛 and 登录论坛: a step's post replied to a thread once the judge has seen what
and where (``killmod.board.posting``, as ``--post`` does), and the judge's board session:
logged in through the board's own form (``killmod.board.login``), or a cookies.txt
imported from his browser."""

from __future__ import annotations

import base64
import secrets
import time

from flask import Blueprint, current_app, request

from killmod.board.attaching import Attachment
from killmod.board.cookies import keep_cookies
from killmod.board.login import CAPTCHA, NAME, PASSWORD, BoardLogin
from killmod.board.posting import Announcement, Preview, described, post_announcement
from killmod.board.session import BoardOptions
from killmod.core.errors import BadInput, KillmodError
from killmod.usecases.gamefile import game_exists
from killmod.usecases.reading import known_board
from killmod.usecases.status import game_status
from killmod.web.pages import game, refusal, settings, show

pages = Blueprint("board", __name__)


def remember_post(
    text: str, label: str, step: int | None, attachment: Attachment | None = None
) -> str:
    """Keep a step's post on the server for 发到论坛 (the browser sends back its key, never
    the text: what is posted is what the step printed), with the file to attach to it (a
    vote's evidence bundle)."""
    kept = current_app.extensions.setdefault("killmod_posts", {})
    key = secrets.token_urlsafe(12)
    kept[key] = Announcement(text, label, step, attachment)
    return key


def _announcement() -> Announcement:
    found = current_app.extensions.get("killmod_posts", {}).get(request.form.get("key", ""))
    if found is None:
        raise BadInput("找不到要发的帖子（网页重新启动过？）：请回到那一步的页面再发。")
    return found


def board_options() -> BoardOptions:
    """The judge's board session (the private folder's cookies), refused when there is none."""
    cookies = settings().board_cookies
    if not cookies.exists():
        raise BadInput("还没有登录论坛：先在“登录论坛”页登录，或导入浏览器导出的 cookies.txt。")
    return BoardOptions(cookies, interval=settings().interval)


@pages.post("/post/preview")
def preview():
    """What would go out and where: the thread read as the judge sees it, nothing posted."""
    thread = request.form.get("thread", "").strip()
    seen: list[Preview] = []
    try:
        announcement = _announcement()
        with game() as opened:
            posted = post_announcement(
                opened,
                thread,
                announcement,
                board_options(),
                confirm=lambda shown: seen.append(shown) or False,
                templates=settings().templates,
            )
    except KillmodError as error:
        return show("web/post.html.j2", error=error.message, stage="refused"), 422
    if posted.already:
        return show("web/post.html.j2", stage="done", done=posted.said)
    return show(
        "web/post.html.j2",
        stage="confirm",
        where=described(seen[0], f"下面的{announcement.what}"),
        text=announcement.text,
        key=request.form["key"],
        thread=thread,
    )


@pages.post("/post/send")
def send():
    """确认发出: the reply posted once (its key and pid kept in the game file)."""
    thread = request.form.get("thread", "").strip()
    try:
        with game() as opened:
            posted = post_announcement(
                opened,
                thread,
                _announcement(),
                board_options(),
                confirm=lambda shown: True,
                templates=settings().templates,
            )
    except KillmodError as error:
        return show("web/post.html.j2", error=error.message, stage="refused"), 422
    return show("web/post.html.j2", stage="done", done=posted.said)


LOGIN_FIELDS = {NAME: "name", PASSWORD: "password", CAPTCHA: "code", "--board": "board"}
LOGIN_LIFE = 600.0  # seconds: the board forgets a captcha after ten minutes


def _game_facts() -> tuple[str, str, dict[int, str]]:
    """The board the game is played on, its first judge's name, and the judges by uid."""
    if not game_exists(settings().db):
        return "", "", {}
    with game() as opened:
        board = known_board(opened) or ""
        roster = game_status(opened).roster
    judges = {uid: name for name, uid in roster.judge_uids.items()}
    return board, (roster.judges[0] if roster.judges else ""), judges


def _login_page(**more):
    board, judge, _ = _game_facts()
    values = {
        "signed": settings().board_cookies.exists(),
        "board": request.form.get("board") or board,
        "judge": judge,
        **more,
    }
    return show("web/login.html.j2", **values)


def _logins() -> dict[str, BoardLogin]:
    """The logins in progress (their guest sessions), none older than the board's captcha."""
    pending = current_app.extensions.setdefault("killmod_logins", {})
    for key, login in list(pending.items()):
        if time.monotonic() - login.started > LOGIN_LIFE:
            pending.pop(key).close()
    return pending


def _asking(key: str, login: BoardLogin, **more):
    """The board's login form as killmod shows it: the name and password (unless the board
    keeps them for this try), its captcha picture when it asks for one."""
    captcha = login.captcha
    picture = (
        f"data:{captcha.mime};base64,{base64.b64encode(captcha.data).decode()}" if captcha else ""
    )
    return _login_page(
        key=key,
        asks_password=login.asks_password,
        captcha=picture,
        board_root=login.root,
        name=request.form.get("name", ""),
        **more,
    )


@pages.get("/login")
def login():
    """登录论坛: the session killmod speaks with, and the two ways to get one."""
    return _login_page()


@pages.post("/login/board/start")
def start_login():
    """The board's own login form read (a guest's session kept on this server only), its
    captcha with it when the board asks for one."""
    board = request.form.get("board", "").strip()
    try:
        if not board:
            raise BadInput("请给出论坛网址（如游戏帖的网址）。", option="--board")
        login = BoardLogin(board)
        login.start()
    except KillmodError as error:
        return _login_page(**refusal(error, LOGIN_FIELDS)), 422
    key = secrets.token_urlsafe(12)
    _logins()[key] = login
    return _asking(key, login)


@pages.post("/login/board")
def board_login():
    """The name, password and captcha posted to the board once; the session it opens kept
    in the private folder (0600) — the password nowhere."""
    key = request.form.get("key", "")
    login = _logins().get(key)
    if login is None:
        error = BadInput("登录已过期（网页重新启动过，或超过了十分钟）：请重新开始登录。")
        return _login_page(**refusal(error)), 422
    with login.lock:
        try:
            signed = login.submit(
                request.form.get("name", ""),
                request.form.get("password", ""),
                request.form.get("code"),
            )
            if signed is None:
                said = "论坛要求输入验证码后继续登录：请填写图片里的验证码。"
                return _asking(key, login, done=said)
            count = login.keep(settings().board_cookies)
        except KillmodError as error:
            return _asking(key, login, **refusal(error, LOGIN_FIELDS)), 422
    _logins().pop(key, None)
    login.close()
    _, _, judges = _game_facts()
    said = (
        f"已登录论坛：{signed.name}（uid {signed.uid}）。登录保存在私密文件夹"
        f"（{count} 个 cookie，只有你能读），密码没有保存。"
    )
    if judges and signed.uid not in judges:
        listed = "、".join(f"{name}（uid {uid}）" for uid, name in judges.items())
        said += f"注意：这不是名单里的法官 {listed}，发帖和发站内短信时 killmod 会拒绝。"
    return _login_page(signed=True, done=said)


@pages.post("/login/cookies")
def import_cookies():
    """A cookies.txt exported from the browser, kept in the private folder (0600)."""
    upload = request.files.get("cookies")
    try:
        if upload is None or not upload.filename:
            raise BadInput("请选择浏览器导出的 cookies.txt。")
        count = keep_cookies(upload.read(), settings().board_cookies)
    except KillmodError as error:
        return _login_page(error=error.message), 422
    said = f"已导入 {count} 个 cookie，保存在私密文件夹（只有你能读）。"
    return _login_page(signed=True, done=said)
