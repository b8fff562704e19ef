"""``killmod sub``: a substitute takes over a seat."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.clitext import command
from killmod.commands.options import db_option
from killmod.limits import MAX_UID


@command()
@click.argument("seat", type=int, metavar="座位号")
@click.argument("name", metavar="替补")
@click.option("--uid", type=click.IntRange(1, MAX_UID), help="替补的论坛 uid")
@click.option(
    "--at", "at_text", metavar="时间", help="接替时间（默认现在）：之后旧玩家的发言按 replaced 处理"
)
@db_option
@user_errors
def sub(seat: int, name: str, uid: int | None, at_text: str | None, db_path: Path) -> None:
    """替补接替一个座位（身份不变）。"""
    from killmod.outputs import note
    from killmod.store import Game
    from killmod.substitute import substitute

    with Game.open(db_path) as game:
        old = substitute(game, seat, name, uid=uid, at_text=at_text)
    note(f"{seat}号：{name} 接替 {old}，身份不变。")
