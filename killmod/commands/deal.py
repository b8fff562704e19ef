"""``killmod deal``: deal roles and write each player's private notice."""

from __future__ import annotations

from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.commands.options import db_option, templates_option


@click.command()
@db_option
@click.option("--seed", type=int, help="随机种子（可复现；默认用 secrets 随机）")
@click.option(
    "--notices",
    "notices_dir",
    type=click.Path(path_type=Path),
    help="把每位玩家的站内短信写进这个文件夹（文件 0600）",
)
@click.option("--stdout", "to_stdout", is_flag=True, help="把站内短信打印出来（小心：含身份）")
@templates_option
@user_errors
def deal(
    db_path: Path,
    seed: int | None,
    notices_dir: Path | None,
    to_stdout: bool,
    templates: Path | None,
) -> None:
    """按规则发身份，生成每位玩家的站内短信。"""
    from killmod.deal import deal as deal_roles
    from killmod.deal import notice_names, notices
    from killmod.delivery import Handout
    from killmod.errors import BadInput
    from killmod.model import Roster
    from killmod.store import Game

    if notices_dir is None and not to_stdout:
        raise BadInput("请用 --notices 文件夹 指定站内短信写到哪里（或 --stdout 打印出来）")

    def hand_out(roster: Roster) -> Handout:
        texts = notices(roster, templates)
        out = Handout()
        if notices_dir is not None:
            for name, text in notice_names(texts, roster).items():
                out.add_private(notices_dir / name, text)
            out.notes.append(
                f"已发身份：{len(texts)} 份站内短信写在 {notices_dir}/（只有本人可读）。"
            )
        if to_stdout:
            out.public = "\n\n".join(texts[p.seat] for p in roster.players) + "\n"
        return out

    with Game.open(db_path) as game:
        deal_roles(game, seed, deliver=hand_out)
