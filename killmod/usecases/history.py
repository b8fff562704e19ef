"""The whole game at a glance (``killmod history``, and ``status``'s dead): every recorded
vote's final ballots and changes, who went out, when, how and as what, each seat's holders.

Built from the game file's standing events and recorded tallies only; what it says is
public: a vote's ballots and changes (the vote thread shows them), how a player went out,
and the identity the rule set announced for him — 1.2 the camp of every dead player
(五、身份公布), the other sets what their rule text turns over (replayed through the set's
rules: a night's 翻牌, a suicide's card), nothing of a hidden night effect.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from killmod.core.model import Ballot, Change, Count, GameOver, Outcome
from killmod.game.store import Event, Game
from killmod.rules import rule_set_of
from killmod.rules.base import NightChoice


@dataclass(frozen=True)
class Vote:
    """One recorded vote of a round: its stage, deadline, final ballots, changes and count."""

    round: int
    stage: str
    deadline: datetime
    ballots: tuple[Ballot, ...]
    changes: tuple[Change, ...]
    counts: tuple[Count, ...]
    outcome: Outcome
    source: str
    out: tuple[int, ...] = ()  # whom the vote put out
    defender: int | None = None  # a 动刀's defender


@dataclass(frozen=True)
class Departure:
    """A player out: the round, the seat and who held it, how, the identity announced;
    ``when`` names the round (第 2 轮), or the night for a night's death as the dawn post
    names it (1.2 第 2 轮的夜晚, V4.0 第 1 夜)."""

    round: int | None
    seat: int
    name: str
    how: str
    shown: str | None
    when: str | None = None


@dataclass(frozen=True)
class Holder:
    """Someone who held a seat, until ``until`` (None: holds it now)."""

    name: str
    until: datetime | None = None


@dataclass(frozen=True)
class Chronicle:
    """The game so far: its votes and departures in order, the seats' holders, the end."""

    rules: str
    seats: tuple[int, ...]
    holders: dict[int, tuple[Holder, ...]]
    votes: tuple[Vote, ...]
    departures: tuple[Departure, ...]
    winner: GameOver | None

    def departure(self, seat: int) -> Departure | None:
        """How the player in ``seat`` went out (the last time), if he is out."""
        found = [d for d in self.departures if d.seat == seat]
        return found[-1] if found else None

    def name(self, seat: int) -> str:
        """The seat's current holder."""
        return self.holders[seat][-1].name


def chronicle(game: Game) -> Chronicle:
    """The game's history from the game file."""
    roster = game.roster()
    holders = {
        player.seat: (*(Holder(f.name, f.until) for f in player.former), Holder(player.name))
        for player in roster.players
    }
    tallies = {row["id"]: row for row in game.tallies()}
    votes = tuple(_vote(row) for row in tallies.values())
    over = game.events("game_over")
    return Chronicle(
        rules=roster.rules,
        seats=tuple(sorted(holders)),
        holders=holders,
        votes=votes,
        departures=_departures(game, tallies),
        winner=GameOver.from_json(over[-1].data) if over else None,
    )


def _vote(row: dict[str, Any]) -> Vote:
    """A recorded tally as the history shows it (its ``killmod.tally/1`` document)."""
    data = json.loads(row["result"])
    outcome = data["outcome"]
    day = data.get("day") or {}
    stage = day.get("stage") or {}
    return Vote(
        round=row["round"],
        stage=stage.get("kind", "vote"),
        deadline=datetime.fromisoformat(row["deadline"]),
        ballots=tuple(
            Ballot(
                b["seat"],
                b["name"],
                b["kind"],
                b["target"],
                b["floor"],
                datetime.fromisoformat(b["posted_at"]) if b["posted_at"] else None,
            )
            for b in data["ballots"]
        ),
        changes=tuple(
            Change(
                c["seat"], c["floor"], c["from"], c["to"], datetime.fromisoformat(c["posted_at"])
            )
            for c in data["changes"]
        ),
        counts=tuple(
            Count(c["seat"], c["name"], c["votes"], tuple(c["voters"])) for c in data["counts"]
        ),
        outcome=Outcome(outcome["kind"], outcome.get("seat"), tuple(outcome.get("seats", ()))),
        source=row["source"],
        out=tuple(day.get("out", ())),
        defender=stage.get("defender"),
    )


def _departures(game: Game, tallies: dict[int, dict[str, Any]]) -> tuple[Departure, ...]:
    """Every death in order, with the identity the rule set announced for it."""
    roster = game.roster()
    rules = rule_set_of(roster)
    shown: dict[int, str] = {}
    players = game.initial_players()
    dealt = all(player.role for player in players)
    state = None if rules.state_is_roster or not dealt else rules.start(players)
    names = {player.seat: player.name for player in game.initial_players()}
    deaths = []
    for event in game.events():
        if event.kind == "substitution":
            names[event.seat] = event.data["new"]
        if event.kind == "death":
            how = event.data.get("causes", [event.data.get("how")])[0]
            when = _when(rules, event)
            deaths.append((event.round, event.seat, names[event.seat], how, when))
        if state is not None:
            state = _replay(rules, state, event, tallies, shown)
    # An identity turned over later is announced all the same (1.0: the first out's card
    # once the second out is a killer).
    return tuple(
        Departure(
            round_no,
            seat,
            name,
            how,
            rules.announced_camp(roster.seat(seat).role)
            if rules.state_is_roster
            else shown.get(seat),
            when,
        )
        for round_no, seat, name, how, when in deaths
    )


def _when(rules, death: Event) -> str | None:
    """The round of a death, or the night for a night's (by the number ``night`` takes)."""
    if death.round is None:
        return None
    night = rules.night_of_round(death.round) if "night_id" in death.data else None
    return rules.night_name(night) if night is not None else f"第 {death.round} 轮"


def _replay(rules, state, event: Event, tallies, shown: dict[int, str]):
    """The state after ``event``, noting the identities the rule text turned over with it."""
    data = event.data
    if event.kind == "night":
        play = rules.night(state, NightChoice.from_json(data["choice"]), data["night"])
        shown.update(dict(play.shown))
        return play.state
    if event.kind == "day":
        row = tallies.get(data.get("tally_id"))
        day = json.loads(row["result"]).get("day") if row else None
        shown.update(
            {int(seat): identity for seat, identity in (day or {}).get("shown", {}).items()}
        )
    elif event.kind == "suicide":
        shown.update(dict(rules.suicide(state, event.seat, data["defending"]).shown))
    elif event.kind == "out" and not data.get("surrender"):
        shown.update(dict(rules.judge_out(state, event.seat, data["reason"]).shown))
    return rules.replay(state, event)
