"""``killmod tally``: count a day vote from the vote thread."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from killmod.cli import user_errors
from killmod.clitext import command
from killmod.commands.fetching import fetch_options
from killmod.commands.options import (
    ambiguous_time_option,
    board_options,
    edits_option,
    templates_option,
    vote_thread_options,
)
from killmod.outputs import PRINT_SECRETS, note, post

if TYPE_CHECKING:
    from killmod.model import TallyResult

FORMATS = ("bbcode", "text", "json", "audit")


@command()
@vote_thread_options
@click.option("--record", is_flag=True, help="把结果、帖子快照、警告和出局记录进游戏文件")
@click.option(
    "--replace", "replace_record", is_flag=True, help="重新记录已记录过的一轮（旧记录保留）"
)
@click.option(
    "--phase",
    type=click.Choice(("point", "knife")),
    help="1.0/2.0：指认（point）或动刀（knife）阶段（默认：游戏文件里的下一次投票）",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="bbcode",
    show_default=True,
    help="输出：论坛代码、纯文本、JSON 或逐帖审计",
)
@edits_option
@ambiguous_time_option
@click.option(
    "--rulings",
    type=click.Path(path_type=Path),
    help="法官裁定文件（TOML，按帖子编号 [pid.N] 或楼层 [N]）",
)
@click.option(
    PRINT_SECRETS,
    "print_secrets",
    is_flag=True,
    help="危险：把保密的结算细节（哪些帖因夜晚效果不计票，出自谁）也打印到屏幕上",
)
@templates_option
@board_options
@fetch_options(offline=True)
@user_errors
def tally(
    source,
    deadline,
    roster_path,
    db_path,
    round_no,
    record,
    replace_record,
    phase,
    fmt,
    edits,
    ambiguous_time,
    rulings,
    print_secrets,
    templates,
    forum,
    profile_path,
    fetching,
) -> None:
    """计票：读取投票帖（网址、保存的网页或文件夹），输出公告。"""
    from killmod.announce import public_tally_json, render_game_over, render_tally, tally_json
    from killmod.rules import rule_set
    from killmod.store import Game
    from killmod.tallying import tally as run_tally

    result = run_tally(
        source,
        deadline=deadline,
        roster=roster_path,
        game=db_path,
        round_no=round_no,
        record=record,
        replace_record=replace_record,
        phase=phase,
        edits=edits,
        ambiguous_time=ambiguous_time,
        rulings=rulings,
        forum=forum,
        profile=profile_path,
        fetching=fetching,
    )
    rules = rule_set(result.rules)
    if fmt == "json":
        document = tally_json(result, rules) if print_secrets else public_tally_json(result, rules)
        post(json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    else:
        post(render_tally(result, fmt, rules, templates))
    if result.recorded and result.recorded.winner:
        roster = Game.open(db_path).roster()
        post(render_game_over(result.recorded.winner, roster, templates))
    judge_notes(result, templates, print_secrets=print_secrets and fmt != "json")


def judge_notes(result: TallyResult, templates: Path | None, *, print_secrets: bool) -> None:
    """The tally's notes for the judge on stderr (times to the minute, slips of the pen,
    how many posts a hidden effect left uncounted); with ``--print-secrets`` whose posts
    those are, on stdout after the post."""
    from killmod.announce import render_private, render_public
    from killmod.views import tally_notes_view, tally_secrets_view

    notes = render_public("tally.notes.text.j2", templates, tally_notes_view(result))
    if notes.strip():
        note(notes)
    if print_secrets:
        secrets = render_private("tally.private.j2", templates, tally_secrets_view(result))
        if secrets.strip():
            post("\n" + secrets)
