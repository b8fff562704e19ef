"""``killmod notices``: write the private notices again, from the game file."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.clitext import command
from killmod.commands.options import db_option, templates_option
from killmod.outputs import Outputs, private_options


@command()
@click.option(
    "--seat", "seats", type=int, multiple=True, metavar="座位号", help="只重发这个座位的（可多次）"
)
@db_option
@private_options("--out")
@templates_option
@user_errors
def notices(
    seats: tuple[int, ...], db_path: Path, outputs: Outputs, templates: Path | None
) -> None:
    """重发站内短信，按游戏文件里现在的身份。给存活的玩家（替补接替的座位给替补本人），
    写进私密文件夹（新文件，不覆盖已有的）。"""
    from killmod.deal import current_notices, notice_stem
    from killmod.store import Game

    with Game.open(db_path) as game:
        texts = current_notices(game, seats, templates)
        roster = game.roster()
    named = {
        outputs.free_name(f"{notice_stem(roster.seat(seat))}-again"): text
        for seat, text in texts.items()
    }
    outputs.secrets(named, f"重发的站内短信（{len(named)} 份）")
