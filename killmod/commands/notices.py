"""``killmod notices``: write the private notices again, from the game file."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.commands.options import db_option, templates_option


@click.command()
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    required=True,
    help="把站内短信写进这个文件夹（新文件，0600；已有同名文件时不覆盖）",
)
@click.option("--seat", "seats", type=int, multiple=True, help="只重发这个座位的（可多次）")
@db_option
@templates_option
@user_errors
def notices(out_dir: Path, seats: tuple[int, ...], db_path: Path, templates: Path | None) -> None:
    """重发站内短信：按游戏文件里现在的身份，给存活的玩家（替补接替的座位给替补本人）。"""
    from killmod.deal import current_notices, notice_names
    from killmod.private_files import write_private_files
    from killmod.store import Game

    with Game.open(db_path) as game:
        texts = current_notices(game, seats, templates)
        names = notice_names(texts, game.roster())
    paths = write_private_files(out_dir, names)
    click.echo(f"已重发 {len(paths)} 份站内短信，写在 {out_dir}/（只有本人可读）。", err=True)
