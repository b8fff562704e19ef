"""``killmod audit`` (the game's violations) and ``killmod penalty`` (record one's penalty)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.fetching import fetch_options
from killmod.commands.options import (
    ROUND,
    board_options,
    db_option,
    format_option,
    templates_option,
)

if TYPE_CHECKING:
    from killmod.fetch.http import FetchOptions


@command()
@click.option(
    "--game-thread",
    help="游戏帖（网址、保存的网页或文件夹；默认游戏文件记下的）：检查诈尸时间后出局玩家的发言",
)
@click.option("--round", "round_no", type=ROUND, help="只看这一轮（默认：全部）")
@click.option(
    "--announced",
    multiple=True,
    metavar="座位号=时间",
    help="座位号=宣布死亡的时间（可多次），代替游戏文件里的记录",
)
@format_option(("text", "bbcode"), "输出：纯文本或论坛代码")
@db_option
@templates_option
@board_options
@fetch_options(refresh=True)
@user_errors
def audit(
    game_thread: str | None,
    round_no: int | None,
    announced: tuple[str, ...],
    fmt: str,
    db_path: Path,
    templates: Path | None,
    forum: str | None,
    profile_path: Path | None,
    fetching: FetchOptions,
) -> None:
    """犯规审计：违规发言、诈尸时间后的发言、已记录的处罚。

    投票帖里的违规发言据已记录的计票；诈尸时间后出局玩家的发言据 --game-thread 给出的游戏帖。
    """
    from killmod.announce.outputs import post
    from killmod.announce.render import render_public
    from killmod.announce.views import audit_view
    from killmod.game.store import Game
    from killmod.game.threads import remembered
    from killmod.usecases.audit import audit as run_audit
    from killmod.usecases.audit import parse_announced

    with Game.open(db_path) as game:
        found = run_audit(
            game,
            round_no=round_no,
            game_thread=game_thread or remembered(game).game,
            announced=parse_announced(announced),
            forum=forum,
            profile=profile_path,
            fetching=fetching,
        )
    post(render_public(f"audit.{fmt}.j2", templates, audit_view(found)))


@command()
@click.argument("seat", type=int, metavar="座位号")
@click.option("--round", "round_no", type=ROUND, required=True, help="犯规的轮次")
@click.option(
    "--kind",
    type=click.Choice(("cancel", "extra")),
    required=True,
    help="cancel：取消犯规方阵营所有特殊权利一轮；extra：为对立阵营增加特殊权力一轮",
)
@click.option("--choice", required=True, help="对立阵营选择的具体处罚（原话）")
@click.option("--reason", help="犯规的内容，如：第 2 轮游戏帖 35楼 诈尸")
@db_option
@templates_option
@user_errors
def penalty(
    seat: int,
    round_no: int,
    kind: str,
    choice: str,
    reason: str | None,
    db_path: Path,
    templates: Path | None,
) -> None:
    """1.2：记录一个座位的犯规，以及对立阵营选择的处罚（在下一个夜晚执行）。"""
    from killmod.announce.handouts import penalty_note
    from killmod.announce.outputs import note
    from killmod.game.store import Game
    from killmod.usecases.penalty import record_penalty

    with Game.open(db_path) as game:
        recorded = record_penalty(
            game, seat, round_no=round_no, kind=kind, choice=choice, reason=reason
        )
    note(penalty_note(recorded, templates))
