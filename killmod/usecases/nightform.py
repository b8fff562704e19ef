"""The night as a form (the judge's page): which night comes next, the choices the game's
rule set has for it, and the form's answers read as ``killmod night``'s options are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from killmod.core.errors import BadInput
from killmod.game.guards import pending_day
from killmod.game.state import rule_set_of
from killmod.game.store import Game
from killmod.rules.base import NightChoice
from killmod.usecases.inbox import OPTION_NAMES
from killmod.usecases.night import parse_guards
from killmod.usecases.status import game_status

# The form's order, and the words of the options the inbox has no name for.
ORDER = (
    "kill",
    "extra_kills",
    "veto",
    "check",
    "butterfly",
    "snipe",
    "inject",
    "silence",
    "pact",
    "possess",
    "guard",
)
WORDS = {**OPTION_NAMES, "extra_kills": "再杀一人（处罚增加的特殊权力）"}
# The options that may name several seats (a second one: a penalty's extra power).
SEVERAL = frozenset({"veto", "check"})


@dataclass(frozen=True)
class NightForm:
    """The night to record next (``night``: None when the next step is no night), its
    name, the rule set's options for it as (option, words), whether the deaths'
    announcement time is asked (a set with 诈尸), and the day recording it skips
    (``skips``: ``night --skip-day``; None for a night that comes next anyway)."""

    night: int | None
    name: str
    options: tuple[tuple[str, str], ...]
    at: bool
    skips: int | None = None


def night_form(game: Game, *, skip_day: bool = False) -> NightForm:
    """The form of the game's next night; with ``skip_day``, of the night after the day
    that may be skipped (``skippable_day``; when there is none, of the next night as
    without it)."""
    rules = rule_set_of(game.roster())
    kind, round_no = game_status(game).upcoming
    skips = skippable_day(game) if skip_day else None
    if skips is not None:
        night = rules.night_of_round(skips + 1)
    else:
        night = rules.night_of_round(round_no) if kind == "night" else None
    options = tuple((o, WORDS[o]) for o in ORDER if o in rules.night_options)
    name = rules.night_name(night) if night is not None else ""
    return NightForm(night, name, options, rules.ZHASHI is not None, skips)


def skippable_day(game: Game) -> int | None:
    """The round whose day comes next though its vote is not recorded after its night —
    the day the judge may decide to skip to record the next night (``night --skip-day``,
    recorded with that night, undone with it); None when the next step is no such day (a
    tie waiting for its lottery, a day already counted, a set with no night after it)."""
    state = game_status(game)
    kind, round_no = state.upcoming
    day = pending_day(game)
    if kind != "day" or day != round_no or state.pending_lottery or not state.dealt:
        return None
    rules = rule_set_of(state.roster)
    return day if rules.night_of_round(day + 1) is not None else None


def _seat(text: str, option: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not text.isdigit():
        raise BadInput(f"{WORDS.get(option, option)}要选一个座位，现在是「{text}」。")
    return int(text)


def night_choice(answers: Mapping[str, Sequence[str]]) -> NightChoice:
    """The night's choices from the form's answers: each option its seats (empty: not
    used); ``guard`` as ``守护神=目标`` lines."""

    def seats(option: str) -> tuple[int, ...]:
        found = (_seat(text, option) for text in answers.get(option, ()))
        return tuple(seat for seat in found if seat is not None)

    def one(option: str) -> int | None:
        chosen = seats(option)
        return chosen[0] if chosen else None

    guards = [line for text in answers.get("guard", ()) for line in text.split() if line]
    return NightChoice(
        kill=one("kill"),
        extra_kills=seats("extra_kills"),
        veto=seats("veto"),
        check=seats("check"),
        butterfly=one("butterfly"),
        snipe=one("snipe"),
        inject=one("inject"),
        silence=one("silence"),
        pact=one("pact"),
        possess=one("possess"),
        guard=parse_guards(guards),
    )
