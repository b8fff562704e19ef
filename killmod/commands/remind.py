"""``killmod remind``: the reminder post for the vote thread (time left, who has not voted)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.fetching import fetch_options
from killmod.commands.options import (
    board_options,
    edits_option,
    post_format_option,
    templates_option,
    vote_thread_options,
)
from killmod.commands.speak import Speaker, post_after, post_option, speaker
from killmod.commands.speak import board_options as speaking_options

if TYPE_CHECKING:
    from pathlib import Path

    from killmod.fetch.http import FetchOptions


def now() -> datetime:
    """The real clock (tests replace it)."""
    return datetime.now(UTC)


@command()
@vote_thread_options
@click.option("--mention", is_flag=True, help="在名字后加 Discuz 的 @用户名，提醒到本人")
@post_format_option
@post_option
@edits_option
@templates_option
@board_options
@speaking_options(cookies=False)
@fetch_options(offline=True)
@user_errors
@speaker
def remind(
    source: str | None,
    deadline: str | None,
    roster_path: Path | None,
    db_path: Path,
    round_no: int | None,
    mention: bool,
    fmt: str,
    post_url: str | None,
    edits: str,
    templates: Path | None,
    forum: str | None,
    profile_path: Path | None,
    fetching: FetchOptions,
    speaker: Speaker,
) -> None:
    """投票提醒：读取投票帖（默认游戏文件记下的本轮投票帖），输出提醒帖——
    距截止还有多久、谁还没有投票、谁只有无效票（及原因）；--post 把它回复到投票帖。"""
    from killmod.announce.outputs import post
    from killmod.announce.render import render_public
    from killmod.announce.views import remind_view
    from killmod.core.errors import BadInput
    from killmod.core.times import format_local
    from killmod.game.store import Game
    from killmod.rules import rule_set
    from killmod.usecases.provisional import NOW
    from killmod.usecases.tally import count_so_far

    with Game.using(None if roster_path else db_path) as game:
        counted = count_so_far(
            source,
            as_of=NOW,
            deadline=deadline,
            roster=roster_path,
            game=game,
            round_no=round_no,
            edits=edits,
            forum=forum,
            profile=profile_path,
            fetching=fetching,
            now=now(),
        )
        if counted.remaining.total_seconds() <= 0:
            raise BadInput(
                f"截止时间 {format_local(counted.deadline, counted.deadline.tzinfo)} 已经过去："
                "不用再提醒，"
                "请计票（killmod tally … --record）。"
            )
        view = remind_view(counted, rule_set(counted.result.rules), mention=mention)
        post(speaker.capture(render_public(f"remind.{fmt}.j2", templates, view)))
        if game is not None:
            post_after(game, speaker, post_url, templates, what="投票提醒", recorded=False)
