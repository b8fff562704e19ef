"""``killmod deal``: deal roles and write each player's private notice (``--send``: send it)."""

from __future__ import annotations

from pathlib import Path

import click

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
@db_option
@click.option("--seed", type=int, help="随机种子（可复现；默认用 secrets 随机）")
@private_options("--notices")
@templates_option
@with_send_options
@board_options()
@user_errors
@speaker
def deal(
    db_path: Path,
    seed: int | None,
    outputs: Outputs,
    templates: Path | None,
    send: bool,
    board_url: str | None,
    speaker: Speaker,
) -> None:
    """按规则发身份，每位玩家的站内短信写进私密文件夹。屏幕上不显示身份，私密文件夹只有你能读；
    --send 再以法官身份把每一条发到该玩家的 uid（确认后才发，中途失败可接着发）。"""
    from killmod.announce.handouts import deal_handout
    from killmod.game.store import Game
    from killmod.usecases.deal import deal as record_deal

    dealt: dict[int, str] = {}
    with Game.open(db_path) as game:
        hand_out = deal_handout(game, outputs, templates, dealt)
        board = board_of(game, board_url) if send else None
        record_deal(game, seed, deliver=hand_out)
        if board:
            later = (
                f"身份已经发好并记录，确认无误后用 killmod notices --send --board {board} "
                "--yes 发出"
            )
            send_after(game, speaker, board, dealt, "发身份", later=later)
