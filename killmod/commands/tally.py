"""``killmod tally``: count a day vote from the vote thread."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from killmod.cli import user_errors
from killmod.commands.fetching import fetch_options
from killmod.commands.options import (
    ambiguous_time_option,
    board_options,
    edits_option,
    templates_option,
    vote_thread_options,
)

if TYPE_CHECKING:
    from killmod.model import TallyResult
    from killmod.store import Game

FORMATS = ("bbcode", "text", "json", "audit")


@click.command()
@vote_thread_options
@click.option("--record", is_flag=True, help="把结果、帖子快照、警告和出局记录进游戏文件")
@click.option(
    "--replace", "replace_record", is_flag=True, help="重新记录已记录过的一轮（旧记录保留）"
)
@click.option(
    "--early",
    is_flag=True,
    help="截止时间还没到也记录（如所有人都已投票）：记录和公告都会注明“提前计票”",
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
@click.option("--rulings", type=click.Path(path_type=Path), help="法官裁定文件（按楼层的 TOML）")
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
    early,
    phase,
    fmt,
    edits,
    ambiguous_time,
    rulings,
    templates,
    forum,
    profile_path,
    fetching,
) -> None:
    """计票：读取投票帖 SOURCE（网址、保存的网页或文件夹），输出公告。"""
    from killmod.store import Game

    with Game.using(None if roster_path else db_path) as game:
        _tally(
            game,
            source,
            deadline=deadline,
            roster=roster_path,
            round_no=round_no,
            record=record,
            replace_record=replace_record,
            early=early,
            phase=phase,
            fmt=fmt,
            edits=edits,
            ambiguous_time=ambiguous_time,
            rulings=rulings,
            templates=templates,
            forum=forum,
            profile=profile_path,
            fetching=fetching,
        )


def _tally(game: Game | None, source: str, *, fmt: str, templates: Path | None, **options):
    """Count (and record) the vote; the post is printed before the record is committed."""
    from killmod.delivery import Handout, print_public
    from killmod.tallying import tally as run_tally

    def post(result: TallyResult) -> Handout:
        return Handout(public=_post(result, game, fmt, templates))

    result = run_tally(source, game=game, deliver=post if options["record"] else None, **options)
    if not options["record"]:
        print_public(_post(result, game, fmt, templates))


def _post(result: TallyResult, game: Game | None, fmt: str, templates: Path | None) -> str:
    """The announcement (or JSON, or audit), and the game-over post when the game ended."""
    from killmod.announce import render, render_tally, tally_json
    from killmod.rules import rule_set

    rules = rule_set(result.rules)
    if fmt == "json":
        text = json.dumps(tally_json(result, rules), ensure_ascii=False, indent=1) + "\n"
    else:
        text = render_tally(result, fmt, rules, templates)
    if result.recorded and result.recorded.winner:
        text += render(
            "gameover.bbcode.j2", templates, winner=result.recorded.winner, roster=game.roster()
        )
    return text
