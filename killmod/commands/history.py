"""``killmod history``: the whole game at a glance, as a post, JSON or a picture."""

from __future__ import annotations

import json
from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, format_option, out_option, templates_option


@command()
@format_option(
    ("bbcode", "text", "json", "png"),
    "输出：论坛代码（表格）、纯文本、JSON，或票型图（PNG，要 pip install 'killmod[plot]'）",
)
@out_option("票型图写到这个文件（默认：游戏文件旁的 <游戏文件名>-history.png）")
@click.option(
    "--font", type=click.Path(path_type=Path), help="票型图用的字体文件（默认：自带的中文字体）"
)
@db_option
@templates_option
@user_errors
def history(
    fmt: str, out_path: Path | None, font: Path | None, db_path: Path, templates: Path | None
) -> None:
    """游戏历程：每轮谁投了谁（最终票和改票）、谁怎样出局、座位换过谁；可以输出成票型图。"""
    from killmod.announce.outputs import (
        PNG_MAGIC,
        default_private_dir,
        note,
        post,
        refuse_output_path,
    )
    from killmod.announce.render import render_public
    from killmod.announce.views import history_json, history_view
    from killmod.game.store import Game
    from killmod.rules import rule_set
    from killmod.usecases.history import chronicle

    with Game.open(db_path) as game:
        story = chronicle(game)
    if fmt == "json":
        post(json.dumps(history_json(story), ensure_ascii=False, indent=1) + "\n")
        return
    view = history_view(story, rule_set(story.rules))
    if fmt != "png":
        post(render_public(f"history.{fmt}.j2", templates, view))
        return
    from killmod.announce.chart import draw_history, parse_labels

    labels = parse_labels(render_public("history.chart.j2", templates, view))
    path = out_path or db_path.parent / f"{db_path.stem}-history.png"
    refuse_output_path(
        path,
        game_file=db_path,
        private_dir=default_private_dir(db_path),
        kind="票型图（PNG）",
        magic=PNG_MAGIC,
    )
    width, height = draw_history(view.values["rows"], labels, path, font=font)
    note(f"票型图写在 {path}（{width}×{height} 像素），可以上传到论坛。")
