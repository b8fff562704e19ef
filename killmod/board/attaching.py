"""A file attached to the judge's reply: checked against the board's uploader, uploaded.

The thread page read as the judge shows the reply box's uploader only where his group may
attach files in the forum (``scrapers.discuz_x_upload``): no uploader, an extension it does
not take, a file over its limit — each is refused before anything is posted, saying where
else to publish the file.  Uploaded, the file is an attachment of nobody's post yet (the
board drops it after a while if no reply names it); the reply names it and the board lists
it under the post.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import requests

from killmod.board.session import Board, BoardOptions, BoardRefused
from killmod.core.redact import redact_url
from killmod.usecases.evidence import bundle_name, evidence
from scrapers import discuz_x_upload as upload

# Where the announcement says the evidence bundle is when it goes out attached to it.
ATTACHED = "本帖附件"

if TYPE_CHECKING:
    from killmod.game.store import Game


@dataclass(frozen=True)
class Attachment:
    """A file to attach: its name (ASCII: boards take it as sent), bytes, description."""

    name: str
    data: bytes
    description: str = ""


def uploader_for(html: str, attachment: Attachment, where: str) -> upload.Uploader:
    """The page's uploader, if it takes ``attachment``; refused (nothing posted) if not."""
    found = upload.uploader(html)
    elsewhere = (
        "什么也没有发出。把证据包放到网盘或别处，记录时用 --evidence-url 网址 写进公告，"
        "或请版主开放附件。"
    )
    if found is None:
        raise BoardRefused(
            f"论坛不让法官在这个帖子里上传附件（回复框没有上传按钮：{redact_url(where)}），"
            f"附不上 {attachment.name}。{elsewhere}"
        )
    if not found.takes(attachment.name):
        allowed = "、".join(sorted(found.extensions or ()))
        raise BoardRefused(
            f"论坛不收 {attachment.name.rsplit('.', 1)[-1]} 附件（只收 {allowed}）。{elsewhere}"
        )
    if found.max_bytes is not None and len(attachment.data) > found.max_bytes:
        raise BoardRefused(
            f"{attachment.name} 有 {len(attachment.data) / 1024:.0f} KB，超过论坛的附件上限 "
            f"{found.max_bytes / 1024:.0f} KB。{elsewhere}"
        )
    return found


def check_attachable(game: Game, url: str, options: BoardOptions, round_no: int) -> None:
    """Before a vote of round ``round_no`` is recorded whose announcement will say its
    bundle is attached (``ATTACHED``): the thread's reply box, as the judge sees it, takes
    the bundle's file."""
    name = bundle_name(round_no)
    with Board(url, options) as board:
        read = board.read(url)
        board.judge(read.html, game.roster(), url)
        try:
            uploader_for(read.html, Attachment(name, b""), url)
        except BoardRefused as error:
            raise BoardRefused("没有记录：" + error.message) from None


def evidence_attachment(game: Game, round_no: int) -> Attachment:
    """Round ``round_no``'s evidence bundle, to attach to the announcement of its vote."""
    made = evidence(game, round_no)
    return Attachment(made.name, made.data, f"第 {round_no} 轮计票证据包（killmod verify 核对）")


def upload_file(board: Board, found: upload.Uploader, attachment: Attachment, referer: str) -> int:
    """Upload ``attachment`` as the judge: the new attachment's ``aid``."""
    url = found.url(board.root)
    timeout = board.options.timeout
    board.fetcher.pacer.wait(url)
    try:
        response = board.fetcher.session.post(
            url,
            data=found.fields(),
            files={"Filedata": (attachment.name, attachment.data, "application/octet-stream")},
            headers={"Referer": referer},
            timeout=(min(10.0, timeout), timeout),
            allow_redirects=False,
        )
    except requests.exceptions.RequestException as error:
        raise BoardRefused(
            f"上传附件 {attachment.name} 时出错（{type(error).__name__}）：公告没有发出，"
            "再运行同一命令即可。"
        ) from None
    if response.status_code != 200:
        raise BoardRefused(
            f"上传附件 {attachment.name} 时论坛回答 HTTP {response.status_code}：公告没有发出。"
        )
    done = upload.upload_answer(response.content.decode("utf-8", errors="replace"))
    if done.aid is None:
        raise BoardRefused(f"论坛拒绝了附件 {attachment.name}：「{done.message}」。公告没有发出。")
    return done.aid
