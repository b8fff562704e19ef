"""The lurking check's posts as ``lurkers`` and the judge's page write them: the public
post (and the game-over post when a drowning ended the game), and the message to each
lurker who can still be warned (站内短信, private)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

# What a count not recorded is, posted (``lurkers --post`` without ``--record``).
COUNT_WHAT = "潜水统计"

if TYPE_CHECKING:
    from killmod.announce.outputs import Outputs
    from killmod.game.delivery import Handout
    from killmod.game.store import Game
    from killmod.usecases.lurkers import LurkerReport


def lurkers_handout(
    game: Game,
    fmt: str,
    templates: Path | None,
    private_dir: Path | None = None,
    capture: Callable[[str], str] | None = None,
) -> Callable[[LurkerReport], Handout]:
    """``lurkers --record``'s hand-out: the post with the warnings recorded (handed to
    ``capture``), and the notice of each substitute a second warning brought in (a private
    file in ``private_dir``, by default the game's private folder)."""
    from killmod.announce.notices import hand_substitutes_their_notices
    from killmod.game.delivery import Handout

    def hand_out(report: LurkerReport) -> Handout:
        public = lurkers_post(game, report, fmt, templates)
        handout = Handout(public=capture(public) if capture else public)
        warnings = report.recorded.warnings if report.recorded else ()
        hand_substitutes_their_notices(game, warnings, handout, templates, private_dir)
        return handout

    return hand_out


def lurkers_post(game: Game, report: LurkerReport, fmt: str, templates: Path | None) -> str:
    """The lurkers post, and the game-over post when a drowning ended the game."""
    from killmod.announce.render import render_game_over, render_public
    from killmod.announce.views import lurkers_view
    from killmod.rules import rule_set

    contact = rule_set(game.roster().rules).LURKER_CONTACT
    text = render_public(f"lurkers.{fmt}.j2", templates, lurkers_view(report, contact))
    if report.recorded and report.recorded.winner:
        text += render_game_over(report.recorded.winner, game.roster(), templates)
    return text


def prods(
    game: Game, report: LurkerReport, outputs: Outputs, templates: Path | None
) -> dict[str, str]:
    """The message to each lurker who can still be warned, by private file name."""
    from killmod.announce.render import render_private
    from killmod.announce.views import prod_view
    from killmod.rules import rule_set
    from killmod.usecases.deal import notice_stem

    rules = rule_set(game.roster().rules)
    roster = game.roster()
    prefix = f"round{report.round}-" if report.round else ""
    return {
        outputs.free_name(f"{prefix}prod-{notice_stem(roster.seat(count.seat))}"): render_private(
            "prod.j2", templates, prod_view(report, count.seat, rules)
        )
        for count in report.lurkers
        if count.warnable
    }


def prods_note(report: LurkerReport) -> str:
    """What the judge does with the messages: warn those who go on, replace the others."""
    return (
        "先把提醒短信发给潜水的玩家：能继续游戏的，"
        f"killmod lurkers --round {report.round} --record 记警告；"
        "不能继续的，killmod sub 座位号 替补名 换替补。"
    )
