"""The game file opened and made by a caller that is no command: the judge's page.

The commands open the game file themselves (``Game.open``); the page, which may import
nothing below the use cases, opens it here, and makes a new one from a roster's text (a
form or an imported file) as ``killmod init`` makes it from a file.
"""

from __future__ import annotations

from pathlib import Path

from killmod.core.model import Roster
from killmod.game.roster import parse_roster
from killmod.game.state import start_next_game
from killmod.game.store import Game, StepRecord


def open_game(path: Path) -> Game:
    """The game file at ``path`` (a missing, foreign or damaged file is ``BadInput``)."""
    return Game.open(path)


def game_exists(path: Path) -> bool:
    """Whether there is a file at ``path`` (it may still be no game file)."""
    return path.exists()


def read_roster(text: str, source: str) -> Roster:
    """The roster in the TOML ``text``; a mistake is ``BadInput`` naming ``source``, the line
    and the key."""
    return parse_roster(text, source)


def create_game(
    path: Path, roster: Roster, *, force: bool = False, next_game: bool = False
) -> None:
    """A new game file from ``roster`` (0600), or the next game in the file at ``path``
    (the earlier game's record kept) — what ``killmod init`` does."""
    if next_game:
        with Game.open(path) as game:
            start_next_game(game, roster)
        return
    Game.create(path, roster, force=force).close()


def last_step(game: Game) -> StepRecord | None:
    """The latest standing step (what ``undo`` would void), for the page to name it."""
    return game.last_step()
