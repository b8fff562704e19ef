"""``killmod undo``: void the last recorded step and say where the game is back to."""

from __future__ import annotations

from pathlib import Path

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, templates_option


@command()
@db_option
@templates_option
@user_errors
def undo(db_path: Path, templates: Path | None) -> None:
    """撤销最后记录的一步。计票、夜晚、替补、抽签、处罚、请假、发身份……都可以撤销：记录作废但保留，可一步步往回撤。"""
    from killmod.announce.handouts import undo_handout
    from killmod.game.store import Game
    from killmod.usecases.undo import undo as undo_last

    with Game.open(db_path) as game:
        undo_last(game, deliver=undo_handout(templates))
