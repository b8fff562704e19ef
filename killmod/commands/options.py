"""Options several commands share."""

from __future__ import annotations

from pathlib import Path

import click

DEFAULT_DB = Path("killmod.db")

db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(path_type=Path),
    default=DEFAULT_DB,
    show_default=True,
    help="游戏文件（SQLite）",
)
templates_option = click.option(
    "--templates", type=click.Path(path_type=Path), help="自定义模板文件夹"
)
post_format_option = click.option(
    "--format",
    "fmt",
    type=click.Choice(("bbcode", "text")),
    default="bbcode",
    show_default=True,
    help="输出：论坛代码或纯文本",
)
