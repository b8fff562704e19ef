"""``killmod suicide``: a 2.0 killer shows his card and kills himself (亮牌自杀)."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.clitext import command
from killmod.commands.options import db_option, post_format_option, templates_option


@command()
@click.argument("seat", type=int, metavar="座位号")
@click.option(
    "--round", "round_no", type=click.IntRange(min=1), help="第几轮（默认：正在进行的白天）"
)
@click.option(
    "--at",
    "at_text",
    metavar="时间",
    help="亮牌的时间（默认现在）：提前亮牌时，之后的帖才算重新指认",
)
@post_format_option
@db_option
@templates_option
@user_errors
def suicide(
    seat: int,
    round_no: int | None,
    at_text: str | None,
    fmt: str,
    db_path: Path,
    templates: Path | None,
) -> None:
    """2.0：杀手亮牌自杀。轮到他辩解时：出局，天黑；其他时候：视为放弃游戏，重新指认。"""
    from zoneinfo import ZoneInfo

    from killmod.announce import render_game_over, render_public
    from killmod.days import record_suicide
    from killmod.night import announcement_time
    from killmod.outputs import post
    from killmod.store import Game
    from killmod.tallying import next_day
    from killmod.views import suicide_view

    game = Game.open(db_path)
    at = announcement_time(at_text, ZoneInfo(game.roster().timezone))
    done = record_suicide(game, seat, round_no or next_day(game), at)
    roster = game.roster()
    post(render_public(f"suicide.{fmt}.j2", templates, suicide_view(done, roster)))
    if done.winner:
        post("\n" + render_game_over(done.winner, roster, templates))
