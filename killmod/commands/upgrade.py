"""``killmod upgrade``: rewrite a game file of an older killmod to this one's schema."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option


@command()
@db_option
@user_errors
def upgrade(db_path: Path) -> None:
    """把旧版 killmod 的游戏文件升级到这个版本的格式。原文件备份在旁边，原样保留。"""
    from killmod.game.upgrade import upgrade as upgrade_file

    done = upgrade_file(db_path)
    click.echo(
        f"已升级 {done.path}：{done.steps} 个步骤，可以用 killmod undo 撤销；"
        f"原文件保留在 {done.backup}。",
        err=True,
    )
