"""``killmod notices``: write the private notices again, from the game file (``--send``:
make sure each living player has received his current one)."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.announce.notices import notice_renderer
from killmod.announce.outputs import Outputs, private_options
from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, templates_option
from killmod.commands.speak import (
    Speaker,
    board_of,
    board_options,
    send_after,
    speaker,
    with_send_options,
)


@command()
@click.option(
    "--seat", "seats", type=int, multiple=True, metavar="座位号", help="只重发这个座位的（可多次）"
)
@db_option
@private_options("--out")
@templates_option
@with_send_options
@board_options()
@user_errors
@speaker
def notices(
    seats: tuple[int, ...],
    db_path: Path,
    outputs: Outputs,
    templates: Path | None,
    send: bool,
    board_url: str | None,
    speaker: Speaker,
) -> None:
    """重发站内短信，按游戏文件里现在的身份。给存活的玩家（替补接替的座位给替补本人），
    写进私密文件夹（新文件，不覆盖已有的）；--send 不写文件，把还没收到这一条的发到他的 uid。"""
    from killmod.game.store import Game
    from killmod.usecases.deal import current_notices, notice_stem

    with Game.open(db_path) as game:
        board = board_of(game, board_url) if send else None
        texts = current_notices(game, seats, notice_renderer(templates))
        roster = game.roster()
        if board is None:
            named = {
                outputs.free_name(f"{notice_stem(roster.seat(seat))}-again"): text
                for seat, text in texts.items()
            }
            outputs.secrets(named, f"重发的站内短信（{len(named)} 份）")
        else:
            deal = game.events("deal")
            step = deal[-1].step if deal else None
            send_after(game, speaker, board, texts, "重发", step=step)
