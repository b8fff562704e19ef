"""``killmod init``: create the game file from a roster, or start the next game in it."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option


@command()
@click.option(
    "--roster", "roster_path", type=click.Path(path_type=Path), required=True, help="名单 TOML 文件"
)
@db_option
@click.option("--force", is_flag=True, help="覆盖已存在的游戏文件")
@click.option(
    "--next-game",
    is_flag=True,
    help="在已有的游戏文件里开始下一局：上一局的记录保留（X：连续两局第一轮不得杀同一个人）",
)
@user_errors
def init(roster_path: Path, db_path: Path, force: bool, next_game: bool) -> None:
    """建立游戏文件（只有本人可读，0600），或在其中开始下一局。"""
    from killmod.announce.outputs import note
    from killmod.core.errors import BadInput
    from killmod.game.roster import load_roster
    from killmod.rules import title
    from killmod.usecases.gamefile import create_game

    roster = load_roster(roster_path)
    if next_game and force:
        raise BadInput("--next-game 保留上一局的记录，--force 覆盖整个文件：只能选一个。")
    if next_game:
        create_game(db_path, roster, next_game=True)
        note(
            f"已在 {db_path} 开始下一局：{len(roster.players)} 名玩家，{title(roster.rules)} 规则；"
            "上一局的记录保留在文件里。"
        )
        return
    create_game(db_path, roster, force=force)
    note(f"已建立游戏文件 {db_path}：{len(roster.players)} 名玩家，{title(roster.rules)} 规则。")
