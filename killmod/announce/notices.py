"""A player's private notice (站内短信), as ``deal``, ``notices``, ``sub`` and the judge's page
write it: ``notice.j2``, a private template, over the notice's content."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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
