"""``killmod watch``: follow a vote thread until the deadline, then print the announcement."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from datetime import UTC, datetime
from time import sleep
from typing import TYPE_CHECKING

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.fetching import fetch_options
from killmod.commands.options import (
    ambiguous_time_option,
    board_options,
    edits_option,
    templates_option,
    vote_thread_options,
)

if TYPE_CHECKING:
    from pathlib import Path

    from killmod.fetch.http import FetchOptions


def now() -> datetime:
    """The real clock (tests replace it, and ``sleep``, to run a watch without waiting)."""
    return datetime.now(UTC)


@command()
@vote_thread_options
@click.option(
    "--every",
    type=click.FloatRange(min=1),
    default=60.0,
    show_default=True,
    help="每隔多少秒读一次投票帖",
)
@click.option(
    "--grace",
    type=click.FloatRange(min=0),
    default=60.0,
    show_default=True,
    help="截止后再等多少秒才公布最终结果",
)
@click.option(
    "--record",
    is_flag=True,
    help="截止（加宽限）后把结果记录进游戏文件，和 tally --record 一样（要 --db）",
)
@edits_option
@ambiguous_time_option
@templates_option
@board_options
@fetch_options(refresh=True)
@user_errors
def watch(
    source: str | None,
    deadline: str | None,
    roster_path: Path | None,
    db_path: Path,
    round_no: int | None,
    every: float,
    grace: float,
    record: bool,
    edits: str,
    ambiguous_time: str,
    templates: Path | None,
    forum: str | None,
    profile_path: Path | None,
    fetching: FetchOptions,
) -> None:
    """盯帖：截止前每隔一段时间读取投票帖（默认游戏文件记下的本轮投票帖），有新票就在 stderr
    显示临时票型；截止（加宽限）后输出公告，加 --record 时像 tally --record 一样记录。"""
    if roster_path:  # no game file: the SQLite library is not even imported
        opened = nullcontext(None)
    else:
        from killmod.game.store import Game

        opened = Game.using(db_path)
    with opened as game:
        _watch(
            game,
            source,
            deadline=deadline,
            roster=roster_path,
            round_no=round_no,
            every=every,
            grace=grace,
            record=record,
            edits=edits,
            ambiguous_time=ambiguous_time,
            templates=templates,
            forum=forum,
            profile=profile_path,
            fetching=fetching,
        )


def _watch(game, source, *, roster, every, grace, record, edits, ambiguous_time, templates, **more):
    """Show each update on stderr; the final announcement on stdout (a recorded one is
    printed by its step, before the step is committed)."""
    from killmod.announce.outputs import note, post
    from killmod.announce.render import render_public, render_tally
    from killmod.announce.tallypost import tally_handout
    from killmod.announce.views import watch_view
    from killmod.ballots.count import TallyOptions
    from killmod.commands.tally import judge_notes
    from killmod.rules import rule_set
    from killmod.usecases.watch import watch as run_watch

    updates = run_watch(
        source,
        roster=roster,
        game=game,
        options=TallyOptions(edits=edits, ambiguous_time=ambiguous_time),
        every=every,
        grace=grace,
        now=now,
        sleep=sleep,
        record=record,
        deliver=lambda result: tally_handout(result, game, "bbcode", templates),
        **more,
    )
    try:
        for update in updates:
            if update.kind == "final":
                if not record:
                    rules = rule_set(update.result.rules)
                    post(render_tally(update.result, "bbcode", rules, templates))
                    judge_notes(
                        update.result, templates, print_secrets=False, game_file=game is not None
                    )
                continue
            left = int(update.remaining.total_seconds()) if update.remaining else 0
            policy = rule_set(update.result.rules).TALLY_POLICY if update.result else None
            view = watch_view(update, left, max(0, int(left + grace)), int(every), policy)
            note(render_public("watch.text.j2", templates, view))
    except KeyboardInterrupt:
        click.echo("已停止" + ("，没有记录。" if record else ""), err=True)
        sys.exit(130)
