"""``killmod lottery make|reveal|verify``: the tie lottery of the 1.2 rules (四、平票处理)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from killmod.cli import user_errors
from killmod.clitext import group
from killmod.commands.options import db_option, templates_option
from killmod.outputs import Outputs, post, private_options, step_file

round_option = click.option(
    "--round", "round_no", type=click.IntRange(min=1), required=True, help="平票的是第几轮"
)


@group()
def lottery() -> None:
    """平票抽签：make 做签，reveal 公布结果，verify 核对承诺值。"""


@lottery.command()
@round_option
@click.option("--seed", type=int, help="随机种子（可复现；默认用 secrets 随机）")
@db_option
@private_options("--out")
@templates_option
@user_errors
def make(
    round_no: int, seed: int | None, db_path: Path, outputs: Outputs, templates: Path | None
) -> None:
    """为一轮平票做签。投票帖公告（承诺值）打印出来；给执行斑竹的站内留言（签位，保密）
    写进私密文件夹。"""
    from killmod.announce import render_private, render_public
    from killmod.lottery import PREFIX, make_lottery
    from killmod.store import Game
    from killmod.views import lots_view, lottery_view

    game = Game.open(db_path)
    same_round = lambda event: event.round == round_no  # noqa: E731
    name = step_file(game, f"round{round_no}-lottery-private", "lottery", same_round)
    outputs.refuse_taken([name])
    made = make_lottery(game, round_no, seed)
    roster = game.roster()
    public = render_public(
        "lottery.public.bbcode.j2", templates, lottery_view(made, roster, PREFIX)
    )
    private = render_private("lottery.private.j2", templates, lots_view(made, roster))
    outputs.hand_out(public, {name: private}, "签位（给执行斑竹或第三人的站内留言）")


@lottery.command()
@round_option
@click.option("--lot", type=int, required=True, help="第四人抽出的签号")
@db_option
@templates_option
@user_errors
def reveal(round_no: int, lot: int, db_path: Path, templates: Path | None) -> None:
    """公布抽签结果：出局者及其阵营。同时公开签位和密钥供核对。"""
    from killmod.announce import render_game_over, render_public
    from killmod.lottery import reveal_lottery
    from killmod.store import Game
    from killmod.views import reveal_view

    game = Game.open(db_path)
    drawn = reveal_lottery(game, round_no, lot)
    roster = game.roster()
    post(render_public("lottery.reveal.bbcode.j2", templates, reveal_view(drawn, roster)))
    if drawn.winner:
        post("\n" + render_game_over(drawn.winner, roster, templates))


@lottery.command()
@round_option
@click.option("--commitment", required=True, help="抽签前公布的承诺值（SHA-256）")
@click.option("--salt", required=True, help="公布结果时公开的密钥")
@click.option("--mapping", required=True, help='公布结果时公开的签位，如 "1=5,2=7"')
@templates_option
@user_errors
def verify(round_no: int, commitment: str, salt: str, mapping: str, templates: Path | None) -> None:
    """核对抽签：签位和密钥算出的 SHA-256 是否等于承诺值。

    承诺值是抽签前公布的；一致退出码 0，不一致退出码 1。
    """
    from killmod import lottery as lots
    from killmod.announce import render_public
    from killmod.views import verify_view

    lots_by_number = lots.parse_mapping(mapping)
    salt = salt.strip()
    same = lots.verify(commitment, round_no, lots_by_number, salt)
    view = verify_view(
        lots.canonical(round_no, lots_by_number, salt),
        lots.commitment(round_no, lots_by_number, salt),
        commitment.strip().lower(),
        same,
    )
    post(render_public("lottery.verify.text.j2", templates, view))
    if not same:
        sys.exit(1)
