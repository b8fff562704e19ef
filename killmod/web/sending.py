"""发站内短信: a step's notices sent by 站内短信, once each, after the judge has seen to whom
and as whom (``killmod.board.sending``, as ``--send`` sends them).  The notices stay on the
server, kept by a key the page sends back: their texts (roles) never reach a page."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flask import Blueprint, current_app, request

from killmod.board.sending import (
    Notice,
    Plan,
    Sent,
    refuse_unsure,
    send_notices,
    sending_said,
)
from killmod.core.errors import BadInput, KillmodError
from killmod.web.board import board_options
from killmod.web.pages import game, show

pages = Blueprint("sending", __name__)


@dataclass(frozen=True)
class Sending:
    """Notices to send on a board, and what they are (for the page's words)."""

    board: str
    notices: tuple[Notice, ...]
    what: str


def remember_sending(board: str, notices: Sequence[Notice], what: str) -> str:
    """Keep a step's notices on the server for 发站内短信; the key the page sends back."""
    kept = current_app.extensions.setdefault("killmod_sendings", {})
    key = secrets.token_urlsafe(12)
    kept[key] = Sending(board, tuple(notices), what)
    return key


def _sending() -> Sending:
    found = current_app.extensions.get("killmod_sendings", {}).get(request.form.get("key", ""))
    if found is None:
        raise BadInput(
            "找不到要发的站内短信（网页重新启动过？）：它们在私密文件夹里，"
            "也可以用 killmod notices --seat 座位号 --send 发出。"
        )
    return found


def _send(
    sending: Sending,
    confirm: Callable[[Plan], bool],
    progress: Callable[[Sent], None] = lambda sent: None,
) -> list[Sent]:
    """``send_notices`` on the game for the notices the page's key names."""
    with game() as opened:
        return send_notices(
            opened,
            sending.board,
            sending.notices,
            board_options(),
            confirm=confirm,
            progress=progress,
        )


@pages.post("/send/preview")
def preview():
    """To whom and as whom: the board checks each uid's name; nothing is sent."""
    seen: list[Plan] = []
    try:
        sending = _sending()
        sent = _send(sending, lambda plan: seen.append(plan) or False)
    except KillmodError as error:
        return show("web/send.html.j2", stage="refused", error=error.message), 422
    if not seen:  # every notice went out before
        said = "\n".join(sending_said(sent, len(sending.notices)))
        return show("web/send.html.j2", stage="done", done=said)
    return show(
        "web/send.html.j2",
        stage="confirm",
        said=seen[0].said,
        what=sending.what,
        key=request.form["key"],
    )


@pages.post("/send/send")
def send():
    """确认发出: each notice sent once, paced; what became of each (never its text)."""
    lines: list[str] = []
    try:
        sending = _sending()
        sent = _send(sending, lambda plan: True, lambda each: lines.append(each.said))
        lines += sending_said(sent, len(sending.notices))
        refuse_unsure(sent)
    except KillmodError as error:
        return show("web/send.html.j2", stage="refused", error=error.message, lines=lines), 422
    return show("web/send.html.j2", stage="done", done="\n".join(lines))
