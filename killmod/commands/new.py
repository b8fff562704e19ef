"""``killmod new``: write a commented roster for a rule set and player count, to fill in."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import templates_option


@command()
@click.argument(
    "path", type=click.Path(dir_okay=False, path_type=Path), default="roster.toml", metavar="文件"
)
@click.option(
    "--rules",
    default="1.2",
    show_default=True,
    metavar="规则",
    help="规则：1.2、V4.0、X、1.0、2.0（不分大小写）",
)
@click.option(
    "--players",
    type=click.IntRange(min=1),
    help="人数，须在规则的身份表里（1.2 只有 16 人，可不写）",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="玩法",
    help="2.0 花样玩法（可多次）：ghost、poison、guardian、double-guardian",
)
@click.option("--force", is_flag=True, help="覆盖已存在的文件")
@templates_option
@user_errors
def new(
    path: Path,
    rules: str,
    players: int | None,
    variants: tuple[str, ...],
    force: bool,
    templates: Path | None,
) -> None:
    """写一份带说明的名单模板，座位按规则的身份表。默认文件 roster.toml。

    填上法官和每位玩家的论坛名（最好还有 uid），再 killmod init --roster 文件。
    """
    from killmod.announce.outputs import note
    from killmod.announce.roster_template import roster_template, write_roster_template

    if force:
        _refuse_other_file(path)
    made = roster_template(rules, players, variants, path.name, templates)
    write_roster_template(path, made.text, force=force)
    note(
        f"已写名单模板 {path}（{made.players} 个座位）。"
        f"填好法官和玩家的论坛名后：killmod init --roster {path}"
    )


def _refuse_other_file(path: Path) -> None:
    """``--force`` replaces a roster, never a file of another kind (a game file above all)."""
    from killmod.announce.outputs import SQLITE_MAGIC
    from killmod.core.errors import BadInput

    if not path.is_file() or path.is_symlink():
        return  # a missing path is written; a folder or a link is refused as it is opened
    start = path.read_bytes()[:4096]
    if start.startswith(SQLITE_MAGIC):
        raise BadInput(f"{path} 是 SQLite 数据库（游戏文件？）：--force 也不覆盖它。换一个文件名。")
    try:
        start.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(start) - 4:  # not only a character cut at the 4,096th byte
            raise BadInput(
                f"{path} 不是文本文件（名单）：--force 也不覆盖它。换一个文件名。"
            ) from None
    if b"\x00" in start:
        raise BadInput(f"{path} 不是文本文件（名单）：--force 也不覆盖它。换一个文件名。")
