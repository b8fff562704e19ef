"""``killmod verify``: any player checks a count from its evidence bundle alone."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import templates_option


@command()
@click.argument("file", metavar="证据包", type=click.Path(path_type=Path))
@click.option(
    "--hash",
    "published",
    multiple=True,
    metavar="SHA-256",
    help="论坛上公告印的计票证据 SHA-256（可给多次）：证据包必须是它的",
)
@templates_option
@user_errors
def verify(file: Path, published: tuple[str, ...], templates: Path | None) -> None:
    """核对计票证据包：只凭证据包重新计票，不要游戏文件，不联网。

    用证据包（killmod evidence 导出的 zip）里的帖子、名单和裁定重新计票，与法官记录的
    结果和公告上的 SHA-256 逐项比对：全部一致时显示“一致”和证据包里的公告（只核对了其中
    的 SHA-256，与论坛上的公告逐字比对请自己看），退出码 0；否则列出每一处差异，退出码 1。"""
    from killmod.announce.outputs import post
    from killmod.announce.render import render_public
    from killmod.announce.views import evidence_check_view
    from killmod.core.errors import BadInput, TallyFailed
    from killmod.usecases.verify import verify as check_bundle

    for given in published:
        if len(given.strip()) != 64 or any(c not in "0123456789abcdef" for c in given.lower()):
            raise BadInput(f"--hash 应为 64 位十六进制的 SHA-256：{given}")
    check = check_bundle(file, published=published)
    post(render_public("verify.text.j2", templates, evidence_check_view(check)))
    if not check.same:
        raise TallyFailed(f"证据包 {file} 与记录或公告不一致：见上面列出的每一处差异。")
