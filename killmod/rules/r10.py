"""The 1.0 rules (初级游戏 1.0版): roles, pointing, the knife, reveals, win check.

Pure functions over frozen dataclasses: no I/O, no clock; randomness only
through an injected ``random.Random``. Each function cites the sentence of the
rule text it implements; decisions where the text leaves room are written in
docs/rules/1.0.md, each with the test that holds it.

The day procedure of 1.0 — pointing (指认), the most-pointed defends, then
动刀 (knife) or 过 (pass) — is also the day procedure of 2.0, which differs
only in whose half the knife must pass. The shared parts live here, in the
section “shared by 1.0 and 2.0”, and ``killmod.rules.r20`` imports them.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from killmod.core.errors import BadInput
from killmod.core.model import GameOver, Outcome
from killmod.rules.policy import JudgeOut, TallyPolicy

NAME = "1.0"

KILLER = "杀手"
CIVILIAN = "平民"
ROLES = (KILLER, CIVILIAN)
# What each role's notice says, in the rule text's words (2．游戏原则).
POWERS: dict[str, tuple[str, ...]] = {
    KILLER: ("杀手：游戏中运用各种手段掩饰身份。除自己同伴外，除掉所有平民。",),
    CIVILIAN: ("平民：从游戏中除掉所有杀手。",),
}

# 2．游戏原则: 杀手 “除掉所有平民”; 平民 “从游戏中除掉所有杀手”.
KILLER_CAMP = "杀手"
CIVILIAN_CAMP = "平民"

# 1．参加人数: “人数：6-10人 … 其中杀手2-3人，剩余则是平民。”
MIN_PLAYERS = 6
MAX_PLAYERS = 10
KILLER_OPTIONS = (2, 3)

# 4.7 “从1号玩家开始发言，任意指认一名心目中的杀手”: everyone points; the text sets
# no self vote and no penalty, so a non-pointer is simply not counted. Decision: in a
# forum the pointing has no turns, so a later post changes the pointing, as in 1.2.
TALLY_POLICY = TallyPolicy(non_voter="none", warn_non_voters=False)
# No rule of 1.0 lets the judge put a player out or end the game (``killmod out``).
JUDGE_OUTS: dict[str, JudgeOut] = {}

# The rule text's own words on the day vote, for the vote thread's opening post (killmod
# open), by the vote's phase: 4.7)–4.11) (docs/rules/1.0.md, “The opening post”).
VOTE_RULES = {
    "point": (
        "任意指认一名心目中的杀手。可以阐述指认理由，也可以不阐述理由直接指认。",
        "在一轮所有玩家都指认完毕后，让被投票票数最多1名玩家出来辩论发言。",
        "如果有出现平票情况，则以平票者为对象再进行一轮选票。这轮选票中必须选出一名玩家。"
        "否则裁判有权宣布废票，将重新进行新一轮投票。",
    ),
    "knife": (
        "动刀原则，你觉得他是杀手就举手动刀。反之就不动。",
        "各玩家举手示意。超过半数以上，则该玩家将直接出局并可留下遗言，然后退出本局游戏。",
        "如果没有超过半数，那将从该名玩家开始按逆时针方向重新开始一轮投票。直至一名玩家出局为止。",
    ),
}

# 4.4–4.6: the killers only open their eyes to know each other; no step kills anyone,
# and round two starts “直接从出局者的右手边第一名玩家开始” (Decision: no night kill).
NIGHT_KILL = False
# 4.10 “超过半数以上，则该玩家将直接出局并可留下遗言 … （不可亮底牌）”: round one hides the card.
REVEAL_ON_OUT = False
# 4.13 “出局无论什么身份均可留下遗言”.
LAST_WORDS = True


# ================================================================ shared by 1.0 and 2.0


def check_seat(seat: object) -> int:
    """A seat number is a positive int; anything else is ``BadInput``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 1:
        raise BadInput(f"座位号应为正整数，不是「{seat}」。")
    return seat


def check_player_count(players: object, low: int, high: int, title: str) -> int:
    """``players`` must be an int in ``low``–``high``; the message names the rule set."""
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise BadInput(f"{title}只有 {low}–{high} 人局，没有 {players} 人局。")
    return players


@dataclass(frozen=True)
class SeatsState:
    """Roles by seat and the dead in the order they died: the state X and 2.0 share.

    A subclass names its roles by ``check_role``.
    """

    roles: Mapping[int, str]
    deaths: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "roles", dict(self.roles))
        object.__setattr__(self, "deaths", tuple(self.deaths))
        for seat, role in self.roles.items():
            check_seat(seat)
            self.check_role(role)
        for seat in self.deaths:
            if seat not in self.roles:
                raise BadInput(f"没有 {seat} 号玩家。")
        if len(set(self.deaths)) != len(self.deaths):
            raise BadInput("死亡记录中同一座位出现了两次。")

    def check_role(self, role: str) -> None:
        """Refuse a role the rule set does not have (BadInput)."""
        raise NotImplementedError

    @property
    def living(self) -> tuple[int, ...]:
        """The seats still in the game."""
        return tuple(seat for seat in sorted(self.roles) if seat not in self.deaths)

    def holders(self, role: str) -> tuple[int, ...]:
        """The living seats of ``role``."""
        return tuple(seat for seat in self.living if self.roles[seat] == role)


def seats_text(seats: Iterable[int]) -> str:
    """``1号、4号、7号``."""
    return "、".join(f"{seat}号" for seat in seats)


def more_than_half(total: int) -> int:
    """The smallest count that is more than half of ``total`` (超过半数)."""
    return total // 2 + 1


# The end of a game, as every rule set's check_win gives it: the winning camp
# (None for a draw) and why, in Chinese.
Verdict = GameOver


def deal_roles(seats: Iterable[int], counts: Mapping[str, int], rng: random.Random) -> dict:
    """Shuffle ``counts`` worth of cards over ``seats`` with the injected ``rng``.

    The cards are laid out in the order of ``counts`` and shuffled once, so the
    same seed always deals the same table (the judge can record the seed).
    """
    order = sorted({check_seat(seat) for seat in seats})
    cards = [role for role, count in counts.items() for _ in range(count)]
    if len(cards) != len(order):
        raise BadInput(f"座位有 {len(order)} 个，身份牌有 {len(cards)} 张，数目不符。")
    rng.shuffle(cards)
    return dict(zip(order, cards, strict=True))


def check_deal(roles: Mapping[int, str], expected: Mapping[str, int], title: str) -> None:
    """The dealt ``roles`` must hold exactly ``expected`` of each role; ``BadInput`` otherwise."""
    dealt = list(roles.values())
    wrong = [
        f"{role} {dealt.count(role)} 名（应为 {n}）"
        for role, n in expected.items()
        if dealt.count(role) != n
    ]
    if wrong:
        raise BadInput(f"{len(roles)} 人局{title}身份分配不符：{'，'.join(wrong)}。")


def seat_order(seats: Iterable[int], start: int, clockwise: bool) -> tuple[int, ...]:
    """The seats in speaking order from ``start``.

    Decision (docs/rules/1.0.md): seats sit in a ring in seat-number order;
    clockwise (顺时针) is ascending seat numbers, counterclockwise (逆时针)
    descending.
    """
    ring = sorted(set(seats))
    if start not in ring:
        raise BadInput(f"{start} 号不在场上，不能从 {start} 号开始。")
    if not clockwise:
        ring.reverse()
    at = ring.index(start)
    return tuple(ring[at:] + ring[:at])


# ---------------------------------------------------------------- pointing (指认)


@dataclass(frozen=True)
class PointStage:
    """A pointing round: ``point`` among every living player, or ``repoint`` among the tied."""

    kind: Literal["point", "repoint"] = "point"
    tied: tuple[int, ...] = ()


POINT = PointStage()


@dataclass(frozen=True)
class PointStep:
    """After a pointing round: the defender (辩解者), or the next pointing round, and the posts."""

    defender: int | None
    stage: PointStage | None
    posts: tuple[str, ...]


def pointing_step(stage: PointStage, outcome: Outcome) -> PointStep:
    """1.0 4.8–4.9: the most-pointed defends; a tie is pointed again, else the round is void.

    “让被投票票数最多1名玩家出来辩论发言。如果有出现平票情况，则以平票者为对象再进行
    一轮选票。这轮选票中必须选出一名玩家。否则裁判有权宣布废票，将重新进行新一轮投票。”
    ``outcome`` is the tally of the pointing round (killmod.core.model.Outcome).
    Decision: a round in which nobody points at anyone is void too.
    """
    if stage.kind == "repoint":
        _check_within(outcome, stage.tied)
    if outcome.kind == "eliminated":
        assert outcome.seat is not None
        seat = outcome.seat
        return PointStep(seat, None, (f"{seat}号被指认最多，请{seat}号出来辩解。",))
    if stage.kind == "point" and outcome.kind == "tie":
        tied = tuple(sorted(outcome.seats))
        return PointStep(
            None,
            PointStage("repoint", tied),
            (f"{seats_text(tied)}平票。请以平票者为对象再指认一轮，这一轮必须选出一名玩家。",),
        )
    if stage.kind == "point":
        return PointStep(None, POINT, ("无人被指认，本轮指认作废，请重新指认。",))
    return PointStep(
        None, POINT, ("平票者再指认仍未选出一名玩家，裁判宣布废票，重新进行新一轮指认。",)
    )


def _check_within(outcome: Outcome, allowed: tuple[int, ...]) -> None:
    seats = (outcome.seat,) if outcome.kind == "eliminated" else outcome.seats
    stray = [seat for seat in seats if seat not in allowed]
    if stray:
        raise BadInput(f"这一轮只能在 {seats_text(allowed)} 中选择，{seats_text(stray)}不在其中。")


# ---------------------------------------------------------------- the knife (动刀)

KNIFE = "knife"
PASS = "pass"


@dataclass(frozen=True)
class KnifeCount:
    """One knife phase counted: who knifed, who passed, the threshold and the result.

    ``base`` is how many players the half is taken of — the living players
    other than the defender; ``threshold`` the knives needed (more than half of
    ``base``); ``silent`` the living players with no ballot (counted as 过 once
    the phase closes); ``ignored`` the defender's own ballot, which never
    counts. ``out`` is whether the knives already pass the threshold;
    ``settled`` whether the result can no longer change (out, or too few
    players left to reach it); ``needed`` the knives still missing.
    """

    defender: int
    base: int
    threshold: int
    knives: tuple[int, ...]
    passes: tuple[int, ...]
    silent: tuple[int, ...]
    ignored: tuple[int, ...]

    @property
    def out(self) -> bool:
        """The defender is out: the knives are more than half of ``base``."""
        return len(self.knives) >= self.threshold

    @property
    def needed(self) -> int:
        """How many more knives the defender is from out (0 once out)."""
        return max(0, self.threshold - len(self.knives))

    @property
    def settled(self) -> bool:
        """The result cannot change: out, or the silent players cannot make up the rest."""
        return self.out or len(self.knives) + len(self.silent) < self.threshold

    @property
    def verdict(self) -> str:
        """The result once the phase closed, in the rule text's words (超过半数 or not).

        A tally counts at the deadline: the silent players count as 过 by then.
        """
        if self.out:
            return f"动刀已超过半数：{self.defender}号出局。"
        return f"动刀未超过半数：{self.defender}号存活。"

    @property
    def text(self) -> str:
        """The count as one Chinese line, for the judge's post."""
        parts = [f"动刀 {len(self.knives)} 人", f"过 {len(self.passes)} 人"]
        if self.silent:
            parts.append(f"未表态 {len(self.silent)} 人（按过计）")
        return (
            f"{'，'.join(parts)}；除辩解者外存活 {self.base} 人，超过半数须至少 "
            f"{self.threshold} 刀。{self.verdict}"
        )

    def as_json(self) -> dict:
        """The count as JSON for a forum tally."""
        return {
            "defender": self.defender,
            "base": self.base,
            "threshold": self.threshold,
            "knives": list(self.knives),
            "passes": list(self.passes),
            "silent": list(self.silent),
            "ignored": list(self.ignored),
            "out": self.out,
            "settled": self.settled,
            "needed": self.needed,
        }


def knife_count(ballots: Mapping[int, str], living: Collection[int], defender: int) -> KnifeCount:
    """Count a knife phase: ``ballots`` maps a seat to ``"knife"`` (动刀) or ``"pass"`` (过).

    The half is of the living players other than the defender (1.0 and 2.0
    alike, docs/rules/1.0.md). The defender never knifes himself: his ballot is
    listed in ``ignored`` and not counted. A ballot from a seat not alive is a
    ``BadInput`` (the tally filters those before).
    """
    alive = frozenset(check_seat(seat) for seat in living)
    if defender not in alive:
        raise BadInput(f"辩解者 {defender} 号不在存活名单里。")
    knives, passes, ignored = [], [], []
    for seat, ballot in sorted(ballots.items()):
        if seat not in alive:
            raise BadInput(f"{seat} 号不在存活名单里，不能动刀。")
        if ballot not in (KNIFE, PASS):
            raise BadInput(f"{seat} 号的选择应为 knife（动刀）或 pass（过），不是「{ballot}」。")
        if seat == defender:
            ignored.append(seat)
        elif ballot == KNIFE:
            knives.append(seat)
        else:
            passes.append(seat)
    silent = sorted(alive - {defender} - set(knives) - set(passes))
    total = len(alive) - 1
    return KnifeCount(
        defender=defender,
        base=total,
        threshold=more_than_half(total),
        knives=tuple(knives),
        passes=tuple(passes),
        silent=tuple(silent),
        ignored=tuple(ignored),
    )


def knife_result_post(count: KnifeCount, clockwise: bool) -> str:
    """The judge's post once the phase is closed: out, or pointing again from the defender."""
    if count.out:
        return count.text
    way = "顺时针" if clockwise else "逆时针"
    return f"{count.text}请从{count.defender}号开始按{way}方向重新指认。"


# ================================================================ 1.0 itself


def killer_options(players: int) -> tuple[int, ...]:
    """The killer counts a ``players`` game may deal: 2–3, and fewer than the civilians.

    Decision: with as many killers as civilians the killers would have won at
    the deal (5.1), so 6 players allow only 2 killers.
    """
    check_player_count(players, MIN_PLAYERS, MAX_PLAYERS, "1.0 初级游戏")
    return tuple(k for k in KILLER_OPTIONS if players - k > k)


def default_killers(players: int) -> int:
    """Decision: 6–8 players deal 2 killers (the rule's example: 8 人, 2 名杀手), 9–10 deal 3."""
    check_player_count(players, MIN_PLAYERS, MAX_PLAYERS, "1.0 初级游戏")
    return 2 if players <= 8 else 3


def table_row(players: int, killers: int | None = None) -> dict:
    """The role table for ``players`` (6–10): ``players``, ``civilians``, ``police``, ``killers``.

    ``killers`` defaults to ``default_killers(players)``; ``killer_options`` lists
    the counts the judge may choose instead.
    """
    options = killer_options(players)
    chosen = default_killers(players) if killers is None else killers
    if chosen not in options:
        raise BadInput(
            f"{players} 人局的杀手只能是 {'或'.join(map(str, options))} 人，不能是 {chosen} 人。"
        )
    return {
        "players": players,
        "civilians": players - chosen,
        "police": 0,
        "killers": chosen,
        "killer_options": list(options),
    }


def table() -> list[dict]:
    """Every row of the role table, default killer counts."""
    return [table_row(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]


def camp(role: str | None) -> str | None:
    """2．游戏原则: 杀手 or 平民 (None when unknown)."""
    if role is None:
        return None
    _check_role(role)
    return KILLER_CAMP if role == KILLER else CIVILIAN_CAMP


def _check_role(role: str) -> None:
    if role not in ROLES:
        raise BadInput(f"「{role}」不是 1.0 初级游戏的身份（可用：{'、'.join(ROLES)}）。")


def warning_action(total: int, substitutes_left: int) -> str:
    """1.0 sets no penalty for not pointing: a warning is only ever a warning.

    The tally never calls this (``TALLY_POLICY.warn_non_voters`` is False).
    """
    return "warn"


def deal(seats: Iterable[int], rng: random.Random, killers: int | None = None) -> dict:
    """4.1 “每个玩家从裁判手中抽取一张牌”: roles by seat, shuffled with ``rng``."""
    order = sorted(set(seats))
    row = table_row(len(order), killers)
    return deal_roles(order, {KILLER: row["killers"], CIVILIAN: row["civilians"]}, rng)


# ---------------------------------------------------------------- game state


@dataclass(frozen=True)
class R10State:
    """A 1.0 game: roles by seat, who went out in which round, whose card is shown.

    ``out`` lists the out players in order: ``out[0]`` went out in round one.
    ``revealed`` are the seats whose card has been shown (亮底牌).
    """

    roles: Mapping[int, str]
    out: tuple[int, ...] = ()
    revealed: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "roles", dict(self.roles))
        object.__setattr__(self, "out", tuple(self.out))
        object.__setattr__(self, "revealed", frozenset(self.revealed))
        for seat, role in self.roles.items():
            check_seat(seat)
            _check_role(role)
        for seat in (*self.out, *self.revealed):
            if seat not in self.roles:
                raise BadInput(f"没有 {seat} 号玩家。")
        if len(set(self.out)) != len(self.out):
            raise BadInput("出局记录中同一座位出现了两次。")
        if not self.revealed <= set(self.out):
            raise BadInput("只有出局的玩家才会亮底牌。")

    @property
    def living(self) -> tuple[int, ...]:
        """The seats still in the game."""
        return tuple(seat for seat in sorted(self.roles) if seat not in self.out)

    @property
    def round(self) -> int:
        """The round being played: one player goes out per round."""
        return len(self.out) + 1

    def holders(self, role: str) -> tuple[int, ...]:
        """The living seats of ``role``."""
        return tuple(seat for seat in self.living if self.roles[seat] == role)


def new_game(roles: Mapping[int, str]) -> R10State:
    """A game's first state; the dealt ``roles`` must be a row of the table."""
    players = check_player_count(len(roles), MIN_PLAYERS, MAX_PLAYERS, "1.0 初级游戏")
    for role in roles.values():
        _check_role(role)
    killers = list(roles.values()).count(KILLER)
    table_row(players, killers)
    return R10State(roles)


@dataclass(frozen=True)
class OutResult:
    """A player out by the knife: the new state, the cards shown now, the judge's posts."""

    state: R10State
    seat: int
    shown: tuple[tuple[int, str], ...]
    posts: tuple[str, ...]


def vote_out(state: R10State, seat: int) -> OutResult:
    """4.10–4.14: ``seat`` is out by the knife; who shows their card.

    Round one: “不可亮底牌”. Round two: “超过半数将直接出局并将自己的真实身份告诉
    大家”; “如果第二轮出局的玩家亮出底牌是杀手，则第一个出局者需亮出底牌”; round
    three and later “流程与第二轮相同”. Decision: in any round after the first, a
    killer's card makes the first out player show theirs, if not shown yet.
    Everyone out may leave last words (“出局无论什么身份均可留下遗言”).
    """
    if seat not in state.roles:
        raise BadInput(f"没有 {seat} 号玩家。")
    if seat in state.out:
        raise BadInput(f"{seat} 号已出局。")
    round_no = state.round
    shown: list[tuple[int, str]] = []
    if round_no > 1:
        shown.append((seat, state.roles[seat]))
        first = state.out[0]
        if state.roles[seat] == KILLER and first not in state.revealed:
            shown.append((first, state.roles[first]))
    new = replace(state, out=(*state.out, seat), revealed=state.revealed | {s for s, _ in shown})
    if round_no == 1:
        posts = [f"第 1 轮：{seat}号出局（不亮底牌），请留遗言。"]
    else:
        posts = [f"第 {round_no} 轮：{seat}号出局，亮底牌：{state.roles[seat]}。请留遗言。"]
        if len(shown) == 2:
            first, role = shown[1]
            posts.append(f"本轮出局者是杀手，第一个出局的{first}号需亮底牌：{role}。")
    return OutResult(new, seat, tuple(shown), tuple(posts))


def next_round_post(state: R10State) -> str:
    """4.11 “直接从出局者的右手边第一名玩家开始在剩余玩家中重新指认杀手” (no night)."""
    if not state.out:
        return "第 1 轮：从1号玩家开始指认。"
    return f"第 {state.round} 轮：从{state.out[-1]}号右手边第一名玩家开始，在剩余玩家中重新指认。"


def count_knives(ballots: Mapping[int, str], living: Collection[int], defender: int) -> KnifeCount:
    """4.9–4.10 “你觉得他是杀手就举手动刀……各玩家举手示意。超过半数以上，则该玩家将直接出局”.

    Decision (docs/rules/1.0.md, “The knife”): the hands are the other players'
    (the defender is the one judged: “你觉得他是杀手”), so the half is of the
    living players other than the defender — what 2.0 m) writes out as “除去辩解者”.
    """
    return knife_count(ballots, living, defender)


def knife_post(count: KnifeCount) -> str:
    """4.11 “如果没有超过半数，那将从该名玩家开始按逆时针方向重新开始一轮投票”."""
    return knife_result_post(count, clockwise=False)


def check_win(state: R10State) -> Verdict | None:
    """5．胜利条件; None while the game goes on.

    杀手: “如果出现活着的杀手人数与平民人数相同的情况，则裁判将直接判为杀手胜利”;
    平民: “将杀手全部推出局”.
    """
    killers, civilians = len(state.holders(KILLER)), len(state.holders(CIVILIAN))
    if killers == 0:
        return Verdict(CIVILIAN_CAMP, "杀手全部出局，平民胜利。")
    if killers >= civilians:
        return Verdict(KILLER_CAMP, f"存活杀手 {killers} 人，平民 {civilians} 人，杀手胜利。")
    return None


def summary(players: int | None = None) -> list[str]:
    """The rule set in Chinese lines, for ``killmod rules 1.0``."""
    lines = [
        "1.0 初级游戏（杀手 + 平民，无警察）",
        f"人数：{MIN_PLAYERS}–{MAX_PLAYERS} 人；杀手 2–3 人，其余为平民（杀手须少于平民）。",
        "夜晚：杀手睁眼只确认同伴，不杀人。",
        "白天：所有人依次指认一名心目中的杀手；被指认最多者辩解；平票者再指认一轮，"
        "仍选不出则废票重指。",
        "动刀：辩解后各玩家举手动刀，超过除辩解者以外存活人数的半数即出局；"
        "否则从辩解者开始按逆时针重新指认，直到有人出局。",
        "遗言：出局者无论身份均可留遗言。",
        "亮底牌：第一轮出局者不亮底牌；之后每轮出局者亮底牌；出局者是杀手时，"
        "第一个出局者也要亮底牌。",
        "胜负：存活杀手人数与平民相同，杀手胜；杀手全部出局，平民胜。",
        "计票：未指认者不计票，也不警告。",
    ]
    if players is not None:
        row = table_row(players)
        options = "或".join(map(str, row["killer_options"]))
        lines.append(
            f"{players} 人局：杀手 {row['killers']} 人（可选 {options} 人），"
            f"平民 {row['civilians']} 人。"
        )
    return lines
