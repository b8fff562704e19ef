"""The 2.0 花样玩法 (2.0花样玩法相关规则): 鬼匪, 毒药, 守护神, 双守护 (警神/匪神).

A roster with ``rules = "2.0"`` names its variants: any of ``ghost`` (鬼匪),
``poison`` (毒药) and ``guardian`` (守护神), or ``double-guardian`` (警神 and
匪神) instead of ``guardian``. The day procedure is 2.0's (``r20``); this
module deals the extra roles, resolves the night (kill, then possession, then
the checks, then 渎职), applies the guards to the day's vote, decides what each
death reveals, and checks the variants' win rules.

Pure functions over frozen dataclasses: no I/O, no clock; randomness only
through an injected ``random.Random``. Rules are cited by the seed's own
numbers under its headings: 鬼匪 n (关于鬼匪), 毒药 n (关于毒药), 细则 n
(其他细微规则变化; 细则 5A–D are the win rules), 守护 n (守护规则), 双守护 n
(双守护规则). The decisions are written in docs/rules/2.0-variants.md, each
with its test.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from killmod.core.errors import BadInput
from killmod.core.model import DayStep, GameOver, KnifeCount, Outcome, Player, Stage
from killmod.rules import r20
from killmod.rules.base import (
    Check,
    NightChoice,
    NightNotice,
    NightPlay,
    NightRights,
    NightSkill,
    OutPlay,
)
from killmod.rules.shared import (
    check_deal,
    check_seat,
    deal_cards,
    dealt_roles,
    out_at_start,
    seats_text,
    with_document,
)
from killmod.rules.x import CIVILIAN, KILLER, POLICE

NAME = "2.0"

GHOST = "鬼匪"
POSSESSED = "被附体匪"
POISON = "毒药"
GUARDIAN = "守护神"
POLICE_GOD = "警神"
KILLER_GOD = "匪神"
ROLES = (POLICE, KILLER, CIVILIAN, GHOST, POSSESSED, POISON, GUARDIAN, POLICE_GOD, KILLER_GOD)
KILLER_SIDE = frozenset({KILLER, GHOST, POSSESSED})
GUARDIANS = frozenset({GUARDIAN, POLICE_GOD, KILLER_GOD})

VARIANTS = ("ghost", "poison", "guardian", "double-guardian")
VARIANT_NAMES = {
    "ghost": "鬼匪",
    "poison": "毒药",
    "guardian": "守护神",
    "double-guardian": "双守护（警神、匪神）",
}

GOOD_CAMP = r20.GOOD_CAMP
KILLER_CAMP = r20.KILLER_CAMP
# 守护神 “立场自选，可刻意帮警，可刻意帮匪，也可刻意乱民”.
FREE_CAMP = "自选立场"

TALLY_POLICY = r20.TALLY_POLICY
# “在2.0标准版基础上”: the judge's own decisions are 2.0's (误睁眼, a broken rule, 投降).
JUDGE_OUTS = r20.JUDGE_OUTS

POLICE_POSSESSED_NOTICE = "你方人员遭遇附体，但未生效"
POISON_CHECKED_NOTICE = "警察已经验过您，知晓您的身份了"

# What each variant role's notice says it may do, in the rule text's words (关于鬼匪,
# 关于毒药, 守护神角色 and 守护规则 1–3, 双守护 1 and 3).
_GHOST = (
    "鬼匪在全局内任意一回合开始的时候，可以“附体”，但“附体”仅限一次。且必须在鬼匪活着的状态下进行。",
    "1.如果被附体者是平民，该平民身份转变为匪（即匪增加一人）；"
    "2.如果被附体者是警察，附体无效，但算进行过附体，以后不得再附；"
    "3.如果被附体者是毒药，鬼匪与毒药同死。4.鬼匪可以选择全局内一直都不附体。",
)
_POISON = (
    "毒药立场属于警方。但毒药不参与警队分析，不能验人，与警察彼此也互不知道名单，"
    "需要在战局中互相观察、暗示以彼此判断确认。",
    "1.如果匪徒杀到毒药，匪徒中一人与毒药同死；2.如果匪徒附体毒药，附体的鬼匪与毒药同死。",
)
_GUARD = (
    "每轮开始前，守护神必须提交一守护名单。提交时间与杀、验提交名单同步。"
    "如果该轮被守护人被杀、被票，那么守护神替他去死。",
    "1.不得守护自己；不得守护死人；2.可放弃守护一次，但累计两次不守护，守护神判渎职死亡；"
    "3.游戏进行全过程中，不得守护相同的人——即，每位玩家只有一次被守护的机会。",
)
# 其他细微规则变化 1 and 2: what the police and the killers may do besides, in such a game.
_CHECK_AGAIN = "警察可以重复验同一人——因为有了“附体”，某人可能上回合是平民，下回合就变匪了。"
_PACT = (
    "匪徒提交杀人名单的时候，需增加“生死状”——“如果我们错杀毒药，XX（事先内部商榷好一匪徒名单）"
    "与毒药同死。”"
)
_POSSESS_LIST = "决定附体时，同时提交被附体人名单。"
POWERS: dict[str, tuple[str, ...]] = {
    GHOST: _GHOST,
    POISON: _POISON,
    GUARDIAN: ("守护神角色——立场自选，可刻意帮警，可刻意帮匪，也可刻意乱民，玩法自定。", *_GUARD),
    POLICE_GOD: ("警神守护，仅仅对警察和平民产生作用，对匪和匪神无效。", *_GUARD),
    KILLER_GOD: ("匪神守护，仅仅对匪徒和平民产生作用，对警和警神无效。", *_GUARD),
}

Cause = Literal[
    "killed",
    "guarded_kill",
    "poison_pact",
    "poison_possessed",
    "voted",
    "guarded_vote",
    "dereliction",
    "forced_dereliction",
    "suicide",
    "drowned",
    "judged",
]


# ---------------------------------------------------------------- variants and the role table


def check_variants(variants: Iterable[str]) -> tuple[str, ...]:
    """The roster's ``variants``: known names, no repeats, one kind of guardian."""
    chosen = tuple(variants)
    for name in chosen:
        if name not in VARIANTS:
            raise BadInput(f"「{name}」不是已知的花样玩法（可用：{'、'.join(VARIANTS)}）。")
    if len(set(chosen)) != len(chosen):
        raise BadInput("花样玩法重复。")
    if {"guardian", "double-guardian"} <= set(chosen):
        raise BadInput("guardian（守护神）与 double-guardian（双守护）只能选一个。")
    return chosen


def powers(role: str, variants: Iterable[str]) -> tuple[str, ...]:
    """What a player of ``role`` may do in a 2.0 game with ``variants``, in the rule text's
    words: 2.0's own (the 鬼匪 is a killer too), the variant role's, and what the variants
    add to the police (重复验同一人, with a 鬼匪) and the killers (the 生死状, with a 毒药)."""
    chosen = check_variants(variants)
    lines = list(r20.POWERS.get(KILLER if role == GHOST else role, ()))
    lines += POWERS.get(role, ())
    if role == POLICE and "ghost" in chosen:
        lines.append(_CHECK_AGAIN)
    if role in (KILLER, GHOST) and "poison" in chosen:
        lines.append(_PACT)
    if role == GHOST:
        lines.append(_POSSESS_LIST)
    return tuple(lines)


def extra_roles(variants: Iterable[str]) -> dict[str, int]:
    """The roles the variants add in place of civilians (the 鬼匪 is one of the killers)."""
    chosen = check_variants(variants)
    extra = {}
    if "poison" in chosen:
        extra[POISON] = 1
    if "guardian" in chosen:
        extra[GUARDIAN] = 1
    if "double-guardian" in chosen:
        extra[POLICE_GOD] = 1
        extra[KILLER_GOD] = 1
    return extra


def table_row(players: int, variants: Iterable[str] = ()) -> dict:
    """The 2.0 row for ``players`` with the variants' roles taken from the civilians.

    Keys: ``players``, ``civilians``, ``police``, ``killers`` (the 鬼匪 counted
    among them), ``ghost``, ``poison``, ``guardians``. Decision: the 警匪 counts
    stay as in 2.0 (“在2.0标准版(警、匪人数对等)基础上”, “除了既定的人数对等的
    警、匪以外”); each added role takes a civilian's place.
    """
    chosen = check_variants(variants)
    row = r20.table_row(players)
    extra = extra_roles(chosen)
    return {
        **row,
        "civilians": row["civilians"] - sum(extra.values()),
        "ghost": int("ghost" in chosen),
        "poison": extra.get(POISON, 0),
        "guardians": extra.get(GUARDIAN, 0) + extra.get(POLICE_GOD, 0) + extra.get(KILLER_GOD, 0),
    }


def table(variants: Iterable[str] = ()) -> list[dict]:
    """Every row of the 2.0 table with the variants' roles, 12–18 players."""
    return [table_row(n, variants) for n in range(r20.MIN_PLAYERS, r20.MAX_PLAYERS + 1)]


def deal(seats: Iterable[int], variants: Iterable[str], rng: random.Random) -> dict:
    """Roles by seat, shuffled with ``rng``; the 鬼匪 is drawn among the killers afterwards.

    关于鬼匪: “鬼匪——匪徒中的一人,身份抽取在确定了全体匪帮名单后进行”.
    """
    order = sorted(set(seats))
    chosen = check_variants(variants)
    row = table_row(len(order), chosen)
    counts = {POLICE: row["police"], KILLER: row["killers"], CIVILIAN: row["civilians"]}
    roles = deal_cards(order, counts | extra_roles(chosen), rng)
    if "ghost" in chosen:
        killers = [seat for seat in order if roles[seat] == KILLER]
        roles[rng.choice(killers)] = GHOST
    return roles


def camp(role: str | None) -> str | None:
    """The side a role plays for (None when unknown).

    毒药 “立场属于警方”; 警神/匪神 “分别指定立场—— 一警神,一匪神”; the 鬼匪 and
    the 被附体匪 are 匪; the single 守护神 chooses its own side.
    """
    if role is None:
        return None
    _check_role(role)
    if role in KILLER_SIDE or role == KILLER_GOD:
        return KILLER_CAMP
    if role == GUARDIAN:
        return FREE_CAMP
    return GOOD_CAMP


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise BadInput(f"「{role}」不是 2.0 花样玩法的身份（可用：{'、'.join(ROLES)}）。")


# ---------------------------------------------------------------- game state


@dataclass(frozen=True)
class GuardRecord:
    """One guardian's history: whom it guarded, its skips, its forced rounds, its power.

    ``skips`` counts the rounds it chose not to guard (守护 2); ``forced`` the
    consecutive rounds it had nobody left to guard (守护 5); ``disabled`` is
    the 警神 after the 匪神 was killed directly (双守护 6).
    """

    guarded: tuple[int, ...] = ()
    skips: int = 0
    forced: int = 0
    disabled: bool = False


@dataclass(frozen=True)
class VariantState:
    """A 2.0 game with variants.

    ``roles`` are the current cards (鬼匪 1 turns a 平民 into a 被附体匪).
    ``guards`` are the guards in force for the current round: submitted with
    the night's lists, they hold for that night's kill and the next day's vote
    (“如果该轮被守护人被杀、被票”). ``nights`` counts the nights resolved.
    """

    roles: Mapping[int, str]
    variants: tuple[str, ...]
    out: frozenset[int] = frozenset()
    possession_used: bool = False
    records: Mapping[int, GuardRecord] = field(default_factory=dict)
    guards: Mapping[int, int] = field(default_factory=dict)
    nights: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "roles", dict(self.roles))
        object.__setattr__(self, "variants", check_variants(self.variants))
        object.__setattr__(self, "out", frozenset(self.out))
        object.__setattr__(self, "guards", dict(self.guards))
        records = dict(self.records)
        for seat, role in self.roles.items():
            check_seat(seat)
            _check_role(role)
            if role in GUARDIANS:
                records.setdefault(seat, GuardRecord())
        object.__setattr__(self, "records", records)
        for seat in (*self.out, *self.records, *self.guards, *self.guards.values()):
            if seat not in self.roles:
                raise BadInput(f"没有 {seat} 号玩家。")

    def alive(self, seat: int) -> bool:
        """Whether ``seat`` is a player still in the game."""
        return seat in self.roles and seat not in self.out

    @property
    def living(self) -> tuple[int, ...]:
        """The seats still in the game."""
        return tuple(seat for seat in sorted(self.roles) if seat not in self.out)

    def holders(self, *roles: str) -> tuple[int, ...]:
        """The living seats holding any of ``roles``."""
        return tuple(seat for seat in self.living if self.roles[seat] in roles)

    def active_guardians(self) -> tuple[int, ...]:
        """The living guardians that still guard (not the disabled 警神)."""
        return tuple(s for s in self.holders(*GUARDIANS) if not self.records[s].disabled)


def new_game(roles: Mapping[int, str], variants: Iterable[str]) -> VariantState:
    """A game's first state; the dealt ``roles`` must match the variants' table row."""
    chosen = check_variants(variants)
    row = table_row(len(roles), chosen)
    for role in roles.values():
        _check_role(role)
    expected = {
        POLICE: row["police"],
        KILLER: row["killers"] - row["ghost"],
        GHOST: row["ghost"],
        CIVILIAN: row["civilians"],
        POSSESSED: 0,
        **dict.fromkeys((POISON, GUARDIAN, POLICE_GOD, KILLER_GOD), 0),
        **extra_roles(chosen),
    }
    check_deal(roles, expected, "（花样玩法）")
    return VariantState(roles, chosen)


# ---------------------------------------------------------------- what is shown


def shown_identity(role: str) -> str:
    """The card as announced when a death or a check shows it.

    鬼匪 5 “鬼匪的身份特殊性在游戏结束前是不被揭露的——无论是被票死、自杀、淹死、
    毒死还是被验”: a 鬼匪 shows as 杀手. 鬼匪 6 / 细则 4: a 被附体匪 shows as
    “被附体匪”. 双守护 4: a guardian voted out directly (or checked) shows as
    警神/匪神 — the disabled 警神 too (双守护 6 “票杀揭牌仍宣布是警方守护神”).
    """
    _check_role(role)
    return KILLER if role == GHOST else role


def guard_works(guardian_role: str, target_role: str) -> bool:
    """Whether a guard by ``guardian_role`` protects a ``target_role``.

    双守护 3: “警神守护，仅仅对警察和平民产生作用，对匪和匪神无效；匪神守护，仅仅
    对匪徒和平民产生作用，对警和警神无效”. Decision: the 毒药 (“立场属于警方”)
    is 警 here: the 警神 protects it, the 匪神 does not; 警神 and 匪神 never
    protect each other. The single 守护神 protects anyone.
    """
    if guardian_role == GUARDIAN:
        return True
    if guardian_role == POLICE_GOD:
        return target_role in (POLICE, CIVILIAN, POISON)
    if guardian_role == KILLER_GOD:
        return target_role in KILLER_SIDE or target_role == CIVILIAN
    raise BadInput(f"「{guardian_role}」不是守护神。")


def eligible_targets(state: VariantState, guardian: int) -> tuple[int, ...]:
    """Whom ``guardian`` may guard this round.

    守护 1 “不得守护自己；不得守护死人”; 守护 3 “不得守护相同的人——即，每位玩家只有
    一次被守护的机会”. Decision: the history is each guardian's own.
    """
    done = state.records[guardian].guarded
    return tuple(s for s in state.living if s != guardian and s not in done)


# ---------------------------------------------------------------- the night


@dataclass(frozen=True)
class NightActions:
    """The lists submitted for one night (细则 2: all at once, with the kill).

    ``kill`` the killers' victim; ``pact`` the killer of the 生死状 (required
    in a game with 毒药); ``possess`` the 鬼匪's target (once a game);
    ``checks`` the police's check, and a second one only after the first hit
    the 毒药 (毒药 4); ``guards`` maps each guardian to its target (None or
    missing = no guard this round).
    """

    kill: int
    pact: int | None = None
    possess: int | None = None
    checks: tuple[int, ...] = ()
    guards: Mapping[int, int | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Death:
    """One death: the seat, why, and the identity announced (None = not announced)."""

    seat: int
    cause: Cause
    shown: str | None


@dataclass(frozen=True)
class CheckResult:
    """A police check: the seat, the identity told, the private text."""

    seat: int
    identity: str
    text: str


@dataclass(frozen=True)
class NightResult:
    """A night resolved: the new state, deaths, checks, notices, the public posts, the audit.

    ``another_check`` is True when the only check hit the 毒药: the police may
    check once more this night (resolve again with both checks).
    """

    state: VariantState
    deaths: tuple[Death, ...]
    checks: tuple[CheckResult, ...]
    notices: tuple[NightNotice, ...]
    posts: tuple[str, ...]
    events: tuple[str, ...]
    another_check: bool


@dataclass(frozen=True)
class _Night:
    """The night being resolved."""

    state: VariantState
    deaths: tuple[Death, ...] = ()
    notices: tuple[NightNotice, ...] = ()
    events: tuple[str, ...] = ()

    def die(self, seat: int, cause: Cause, shown: str | None) -> _Night:
        state = replace(self.state, out=self.state.out | {seat})
        return replace(self, state=state, deaths=(*self.deaths, Death(seat, cause, shown)))

    def log(self, text: str) -> _Night:
        return replace(self, events=(*self.events, text))

    def tell(self, to: int | str, text: str) -> _Night:
        return replace(self, notices=(*self.notices, NightNotice(to, text)))


def resolve_night(state: VariantState, actions: NightActions) -> NightResult:
    """One night: guards, the kill, the possession, the checks, then 渎职.

    关于鬼匪: “虽然杀人与附体名单同时提交，但法官应以先杀人后附体顺序进行操作”; 鬼匪 8:
    the checks read the round's truth, after the possession. Illegal lists
    raise ``BadInput``.
    """
    _check_night(state, actions)
    night = _Night(replace(state, nights=state.nights + 1, guards={}))
    night = _disable_police_god(night, actions.kill)
    night = _record_guards(night, actions.guards)
    night = _kill(night, actions.kill, actions.pact)
    night = _possess(night, actions.possess)
    night, checks = _checks(night, actions.checks)
    night = _dereliction(night)
    living_guards = {g: t for g, t in night.state.guards.items() if night.state.alive(g)}
    night = replace(night, state=replace(night.state, guards=living_guards))
    deaths = _hide_for_triple(night.deaths)
    another = len(checks) == 1 and checks[0].identity == POISON
    return NightResult(
        night.state,
        deaths,
        checks,
        night.notices,
        _night_posts(deaths, state.roles),
        night.events,
        another,
    )


def _check_night(state: VariantState, actions: NightActions) -> None:
    killers = state.holders(*KILLER_SIDE)
    if not killers:
        raise BadInput("匪徒已全部出局，游戏应已结束。")
    _need_alive(state, actions.kill, "被杀")
    if "poison" in state.variants:
        if actions.pact is None:
            raise BadInput("有毒药的局，匪徒提交杀人名单时须同时写明生死状（与毒药同死的匪徒）。")
        if actions.pact not in killers:
            raise BadInput(f"生死状上的 {actions.pact} 号不是存活的匪徒。")
    elif actions.pact is not None:
        raise BadInput("本局没有毒药，不需要生死状。")
    if actions.possess is not None:
        _check_possession(state, actions.possess)
    _check_checks(state, actions.checks)
    _check_guards(state, actions.guards)


def _need_alive(state: VariantState, seat: int, what: str) -> None:
    if seat not in state.roles:
        raise BadInput(f"没有 {seat} 号玩家，不能{what}。")
    if seat in state.out:
        raise BadInput(f"{seat} 号已出局，不能{what}。")


def _check_possession(state: VariantState, target: int) -> None:
    """关于鬼匪: “仅限一次。且必须在鬼匪活着的状态下进行”."""
    if "ghost" not in state.variants:
        raise BadInput("本局没有鬼匪，不能附体。")
    if state.possession_used:
        raise BadInput("鬼匪已经附体过一次，附体仅限一次。")
    if not state.holders(GHOST):
        raise BadInput("鬼匪已出局，附体必须在鬼匪活着时进行。")
    _need_alive(state, target, "被附体")
    if state.roles[target] in KILLER_SIDE:
        raise BadInput(f"{target} 号是匪徒一方，鬼匪不能附体自己或同伴。")


def _check_checks(state: VariantState, checks: tuple[int, ...]) -> None:
    if not checks:
        return
    if not state.holders(POLICE):
        raise BadInput("警察已全部出局，不能验人。")
    if len(checks) > 2:
        raise BadInput("警察每回合只验一人；验到毒药时才可再验一人。")
    for seat in checks:
        _need_alive(state, seat, "被验")
    if len(checks) == 2 and state.roles[checks[0]] != POISON:
        raise BadInput(f"第一次验的 {checks[0]} 号不是毒药，警察本回合不能再验。")


def _check_guards(state: VariantState, guards: Mapping[int, int | None]) -> None:
    if guards and not state.records:
        raise BadInput("本局没有守护神，不能提交守护名单。")
    for guardian, target in guards.items():
        if guardian not in state.records:
            raise BadInput(f"{guardian} 号不是守护神，不能提交守护名单。")
        if not state.alive(guardian):
            raise BadInput(f"守护神 {guardian} 号已出局，不能守护。")
        if state.records[guardian].disabled:
            raise BadInput(f"{guardian} 号已失去守护能力，不再提交守护名单。")
        if target is None:
            continue
        if target == guardian:
            raise BadInput("守护神不得守护自己。")
        if not state.alive(target):
            raise BadInput(f"{target} 号已出局：守护神不得守护死人。")
        if target in state.records[guardian].guarded:
            raise BadInput(
                f"{guardian} 号守护神已守护过 {target} 号：每位玩家只有一次被守护的机会。"
            )


def _disable_police_god(night: _Night, kill: int) -> _Night:
    """双守护 6: the 匪神 killed directly → the 警神 loses its power from this round on.

    “从匪守被杀当轮起，警方守护神身份作用转变为平民……不再具备守护能力，当轮提交的
    守护名单也同时作废。以上转变由执法团私下通知警方守护神……若在此之前警神已死，则
    不再做通知。”
    """
    state = night.state
    if state.roles[kill] != KILLER_GOD:
        return night
    gods = [seat for seat in sorted(state.records) if state.roles[seat] == POLICE_GOD]
    for god in gods:
        if state.records[god].disabled:
            continue
        records = {**state.records, god: replace(state.records[god], disabled=True)}
        night = replace(night, state=replace(state, records=records))
        night = night.log(
            f"匪神（{kill}号）被直接杀害：警神（{god}号）的守护能力失效，本轮守护名单作废。"
        )
        if state.alive(god):
            night = night.tell(
                god,
                "匪方守护神已被杀手直接杀害。从本轮起你的守护能力失效（身份作用转为平民，"
                "身份本身不变），本轮提交的守护名单作废。",
            )
        state = night.state
    return night


def _record_guards(night: _Night, guards: Mapping[int, int | None]) -> _Night:
    """守护 2, 3, 5: record each guard, each skip, each forced round (Decision: two counters).

    “可放弃守护一次，但累计两次不守护，守护神判渎职死亡”; “如果进行到游戏后期，守护神
    客观上无人可守，连续两回合，判被迫渎职死”. A forced round is not a skip.
    """
    state = night.state
    records = dict(state.records)
    in_force = {}
    for guardian in state.active_guardians():
        record = records[guardian]
        target = guards.get(guardian)
        if not eligible_targets(state, guardian):
            records[guardian] = replace(record, forced=record.forced + 1)
            night = night.log(f"守护神 {guardian} 号无人可守（连续第 {record.forced + 1} 回合）。")
        elif target is None:
            records[guardian] = replace(record, skips=record.skips + 1, forced=0)
            night = night.log(f"守护神 {guardian} 号本回合不守护（累计第 {record.skips + 1} 次）。")
        else:
            records[guardian] = replace(record, guarded=(*record.guarded, target), forced=0)
            in_force[guardian] = target
            night = night.log(f"守护神 {guardian} 号守护 {target} 号。")
    return replace(night, state=replace(state, records=records, guards=in_force))


def protectors(state: VariantState, seat: int) -> tuple[int, ...]:
    """The living guardians whose guard in force this round protects ``seat``.

    A guard that does not work on ``seat`` (双守护 3) protects nothing, and
    nobody tells the guardian (辨析: “守护神提交名单当时，不知道此名单是否有效”).
    """
    return tuple(
        guardian
        for guardian, target in sorted(state.guards.items())
        if target == seat
        and state.alive(guardian)
        and not state.records[guardian].disabled
        and guard_works(state.roles[guardian], state.roles[seat])
    )


def _guardian_night_shown(state: VariantState, guardian: int) -> str | None:
    """A guardian's night death: single → 守护神; double → not shown (双守护 4).

    “因守护被害人而被杀手刀死的守护神，宣布其死亡时，执法团不公布被害真相（是直接被
    刀还是替别人死的）”; 双守护 4 “替人被杀显灵时，不揭露身份”. Decision: a god
    killed directly is not shown either, or the difference would tell the truth.
    """
    return GUARDIAN if state.roles[guardian] == GUARDIAN else None


def _kill(night: _Night, kill: int, pact: int | None) -> _Night:
    """The killers' kill: a guardian dies in its place; the 毒药 takes the 生死状 killer along.

    守护神: “如果该轮被守护人被杀……那么守护神替他去死”; 双守护 5 “若双神在某轮同时
    守护一平民，该人当轮死亡时，双神皆死”; 毒药 1 “如果匪徒杀到毒药，匪徒中一人与
    毒药同死”, 细则 2 the one named in the 生死状.
    """
    state = night.state
    saviours = protectors(state, kill)
    if saviours:
        for guardian in saviours:
            night = night.die(guardian, "guarded_kill", _guardian_night_shown(state, guardian))
            night = night.log(f"{kill}号被杀，守护神 {guardian} 号替他去死。")
        return night
    role = state.roles[kill]
    if role == POISON:
        assert pact is not None
        night = night.die(kill, "poison_pact", None).die(pact, "poison_pact", None)
        return night.log(f"匪徒杀到毒药（{kill}号），生死状上的 {pact} 号与毒药同死。")
    shown = _guardian_night_shown(state, kill) if role in GUARDIANS else shown_identity(role)
    night = night.die(kill, "killed", shown)
    return night.log(f"{kill}号被杀。")


def _possess(night: _Night, target: int | None) -> _Night:
    """鬼匪 1–4, 毒药 2: after the kill; a 平民 becomes 匪, a 警察 is untouched, the 毒药 kills.

    Decisions: the possession counts as used whatever it meets; a dead 鬼匪 or
    a dead target (the kill came first) makes it void; a guardian is untouched
    and nobody is told.
    """
    if target is None:
        return night
    state = replace(night.state, possession_used=True)
    night = replace(night, state=state)
    ghosts = state.holders(GHOST)
    if not ghosts:
        return night.log("鬼匪已在本夜先出局，附体未生效（算作已附体）。")
    ghost = ghosts[0]
    if not state.alive(target):
        return night.log(f"附体对象 {target} 号已在本夜先被杀，附体未生效（算作已附体）。")
    role = state.roles[target]
    if role == CIVILIAN:
        roles = {**state.roles, target: POSSESSED}
        night = replace(night, state=replace(state, roles=roles))
        night = night.log(f"鬼匪（{ghost}号）附体 {target} 号：平民转为匪。")
        night = night.tell(
            target, "你已被鬼匪附体，身份转为匪（被附体匪），从本回合起与匪徒一方同胜负。"
        )
        return night.tell(ghost, f"附体成功：{target}号已转为匪，执法团确认后你们可以彼此联系。")
    if role == POLICE:
        night = night.log(f"鬼匪（{ghost}号）附体警察 {target} 号：附体无效，算作已附体。")
        return night.tell(POLICE, POLICE_POSSESSED_NOTICE)
    if role == POISON:
        night = night.die(ghost, "poison_possessed", None).die(target, "poison_possessed", None)
        return night.log(f"鬼匪（{ghost}号）附体毒药 {target} 号：鬼匪与毒药同死。")
    return night.log(f"鬼匪（{ghost}号）附体{role} {target} 号：附体无效，算作已附体。")


def check_identity(role: str) -> str:
    """What the police are told: the card; a 鬼匪 as 杀手 (鬼匪 5), 警神/匪神 by name (双守护 4)."""
    return shown_identity(role)


def _checks(night: _Night, checks: tuple[int, ...]) -> tuple[_Night, tuple[CheckResult, ...]]:
    """The police's checks, read after the possession (鬼匪 8), with the 毒药's extras.

    毒药 3 “如果毒药被验到，法官通知毒药‘警察已经验过您，知晓您的身份了’”; 毒药 4
    “警察当回合可以再获得一个验人机会”.
    """
    results = []
    for seat in checks:
        identity = check_identity(night.state.roles[seat])
        results.append(CheckResult(seat, identity, f"验人结果：{seat}号的身份是{identity}。"))
        night = night.log(f"警察验 {seat} 号：{identity}。")
        if identity == POISON:
            if night.state.alive(seat):
                night = night.tell(seat, POISON_CHECKED_NOTICE)
            night = night.log("警察验到毒药，本回合可再验一人。")
    return night, tuple(results)


def _dereliction(night: _Night) -> _Night:
    """守护 2, 5: two skips (累计) or two forced rounds (连续) and the guardian dies.

    Decision: it dies in the night that reaches the count, announced as
    守护神 (渎职死亡 / 被迫渎职死).
    """
    state = night.state
    for guardian in state.active_guardians():
        record = state.records[guardian]
        if record.skips >= 2:
            night = night.die(guardian, "dereliction", GUARDIAN)
            night = night.log(f"守护神 {guardian} 号累计两次不守护，渎职死亡。")
        elif record.forced >= 2:
            night = night.die(guardian, "forced_dereliction", GUARDIAN)
            night = night.log(f"守护神 {guardian} 号连续两回合无人可守，被迫渎职死。")
    return night


def _hide_for_triple(deaths: tuple[Death, ...]) -> tuple[Death, ...]:
    """细则 3 “匪徒附到毒药同死时，由于当轮还有一被害人，天亮同死三人，三人均不公布身份”."""
    if not any(death.cause == "poison_possessed" for death in deaths):
        return deaths
    night_kill = ("killed", "guarded_kill", "poison_pact")
    return tuple(replace(d, shown=None) if d.cause in night_kill else d for d in deaths)


_DERELICTION = {"dereliction": "渎职死亡", "forced_dereliction": "被迫渎职死"}
# The deaths the killers' list caused: 2.0 x) “以被暗杀者顺时针方向开始第二轮指认”.
_NIGHT_KILL = ("killed", "guarded_kill", "poison_pact", "poison_possessed")


def _night_posts(deaths: tuple[Death, ...], roles: Mapping[int, str]) -> tuple[str, ...]:
    """The dawn announcement: who died, what each shows (or that nothing is), then 2.0's lines.

    ``roles`` are the cards at nightfall (a 被附体匪 named in the 生死状 was one
    before the night). “在2.0标准版基础上”: 2.0 w) “此游戏者不能留遗言”, and x) the
    pointing starts from the killed. Decision: with several dead of the kill it
    starts from the lowest seat among them, which tells nothing of who was who.
    """
    posts = ["天亮了，请大家睁眼。"]
    hidden = [d for d in deaths if d.shown is None and d.cause not in _DERELICTION]
    pact = [d for d in deaths if d.cause == "poison_pact"]
    for death in deaths:
        if death.shown is not None and death.cause not in _DERELICTION:
            posts.append(f"{death.seat}号死亡，身份：{death.shown}。")
    if hidden:
        seats = seats_text(sorted(d.seat for d in hidden))
        if len(hidden) == 3:
            posts.append(f"天亮同死三人：{seats}，三人均不公布身份。")
        elif pact and len(hidden) == 2:
            posts.append(f"{seats}同死：一人是毒药，一人是与毒药同死的匪徒，不公布谁是谁。")
            note = pact_note(roles, pact)
            if note:
                posts.append(note)
        else:
            posts.append(f"{seats}死亡，不公布身份。")
    for death in deaths:
        if death.cause in _DERELICTION:
            posts.append(f"{death.seat}号（{death.shown}）{_DERELICTION[death.cause]}。")
    if not deaths:
        posts.append("昨夜平安，无人死亡。")
        return tuple(posts)
    posts.append("被杀者没有遗言。")
    killed = [d.seat for d in deaths if d.cause in _NIGHT_KILL] or [d.seat for d in deaths]
    posts.append(f"从{min(killed)}号开始按顺时针方向指认。")
    return tuple(posts)


def pact_note(roles: Mapping[int, str], deaths: Iterable[Death]) -> str | None:
    """鬼匪 6 “如果被毒死，也同样说明，与药同死的匪徒为‘被附体匪’(但是不公布双方谁是匪，谁是药)”."""
    for death in deaths:
        if death.cause == "poison_pact" and roles[death.seat] == POSSESSED:
            return "与毒药同死的匪徒为“被附体匪”（不公布双方谁是匪、谁是药）。"
    return None


# ---------------------------------------------------------------- the day


@dataclass(frozen=True)
class DayResult:
    """The day's vote applied: the new state, the deaths and the posts."""

    state: VariantState
    deaths: tuple[Death, ...]
    posts: tuple[str, ...]


def _last_words(death: Death) -> str:
    """2.0 n) “辩解者可留遗言……（杀手无此权利）”: the card is shown, so the line follows it."""
    return f"{death.shown}没有遗言。" if death.shown in (KILLER, POSSESSED) else "请留遗言。"


def vote_out(state: VariantState, seats: Iterable[int]) -> DayResult:
    """The day's vote-out of ``seats`` (one, or two for a 双杀), with the guards in force.

    守护神: “如果该轮被守护人……被票，那么守护神替他去死”; 守护 4 “当守护人和被守护人
    产生双杀票数时，二者同死”; 双守护 5 both gods die for a civilian they both
    guard; 双守护 4 what is shown: “替人被票显灵时，身份仅仅揭露为‘守护神’”, a god
    voted directly “宣布其身份为‘警神’或者‘匪神’”; 细则 4 a 鬼匪 shows as 匪 only,
    a 被附体匪 as “被附体匪”. Decision: a voted 毒药 shows as 毒药. Each line ends
    with 2.0's 遗言 line (“在2.0标准版基础上”).
    """
    voted = sorted(set(seats))
    if not voted:
        raise BadInput("没有被投出局的玩家。")
    for seat in voted:
        _need_alive(state, seat, "被投票出局")
    deaths: list[Death] = []
    posts: list[str] = []
    for seat in voted:
        saviours = protectors(state, seat)
        spared = bool(saviours) and not set(saviours) & set(voted)
        for guardian in saviours:
            if guardian in voted or any(d.seat == guardian for d in deaths):
                continue
            death = Death(guardian, "guarded_vote", GUARDIAN)
            deaths.append(death)
            posts.append(
                f"守护神显灵：{guardian}号替{seat}号被票出局，身份：守护神。{_last_words(death)}"
            )
        if spared:
            posts.append(f"{seat}号受守护，存活。")
            continue
        death = Death(seat, "voted", shown_identity(state.roles[seat]))
        deaths.append(death)
        posts.append(f"{seat}号被票出局，身份：{death.shown}。{_last_words(death)}")
    new = replace(state, out=state.out | {d.seat for d in deaths})
    return DayResult(new, tuple(deaths), tuple(posts))


def double_kill(state: VariantState, tied: Iterable[int]) -> tuple[int, int] | None:
    """守护 4 “当守护人和被守护人产生双杀票数时，二者同死”: the pair tied at the top, if it is one.

    Decision (docs/rules/2.0-variants.md, 守护 4): the 双杀票数 is a pointing in
    which exactly the guardian and the player its guard in force protects are
    tied at the top; both are out at once, with no re-pointing and no knife.
    """
    pair = tuple(sorted(set(tied)))
    if len(pair) != 2:
        return None
    for guardian, guarded in (pair, pair[::-1]):
        if guardian in protectors(state, guarded):
            return pair
    return None


def double_kill_post(pair: tuple[int, int]) -> str:
    """The judge's line before the two deaths of a 双杀."""
    first, second = pair
    return f"{first}号与{second}号平票：守护人和被守护人产生双杀票数，二者同死。"


def leave(
    state: VariantState,
    seat: int,
    cause: Literal["suicide", "drowned", "judged"],
    how: str = "出局",
) -> DayResult:
    """A death outside the vote and the night: 自杀, 淹死, or the judge's; the card shows (鬼匪 5).

    ``how`` is the judge's decision in words (``judged``: 误睁眼，退出本轮游戏…).
    Decision: a guard protects only from the kill and the vote (“被杀、被票”);
    a 匪's suicide leaves no 遗言 (2.0: “杀手无此权利”), nor does the judge's out
    (2.0 n) gives 遗言 to the knifed only).
    """
    _need_alive(state, seat, "出局")
    role = state.roles[seat]
    if cause == "suicide" and role not in KILLER_SIDE:
        raise BadInput(f"{seat} 号不是匪徒：只有杀手可以亮牌自杀。")
    death = Death(seat, cause, shown_identity(role))
    new = replace(state, out=state.out | {seat})
    post = {
        "suicide": f"{seat}号自杀出局，身份：{death.shown}。杀手没有遗言。",
        "drowned": f"{seat}号淹死出局，身份：{death.shown}。",
        "judged": f"{seat}号{how}，身份：{death.shown}。",
    }[cause]
    return DayResult(new, (death,), (post,))


def surrender(state: VariantState, seat: int) -> GameOver:
    """2.0 e) 投降, with the variants' sides: the seat's side loses.

    Decision: any living seat of the 匪 side (杀手, 鬼匪, 被附体匪, 匪神) or of the
    警 side (警察, 毒药, 警神) may surrender for it; a 平民 and the single 守护神
    (立场自选) may not.
    """
    _need_alive(state, seat, "投降")
    role = state.roles[seat]
    side = camp(role)
    if role == CIVILIAN or side == FREE_CAMP:
        raise BadInput(f"{seat} 号是{role}：不能代表一方投降。")
    return r20.surrender_verdict(seat, side)


# ---------------------------------------------------------------- win, lose, draw


def check_win(state: VariantState) -> GameOver | None:
    """细则 5A–D; None while the game goes on.

    A “匪全灭——包括被附体的匪，警察与民胜”; B “警察全灭或平民全灭——匪胜”; C “警方
    全灭只剩毒药的时候，毒药无效，算平民，即——属于警方全灭的情况，匪胜” (the 毒药
    counts neither as 警察 nor as 平民: “毒药存活与否与大局胜负判定无关”); D “警匪
    同时全灭时，平局”. Decision: 匪 and 平民 wiped out together is a draw too.
    Guardians count for no side, except the 警神 a 匪神's death disabled: 双守护 6
    “警方守护神身份作用转变为平民” — it counts as a 平民.
    """
    disabled = [s for s in state.holders(POLICE_GOD) if state.records[s].disabled]
    civilians = len(state.holders(CIVILIAN)) + len(disabled)
    return r20.side_verdict(len(state.holders(*KILLER_SIDE)), len(state.holders(POLICE)), civilians)


def summary(variants: Iterable[str] = (), players: int | None = None) -> list[str]:
    """The variants in Chinese lines, for ``killmod rules 2.0`` with a roster's variants."""
    chosen = check_variants(variants)
    lines = ["2.0 花样玩法（在 2.0 标准游戏基础上）"]
    if not chosen:
        lines.append("未选择花样玩法：按 2.0 标准游戏进行。")
    if "ghost" in chosen:
        lines += [
            "鬼匪：匪徒之一（定匪帮后再抽）。全局可附体一次，须活着时、与杀人名单同时提交，先杀人后附体。",
            "　附体平民：平民转为匪；附体警察：无效，警方被告知“你方人员遭遇附体，但未生效”；"
            "附体毒药：鬼匪与毒药同死。",
            "　鬼匪身份到游戏结束前不揭露（票死、自杀、淹死、毒死、被验都只算杀手）；"
            "被附体匪被票死或被验时公布为“被附体匪”。",
        ]
    if "poison" in chosen:
        lines += [
            "毒药：立场属警方，不验人，与警察互不知情。匪徒提交杀人名单时须附“生死状”"
            "（错杀毒药时与之同死的匪徒）。",
            "　被杀：与生死状上的匪徒同死，两人都不公布身份；"
            "被验：通知毒药，警察当回合可再验一人。",
        ]
    if "guardian" in chosen or "double-guardian" in chosen:
        lines += [
            "守护神：每轮与杀、验名单同时提交守护对象；被守护人当轮被杀或被票，守护神替他去死。",
            "　不得守护自己或死人；每人只能被同一守护神守护一次；累计两次不守护，渎职死亡；"
            "连续两回合无人可守，被迫渎职死。",
            "　守护人与被守护人被双杀时，二者同死。",
        ]
    if "guardian" in chosen:
        lines.append("　守护神立场自选；替人被杀时不公布是直接被刀还是替死；票死揭身份。")
    if "double-guardian" in chosen:
        lines += [
            "双守护：警神守护只对警察、平民（及毒药）有效；匪神守护只对匪徒和平民有效。",
            "　替人被杀不揭露身份；替人被票只揭露为“守护神”；自己被票死揭露为警神或匪神；"
            "被验时向警方说明警神或匪神。",
            "　双神同守一平民，该人当轮死亡时双神皆死。",
            "　匪神被杀手直接杀死：从当轮起警神失去守护能力（当轮守护名单作废），仅私下通知警神。",
        ]
    lines.append(
        "胜负：匪（含被附体匪）全灭，警民胜；警察全灭或平民全灭，匪胜"
        "（毒药不算警察）；警匪同时全灭，平局。"
    )
    if players is not None:
        row = table_row(players, chosen)
        lines.append(
            f"{players} 人局：警察 {row['police']} 人，杀手 {row['killers']} 人"
            f"（含鬼匪 {row['ghost']} 人），毒药 {row['poison']} 人，守护神 {row['guardians']} 人，"
            f"平民 {row['civilians']} 人。"
        )
    return lines


# ---------------------------------------------------------------- the rule set


class VariantRules(r20.R20Rules):
    """2.0 with its 花样玩法 (鬼匪, 毒药, 守护神, 警神/匪神): the variants' night and reveals."""

    ROLES = ROLES
    night_options = frozenset({"kill", "check", "pact", "possess", "guard"})
    # 关于鬼匪: the 鬼匪 is one of the 匪帮, drawn after the gang is known.
    teams = (frozenset({KILLER, GHOST}), frozenset({POLICE}))

    def table(self) -> list[dict]:
        """The 2.0 table with the variants' roles."""
        return table(self.variants)

    def table_row(self, players: int) -> dict:
        """The 2.0 row with the variants' roles in civilians' places."""
        return table_row(players, self.variants)

    def summary(self, players: int | None = None) -> list[str]:
        """2.0, then the variants' rules."""
        return [*r20.summary(players), *summary(self.variants, players)]

    def deal(self, seats: Iterable[int], rng: random.Random) -> dict[int, str]:
        """The table with the variants' roles; the 鬼匪 drawn among the killers."""
        return deal(seats, self.variants, rng)

    def powers(self, role: str) -> tuple[str, ...]:
        """2.0's powers with what the variants give or add."""
        return powers(role, self.variants)

    def camp(self, role: str | None) -> str | None:
        """The side a role plays for, the variants' roles too."""
        return camp(role)

    def start(self, players: Sequence[Player]) -> VariantState:
        """The dealt roles against the variants' table."""
        state = new_game(dealt_roles(players), self.variants)
        return replace(state, out=frozenset(out_at_start(players)))

    def night_skills(
        self, state: VariantState, rights: NightRights | None = None
    ) -> tuple[NightSkill, ...]:
        """2.0's teams (the 匪帮 with the 鬼匪 and the possessed), the 生死状 with the kill
        (其他细微规则变化 2), the living 鬼匪's one 附体, and each guardian's own guard."""
        gang = tuple(s for s in sorted(state.roles) if state.roles[s] in KILLER_SIDE)
        police = tuple(s for s in sorted(state.roles) if state.roles[s] == POLICE)
        ghost = tuple(
            s
            for s in sorted(state.roles)
            if state.roles[s] == GHOST and state.alive(s) and not state.possession_used
        )
        return (
            NightSkill("kill", gang, "majority", r20.MAJORITY),
            NightSkill("pact", gang if POISON in state.roles.values() else (), "majority"),
            NightSkill("possess", ghost),
            NightSkill("check", police, "majority", r20.MAJORITY),
            NightSkill("guard", state.active_guardians()),
        )

    def night(
        self,
        state: VariantState,
        choice: NightChoice,
        night_no: int,
        rights: NightRights | None = None,
    ) -> NightPlay:
        """Guards, the kill (with the 生死状), the possession, the checks, then 渎职."""
        actions = NightActions(
            kill=choice.required_kill(),
            pact=choice.pact,
            possess=choice.possess,
            checks=choice.check,
            guards=dict(choice.guard),
        )
        result = resolve_night(state, actions)
        play = NightPlay(
            result.state,
            tuple(death.seat for death in result.deaths),
            {},
            shown=tuple((d.seat, d.shown) for d in result.deaths if d.shown is not None),
            posts=result.posts,
            checks=tuple(Check(c.seat, c.identity) for c in result.checks),
            notices=result.notices,
            events=result.events,
        )
        return with_document(play, night_no)

    def hidden_state(self, state: VariantState) -> dict[str, Any]:
        """A 鬼匪's possession used, and the guards in force."""
        hidden: dict[str, Any] = {}
        if state.possession_used:
            hidden["possession_used"] = True
        if state.guards:
            hidden["guards"] = dict(sorted(state.guards.items()))
        return hidden

    def vote_out(self, state: VariantState, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """The vote with the guards in force: a guardian may die in the voted one's place."""
        result = vote_out(state, seats)
        shown = tuple((d.seat, d.shown) for d in result.deaths if d.shown is not None)
        return OutPlay(result.state, tuple(d.seat for d in result.deaths), shown, result.posts)

    def day(
        self,
        state: VariantState,
        stage: Stage,
        outcome: Outcome,
        round_no: int,
        knife: KnifeCount | None,
    ) -> DayStep:
        """2.0's day, and 守护 4: the guardian and the guarded tied at the top both die."""
        if knife is None and outcome.kind == "tie":
            pair = double_kill(state, outcome.seats)
            if pair is not None:
                posts = (double_kill_post(pair),)
                return self.out_step(state, stage, pair, round_no, posts=posts)
        return super().day(state, stage, outcome, round_no, knife)

    def judge_out(self, state: VariantState, seat: int, reason: str) -> OutPlay:
        """2.0's decisions; the card shows as the variants show a death outside the vote."""
        rule = self.JUDGE_OUTS.get(reason)
        if rule is None or rule.surrender:
            raise BadInput(f"2.0 花样玩法没有「{reason}」这种出局。")
        result = leave(state, seat, "judged", how=rule.words)
        shown = tuple((d.seat, d.shown) for d in result.deaths if d.shown is not None)
        return OutPlay(result.state, (seat,), shown, result.posts)

    def surrender(self, state: VariantState, seat: int) -> GameOver:
        """2.0 e) 投降 with the variants' sides."""
        return surrender(state, seat)

    def verdict(self, state: VariantState) -> GameOver | None:
        """细则 5A–D: the 鬼匪 and the possessed count with the 匪; a disabled 警神 as 平民."""
        return check_win(state)

    def suicide(self, state: VariantState, seat: int, defending: bool) -> OutPlay:
        """A 匪's suicide, shown as 鬼匪 5 says; what follows is 2.0's."""
        result = leave(state, seat, "suicide")
        following = None if defending else Stage("point")
        posts = (*result.posts, r20.after_suicide(seat, defending))
        shown = tuple((d.seat, d.shown) for d in result.deaths if d.shown is not None)
        return OutPlay(result.state, (seat,), shown, posts, following)
