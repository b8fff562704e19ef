"""The night as a form (the judge's page): which night comes next, the choices the game's
rule set has for it, and the form's answers read as ``killmod night``'s options are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from killmod.core.errors import BadInput
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
    name, the rule set's options for it as (option, words), and whether the deaths'
    announcement time is asked (a set with 诈尸)."""

    night: int | None
    name: str
    options: tuple[tuple[str, str], ...]
    at: bool


def night_form(game: Game) -> NightForm:
    """The form of the game's next night."""
    rules = rule_set_of(game.roster())
    kind, round_no = game_status(game).upcoming
    night = rules.night_of_round(round_no) if kind == "night" else None
    options = tuple((o, WORDS[o]) for o in ORDER if o in rules.night_options)
    name = rules.night_name(night) if night is not None else ""
    return NightForm(night, name, options, rules.ZHASHI is not None)


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
