"""``killmod tally``: count a day vote from the vote thread."""

from __future__ import annotations

import json
from pathlib import Path

import click

from killmod.cli import user_errors

FORMATS = ("bbcode", "text", "json", "audit")


@click.command()
@click.argument("source")
@click.option("--deadline", required=True, help="截止时间：2014-12-09 22:00、22:00、今晚22点……")
@click.option(
    "--roster", "roster_path", type=click.Path(path_type=Path), required=True, help="名单 TOML 文件"
)
@click.option(
    "--round", "round_no", type=click.IntRange(min=1), default=1, show_default=True, help="第几轮"
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="bbcode",
    show_default=True,
    help="输出：论坛代码、纯文本、JSON 或逐帖审计",
)
@click.option(
    "--edits",
    type=click.Choice(("strict", "allow")),
    default="strict",
    show_default=True,
    help="编辑过的票帖：strict 不计；allow 截止前编辑的照计",
)
@click.option(
    "--ambiguous-time",
    type=click.Choice(("count", "reject")),
    default="count",
    show_default=True,
    help="只精确到分钟且与截止同一分钟的帖：照计或不计",
)
@click.option("--rulings", type=click.Path(path_type=Path), help="法官裁定文件（按楼层的 TOML）")
@click.option("--templates", type=click.Path(path_type=Path), help="自定义模板文件夹")
@click.option("--forum", help="指定论坛格式（默认自动识别）")
@click.option(
    "--jobs",
    type=click.IntRange(min=1, max=16),
    default=4,
    show_default=True,
    help="同时读取的页数",
)
@user_errors
def tally(
    source,
    deadline,
    roster_path,
    round_no,
    fmt,
    edits,
    ambiguous_time,
    rulings,
    templates,
    forum,
    jobs,
) -> None:
    """计票：读取投票帖 SOURCE（网址、保存的网页或文件夹），输出公告。"""
    from killmod.announce import render_tally, tally_json
    from killmod.rules import rule_set
    from killmod.tallying import tally as run_tally

    result = run_tally(
        source,
        deadline=deadline,
        roster=roster_path,
        round_no=round_no,
        edits=edits,
        ambiguous_time=ambiguous_time,
        rulings=rulings,
        forum=forum,
        jobs=jobs,
    )
    rules = rule_set(result.rules)
    if fmt == "json":
        click.echo(json.dumps(tally_json(result, rules), ensure_ascii=False, indent=1))
    else:
        click.echo(render_tally(result, fmt, rules, templates), nl=False)
