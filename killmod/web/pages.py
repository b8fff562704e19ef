"""What every page of the judge's page shares: its settings, the game file, showing a page.

A page's template receives what a public template receives (the public pieces of
``killmod.announce.views`` and ``killmod.announce.tallyviews``, rendered posts, plain
words and numbers) and never a role: ``show`` refuses anything else, as
``render_public`` refuses a private view.  The one page that shows secrets, marked
仅法官可见, is shown by ``show_private`` from private views only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import current_app, render_template
from markupsafe import Markup

from killmod.announce.audience import PublicView
from killmod.announce.outputs import default_private_dir
from killmod.core.errors import KillmodError
from killmod.usecases.gamefile import open_game

PLAIN = (str, int, float, bool, type(None), Markup, datetime, date, timedelta, Path)
# Where a page's pieces may come from: the public views, and the page's own forms.
PUBLIC_MODULES = (
    "killmod.announce.views",
    "killmod.announce.tallyviews",
    "killmod.announce.roster_template",
    "killmod.web.",
)


@dataclass(frozen=True)
class Settings:
    """One server's settings: its game file, tokens, the judge's own post templates
    (sandboxed, as ``--templates``), the page cache and how often an open vote is counted."""

    db: Path
    token: str
    csrf: str
    templates: Path | None = None
    cache: Path | None = None
    refresh: int = 15
    interval: float = 16.0  # seconds between two posts (the board's flood control)

    @property
    def private_dir(self) -> Path:
        """The game's private folder (``killmod-private/`` beside ``killmod.db``)."""
        return default_private_dir(self.db)

    @property
    def board_cookies(self) -> Path:
        """The judge's board session (cookies.txt, 0600) in the private folder."""
        return self.private_dir / "board-cookies.txt"


def settings() -> Settings:
    """The running server's settings."""
    return current_app.config["KILLMOD"]


@contextmanager
def game() -> Iterator[Any]:
    """The game file, open for one request (every step is in it when the request ends)."""
    with open_game(settings().db) as opened:
        yield opened


def public(value: Any, where: str = "page") -> None:
    """Refuse ``value`` unless a public page may hold it: plain data, public views and
    their pieces, the page's own form data — never a roster, a player with a role, a
    private view."""
    if isinstance(value, PLAIN):
        return
    if isinstance(value, PublicView):
        public(value.values, where)
        return
    if isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            public(item, where)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            public(key, where)
            public(item, where)
        return
    module = type(value).__module__
    if dataclasses.is_dataclass(value) and module.startswith(PUBLIC_MODULES):
        for piece in dataclasses.fields(value):
            public(getattr(value, piece.name), where)
        return
    if (
        dataclasses.is_dataclass(value)
        and module == "killmod.core.model"
        and not any(
            piece.name in ("role", "roles", "players") for piece in dataclasses.fields(value)
        )
    ):
        return  # a ballot, a count, an outcome, a verdict: the public model's facts
    raise TypeError(f"{where} is public: it may not hold {type(value).__name__}")


def show(template: str, **values: Any) -> str:
    """A page of the judge's page, from public values only (``public``)."""
    for name, value in values.items():
        public(value, f"{template}:{name}")
    return render_template(template, **values)


def show_private(template: str, **views: Any) -> str:
    """The page marked 仅法官可见: private views and the private texts rendered from them."""
    if not template.startswith("web/private"):
        raise TypeError(f"{template} is no private page")
    return render_template(template, **views)


def refusal(error: KillmodError, fields: Mapping[str, str] | None = None) -> dict[str, Any]:
    """A use case's refusal in its own words, for the page: beside the form's field it is
    about (``fields``: the command's option, as the error names it → the form's field),
    else at the top."""
    return {"error": error.message, "error_field": (fields or {}).get(error.option or "")}


@dataclass
class Captured:
    """What a recorded step handed out: its public post and its notes for the judge, kept
    for the page instead of going to the server's stdout and stderr."""

    public: str = ""
    notes: list[str] = dataclasses.field(default_factory=list)


def capturing(build: Callable[[Any], Any]) -> tuple[Callable[[Any], Any], Captured]:
    """A ``deliver`` for a use case from a command's hand-out builder: the private files are
    written as the command writes them; the public post and the notes are kept for the page."""
    captured = Captured()

    def deliver(result: Any) -> Any:
        handout = build(result)
        captured.public, captured.notes = handout.public, list(handout.notes)
        handout.public, handout.notes = "", []
        return handout

    return deliver, captured
