"""``killmod init``: create the game file from a roster."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.commands.options import db_option


@click.command()
@click.option(
    "--roster", "roster_path", type=click.Path(path_type=Path), required=True, help="名单 TOML 文件"
)
@db_option
@click.option("--force", is_flag=True, help="覆盖已存在的游戏文件")
@user_errors
def init(roster_path: Path, db_path: Path, force: bool) -> None:
    """建立游戏文件（只有本人可读，0600）。"""
    from killmod.roster import load_roster
    from killmod.store import Game

    roster = load_roster(roster_path)
    Game.create(db_path, roster, force=force).close()
    click.echo(f"已建立游戏文件 {db_path}：{len(roster.players)} 名玩家，{roster.rules} 规则。")
