"""``killmod sub``: a substitute takes over a seat (``--send``: his notice by 站内短信)."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.clitext import command
from killmod.commands.options import db_option, templates_option
from killmod.commands.speak import (
    Speaker,
    board_of,
    board_options,
    notices_for,
    send_after,
    speaker,
    with_send_options,
)
from killmod.limits import MAX_UID


@command()
@click.argument("seat", type=int, metavar="座位号")
@click.argument("name", metavar="替补")
@click.option("--uid", type=click.IntRange(1, MAX_UID), help="替补的论坛 uid")
@click.option(
    "--at", "at_text", metavar="时间", help="接替时间（默认现在）：之后旧玩家的发言按 replaced 处理"
)
@db_option
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
    db_path: Path,
    templates: Path | None,
    send: bool,
    board_url: str | None,
    speaker: Speaker,
) -> None:
    """替补接替一个座位（身份不变）；--send 把这个座位的站内短信发给替补的 uid。"""
    from killmod.deal import current_notices
    from killmod.errors import BadInput
    from killmod.outputs import note
    from killmod.store import Game
    from killmod.substitute import substitute

    if send and uid is None:
        raise BadInput("--send 要给替补的论坛 uid（--uid）：站内短信只按 uid 发。什么也没有记录。")
    with Game.open(db_path) as game:
        board = board_of(game, board_url) if send else None
        old = substitute(game, seat, name, uid=uid, at_text=at_text)
        note(f"{seat}号：{name} 接替 {old}，身份不变。")
        if board:
            texts = current_notices(game, (seat,), templates)
            later = (
                f"替补已经记录，确认无误后用 killmod notices --seat {seat} --send "
                f"--board {board} --yes 发出"
            )
            send_after(game, speaker, board, notices_for(game, texts, "替补"), later=later)
