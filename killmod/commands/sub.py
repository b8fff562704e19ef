"""``killmod sub``: a substitute takes over a seat: the public 换替补 post, the substitute's
notice in the private folder (``--send``: by 站内短信)."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.announce.outputs import Outputs, private_options
from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, post_format_option, templates_option
from killmod.commands.speak import (
    Speaker,
    board_of,
    board_options,
    post_after,
    post_option,
    send_after,
    speaker,
    with_send_options,
)
from killmod.core.limits import MAX_UID


@command()
@click.argument("seat", type=int, metavar="座位号")
@click.argument("name", metavar="替补")
@click.option("--uid", type=click.IntRange(1, MAX_UID), help="替补的论坛 uid")
@click.option(
    "--at", "at_text", metavar="时间", help="接替时间（默认现在）：之后旧玩家的发言按 replaced 处理"
)
@post_format_option
@post_option
@db_option
@private_options("--notices")
@templates_option
@with_send_options
@board_options()
@user_errors
@speaker
def sub(
    seat: int,
    name: str,
    uid: int | None,
    at_text: str | None,
    fmt: str,
    post_url: str | None,
    db_path: Path,
    outputs: Outputs,
    templates: Path | None,
    send: bool,
    board_url: str | None,
    speaker: Speaker,
) -> None:
    """替补接替一个座位（身份不变）：输出换替补的公告，替补的站内短信（这个座位的身份）写进
    私密文件夹；--send 把它发给替补的 uid；--post 把公告回复到游戏帖。"""
    from killmod.announce.handouts import sub_handout
    from killmod.announce.notices import notice_renderer
    from killmod.game.store import Game
    from killmod.usecases.deal import current_notices
    from killmod.usecases.sub import refuse_unsendable, substitute

    with Game.open(db_path) as game:
        if send:
            refuse_unsendable(game, name, uid)
        board = board_of(game, board_url) if send else None
        hand_out = sub_handout(game, seat, name, fmt, outputs, templates, capture=speaker.capture)
        substitute(game, seat, name, uid=uid, at_text=at_text, deliver=hand_out)
        post_after(game, speaker, post_url, templates)
        if board:
            texts = current_notices(game, (seat,), notice_renderer(templates))
            later = (
                f"替补已经记录，确认无误后用 killmod notices --seat {seat} --send "
                f"--board {board} --yes 发出"
            )
            send_after(game, speaker, board, texts, "替补", later=later)
