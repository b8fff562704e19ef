"""``killmod evidence``: a round's evidence bundle, for any player to check the count."""

from __future__ import annotations

import zipfile
from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import ROUND, db_option, out_option


@command()
@click.option("--round", "round_no", type=ROUND, required=True, help="导出第几轮的证据包")
@out_option("写到这个文件（默认：游戏文件旁的 killmod-roundN-evidence.zip，N 是轮次）")
@db_option
@user_errors
def evidence(round_no: int, out_path: Path | None, db_path: Path) -> None:
    """导出一轮的计票证据包（zip），给玩家核对计票。

    证据包里有这一轮每次投票计票用到的一切：帖子（原样）、读取的页面和时间、截止时间、
    名单（不含身份）、法官的裁定、规则和结果，打印的公告，抽签（抽签后含签位和密钥）；
    没有任何秘密。公告上印着它的 SHA-256；玩家用 killmod verify 证据包 自己重新计票。"""
    from killmod.announce.outputs import note
    from killmod.game.store import Game
    from killmod.usecases.evidence import evidence as bundle

    with Game.open(db_path) as game:
        made = bundle(game, round_no)
    path = out_path or db_path.parent / made.name
    write_bundle(path, made.data)
    lottery = {"made": "，含抽签的承诺值（还没有抽签）", "revealed": "，含抽签结果"}
    lines = [
        f"已导出第 {round_no} 轮的证据包：{path}"
        f"（{len(made.votes)} 次投票{lottery.get(made.lottery, '')}）。"
    ]
    lines += [f"第 {vote.number} 次投票的计票证据 SHA-256：{vote.sha256}" for vote in made.votes]
    lines.append(f"把它发到论坛（附件或网盘）；玩家用 killmod verify {path.name} 核对。")
    note("\n".join(lines))


def write_bundle(path: Path, data: bytes) -> None:
    """Write the bundle whole (a public file, for the players), in place of an earlier
    bundle but of no other file."""
    from killmod.announce.outputs import write_whole
    from killmod.core.errors import BadInput

    if path.is_dir():
        raise BadInput(f"{path} 是文件夹：请给出证据包的文件名。")
    if path.exists() and not _is_bundle(path):
        raise BadInput(f"{path} 已经存在，而且不是 killmod 的证据包：没有覆盖它，请换一个文件名。")
    write_whole(path, lambda stream: stream.write(data), kind="证据包", suffix=".zip", mode=0o644)


def _is_bundle(path: Path) -> bool:
    from killmod.usecases.evidence import MANIFEST

    try:
        with zipfile.ZipFile(path) as archive:
            return MANIFEST in archive.namelist()
    except (OSError, zipfile.BadZipFile):
        return False
