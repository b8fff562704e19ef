"""``killmod notices``: write the private notices again, from the game file (``--send``:
make sure each living player has received his current one)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from killmod.announce.outputs import Outputs, private_options
from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, templates_option
from killmod.commands.speak import (
    Speaker,
    board_of,
    board_options,
    notices_for,
    send_after,
    speaker,
    with_send_options,
)

if TYPE_CHECKING:
    from killmod.usecases.deal import NoticeContent


def notice_renderer(templates: Path | None) -> Callable[[NoticeContent], str]:
    """How a player's notice is written: ``notice.j2`` (a private template) over its content."""
    from killmod.announce.render import render_private
    from killmod.announce.views import notice_view

    def render(content: NoticeContent) -> str:
        view = notice_view(
            content.player, content.game, content.partners, content.powers, content.judges
        )
        return render_private("notice.j2", templates, view)

    return render


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
            send_after(game, speaker, board, notices_for(game, texts, "重发", step=step))
