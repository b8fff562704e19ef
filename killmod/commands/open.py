"""``killmod open``: the vote thread's first post, and the vote's deadline recorded."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import ROUND, db_option, post_format_option, templates_option
from killmod.commands.speak import Speaker, board_options, post_after, post_option, speaker


def now() -> datetime:
    """The real clock (tests replace it)."""
    return datetime.now(UTC)


@command()
@click.option("--round", "round_no", type=ROUND, help="第几轮（默认：下一次投票的轮次）")
@click.option(
    "--deadline",
    required=True,
    metavar="时间",
    help="截止时间：2019-05-12 22:00、22:00、今晚22点……（要在以后）",
)
@click.option(
    "--thread", "thread_url", metavar="网址", help="投票帖的网址（已经开好帖时）：记进游戏文件"
)
@post_format_option
@post_option
@db_option
@templates_option
@board_options()
@user_errors
@speaker
def open_vote(
    round_no: int | None,
    deadline: str,
    thread_url: str | None,
    fmt: str,
    post_url: str | None,
    db_path: Path,
    templates: Path | None,
    speaker: Speaker,
) -> None:
    """开投票帖：输出投票帖的一楼（存活玩家、精确到秒的截止时间、本规则的投票规则原文），
    并把截止时间（和投票帖网址）记进游戏文件；tally、watch、status 会用它们。
    --post 把它回复到一个帖子（如游戏帖：投票帖的一楼要由法官自己开帖）。"""
    from killmod.announce.handouts import open_handout
    from killmod.game.store import Game
    from killmod.usecases.open import open_vote

    hand_out = open_handout(templates, fmt, capture=speaker.capture)
    with Game.open(db_path) as game:
        open_vote(game, deadline, round_no=round_no, thread=thread_url, now=now(), deliver=hand_out)
        post_after(game, speaker, post_url, templates)
