"""``killmod rules``: a rule set's role table and summary, and V4.0 version codes."""

from __future__ import annotations

import json
from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import format_option, templates_option


@command()
@click.argument("name", metavar="规则")
@click.option("--players", type=int, help="只看这个人数的一行（超出规则的人数范围：退出码 2）")
@click.option("--code", metavar="版本号", help="V4.0：解读版本号，如 64C65")
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="玩法",
    help="2.0 花样玩法（可多次）：ghost、poison、guardian、double-guardian",
)
@format_option(("text", "json"), "输出：纯文本或 JSON")
@templates_option
@user_errors
def rules(
    name: str,
    players: int | None,
    code: str | None,
    variants: tuple[str, ...],
    fmt: str,
    templates: Path | None,
) -> None:
    """规则的身份表和摘要，V4.0 版本号的解读。规则名：1.2、V4.0（v4）、X、1.0、2.0，不分大小写。"""
    from killmod.announce.outputs import post
    from killmod.announce.render import render_public
    from killmod.announce.views import rules_view
    from killmod.core.errors import BadInput
    from killmod.rules import rule_set

    ruleset = rule_set(name, variants)
    if players is not None and code is not None:
        raise BadInput("--players 和 --code 只能给一个：版本号本身就说明了人数。")
    if code is not None:
        rows = [ruleset.decode(code)]
    else:
        rows = ruleset.table() if players is None else [ruleset.table_row(players)]
    if fmt == "json":
        document = rows if players is None and code is None else rows[0]
        click.echo(json.dumps(document, ensure_ascii=False, indent=1))
        return
    view = rules_view(rows, ruleset.summary(players), code is not None, ruleset.LOSE_CONDITIONS)
    post(render_public("rules.text.j2", templates, view))
