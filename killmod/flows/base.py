"""What every rule set's flow offers, and what most of them share.

A flow is a small adapter over one pure rule module (``killmod.rules``): the
use cases — ``killmod rules``, ``deal``, ``night``, ``tally``, ``suicide`` and the
win check — call the same methods whatever the set, and the flow turns them
into calls of that set's own functions. It holds no state of its own: the
game's state is rebuilt from the game file by ``killmod.game.state``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from killmod.core.errors import BadInput
from killmod.core.model import DayStep, GameOver, Outcome, Player, Stage
from killmod.rules.policy import KILLER, JudgeOut

if TYPE_CHECKING:  # the rule modules load with their flows, not with every command
    from killmod.game.store import Event
    from killmod.rules.r10 import KnifeCount
    from killmod.rules.variants import Notice

# The night options that name one seat (``check`` and ``guard`` hold several).
SEAT_OPTIONS = ("kill", "butterfly", "snipe", "inject", "silence", "pact", "possess")


@dataclass(frozen=True)
class NightChoice:
    """The judge's choices for one night (seats; None or empty: not used).

    ``check`` may hold two seats only in a 2.0 毒药 game (the second check after
    the first hit the 毒药); ``guard`` holds (guardian, guarded) pairs.
    """

    kill: int | None = None
    check: tuple[int, ...] = ()
    butterfly: int | None = None
    snipe: int | None = None
    inject: int | None = None
    silence: int | None = None
    pact: int | None = None
    possess: int | None = None
    guard: tuple[tuple[int, int], ...] = ()

    def used(self) -> set[str]:
        """The names of the options given."""
        return {f.name for f in fields(self) if getattr(self, f.name) not in (None, ())}

    def single_check(self) -> int | None:
        """The one seat checked, for the sets whose police check once a night."""
        if len(self.check) > 1:
            raise BadInput("警察每晚只能验一人：--check 只能给一次。")
        return self.check[0] if self.check else None

    def required_kill(self) -> int:
        """The killers' victim, for the sets where the kill is required."""
        if self.kill is None:
            raise BadInput("杀手每晚必须杀一人：请用 --kill 座位号。")
        return self.kill

    def as_json(self) -> dict[str, Any]:
        """The choices as stored in the night's event (what the replay reads back)."""
        data = {name: getattr(self, name) for name in self.used()}
        if "check" in data:
            data["check"] = list(self.check)
        if "guard" in data:
            data["guard"] = [list(pair) for pair in self.guard]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NightChoice:
        """Read back :meth:`as_json`."""
        return cls(
            **{k: v for k, v in data.items() if k in SEAT_OPTIONS},
            check=tuple(data.get("check", ())),
            guard=tuple((guardian, target) for guardian, target in data.get("guard", ())),
        )


@dataclass(frozen=True)
class NightSkill:
    """Who may send the judge one of the night's choices, and how theirs make one.

    ``option`` is the choice (a ``NightChoice`` field, or 1.2's ``veto``); ``actors``
    the seats entitled to it tonight.  ``split`` is how the actors' choices make the
    night's: ``each`` — each actor's own (a single role; the guardians, each his own
    guard); ``majority`` — the most named target, those who name none agreeing with the
    others, a tie no choice (``team_choice``); ``agree`` — one target only when all who
    named one named the same.  ``rule`` quotes the rule text the split follows.
    """

    option: str
    actors: tuple[int, ...]
    split: Literal["each", "majority", "agree"] = "each"
    rule: str = ""


@dataclass(frozen=True)
class Check:
    """A police check answered in private: the seat, what they are told, the judge's gesture."""

    seat: int
    identity: str
    gesture: str | None = None


@dataclass(frozen=True)
class NightPlay:
    """A night resolved: the new state, who is out, what is public and what is private.

    ``shown`` are the identities announced at dawn (the sets that turn the card);
    ``posts`` the rule text's dawn lines where it writes them; ``checks`` and
    ``notices`` are private; ``events`` explain the night to the judge only;
    ``document`` is the ``killmod.night/1`` JSON.
    """

    state: Any
    out: tuple[int, ...]
    document: dict[str, Any]
    shown: tuple[tuple[int, str], ...] = ()
    posts: tuple[str, ...] = ()
    checks: tuple[Check, ...] = ()
    notices: tuple[Notice, ...] = ()
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class OutPlay:
    """Players out by day (the vote, a suicide): the new state, who, what is shown, the posts.

    ``next`` is the round's next vote after a suicide that does not end the day.
    """

    state: Any
    out: tuple[int, ...]
    shown: tuple[tuple[int, str], ...] = ()
    posts: tuple[str, ...] = ()
    next: Stage | None = None


def night_document(night_no: int, play: NightPlay) -> dict[str, Any]:
    """The ``killmod.night/1`` document of a set without its own: out, shown, checks, notices."""
    return {
        "schema": "killmod.night/1",
        "round": night_no,
        "out": list(play.out),
        "shown": {str(seat): identity for seat, identity in play.shown},
        "checks": [{"seat": c.seat, "identity": c.identity} for c in play.checks],
        "notices": [{"to": n.to, "text": n.text} for n in play.notices],
    }


def with_document(play: NightPlay, night_no: int) -> NightPlay:
    """``play`` with its :func:`night_document`."""
    return replace(play, document=night_document(night_no, play))


def dealt_roles(players: Sequence[Player]) -> dict[int, str]:
    """Roles by seat; every role must be known (dealt, or written in the roster)."""
    missing = [player.seat for player in players if player.role is None]
    if missing:
        raise BadInput(
            f"{'、'.join(f'{seat}号' for seat in missing)}还没有身份："
            "先 killmod deal 发身份，或在名单里写 role。"
        )
    return {player.seat: player.role for player in players}


def out_at_start(players: Iterable[Player]) -> tuple[int, ...]:
    """The seats the roster sets up as already out (alive = false), in seat order."""
    return tuple(player.seat for player in players if not player.alive)


class Flow:
    """One rule set's flow. Subclasses set ``rules`` and implement ``start`` and ``vote_out``.

    ``state_is_roster``: the set's state is the roster the store derives (1.2),
    not replayed from the events. ``lottery``: a tie may be settled by
    ``killmod lottery``. ``night_base``: the number the judge gives the game's
    first night (V4.0 counts from 第零晚); night ``n`` belongs to round
    ``n + 1 - night_base``. ``first_night``: the first night with anything to
    record. ``night_options``: the ``killmod night`` options the set has (none:
    no night to record); a set with any defines
    ``night(state, choice, night_no) -> NightPlay``.
    """

    rules: ModuleType
    state_is_roster = False
    lottery = False
    night_base = 1
    first_night = 1
    night_options: frozenset[str] = frozenset()
    # The roles whose players know each other (the deal's notices name the partners).
    teams: tuple[frozenset[str], ...] = (frozenset({KILLER}),)

    def __init__(self, variants: tuple[str, ...] = (), code: str | None = None) -> None:
        self.variants = variants
        self.code = code

    @property
    def name(self) -> str:
        """The rule set's name, as in the roster."""
        return self.rules.NAME

    # --- the rule book ---------------------------------------------------------------

    def table(self) -> list[dict]:
        """Every row of the role table."""
        return self.rules.table()

    def table_row(self, players: int) -> dict:
        """The role table's row for ``players`` (``BadInput`` outside the set's range)."""
        return self.rules.table_row(players)

    def summary(self, players: int | None = None) -> list[str]:
        """The set's rules in Chinese lines."""
        return self.rules.summary(players)

    def decode(self, code: str) -> dict:
        """A version code read as a table row; only V4.0 has version codes."""
        raise BadInput(f"只有 V4.0 规则有版本号，{self.name} 规则没有。")

    def deal(self, seats: Iterable[int], rng: random.Random) -> dict[int, str]:
        """Roles by seat, by the table, shuffled with ``rng``."""
        return self.rules.deal(seats, rng)

    def powers(self, role: str) -> tuple[str, ...]:
        """What a player of ``role`` may do, in the rule text's words (the deal's notice)."""
        return self.rules.POWERS.get(role, ())

    # --- the state ---------------------------------------------------------------------

    def start(self, players: Sequence[Player]) -> Any:
        """The set's first state from the players as set up."""
        raise NotImplementedError

    def vote_out(self, state: Any, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """``seats`` put out by the day's vote of ``round_no``."""
        raise NotImplementedError

    def replay(self, state: Any, event: Event) -> Any:
        """The state after one recorded event (``killmod.game.state`` replays them in order)."""
        data = event.data
        if event.kind == "night":
            return self.night(state, NightChoice.from_json(data["choice"]), data["night"]).state
        if event.kind == "day" and data.get("voted"):
            return self.vote_out(state, tuple(data["voted"]), event.round).state
        if event.kind == "death" and data.get("how") == "lottery":
            return self.vote_out(state, (event.seat,), event.round).state
        if event.kind == "suicide":
            return self.suicide(state, event.seat, data["defending"]).state
        if event.kind == "out" and not data.get("surrender"):
            return self.judge_out(state, event.seat, data["reason"]).state
        return state

    def night_skills(self, state: Any) -> tuple[NightSkill, ...]:
        """Who may act tonight and how a team's choices make one: none by default."""
        return ()

    def round_of_night(self, night_no: int) -> int:
        """The game round a night belongs to (the night and the day after it)."""
        return night_no + 1 - self.night_base

    def night_of_round(self, round_no: int) -> int | None:
        """The number of the round's night, or None when it has nothing to record."""
        night_no = round_no - 1 + self.night_base
        return night_no if self.night_options and night_no >= self.first_night else None

    def check_first_kill(self, victim: str, previous: dict[str, Any] | None) -> None:
        """A rule on the first night's victim across games (X); none by default."""

    # --- the day -----------------------------------------------------------------------

    def first_stage(self) -> Stage:
        """The first vote of a round's day."""
        return Stage("vote")

    def silenced(self, state: Any) -> frozenset[int]:
        """The seats whose posts carry no ballot today (V4.0 癫狂); none by default."""
        return frozenset()

    def day(
        self, state: Any, stage: Stage, outcome: Outcome, round_no: int, knife: KnifeCount | None
    ) -> DayStep:
        """What a counted vote leads to; by default the top of the count is out."""
        if outcome.kind != "eliminated":
            return DayStep(stage)
        return self.out_step(state, stage, (outcome.seat,), round_no)

    def out_step(
        self,
        state: Any,
        stage: Stage,
        seats: tuple[int, ...],
        round_no: int,
        *,
        posts: tuple[str, ...] = (),
        knife: KnifeCount | None = None,
    ) -> DayStep:
        """The step of a vote that puts ``seats`` out: ``posts`` first, then the vote-out's."""
        out = self.vote_out(state, seats, round_no)
        return DayStep(stage, out.out, seats, out.shown, posts=(*posts, *out.posts), knife=knife)

    def suicide(self, state: Any, seat: int, defending: bool) -> OutPlay:
        """A killer shows his card and kills himself; only 2.0 has it."""
        raise BadInput(f"{self.name} 规则没有杀手亮牌自杀。")

    # --- the judge's own decisions -----------------------------------------------------

    @property
    def judge_outs(self) -> Mapping[str, JudgeOut]:
        """The judge's decisions the rule text writes (``killmod out --reason``), by code."""
        return self.rules.JUDGE_OUTS

    def judge_out(self, state: Any, seat: int, reason: str) -> OutPlay:
        """The judge puts ``seat`` out for ``reason``: the new state, what is shown, the posts."""
        raise BadInput(f"{self.name} 规则没有由法官判出局的规定。")

    def surrender(self, state: Any, seat: int) -> GameOver:
        """``seat`` surrenders for his side: the end of the game it makes."""
        raise BadInput(f"{self.name} 规则没有投降。")

    def verdict(self, state: Any) -> GameOver | None:
        """The end of the game, or None while it goes on."""
        return self.rules.check_win(state)
