"""``killmod post``: reply to a thread with a public post killmod printed, as the judge."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, templates_option
from killmod.commands.speak import Speaker, board_options, post_text, speaker


@command()
@click.argument("file", metavar="文件")
@click.option("--thread", "thread_url", required=True, metavar="帖子网址", help="回复到这个帖子")
@click.option("--what", default="公告", show_default=True, help="这是什么帖（记在游戏文件里）")
@click.option("--again", is_flag=True, help="已经发过的同一篇也再发一次")
@db_option
@templates_option
@board_options()
@user_errors
@speaker
def post(
    file: str,
    thread_url: str,
    what: str,
    again: bool,
    db_path: Path,
    templates: Path | None,
    speaker: Speaker,
) -> None:
    """把 killmod 打印的公告（文件，或 - 读标准输入）以法官身份回复到帖子：
    先显示要发的内容和帖子，确认（--yes 或在终端输入 yes）后才发出；同一篇不会发两次。"""
    from killmod.announce.outputs import post as print_post
    from killmod.board.posting import Announcement
    from killmod.board.secrecy import refuse_secrets
    from killmod.core.errors import BadInput
    from killmod.game.store import Game

    text = _read(file)
    if not text.strip():
        raise BadInput(f"要发的内容是空的：{file}")
    with Game.open(db_path) as game:
        refuse_secrets(game, text, templates)
        print_post(text if text.endswith("\n") else text + "\n")
        announcement = Announcement(text, what)
        post_text(game, speaker, thread_url, announcement, templates, again=again)


def _read(file: str) -> str:
    from killmod.core.errors import BadInput

    if file == "-":
        return sys.stdin.read()
    try:
        return Path(file).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"文件不是 UTF-8 文本：{file}") from None
    except OSError as error:
        raise BadInput(f"无法读取文件：{file}（{error.strerror}）") from None
