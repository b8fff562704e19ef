"""The 1.0 rules (初级游戏 1.0版): roles, pointing, the knife, reveals, win check.

Pure functions over frozen dataclasses: no I/O, no clock; randomness only
through an injected ``random.Random``. Each function cites the sentence of the
rule text it implements; decisions where the text leaves room are written in
docs/rules/1.0.md, each with the test that holds it.

The day procedure of 1.0 — pointing (指认), the most-pointed defends, then
动刀 (knife) or 过 (pass) — is also the day procedure of 2.0: the shared parts
live in ``killmod.rules.shared``.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from killmod.core.errors import BadInput
from killmod.core.model import GameOver, KnifeCount, Player
from killmod.rules.base import OutPlay
from killmod.rules.policy import JudgeOut, TallyPolicy
from killmod.rules.shared import (
    PointingRules,
    check_player_count,
    check_seat,
    deal_cards,
    dealt_roles,
    knife_count,
    knife_result_post,
    out_at_start,
)

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


def deal(seats: Iterable[int], rng: random.Random, killers: int | None = None) -> dict:
    """4.1 “每个玩家从裁判手中抽取一张牌”: roles by seat, shuffled with ``rng``."""
    order = sorted(set(seats))
    row = table_row(len(order), killers)
    return deal_cards(order, {KILLER: row["killers"], CIVILIAN: row["civilians"]}, rng)


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


def check_win(state: R10State) -> GameOver | None:
    """5．胜利条件; None while the game goes on.

    杀手: “如果出现活着的杀手人数与平民人数相同的情况，则裁判将直接判为杀手胜利”;
    平民: “将杀手全部推出局”.
    """
    killers, civilians = len(state.holders(KILLER)), len(state.holders(CIVILIAN))
    if killers == 0:
        return GameOver(CIVILIAN_CAMP, "杀手全部出局，平民胜利。")
    if killers >= civilians:
        return GameOver(KILLER_CAMP, f"存活杀手 {killers} 人，平民 {civilians} 人，杀手胜利。")
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


# ---------------------------------------------------------------- the rule set


class R10Rules(PointingRules):
    """初级游戏 1.0版: no night kill; the knife's half is of every living player but the defender.

    4.4–4.6: the killers only open their eyes to know each other; no step kills
    anyone (Decision: no night to record, ``night_options`` is empty).
    """

    NAME = NAME
    ROLES = ROLES
    POWERS = POWERS
    TALLY_POLICY = TALLY_POLICY
    VOTE_RULES = VOTE_RULES
    JUDGE_OUTS = JUDGE_OUTS

    # 4.10 “超过半数以上，则该玩家将直接出局并可留下遗言 … （不可亮底牌）”: round one hides
    # the card; from round two it is shown by ``vote_out``, the camp is never announced.
    REVEAL_CAMP = False

    def table(self) -> list[dict]:
        """Every row of the role table, default killer counts."""
        return table()

    def table_row(self, players: int) -> dict:
        """The role table's row for ``players`` (6–10)."""
        return table_row(players)

    def summary(self, players: int | None = None) -> list[str]:
        """The 1.0 rules in Chinese lines."""
        return summary(players)

    def deal(self, seats: Iterable[int], rng: random.Random) -> dict[int, str]:
        """4.1: roles by seat, shuffled with ``rng``."""
        return deal(seats, rng)

    def camp(self, role: str | None) -> str | None:
        """2．游戏原则: 杀手 or 平民."""
        return camp(role)

    def start(self, players: Sequence[Player]) -> R10State:
        """The dealt roles against the table (2 or 3 killers)."""
        return replace(new_game(dealt_roles(players)), out=out_at_start(players))

    def knife_post(self, count: KnifeCount) -> str:
        """4.11: pointing again counterclockwise from the defender."""
        return knife_post(count)

    def vote_out(self, state: R10State, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """4.10–4.14: out by the knife; from round two the card is shown."""
        (seat,) = seats
        result = vote_out(state, seat)
        return OutPlay(result.state, seats, result.shown, result.posts)

    def verdict(self, state: R10State) -> GameOver | None:
        """5．胜利条件."""
        return check_win(state)
