"""A substitute takes over a seat by the judge's hand (``killmod sub``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from killmod.ballots.deadline import parse_deadline
from killmod.core.errors import BadInput
from killmod.core.model import Roster
from killmod.core.names import fold
from killmod.core.times import format_iso
from killmod.game.guards import refuse_if_over
from killmod.game.store import Delivery, Game


@dataclass(frozen=True)
class Substitution:
    """A substitution recorded: the seat, who left it, who holds it from ``at`` on, and the
    game's seats after it (the substitute in the seat, its role unchanged)."""

    seat: int
    old: str
    new: str
    at: datetime
    roster: Roster


def substitute(
    game: Game,
    seat: int,
    name: str,
    *,
    uid: int | None = None,
    at_text: str | None = None,
    now: datetime | None = None,
    deliver: Callable[[Substitution], Delivery] | None = None,
) -> Substitution:
    """Record that ``name`` holds ``seat`` from ``at`` on; ``deliver`` renders the public
    post and the substitute's notice, written before the step is committed."""
    with game.transaction(kind="sub") as step:
        refuse_if_over(game)
        roster = game.roster()
        player = roster.seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位")
        if not player.alive:
            raise BadInput(f"{seat}号 {player.name} 已出局，不能替补")
        # Names compare folded (case, width, traditional and simplified): the tally could
        # not tell the substitute from a player named or nicknamed alike.
        if any(fold(name) in {fold(n) for n in (p.name, *p.aliases)} for p in roster.players):
            raise BadInput(f"{name} 已经在本局的座位上")
        tz = ZoneInfo(roster.timezone)
        now = (now or datetime.now(tz)).astimezone(tz)
        at = parse_deadline(at_text, tz, now) if at_text else now.replace(microsecond=0)
        step.describe(f"{seat}号的替补：{name} 接替 {player.name}")
        game.record(
            None,
            "substitution",
            seat,
            {
                "old": player.name,
                "old_uid": player.uid,
                "new": name,
                "new_uid": uid,
                "at": format_iso(at),
                "by": "judge",
            },
        )
        done = Substitution(seat, player.name, name, at, game.roster())
        if deliver is not None:
            step.deliver(deliver(done))
    return done
