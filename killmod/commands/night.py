"""``killmod night``: record a 1.2 night (the kill, the veto) and print the 尸体 post."""

from __future__ import annotations

import json
from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.commands.options import db_option, templates_option

FORMATS = ("bbcode", "text", "json")


@click.command()
@click.option("--round", "round_no", type=click.IntRange(min=1), required=True, help="第几轮")
@click.option("--kill", type=int, help="杀手方杀的座位号（不写：本轮没有杀人）")
@click.option("--veto", type=int, help="检查官行使否决权的座位号（全局只能用一次）")
@click.option("--at", "at_text", help="公布死亡的时间（默认现在），诈尸时间从此算 24 小时")
@click.option(
    "--replace", "replace_record", is_flag=True, help="重新记录已记录过的夜晚（旧记录保留）"
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="bbcode",
    show_default=True,
    help="输出：论坛代码、纯文本或 JSON",
)
@db_option
@templates_option
@user_errors
def night(
    round_no: int,
    kill: int | None,
    veto: int | None,
    at_text: str | None,
    replace_record: bool,
    fmt: str,
    db_path: Path,
    templates: Path | None,
) -> None:
    """记录第 N 轮夜晚（权利行使轮）的杀人和否决权，输出尸体公告（只公布阵营）。"""
    from killmod.announce import render
    from killmod.night import night_json, record_night
    from killmod.store import Game

    game = Game.open(db_path)
    done = record_night(
        game, round_no, kill=kill, veto=veto, at_text=at_text, replace=replace_record
    )
    if fmt == "json":
        click.echo(json.dumps(night_json(done), ensure_ascii=False, indent=1))
        return
    click.echo(render(f"night.{fmt}.j2", templates, night=done), nl=False)
    if done.winner:
        click.echo()
        click.echo(
            render("gameover.bbcode.j2", templates, winner=done.winner, roster=game.roster()),
            nl=False,
        )
