"""Options several commands share."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from killmod.core.limits import MAX_ROUND

DEFAULT_DB = Path("killmod.db")
ROUND = click.IntRange(min=1, max=MAX_ROUND)

db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(path_type=Path),
    default=DEFAULT_DB,
    show_default=True,
    help="游戏文件（SQLite）",
)
templates_option = click.option(
    "--templates", type=click.Path(path_type=Path), metavar="文件夹", help="自定义模板文件夹"
)


def format_option(choices: tuple[str, ...], help: str) -> Callable:
    """``--format`` (the parameter ``fmt``): one of ``choices``, the first by default."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(choices),
        default=choices[0],
        show_default=True,
        help=help,
    )


def out_option(help: str) -> Callable:
    """``--out`` (the parameter ``out_path``): the file a command writes its output to."""
    return click.option(
        "--out", "out_path", type=click.Path(path_type=Path), metavar="文件", help=help
    )


post_format_option = format_option(("bbcode", "text"), "输出：论坛代码或纯文本")

edits_option = click.option(
    "--edits",
    type=click.Choice(("strict", "allow")),
    default="strict",
    show_default=True,
    help="编辑过的票帖：strict 不计；allow 截止前编辑的照计",
)
ambiguous_time_option = click.option(
    "--ambiguous-time",
    type=click.Choice(("count", "reject")),
    default="count",
    show_default=True,
    help="只精确到分钟且与截止同一分钟的帖：照计或不计",
)
rulings_option = click.option(
    "--rulings",
    type=click.Path(path_type=Path),
    help="法官裁定文件（TOML，按帖子编号 [pid.N] 或楼层 [N]）",
)
COUNT_FORMATS = ("bbcode", "text", "json", "audit")


def count_options(format_help: str) -> Callable:
    """How a day's vote is counted and shown (``killmod tally``, and the recount after
    ``killmod alias``): ``--format`` (``COUNT_FORMATS``), ``--edits``,
    ``--ambiguous-time`` and ``--rulings``."""

    def decorate(command: Callable) -> Callable:
        for option in reversed(
            (
                format_option(COUNT_FORMATS, format_help),
                edits_option,
                ambiguous_time_option,
                rulings_option,
            )
        ):
            command = option(command)
        return command

    return decorate


def board_options(command: Callable) -> Callable:
    """``--forum`` and ``--profile``: how to read a board killmod would not recognise."""
    command = click.option(
        "--profile",
        "profile_path",
        type=click.Path(path_type=Path),
        help="其他论坛：用 profile 文件（TOML）描述的选择器读取帖子",
    )(command)
    return click.option("--forum", metavar="格式", help="指定论坛格式（默认自动识别）")(command)


def vote_thread_options(command: Callable) -> Callable:
    """The vote thread, its deadline, and whose seats count (a roster or the game file).

    With the game file, the thread and the deadline may be left out: the round's vote
    thread and deadline as the file remembers them (``killmod open``, ``killmod thread``).
    """
    for option in reversed(
        (
            click.argument("source", metavar="投票帖", required=False),
            click.option(
                "--deadline",
                metavar="时间",
                help="截止时间：2014-12-09 22:00、22:00、今晚22点……（默认：killmod open 记下的）",
            ),
            click.option(
                "--roster",
                "roster_path",
                type=click.Path(path_type=Path),
                help="名单 TOML 文件（不用游戏文件时）",
            ),
            db_option,
            click.option(
                "--round",
                "round_no",
                type=ROUND,
                help="第几轮（默认：游戏文件的下一轮，或 1）",
            ),
        )
    ):
        command = option(command)
    return command
