"""``killmod sub``: a substitute takes over a seat: the public post, the substitute's notice."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.commands.options import db_option, post_format_option, templates_option
from killmod.outputs import Outputs, private_options, step_file
from killmod.roster import MAX_UID


@click.command()
@click.argument("seat", type=int)
@click.argument("name")
@click.option("--uid", type=click.IntRange(1, MAX_UID), help="替补的论坛 uid")
@click.option("--at", "at_text", help="接替时间（默认现在）：之后旧玩家的发言按 replaced 处理")
@post_format_option
@db_option
@private_options("--notices")
@templates_option
@user_errors
def sub(
    seat: int,
    name: str,
    uid: int | None,
    at_text: str | None,
    fmt: str,
    db_path: Path,
    outputs: Outputs,
    templates: Path | None,
) -> None:
    """替补接替座位 SEAT（身份不变）：输出换替补的公告，替补的站内短信（原座位的身份）
    写进私密文件夹。"""
    from killmod.announce import render_public
    from killmod.deal import notice_stem, notices
    from killmod.delivery import Handout
    from killmod.model import Player
    from killmod.store import Game
    from killmod.substitute import Substitution, substitute
    from killmod.views import substitution_view

    def hand_out(done: Substitution) -> Handout:
        public = render_public(f"sub.{fmt}.j2", templates, substitution_view(done))
        player = done.roster.seat(seat)
        texts = {file_name: notices(done.roster, templates)[seat]} if player.role else {}
        handout = outputs.handout(public, texts, f"替补 {name} 的站内短信（{seat}号的身份）")
        handout.notes.append(f"{seat}号：{name} 接替 {done.old}，身份不变。")
        if not player.role:
            handout.notes.append("还没有发身份：发身份（killmod deal）时替补会收到这个座位的短信。")
        return handout

    with Game.open(db_path) as game:
        file_name = step_file(
            game,
            notice_stem(Player(seat, name)),
            "substitution",
            lambda event: event.seat == seat and event.data.get("new") == name,
        )
        outputs.refuse_taken([file_name])
        substitute(game, seat, name, uid=uid, at_text=at_text, deliver=hand_out)
