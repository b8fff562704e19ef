"""``killmod leave``: a player's day of leave (请假), exempt from the lurking count."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, templates_option


@command()
@click.argument("seat", type=int, metavar="座位号")
@click.option(
    "--day",
    "day_text",
    required=True,
    metavar="日期",
    help="请假的日期：2019-05-12、05-12、5月12日",
)
@click.option("--note", help="备注（请假原因）")
@db_option
@templates_option
@user_errors
def leave(
    seat: int, day_text: str, note: str | None, db_path: Path, templates: Path | None
) -> None:
    """记录一个座位的玩家请假一天（1.2：每位玩家最多请假一天）。"""
    from killmod.announce.handouts import leave_note
    from killmod.announce.outputs import note as tell
    from killmod.game.store import Game
    from killmod.usecases.lurkers import record_leave

    with Game.open(db_path) as game:
        recorded = record_leave(game, seat, day_text, note=note)
    tell(leave_note(recorded, templates))
