"""``killmod thread``: remember the game thread or a round's vote thread in the game file."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import ROUND, db_option


@command()
@click.argument("kind", type=click.Choice(("game", "vote")), required=False, metavar="game|vote")
@click.argument("url", required=False, metavar="网址")
@click.option("--round", "round_no", type=ROUND, help="投票帖是第几轮的（默认：下一次投票的轮次）")
@db_option
@user_errors
def thread(kind: str | None, url: str | None, round_no: int | None, db_path: Path) -> None:
    """记下游戏帖（game）或某轮的投票帖（vote）的网址；不带参数时列出已记下的。

    记下后 tally、watch、lurkers、audit 不写网址也会用它；可以用 killmod undo 撤销。
    """
    from killmod.announce.handouts import thread_note
    from killmod.announce.outputs import note, post
    from killmod.core.errors import BadInput
    from killmod.game.store import Game
    from killmod.usecases.threads import known_threads, record_thread

    with Game.open(db_path) as game:
        if kind is None:
            known = known_threads(game)
            lines = [f"游戏帖：{known.game or '（没有记下）'}"]
            lines += [f"第 {n} 轮投票帖：{address}" for n, address in sorted(known.votes.items())]
            post("\n".join(lines) + "\n")
            return
        if url is None:
            raise BadInput("请给出网址：killmod thread game 网址，或 killmod thread vote 网址")
        if kind == "game" and round_no is not None:
            raise BadInput("游戏帖不分轮次：不用 --round。")
        recorded = record_thread(game, url, kind, round_no)
    note(thread_note(recorded))
