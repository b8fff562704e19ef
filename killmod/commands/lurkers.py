"""``killmod lurkers``: posts per living player in the game thread over a round (潜水)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from killmod.announce.outputs import Outputs, private_options
from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.fetching import fetch_options
from killmod.commands.options import (
    ROUND,
    board_options,
    db_option,
    post_format_option,
    templates_option,
)
from killmod.commands.speak import Speaker, post_after, post_option, speaker
from killmod.commands.speak import board_options as speaking_options

if TYPE_CHECKING:
    from killmod.fetch.http import FetchOptions


@command()
@click.argument("source", metavar="游戏帖", required=False)
@click.option(
    "--round",
    "round_no",
    type=ROUND,
    help="第几轮：从上一轮记录的投票截止到本轮记录的投票截止",
)
@click.option(
    "--from", "from_text", metavar="时间", help="统计开始时间（不含），代替上一轮的投票截止时间"
)
@click.option("--to", "to_text", metavar="时间", help="统计结束时间（含），代替本轮的投票截止时间")
@click.option("--min", "minimum", type=click.IntRange(min=1), help="每轮最少发言次数（1.2：3）")
@click.option("--record", is_flag=True, help="把潜水警告（及换替补、淹死）记录进游戏文件")
@post_format_option
@post_option
@db_option
@private_options()
@templates_option
@board_options
@speaking_options(cookies=False)
@fetch_options(refresh=True)
@user_errors
@speaker
def lurkers(
    source: str | None,
    round_no: int | None,
    from_text: str | None,
    to_text: str | None,
    minimum: int | None,
    record: bool,
    fmt: str,
    post_url: str | None,
    db_path: Path,
    outputs: Outputs,
    templates: Path | None,
    forum: str | None,
    profile_path: Path | None,
    fetching: FetchOptions,
    speaker: Speaker,
) -> None:
    """潜水统计：游戏帖里每位存活玩家本轮的发言次数。游戏帖可以是网址、保存的网页或文件夹
    （默认游戏文件记下的游戏帖）。不加 --record 时，给每位潜水的玩家写一份提醒短信（私密
    文件）：规则要法官先联系玩家，警告由法官决定后用 --record 记录。"""
    from killmod.announce.lurkerposts import (
        COUNT_WHAT,
        lurkers_handout,
        lurkers_post,
        prods,
        prods_note,
    )
    from killmod.game.store import Game
    from killmod.game.threads import GAME, thread_or_remembered
    from killmod.usecases.lurkers import lurkers as count_lurkers

    with Game.open(db_path) as game:
        hand_out = lurkers_handout(
            game, fmt, templates, outputs.private_dir, capture=speaker.capture
        )
        report = count_lurkers(
            game,
            thread_or_remembered(game, source, thread=GAME),
            round_no=round_no,
            from_text=from_text,
            to_text=to_text,
            minimum=minimum,
            record=record,
            forum=forum,
            profile=profile_path,
            fetching=fetching,
            deliver=hand_out,
        )
        if not record:
            messages = prods(game, report, outputs, templates)
            public = speaker.capture(lurkers_post(game, report, fmt, templates))
            outputs.hand_out(public, messages, "潜水提醒短信（每位潜水玩家一份）")
            if messages:
                from killmod.announce.outputs import note

                note(prods_note(report))
        what = None if record else COUNT_WHAT
        post_after(game, speaker, post_url, templates, what=what, recorded=record)
