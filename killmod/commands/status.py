"""``killmod status``: where the game stands and what to do next."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.announce.outputs import Outputs, private_options
from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, templates_option


@command()
@db_option
@click.option("--reveal", is_flag=True, help="游戏结束后：打印揭秘帖（公布所有身份）")
@click.option(
    "--hidden",
    is_flag=True,
    help="法官专用：把夜晚的隐藏状态（V4.0 标记、癫狂；2.0 附体、守护）写进私密文件",
)
@private_options()
@templates_option
@user_errors
def status(
    db_path: Path, reveal: bool, hidden: bool, outputs: Outputs, templates: Path | None
) -> None:
    """游戏进度：第几轮、白天还是夜晚、存活和出局（按规则公布的身份）、警告、否决权、请假、
    处罚、帖子网址，以及下一步要输入的命令。"""
    from killmod.announce.outputs import post
    from killmod.announce.render import render_game_over, render_public
    from killmod.announce.views import status_view
    from killmod.core.errors import BadInput
    from killmod.game.store import Game
    from killmod.usecases.status import game_status

    with Game.open(db_path) as game:
        state = game_status(game)
    if reveal:
        if state.winner is None:
            raise BadInput("游戏还没有结束：揭秘帖只能在游戏结束后发。")
        post(render_game_over(state.winner, state.roster, templates))
        return
    public = render_public("status.text.j2", templates, status_view(state))
    if not hidden:
        post(public)
        return
    from killmod.announce.render import render_private
    from killmod.announce.views import status_secrets_view

    secret = render_private("status.private.j2", templates, status_secrets_view(state))
    name = outputs.free_name(f"round{state.round}-hidden")
    outputs.hand_out(public, {name: secret}, "夜晚的隐藏状态")
