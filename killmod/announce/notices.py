"""A player's private notice (站内短信), as ``deal``, ``notices``, ``sub`` and the judge's page
write it: ``notice.j2``, a private template, over the notice's content; and the notice of a
substitute who takes a seat by a warning, handed out with the step that gives it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from killmod.core.model import GameWarning
    from killmod.game.delivery import Handout
    from killmod.game.store import Game
    from killmod.usecases.deal import NoticeContent


def notice_renderer(templates: Path | None) -> Callable[[NoticeContent], str]:
    """How a player's notice is written: ``notice.j2`` (a private template) over its content."""
    from killmod.announce.render import render_private
    from killmod.announce.views import notice_view

    def render(content: NoticeContent) -> str:
        view = notice_view(
            content.player, content.game, content.partners, content.powers, content.judges
        )
        return render_private("notice.j2", templates, view)

    return render


def hand_substitutes_their_notices(
    game: Game,
    warnings: Iterable[GameWarning],
    handout: Handout,
    templates: Path | None,
    private_dir: Path | None = None,
) -> None:
    """Inside a step whose warnings bring substitutes: each gets the seat's notice in his
    own name, a private file written with the step (in ``private_dir``, by default the
    game's private folder), and the judge is told who took which seat and how to send it.

    The file is named as ``killmod sub`` names it (``09-替补甲.txt``), counting this seat's
    earlier substitutions by the same substitute but not the one being recorded.
    """
    from killmod.announce.outputs import default_private_dir, step_file
    from killmod.core.model import Player
    from killmod.usecases.deal import notice_stem, notices

    entering = [w for w in warnings if w.action == "substitute" and w.substitute]
    if not entering:
        return
    roster = game.roster()  # with this step's substitutions
    folder = private_dir or default_private_dir(game.path)
    current = game.head()  # the step being recorded
    texts = (
        notices(roster, notice_renderer(templates)) if all(p.role for p in roster.players) else {}
    )
    for warning in entering:
        seat, new = warning.seat, warning.substitute
        line = f"{seat}号：替补 {new} 接替 {warning.name}（第 {warning.total} 次警告），身份不变。"
        if seat not in texts:
            handout.notes.append(line + "还没有发身份：发身份时替补会收到这个座位的短信。")
            continue
        name = step_file(
            game,
            notice_stem(Player(seat, new)),
            "substitution",
            lambda e, seat=seat, new=new: (
                (e.seat, e.data.get("new")) == (seat, new) and e.step != current
            ),
        )
        path = handout.add_private(folder / name, texts[seat])
        uid = roster.seat(seat).uid
        send = (
            f"发给他：killmod notices --seat {seat} --send"
            if uid is not None
            else "名单没有给他的 uid，站内短信要手工发"
        )
        handout.notes.append(
            f"{line}他的站内短信（{seat}号的身份）写在 {path}，只有你能读；{send}。"
        )
