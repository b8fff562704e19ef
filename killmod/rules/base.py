"""The one interface every rule set implements (``RuleSet``), and the plain data it speaks.

A rule set is one module of ``killmod.rules`` holding its pure functions and one
``RuleSet`` subclass over them: its table, tally policy, day and night flow, reveal
policy and win check. The use cases — ``killmod rules``, ``deal``, ``night``, ``tally``,
``out``, ``suicide`` and the win check — call these members whatever the set and never
ask which set it is. A rule set holds no state of its own: the game's state is rebuilt
from the game file by ``killmod.game.state``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import timedelta
from typing import Any, ClassVar, Literal, Protocol

from killmod.core.errors import BadInput
from killmod.core.model import DayStep, GameOver, KnifeCount, Outcome, Player, Stage
from killmod.rules.policy import KILLER, JudgeOut, TallyPolicy

# The night options that name one seat (``check``, ``veto``, ``guard`` and
# ``extra_kills`` hold several).
SEAT_OPTIONS = ("kill", "butterfly", "snipe", "inject", "silence", "pact", "possess")


class Recorded(Protocol):
    """What a rule set reads of a recorded event when it replays the game file."""

    kind: str
    round: int
    seat: int | None
    data: dict[str, Any]


@dataclass(frozen=True)
class NightNotice:
    """A private message from the judge: ``to`` a seat, or to ``警察`` (the whole team)."""

    to: int | str
    text: str


@dataclass(frozen=True)
class NightChoice:
    """The judge's choices for one night (seats; None or empty: not used).

    ``check`` may hold two seats only in a 2.0 毒药 game (the second check after
    the first hit the 毒药); ``guard`` holds (guardian, guarded) pairs;
    ``extra_kills`` the killers' victims after ``kill`` (1.2: an extra power a
    penalty gives); ``veto`` the 检查官's veto and the 好人方's extra one (1.2).
    """

    kill: int | None = None
    extra_kills: tuple[int, ...] = ()
    veto: tuple[int, ...] = ()
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

    @property
    def kills(self) -> tuple[int, ...]:
        """Every seat the killers chose: ``kill`` and ``extra_kills``."""
        return ((self.kill,) if self.kill is not None else ()) + self.extra_kills

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
        for name in ("check", "veto", "extra_kills"):
            if name in data:
                data[name] = list(data[name])
        if "guard" in data:
            data["guard"] = [list(pair) for pair in self.guard]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NightChoice:
        """Read back :meth:`as_json`."""
        return cls(
            **{k: v for k, v in data.items() if k in SEAT_OPTIONS},
            extra_kills=tuple(data.get("extra_kills", ())),
            veto=_seats(data.get("veto", ())),
            check=_seats(data.get("check", ())),
            guard=tuple((guardian, target) for guardian, target in data.get("guard", ())),
        )


def _seats(value: int | Iterable[int]) -> tuple[int, ...]:
    """One seat or several, as a tuple (a letter read from the inbox names one)."""
    return (value,) if isinstance(value, int) else tuple(value)


@dataclass(frozen=True)
class NightRights:
    """What the game's record allows on one night beyond the rule text (1.2's penalties).

    ``kills``: how many seats the killers may kill (a cancelled camp none, an extra
    power one more); ``veto``: whether the one-time veto may be used tonight;
    ``extra_vetoes``: the 好人方's extra vetoes; ``cancelled``: by camp, why its powers
    are cancelled tonight (Chinese); ``veto_spent``: (round, seat) of the night that
    used the one-time veto already, if any. A set without penalties gets the default.
    """

    kills: int = 1
    veto: bool = True
    extra_vetoes: int = 0
    cancelled: Mapping[str, str] = field(default_factory=dict)
    veto_spent: tuple[int, int] | None = None


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

    ``shown`` are the identities (or camps) announced at dawn; ``posts`` the rule
    text's dawn lines where it writes them; ``causes`` why each seat is out, where
    the dawn post says it (1.2: ``killed``, ``vetoed``); ``checks`` and ``notices``
    are private; ``events`` explain the night to the judge only; ``document`` is
    the ``killmod.night/1`` JSON; ``record`` what the game file keeps of the night
    (None: the choices, which the replay reads back).
    """

    state: Any
    out: tuple[int, ...]
    document: dict[str, Any]
    shown: tuple[tuple[int, str], ...] = ()
    posts: tuple[str, ...] = ()
    causes: tuple[tuple[int, tuple[str, ...]], ...] = ()
    checks: tuple[Check, ...] = ()
    notices: tuple[NightNotice, ...] = ()
    events: tuple[str, ...] = ()
    record: dict[str, Any] | None = None


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


class RuleSet(ABC):
    """One rule set: its rule book, its tally policy, its day and night, its reveals, its win.

    The rule book's constants are the rule text's (``NAME``, ``ROLES``, ``POWERS``,
    ``TALLY_POLICY``, ``VOTE_RULES``, ``JUDGE_OUTS``…); a set without a rule leaves the
    default (no veto, no 诈尸 window, no minimum of posts…). The switches say how the
    set's game runs: ``state_is_roster``: the set's state is the roster the store
    derives (1.2), not replayed from the events; ``lottery``: a tie may be settled
    by ``killmod lottery``; ``night_base``: the number the judge gives the game's
    first night (V4.0 counts from 第零晚), night ``n`` belongs to round
    ``n + 1 - night_base``; ``first_night``: the first night with anything to
    record; ``night_options``: the ``NightChoice`` fields the set's night has (none:
    no night to record); ``teams``: the roles whose players know each other.
    """

    NAME: ClassVar[str]
    ROLES: ClassVar[tuple[str, ...]]
    # What each role's notice says it may do, in the rule text's words.
    POWERS: ClassVar[Mapping[str, tuple[str, ...]]]
    TALLY_POLICY: ClassVar[TallyPolicy]
    # The rule text's own words on the day vote, by the vote's phase (killmod open).
    VOTE_RULES: ClassVar[Mapping[str, tuple[str, ...]]]
    # The judge's own decisions the rule text writes (``killmod out --reason``), by code.
    JUDGE_OUTS: ClassVar[Mapping[str, JudgeOut]] = {}
    # The camp of a player out is announced (1.2 五、身份公布).
    REVEAL_CAMP: ClassVar[bool] = False
    # The penalties for a violation the opposing camp may choose (1.2 补充说明 二.3–二.5).
    PENALTIES: ClassVar[tuple[str, ...]] = ()
    # The role with a one-time veto at night (1.2's 检查官).
    VETO_ROLE: ClassVar[str | None] = None
    # How long after the deaths are announced the dead may still speak (1.2 诈尸).
    ZHASHI: ClassVar[timedelta | None] = None
    # The fewest posts a player must make each round (1.2 潜水), and what the judge does.
    MIN_POSTS: ClassVar[int | None] = None
    LURKER_CONTACT: ClassVar[str | None] = None
    # The most days of leave a player may take in a game (1.2 请假).
    MAX_LEAVE_DAYS: ClassVar[int | None] = None
    # Some players' posts carry no ballot on a day (V4.0 癫狂).
    SILENCES_VOTERS: ClassVar[bool] = False
    # The version codes' lose conditions, by their bits (V4.0 only).
    LOSE_CONDITIONS: ClassVar[Mapping[str, str]] = {}

    state_is_roster: ClassVar[bool] = False
    lottery: ClassVar[bool] = False
    night_base: ClassVar[int] = 1
    first_night: ClassVar[int] = 1
    night_options: ClassVar[frozenset[str]] = frozenset()
    teams: ClassVar[tuple[frozenset[str], ...]] = (frozenset({KILLER}),)

    def __init__(self, variants: tuple[str, ...] = (), code: str | None = None) -> None:
        self.variants = variants
        self.code = code

    # --- the rule book ---------------------------------------------------------------

    @abstractmethod
    def table(self) -> list[dict]:
        """Every row of the role table."""

    @abstractmethod
    def table_row(self, players: int) -> dict:
        """The role table's row for ``players`` (``BadInput`` outside the set's range)."""

    @abstractmethod
    def summary(self, players: int | None = None) -> list[str]:
        """The set's rules in Chinese lines."""

    def decode(self, code: str) -> dict:
        """A version code read as a table row; only V4.0 has version codes."""
        raise BadInput(f"只有 V4.0 规则有版本号，{self.NAME} 规则没有。")

    @abstractmethod
    def deal(self, seats: Iterable[int], rng: random.Random) -> dict[int, str]:
        """Roles by seat, by the table, shuffled with ``rng``."""

    def powers(self, role: str) -> tuple[str, ...]:
        """What a player of ``role`` may do, in the rule text's words (the deal's notice)."""
        return self.POWERS.get(role, ())

    @abstractmethod
    def camp(self, role: str | None) -> str | None:
        """The camp ``role`` plays for (None when unknown)."""

    def announced_camp(self, role: str | None) -> str | None:
        """The camp announced when a player is out, where the set announces it, else None."""
        return self.camp(role) if self.REVEAL_CAMP else None

    def warning_action(self, total: int, substitutes_left: int) -> str:
        """What the ``total``-th warning for not voting leads to: by default only a warning."""
        return "warn"

    # --- the state ---------------------------------------------------------------------

    @abstractmethod
    def start(self, players: Sequence[Player]) -> Any:
        """The set's first state from the players as set up."""

    @abstractmethod
    def vote_out(self, state: Any, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """``seats`` put out by the day's vote of ``round_no``."""

    def replay(self, state: Any, event: Recorded) -> Any:
        """The state after one recorded event (``killmod.game.state`` replays them in order)."""
        data = event.data
        if event.kind == "night":
            return self.night(state, NightChoice.from_json(data["choice"]), data["night"]).state
        if event.kind == "day" and data.get("voted"):
            return self.vote_out(state, tuple(data["voted"]), event.round).state
        if event.kind == "death" and data.get("how") == "lottery":
            assert event.seat is not None  # a death is always of a seat
            return self.vote_out(state, (event.seat,), event.round).state
        if event.kind == "suicide":
            assert event.seat is not None
            return self.suicide(state, event.seat, data["defending"]).state
        if event.kind == "out" and not data.get("surrender"):
            assert event.seat is not None
            return self.judge_out(state, event.seat, data["reason"]).state
        return state

    def hidden_state(self, state: Any) -> dict[str, Any]:
        """The night's hidden effects in force now, for the judge only (none by default)."""
        return {}

    # --- the night ---------------------------------------------------------------------

    def night(
        self,
        state: Any,
        choice: NightChoice,
        night_no: int,
        rights: NightRights | None = None,
    ) -> NightPlay:
        """Night ``night_no`` resolved from the judge's ``choice`` with what the record allows
        (``rights``: None is the rule text's own); a set with no night has none."""
        raise BadInput(f"{self.NAME} 规则的夜晚不杀人，没有要记录的行动：不用 killmod night。")

    def night_name(self, night_no: int) -> str:
        """How the judge's messages name the night: ``第 2 夜``."""
        return f"第 {night_no} 夜"

    def night_skills(self, state: Any, rights: NightRights | None = None) -> tuple[NightSkill, ...]:
        """Who may act tonight (as the record's ``rights`` allow) and how a team's choices
        make one: none by default."""
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
        return

    def dawn_document(self, night_no: int, play: NightPlay) -> dict[str, Any]:
        """The ``killmod.night/1`` document the game thread may see: who is out and what
        their cards show; the night's hidden states, checks and notices are the judge's."""
        return {
            "schema": "killmod.night/1",
            "round": night_no,
            "out": list(play.out),
            "shown": {str(seat): identity for seat, identity in play.shown},
        }

    # --- the day -----------------------------------------------------------------------

    def first_stage(self) -> Stage:
        """The first vote of a round's day."""
        return Stage("vote")

    def silenced(self, state: Any) -> frozenset[int]:
        """The seats whose posts carry no ballot today (V4.0 癫狂); none by default."""
        return frozenset()

    def count_knives(
        self, ballots: Mapping[int, str], living: Collection[int], defender: int
    ) -> KnifeCount:
        """A 动刀 phase counted; only the sets with pointing and the knife have one."""
        raise BadInput(f"{self.NAME} 规则的白天没有动刀阶段。")

    def day(
        self, state: Any, stage: Stage, outcome: Outcome, round_no: int, knife: KnifeCount | None
    ) -> DayStep:
        """What a counted vote leads to; by default the top of the count is out."""
        if outcome.kind != "eliminated":
            return DayStep(stage)
        assert outcome.seat is not None  # an elimination names its seat
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
        raise BadInput(f"{self.NAME} 规则没有杀手亮牌自杀。")

    # --- the judge's own decisions -----------------------------------------------------

    def judge_out(self, state: Any, seat: int, reason: str) -> OutPlay:
        """The judge puts ``seat`` out for ``reason``: the new state, what is shown, the posts."""
        raise BadInput(f"{self.NAME} 规则没有由法官判出局的规定。")

    def surrender(self, state: Any, seat: int) -> GameOver:
        """``seat`` surrenders for his side: the end of the game it makes."""
        raise BadInput(f"{self.NAME} 规则没有投降。")

    # --- the end -----------------------------------------------------------------------

    @abstractmethod
    def verdict(self, state: Any) -> GameOver | None:
        """The end of the game, or None while it goes on."""
