"""``killmod lottery make|reveal|show|verify``: the tie lottery of the 1.2 rules (四、平票处理)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from killmod.cli import user_errors
from killmod.commands.options import ROUND, db_option, templates_option

if TYPE_CHECKING:
    from killmod.lottery import Lottery, Reveal
    from killmod.store import Game

round_option = click.option("--round", "round_no", type=ROUND, required=True, help="平票的是第几轮")


@click.group()
def lottery() -> None:
    """平票抽签：做签（make）、公布抽签结果（reveal）、重发签位（show）、核对承诺值（verify）。"""


@lottery.command()
@round_option
@click.option("--seed", type=int, help="随机种子（可复现；默认用 secrets 随机）")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    help="把站内留言和投票帖公告写进这个文件夹（文件 0600），不打印",
)
@db_option
@templates_option
@user_errors
def make(
    round_no: int, seed: int | None, out_dir: Path | None, db_path: Path, templates: Path | None
) -> None:
    """为第 N 轮的平票做签：给执行斑竹的站内留言（签位，保密）和投票帖公告（承诺值）。"""
    from killmod.delivery import Handout
    from killmod.lottery import make_lottery
    from killmod.store import Game

    def hand_out(made: Lottery) -> Handout:
        private, public = _lots(game, made, templates)
        if out_dir is None:
            return Handout(
                public="—— 站内留言：只发给执行斑竹或第三人（保密）——\n"
                f"{private}\n—— 投票帖公告：贴到投票帖 ——\n{public}"
            )
        out = Handout()
        private_path = out.add_private(out_dir / f"round{round_no}-lottery-private.txt", private)
        public_path = out.add_private(out_dir / f"round{round_no}-lottery-public.txt", public)
        out.notes.append(
            f"已做签：第 {round_no} 轮 {len(made.mapping)} 个签位。"
            f"站内留言（保密）：{private_path}；投票帖公告：{public_path}"
        )
        return out

    with Game.open(db_path) as game:
        make_lottery(game, round_no, seed, deliver=hand_out)


def _lots(game: Game, made: Lottery, templates: Path | None) -> tuple[str, str]:
    """The private message (the lots, secret) and the public post (the commitment)."""
    from killmod.announce import render
    from killmod.lottery import PREFIX

    names = {player.seat: player.name for player in game.roster().players}
    data = {"lottery": made, "names": names, "prefix": PREFIX}
    private = render("lottery.private.j2", templates, **data)
    public = render("lottery.public.bbcode.j2", templates, **data)
    return private, public


@lottery.command()
@round_option
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    required=True,
    help="把给执行斑竹的站内留言（签位，保密）写进这个文件夹（文件 0600）",
)
@db_option
@templates_option
@user_errors
def show(round_no: int, out_dir: Path, db_path: Path, templates: Path | None) -> None:
    """重发第 N 轮的签位：从游戏文件再写一份给执行斑竹的站内留言（丢了原来那份时用）。"""
    from killmod.lottery import recorded_lottery
    from killmod.private_files import write_private
    from killmod.store import Game

    with Game.open(db_path) as game:
        made = recorded_lottery(game, round_no)
        private, _ = _lots(game, made, templates)
    path = write_private(out_dir / f"round{round_no}-lottery-private.txt", private)
    click.echo(f"已重发第 {round_no} 轮的签位：站内留言（保密）写在 {path}。", err=True)


@lottery.command()
@round_option
@click.option("--lot", type=int, required=True, help="第四人抽出的签号")
@db_option
@templates_option
@user_errors
def reveal(round_no: int, lot: int, db_path: Path, templates: Path | None) -> None:
    """公布第 N 轮抽签结果：出局者及其阵营，并公开签位和密钥供核对。"""
    from killmod.announce import render
    from killmod.delivery import Handout
    from killmod.lottery import reveal_lottery
    from killmod.store import Game

    def post(drawn: Reveal) -> Handout:
        roster = game.roster()
        names = {player.seat: player.name for player in roster.players}
        text = render("lottery.reveal.bbcode.j2", templates, reveal=drawn, names=names)
        if drawn.winner:
            text += "\n" + render(
                "gameover.bbcode.j2", templates, winner=drawn.winner, roster=roster
            )
        return Handout(public=text)

    with Game.open(db_path) as game:
        reveal_lottery(game, round_no, lot, deliver=post)


@lottery.command()
@round_option
@click.option("--commitment", required=True, help="抽签前公布的承诺值（SHA-256）")
@click.option("--salt", required=True, help="公布结果时公开的密钥")
@click.option("--mapping", required=True, help='公布结果时公开的签位，如 "1=5,2=7"')
@templates_option
@user_errors
def verify(round_no: int, commitment: str, salt: str, mapping: str, templates: Path | None) -> None:
    """核对抽签：签位和密钥算出的 SHA-256 是否等于抽签前公布的承诺值（一致退出码 0，不一致 1）。"""
    from killmod import lottery as lots
    from killmod.announce import render

    lots_by_number = lots.parse_mapping(mapping)
    salt = salt.strip()
    same = lots.verify(commitment, round_no, lots_by_number, salt)
    click.echo(
        render(
            "lottery.verify.text.j2",
            templates,
            text=lots.canonical(round_no, lots_by_number, salt),
            computed=lots.commitment(round_no, lots_by_number, salt),
            published=commitment.strip().lower(),
            same=same,
        ),
        nl=False,
    )
    if not same:
        sys.exit(1)
