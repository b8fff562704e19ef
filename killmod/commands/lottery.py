"""``killmod lottery make|reveal|show|verify``: the tie lottery of the 1.2 rules (四、平票处理)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from killmod.announce.outputs import Outputs, post, private_options
from killmod.commands.cli import user_errors
from killmod.commands.clitext import group
from killmod.commands.options import ROUND, db_option, templates_option
from killmod.commands.speak import Speaker, board_options, post_after, post_option, speaker

if TYPE_CHECKING:
    pass

round_option = click.option("--round", "round_no", type=ROUND, required=True, help="平票的是第几轮")


@group()
def lottery() -> None:
    """平票抽签：做签、公布结果、重发签位、核对。

    make 做签，reveal 公布结果，show 重发签位，verify 核对承诺值。
    """


@lottery.command()
@round_option
@click.option("--seed", type=int, help="随机种子（可复现；默认用 secrets 随机）")
@post_option
@db_option
@private_options("--out")
@templates_option
@board_options()
@user_errors
@speaker
def make(
    round_no: int,
    seed: int | None,
    post_url: str | None,
    db_path: Path,
    outputs: Outputs,
    templates: Path | None,
    speaker: Speaker,
) -> None:
    """为一轮平票做签。投票帖公告（承诺值）打印出来；给执行斑竹的站内留言（签位，保密）
    写进私密文件夹。"""
    from killmod.announce.handouts import lottery_handout
    from killmod.core.errors import BadInput
    from killmod.game.store import Game
    from killmod.usecases.lottery import make_lottery

    if post_url and outputs.print_secrets:
        raise BadInput("--post 不能与 --print-secrets 同用：签位是保密的。什么也没有记录。")
    with Game.open(db_path) as game:
        hand_out = lottery_handout(game, round_no, outputs, templates, capture=speaker.capture)
        make_lottery(game, round_no, seed, deliver=hand_out)
        post_after(game, speaker, post_url, templates)


@lottery.command()
@round_option
@db_option
@private_options("--out")
@templates_option
@user_errors
def show(round_no: int, db_path: Path, outputs: Outputs, templates: Path | None) -> None:
    """重发第 N 轮的签位：从游戏文件再写一份给执行斑竹的站内留言（丢了原来那份时用）。"""
    from killmod.announce.handouts import lots_message
    from killmod.game.store import Game
    from killmod.usecases.lottery import recorded_lottery

    with Game.open(db_path) as game:
        private = lots_message(game, recorded_lottery(game, round_no), templates)
    name = outputs.free_name(f"round{round_no}-lottery-private-again")
    outputs.secrets({name: private}, f"第 {round_no} 轮的签位（重发）")


@lottery.command()
@round_option
@click.option("--lot", type=int, required=True, help="第四人抽出的签号")
@post_option
@db_option
@templates_option
@board_options()
@user_errors
@speaker
def reveal(
    round_no: int,
    lot: int,
    post_url: str | None,
    db_path: Path,
    templates: Path | None,
    speaker: Speaker,
) -> None:
    """公布抽签结果：出局者及其阵营。同时公开签位和密钥供核对；--post 把结果回复到帖子。"""
    from killmod.announce.handouts import reveal_handout
    from killmod.game.store import Game
    from killmod.usecases.lottery import reveal_lottery

    with Game.open(db_path) as game:
        hand_out = reveal_handout(game, templates, capture=speaker.capture)
        reveal_lottery(game, round_no, lot, deliver=hand_out)
        post_after(game, speaker, post_url, templates)


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
    from killmod.announce.render import render_public
    from killmod.announce.views import verify_view
    from killmod.usecases import lottery as lots

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
