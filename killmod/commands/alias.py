"""``killmod alias``: a nickname players vote with becomes a seat's alias, and the vote is
counted again."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.fetching import fetch_options
from killmod.commands.options import (
    ROUND,
    board_options,
    count_options,
    db_option,
    templates_option,
)
from killmod.core.limits import MAX_SEAT


@command()
@click.argument("seat", type=click.IntRange(1, MAX_SEAT), metavar="座位号")
@click.argument("alias", metavar="别名")
@click.argument("source", metavar="投票帖", required=False)
@click.option("--deadline", metavar="时间", help="重新计票的截止时间（默认：killmod open 记下的）")
@click.option("--round", "round_no", type=ROUND, help="重新计哪一轮的票（默认：游戏文件的下一轮）")
@db_option
@count_options("重新计票的输出：论坛代码、纯文本、JSON 或逐帖审计")
@templates_option
@board_options
@fetch_options(offline=True)
@user_errors
def alias(
    seat: int,
    alias: str,
    source: str | None,
    deadline: str | None,
    round_no: int | None,
    db_path: Path,
    fmt: str,
    edits: str,
    ambiguous_time: str,
    rulings: Path | None,
    templates: Path | None,
    forum: str | None,
    profile_path: Path | None,
    fetching,
) -> None:
    """记下昵称（如 kp、鱼）是哪个座位的别名，并重新计票。

    审计和给法官的提示里，“不是名单上的名字”的投票对象后面就写着这条命令，如
    killmod alias 5 "kp"。别名记进游戏文件（killmod undo 可撤销），
    然后像 killmod tally 一样重新计票：投票帖和截止时间默认用游戏文件记下的。本轮的计票已经记录时，
    按提示用 killmod tally --record --replace 重新记录。"""
    from killmod.announce.handouts import alias_note
    from killmod.announce.outputs import note
    from killmod.commands.tally import recount
    from killmod.core.errors import KillmodError
    from killmod.game.store import Game
    from killmod.usecases.alias import record_alias
    from killmod.usecases.tally import recount_hint

    with Game.open(db_path) as game:
        done = record_alias(game, seat, alias)
        note(alias_note(done))
        hint = recount_hint(game, source, round_no)
        if hint:
            note(hint)
            return
        try:
            recount(
                game,
                source,
                deadline=deadline,
                round_no=round_no,
                fmt=fmt,
                edits=edits,
                ambiguous_time=ambiguous_time,
                rulings=rulings,
                templates=templates,
                forum=forum,
                profile=profile_path,
                fetching=fetching,
            )
        except KillmodError as error:
            error.message = f"别名已记下，但没有重新计票：{error.message}"
            raise
