"""``killmod status``: where the game stands and what to do next."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.clitext import command
from killmod.commands.options import db_option, templates_option


@command()
@db_option
@click.option("--reveal", is_flag=True, help="游戏结束后：打印揭秘帖（公布所有身份）")
@templates_option
@user_errors
def status(db_path: Path, reveal: bool, templates: Path | None) -> None:
    """游戏进度：第几轮、存活、警告、替补、待抽签，以及下一步。"""
    from killmod.announce import render_game_over, render_public
    from killmod.errors import BadInput
    from killmod.outputs import post
    from killmod.status import game_status
    from killmod.store import Game
    from killmod.views import status_view

    with Game.open(db_path) as game:
        state = game_status(game)
    if reveal:
        if state.winner is None:
            raise BadInput("游戏还没有结束：揭秘帖只能在游戏结束后发。")
        post(render_game_over(state.winner, state.roster, templates))
        return
    post(render_public("status.text.j2", templates, status_view(state)))
