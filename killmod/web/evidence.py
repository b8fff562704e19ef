"""下载证据包: a recorded round's evidence bundle (``killmod evidence --round N``), the zip any
player checks the count with (``killmod verify``); a public file, nothing secret in it."""

from __future__ import annotations

from flask import Blueprint, Response

from killmod.core.errors import KillmodError
from killmod.usecases.evidence import evidence
from killmod.web.pages import game, show

pages = Blueprint("evidence", __name__)


@pages.get("/evidence/<int:round_no>")
def download(round_no: int):
    """The round's bundle as a download, the same bytes ``killmod evidence`` writes."""
    try:
        with game() as opened:
            made = evidence(opened, round_no)
    except KillmodError as error:
        return show("web/evidence.html.j2", error=error.message), 404
    return Response(
        made.data,
        mimetype="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{made.name}"'},
    )
