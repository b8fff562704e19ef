"""``killmod judge``: record a judge's forum uid (posting and sending check it)."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option
from killmod.core.limits import MAX_UID


@command()
@click.argument("name")
@click.option("--uid", type=click.IntRange(1, MAX_UID), required=True, help="法官的论坛 uid")
@db_option
@user_errors
def judge(name: str, uid: int, db_path: Path) -> None:
    """记录法官 NAME 的论坛 uid：以法官身份发帖、发站内短信前，killmod 核对登录的是这个帐号。"""
    from killmod.announce.outputs import note
    from killmod.game.judges import record_judge
    from killmod.game.store import Game

    with Game.open(db_path) as game:
        record_judge(game, name, uid)
    note(f"已记录：法官 {name} 的论坛 uid 是 {uid}。")
