"""The other steps: 撤销 (with its confirmation), 历程 with its picture, and the index of
the steps a day may need (抽签, 替补, 出局, 请假, 处罚, 潜水: their own pages)."""

from __future__ import annotations

import base64
import tempfile
from pathlib import Path

from flask import Blueprint

from killmod.announce.handouts import story_view, undo_handout
from killmod.announce.render import render_public
from killmod.core.errors import KillmodError
from killmod.usecases.evidence import bundle_rounds
from killmod.usecases.gamefile import last_step
from killmod.usecases.history import chronicle
from killmod.usecases.undo import undo as undo_last
from killmod.web.pages import capturing, game, settings, show

pages = Blueprint("steps", __name__)


@pages.get("/steps")
def index():
    """The steps besides the day's vote and the night."""
    return show("web/steps.html.j2")


@pages.get("/undo")
def undo():
    """撤销: which step would be voided, to confirm."""
    with game() as opened:
        step = last_step(opened)
    return show("web/undo.html.j2", title=step.title if step else "")


@pages.post("/undo")
def undo_step():
    """The last step voided (``killmod undo``): kept in the file, marked void."""
    try:
        with game() as opened:
            deliver, captured = capturing(undo_handout(settings().templates))
            undo_last(opened, deliver=deliver)
    except KillmodError as error:
        return show("web/undo.html.j2", title="", error=error.message), 422
    return show("web/undo.html.j2", title="", undone=captured.public)


def _picture(view) -> str:
    """The history picture (``history --format png``) as a data: address, or "" without
    matplotlib (the ``plot`` extra)."""
    try:
        from killmod.announce.chart import draw_history, parse_labels
    except ImportError:
        return ""
    labels = parse_labels(render_public("history.chart.j2", settings().templates, view))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "history.png"
        try:
            draw_history(view.values["rows"], labels, path)
        except (ImportError, KillmodError):
            return ""
        return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode()


@pages.get("/history")
def history():
    """历程: the history post (``killmod history``) and its picture inline."""
    with game() as opened:
        story = chronicle(opened)
        bundles = bundle_rounds(opened)
    view = story_view(story)
    text = render_public("history.bbcode.j2", settings().templates, view)
    return show("web/history.html.j2", text=text, picture=_picture(view), bundles=bundles)
