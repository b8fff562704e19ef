"""``killmod serve``: the judge's page in the browser (``killmod.web``)."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, templates_option


@command()
@db_option
@click.option(
    "--port", type=click.IntRange(min=0, max=65535), default=0, help="端口（默认：空闲的端口）"
)
@click.option("--no-browser", is_flag=True, help="不打开浏览器（只打印网址）")
@templates_option
@user_errors
def serve(db_path: Path, port: int, no_browser: bool, templates: Path | None) -> None:
    """打开法官的网页：在浏览器里做 killmod 的每一步（新游戏、发身份、计票、夜晚……）。
    只在本机（127.0.0.1）上，第一行打印带访问令牌的网址；按 Ctrl-C 停止。"""
    from killmod.web.server import serve as run_server

    def say(address: str) -> None:
        click.echo(address)
        click.echo("法官的网页已打开（只有本机能访问）；按 Ctrl-C 停止。", err=True)

    run_server(db_path, port=port, open_browser=not no_browser, templates=templates, say=say)
