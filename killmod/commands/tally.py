"""``killmod tally``: count a day vote from the vote thread."""

from __future__ import annotations

import json
from pathlib import Path

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

FORMATS = ("bbcode", "text", "json", "audit")


@click.command()
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
    templates,
    forum,
    profile_path,
    fetching,
) -> None:
    """计票：读取投票帖 SOURCE（网址、保存的网页或文件夹），输出公告。"""
    from killmod.announce import render_tally, tally_json
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
        click.echo(json.dumps(tally_json(result, rules), ensure_ascii=False, indent=1))
    else:
        click.echo(render_tally(result, fmt, rules, templates), nl=False)
    if result.recorded and result.recorded.winner:
        from killmod.announce import render

        click.echo(
            render(
                "gameover.bbcode.j2",
                templates,
                winner=result.recorded.winner,
                roster=Game.open(db_path).roster(),
            ),
            nl=False,
        )
