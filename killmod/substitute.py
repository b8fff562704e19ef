"""A substitute takes over a seat by the judge's hand (``killmod sub``)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from killmod.deadline import parse_deadline
from killmod.errors import BadInput
from killmod.guards import refuse_if_over
from killmod.store import Game
from killmod.times import format_iso


def substitute(
    game: Game,
    seat: int,
    name: str,
    *,
    uid: int | None = None,
    at_text: str | None = None,
    now: datetime | None = None,
) -> str:
    """Record that ``name`` holds ``seat`` from ``at`` on; returns the old holder's name."""
    with game.transaction(kind="sub") as step:
        refuse_if_over(game)
        roster = game.roster()
        player = roster.seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位")
        if not player.alive:
            raise BadInput(f"{seat}号 {player.name} 已出局，不能替补")
        if any(p.name == name for p in roster.players):
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
    return player.name
