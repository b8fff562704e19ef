"""``killmod suicide``: a 2.0 killer shows his card and kills himself (亮牌自杀)."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import ROUND, db_option, post_format_option, templates_option
from killmod.commands.speak import Speaker, board_options, post_after, post_option, speaker


@command()
@click.argument("seat", type=int, metavar="座位号")
@click.option("--round", "round_no", type=ROUND, help="第几轮（默认：正在进行的白天）")
@click.option(
    "--at",
    "at_text",
    metavar="时间",
    help="亮牌的时间（默认现在）：提前亮牌时，之后的帖才算重新指认",
)
@post_format_option
@post_option
@db_option
@templates_option
@board_options()
@user_errors
@speaker
def suicide(
    seat: int,
    round_no: int | None,
    at_text: str | None,
    fmt: str,
    post_url: str | None,
    db_path: Path,
    templates: Path | None,
    speaker: Speaker,
) -> None:
    """2.0：杀手亮牌自杀。轮到他辩解时：出局，天黑；其他时候：视为放弃游戏，重新指认。"""
    from zoneinfo import ZoneInfo

    from killmod.announce.render import render_game_over, render_public
    from killmod.announce.views import suicide_view
    from killmod.game.delivery import Handout
    from killmod.game.store import Game
    from killmod.usecases.day import Suicide, record_suicide
    from killmod.usecases.night import announcement_time

    def hand_out(done: Suicide) -> Handout:
        roster = game.roster()
        public = render_public(f"suicide.{fmt}.j2", templates, suicide_view(done, roster))
        if done.winner:
            public += "\n" + render_game_over(done.winner, roster, templates)
        return Handout(public=speaker.capture(public))

    with Game.open(db_path) as game:
        at = announcement_time(at_text, ZoneInfo(game.roster().timezone))
        record_suicide(game, seat, round_no, at, deliver=hand_out)
        post_after(game, speaker, post_url, templates)
