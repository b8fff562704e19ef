"""``killmod out``: the judge's own decision — a player put out, or a side that surrenders."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, post_format_option, templates_option
from killmod.commands.speak import Speaker, board_options, post_after, post_option, speaker

# Every reason code of every rule set; the game's rule set says which it has.
REASONS = ("conduct", "confessed", "peeked", "removed", "surrender")


@command()
@click.argument("seat", type=int, metavar="座位号")
@click.option(
    "--reason",
    type=click.Choice(REASONS),
    required=True,
    help=(
        "1.2：conduct（立判出局）；X：confessed（认匪）、peeked（误睁眼）、removed（违反规则）、"
        "surrender（投降）；2.0：peeked、removed、surrender"
    ),
)
@click.option(
    "--round", "round_no", type=click.IntRange(min=1), help="第几轮（默认：正在进行的一轮）"
)
@click.option(
    "--at", "at_text", metavar="时间", help="宣布的时间（默认现在）：1.2 的诈尸时间从此算起"
)
@click.option("--note", help="判定的说明（写进公告），如：在游戏帖 35 楼辱骂他人")
@post_format_option
@post_option
@db_option
@templates_option
@board_options()
@user_errors
@speaker
def out(
    seat: int,
    reason: str,
    round_no: int | None,
    at_text: str | None,
    note: str | None,
    fmt: str,
    post_url: str | None,
    db_path: Path,
    templates: Path | None,
    speaker: Speaker,
) -> None:
    """法官判定一个座位出局或投降，并做胜负判定。出局的原因：立判出局、认匪、误睁眼、违反规则。"""
    from zoneinfo import ZoneInfo

    from killmod.announce.handouts import out_handout
    from killmod.game.store import Game
    from killmod.usecases.night import announcement_time
    from killmod.usecases.out import record_out

    with Game.open(db_path) as game:
        hand_out = out_handout(game, fmt, templates, capture=speaker.capture)
        at = announcement_time(at_text, ZoneInfo(game.roster().timezone))
        record_out(game, seat, reason, round_no=round_no, at=at, note=note, deliver=hand_out)
        post_after(game, speaker, post_url, templates)
