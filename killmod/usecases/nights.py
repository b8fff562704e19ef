"""The night of every rule set but 1.2 (whose night is ``killmod.usecases.night``),
resolved by its flow.

One step: the night — its round, the number the judge gave it and the judge's
choices, which is all the replay reads back — its deaths and the win check after
it are all written, or nothing is; every check that allows it runs inside it.
Recording a night again (``replace``) voids the old one and what it caused (kept
in the file); only the latest night can be recorded again, as every later step
was resolved on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from killmod.core.errors import BadInput
from killmod.core.model import GameOver
from killmod.flows.base import Flow, NightChoice, NightPlay
from killmod.game.effects import record_if_over
from killmod.game.guards import (
    already_recorded,
    expect_night,
    refuse_if_over,
    refuse_unless_latest,
    require_dealt,
)
from killmod.game.state import flow_of, previous_game, state_for
from killmod.game.store import Delivery, Game
from killmod.usecases.night import standing_night, void_old_night

_GUARD = re.compile(r"\s*(\d+)\s*=\s*(\d+)\s*")


@dataclass(frozen=True)
class SetNight:
    """A recorded night: its number, the game round it belongs to, what it did, the game's end."""

    night: int
    round: int
    play: NightPlay
    winner: GameOver | None


def parse_guards(texts: Iterable[str]) -> tuple[tuple[int, int], ...]:
    """``--guard 8=3``: guardian 8 guards seat 3 this round."""
    pairs = []
    for text in texts:
        match = _GUARD.fullmatch(text)
        if match is None:
            raise BadInput(
                f"守护名单写法不对：「{text}」。应写作 守护神座位号=被守护座位号，如 8=3"
            )
        pairs.append((int(match[1]), int(match[2])))
    return tuple(pairs)


def record_set_night(
    game: Game,
    night_no: int,
    choice: NightChoice,
    *,
    replace: bool = False,
    deliver: Callable[[SetNight], Delivery] | None = None,
) -> SetNight:
    """Resolve night ``night_no`` over the game's state, record it and its deaths, check the win."""
    with game.transaction(f"第 {night_no} 夜", kind="night") as step:
        flow = flow_of(game.roster())
        _check_choice(flow, choice, night_no)
        round_no = flow.round_of_night(night_no)
        step.describe(round_no=round_no)
        existing = standing_night(game, round_no)
        if existing and not replace:
            raise already_recorded(
                f"第 {night_no} 夜", existing.recorded_at, game.roster().timezone
            )
        if existing:
            refuse_unless_latest(game, existing.step, f"第 {existing.data['night']} 夜", "一夜")
        else:
            refuse_if_over(game)
        expect_night(game, flow, night_no)
        require_dealt(game)
        data = {"night": night_no, "choice": choice.as_json()}
        night_id = game.record(round_no, "night", None, data)
        if existing:
            void_old_night(game, existing, night_id)
        refuse_if_over(game)
        current = state_for(game, before=night_id)
        play = flow.night(current.state, choice, night_no)
        if choice.kill is not None and _first_night(game, night_id):
            flow.check_first_kill(current.roster.seat(choice.kill).name, previous_game(game))
        for seat in play.out:
            game.record(round_no, "death", seat, {"how": "night", "night_id": night_id})
        winner = record_if_over(game, round_no, {"night_id": night_id})
        night = SetNight(night_no, round_no, play, winner)
        if deliver is not None:
            step.deliver(deliver(night))
    return night


def _check_choice(flow: Flow, choice: NightChoice, night_no: int) -> None:
    """The options must be the set's, and the night one with something to record."""
    if not flow.night_options:
        raise BadInput(f"{flow.name} 规则的夜晚不杀人，没有要记录的行动：不用 killmod night。")
    unknown = sorted(choice.used() - flow.night_options)
    if unknown:
        names = "、".join(f"--{name}" for name in unknown)
        raise BadInput(f"{flow.name} 规则的夜晚没有 {names}。")
    if night_no < flow.first_night:
        raise BadInput(
            f"{flow.name} 规则要记录的夜晚从第 {flow.first_night} 夜开始"
            f"（第 {night_no} 夜没有要记录的行动）。"
        )


def _first_night(game: Game, night_id: int) -> bool:
    """Whether the night being recorded is the game's first."""
    return all(event.id == night_id for event in game.events("night"))
