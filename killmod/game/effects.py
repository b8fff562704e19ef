"""What a recorded step brings about besides itself: a warning's substitution or drowning,
and the end of the game (inside the step's transaction)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from killmod.core.model import GameOver, GameWarning
from killmod.core.times import format_iso
from killmod.game.state import verdict_for
from killmod.game.store import Game


def record_warning(
    game: Game,
    round_no: int,
    warning: GameWarning,
    *,
    reason: str,
    at: datetime,
    cause: dict[str, Any],
) -> None:
    """Record a warning and what it brings (inside a transaction).

    “警告一次，二次换替补，无替补出局”: with ``substitute`` the next substitute
    holds the seat from ``at`` on; with ``out`` the player drowns (淹死) unless
    already out (voted out the same day), announced ``at`` (his 诈尸 window opens
    then).  ``cause`` goes into every event.
    """
    roster = game.roster()
    holder = roster.seat(warning.seat)
    game.record(
        round_no,
        "warning",
        warning.seat,
        {"reason": reason, "total": warning.total, "action": warning.action, **cause},
    )
    if warning.action == "substitute":
        game.record(
            round_no,
            "substitution",
            warning.seat,
            {
                "old": holder.name,
                "old_uid": holder.uid,
                "new": warning.substitute,
                "new_uid": roster.substitute_uids.get(warning.substitute or ""),
                "at": format_iso(at),
                "by": "warnings",
                **cause,
            },
        )
    elif warning.action == "out" and holder.alive:
        data = {"how": "drowned", "at": format_iso(at), **cause}
        game.record(round_no, "death", warning.seat, data)


def record_if_over(
    game: Game, round_no: int, cause: dict, forced: GameOver | None = None
) -> GameOver | None:
    """After a recorded step: record the end of the game if it came (inside a transaction).

    The rule set's win check over the game's state, unless the step itself ended
    the game (``forced``: X's third tie is a draw).
    """
    over = forced or verdict_for(game)
    if over:
        game.record(round_no, "game_over", None, {**over.as_json(), **cause})
    return over
