"""发到论坛 and 登录论坛: a step's post replied to a thread once the judge has seen what
and where (``killmod.board.posting``, as ``--post`` does), and the judge's board session."""

from __future__ import annotations

import secrets

from flask import Blueprint, current_app, request

from killmod.board.cookies import keep_cookies
from killmod.board.posting import Announcement, Preview, post_announcement
from killmod.board.session import BoardOptions
from killmod.core.errors import BadInput, KillmodError
from killmod.web.pages import game, settings, show

pages = Blueprint("board", __name__)


def remember_post(text: str, label: str, step: int | None) -> str:
    """Keep a step's post on the server for 发到论坛 (the browser sends back its key, never
    the text: what is posted is what the step printed)."""
    kept = current_app.extensions.setdefault("killmod_posts", {})
    key = secrets.token_urlsafe(12)
    kept[key] = Announcement(text, label, step)
    return key


def _announcement() -> Announcement:
    found = current_app.extensions.get("killmod_posts", {}).get(request.form.get("key", ""))
    if found is None:
        raise BadInput("找不到要发的帖子（网页重新启动过？）：请回到那一步的页面再发。")
    return found


def _options() -> BoardOptions:
    cookies = settings().board_cookies
    if not cookies.exists():
        raise BadInput("还没有登录论坛：先在“登录论坛”页登录，或导入浏览器导出的 cookies.txt。")
    return BoardOptions(cookies, interval=settings().interval)


def _where(preview: Preview, announcement: Announcement) -> str:
    title = f"「{preview.title}」" if preview.title else ""
    return (
        f"将以 {preview.judge.name}（uid {preview.judge.uid}）的身份回复帖子{title}"
        f"（tid {preview.tid}，{preview.url}）：内容是下面的{announcement.what}"
        f"（{preview.characters} 个字符）。"
    )


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
                _options(),
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
        where=_where(seen[0], announcement),
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
                _options(),
                confirm=lambda shown: True,
                templates=settings().templates,
            )
    except KillmodError as error:
        return show("web/post.html.j2", error=error.message, stage="refused"), 422
    return show("web/post.html.j2", stage="done", done=posted.said)


@pages.get("/login")
def login():
    """登录论坛: the session killmod speaks with, and how to get one."""
    return show("web/login.html.j2", signed=settings().board_cookies.exists())


@pages.post("/login/cookies")
def import_cookies():
    """A cookies.txt exported from the browser, kept in the private folder (0600)."""
    upload = request.files.get("cookies")
    try:
        if upload is None or not upload.filename:
            raise BadInput("请选择浏览器导出的 cookies.txt。")
        count = keep_cookies(upload.read(), settings().board_cookies)
    except KillmodError as error:
        return show(
            "web/login.html.j2", signed=settings().board_cookies.exists(), error=error.message
        ), 422
    return show(
        "web/login.html.j2",
        signed=True,
        done=f"已导入 {count} 个 cookie，保存在私密文件夹（只有你能读）。",
    )
