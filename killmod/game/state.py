"""The game's state under its rule set, rebuilt from the game file — the one place it is built.

The game file keeps what the judge recorded — the deal, each night's choices,
each day's votes, suicides, lotteries — as events. A rule set's state is its
first state (``RuleSet.start``, from the players as set up) with those events
replayed in order through the set's pure functions (``RuleSet.replay``). 1.2's
state is the roster the store derives from the same events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from killmod.core.model import GameOver, Roster, Stage
from killmod.rules import rule_set_of
from killmod.rules.base import RuleSet

if TYPE_CHECKING:  # a tally from a roster file opens no game file
    from killmod.game.store import Event, Game

# The events that make up a round's day: its votes, and the suicides that end or restart it;
# a judge's decision that takes the place of the vote (X 认匪) ends it too.
DAY_EVENTS = ("day", "suicide")


def is_day_event(event: Event) -> bool:
    """Whether ``event`` is one of a round's day: a vote, a suicide, or the judge's decision
    that ends the day or voids its pending vote."""
    if event.kind == "out":
        return bool(event.data.get("ends_day") or event.data.get("restarts_day"))
    return event.kind in DAY_EVENTS


@dataclass(frozen=True)
class GameState:
    """The game now: its rule set's rules, the roster, and the set's own state."""

    rules: RuleSet
    roster: Roster
    state: Any


def state_for(
    game: Game, *, without_tally: int | None = None, before: int | None = None
) -> GameState:
    """The game's state: ``without_tally`` leaves out one recorded tally's effects,
    ``before`` every event from that event id on but the judge's corrections of who is who
    (``killmod.game.store.CORRECTIONS``, which only the roster holds).  Replayed once for
    each state of the file (``Game.derived``)."""
    key = ("state", without_tally, before)
    return game.derived(key, lambda: _replay(game, without_tally, before))


def _replay(game: Game, without_tally: int | None, before: int | None) -> GameState:
    """The rule set's first state with the standing events replayed in order."""
    roster = game.roster(without_tally=without_tally, before=before)
    rules = rule_set_of(roster)
    if rules.state_is_roster:
        return GameState(rules, roster, roster)
    state = rules.start(game.initial_players())
    for event in game.events():
        if before is not None and event.id >= before:
            break
        if without_tally is None or event.data.get("tally_id") != without_tally:
            state = rules.replay(state, event)
    return GameState(rules, roster, state)


def verdict_for(game: Game) -> GameOver | None:
    """The end of the game by its rule set's win check, or None while it goes on."""
    current = state_for(game)
    return current.rules.verdict(current.state)


# --- the round's day --------------------------------------------------------------------


def round_votes(game: Game, round_no: int, *, without_tally: int | None = None) -> list[Event]:
    """The round's recorded votes, suicides and day-ending outs, in order."""
    return [
        event
        for event in game.events()
        if event.round == round_no
        and is_day_event(event)
        and (without_tally is None or event.data.get("tally_id") != without_tally)
    ]


def next_stage(
    rules: RuleSet, game: Game, round_no: int, *, without_tally: int | None = None
) -> Stage | None:
    """The round's next vote: its first when none is recorded; None once the day is over.

    The day is over when its last recorded vote leads to no other (someone is
    out, or the night follows) or a lottery settled its tie.
    """
    votes = round_votes(game, round_no, without_tally=without_tally)
    if not votes:
        return rules.first_stage()
    drawn = [
        e
        for e in game.events("lottery_reveal")
        if e.round == round_no
        and (without_tally is None or e.data.get("tally_id") != without_tally)
    ]
    following = votes[-1].data.get("next")
    return Stage.from_json(following) if following and not drawn else None


# --- a recorded vote counted again ------------------------------------------------------


@dataclass(frozen=True)
class CountedOn:
    """What a recorded vote was counted on: the game's state before the step that recorded
    it (``before``: that step's first event) and the vote's stage."""

    before: int
    state: GameState
    stage: Stage


def counted_on(game: Game, tally: Mapping[str, Any]) -> CountedOn | None:
    """The state and stage the standing recorded tally ``tally`` (its row) was counted on:
    every standing event before its step, and the judge's corrections of who is who since
    (``killmod.game.store.CORRECTIONS``).  None when the file cannot tell: the step wrote
    no event (a tally an older killmod recorded alone, ``killmod.game.upgrade``)."""
    events = [event for event in game.events() if event.step == tally["step_id"]]
    if not events:
        return None
    before = events[0].id
    state = state_for(game, before=before)
    days = [e for e in events if e.kind == "day" and e.data.get("tally_id") == tally["id"]]
    recorded = days[0].data.get("stage") if days else None
    stage = Stage.from_json(recorded) if recorded else state.rules.first_stage()
    return CountedOn(before, state, stage)


def day_rounds(game: Game) -> set[int]:
    """The rounds with a day recorded: a vote, or a decision that took its place."""
    return {
        event.round
        for event in game.events()
        if event.kind == "day" or (event.kind == "out" and event.data.get("ends_day", False))
    }


def day_goes_on(game: Game, round_no: int) -> bool:
    """Whether the round's day has votes recorded and another to come."""
    if not round_votes(game, round_no):
        return False
    return next_stage(rule_set_of(game.roster()), game, round_no) is not None


def previous_game(game: Game) -> dict[str, Any] | None:
    """The summary of the game played before this one in the same file, if any."""
    games = game.previous_games()
    return games[-1] if games else None


def start_next_game(game: Game, roster: Roster) -> dict[str, Any]:
    """Close the file's current game and set up ``roster`` as the next one; the summary kept.

    The summary names the first night's victim (X: the killers may not kill the
    same player in the first round of two games running), the winner and the
    roles, so that the file remembers earlier games while only the new one is
    played.
    """
    from killmod.rules.roles import check_roster_roles

    roster = check_roster_roles(roster)
    with game.transaction(when_over=True):
        summary = _summary(game)
        game.next_game(roster, summary)
    return summary


def _summary(game: Game) -> dict[str, Any]:
    roster = game.roster()
    kills = [_kill(e) for e in game.events("night") if _kill(e) is not None]
    first = roster.seat(kills[0]) if kills else None
    over = game.events("game_over")
    return {
        "rules": roster.rules,
        "first_victim": first.name if first else None,
        "over": {k: over[-1].data.get(k) for k in ("winner", "reason")} if over else None,
        "players": [
            {"seat": p.seat, "name": p.name, "role": p.role, "alive": p.alive}
            for p in roster.players
        ],
    }


def _kill(night: Event) -> int | None:
    """The seat a recorded night's killers chose (1.2 keeps it beside the veto)."""
    return night.data.get("choice", night.data).get("kill")
