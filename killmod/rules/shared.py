"""What several rule sets share: seats, player counts, dealing, 指认 and 动刀, team choices.

Pure functions over plain data, as the rule modules are. 1.0 and 2.0 share the day
(pointing, then the knife on the defender); X and 2.0 share the night (a team's choice
by majority, the police's answer by a gesture); every set deals with ``deal_cards``.
Each function cites the rule sentence it implements.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from killmod.core.errors import BadInput
from killmod.core.model import DayStep, KnifeCount, Outcome, Player, Stage
from killmod.rules.base import NightPlay, RuleSet
from killmod.rules.policy import KILLER

# X 专业术语 / 入门技巧 1): “裁判给了杀手的手势（同时可模仿裁判手势竖起右手拇指配合发言）”.
KILLER_GESTURE = "竖起右手拇指"


# ---------------------------------------------------------------- seats, counts, dealing


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


def deal_cards(seats: Iterable[int], counts: Mapping[str, int], rng: random.Random) -> dict:
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


# ---------------------------------------------------------------- the night's teams (X, 2.0)


def team_choice(opinions: Mapping[int, int | None], team: Collection[int]) -> int:
    """The team's one target from its members' ``opinions`` (None = no opinion).

    3.6 “如果意见无法完全统一，则由裁判取其中多数人的意见（不给任何意见者将被裁判
    视为同意其他人的意见）”; 注意事项 7) “杀人或验人或自杀时要少数服从多数”.
    Decision: a tie at the top is no majority: ``BadInput`` asking the team to
    agree. Opinions from outside ``team`` are a ``BadInput``.
    """
    members = set(team)
    strangers = sorted(set(opinions) - members)
    if strangers:
        raise BadInput(f"{seats_text(strangers)}不在本方，不能提交意见。")
    counts = Counter(target for target in opinions.values() if target is not None)
    if not counts:
        raise BadInput("没有人给出意见，请本方给出目标。")
    ranked = counts.most_common()
    top = [target for target, n in ranked if n == ranked[0][1]]
    if len(top) > 1:
        tied = seats_text(sorted(top))
        raise BadInput(f"意见平票（{tied}各 {ranked[0][1]} 人），请本方统一意见。")
    return top[0]


@dataclass(frozen=True)
class PoliceFeedback:
    """The judge's answer to the police: the checked seat, what it is, the private text."""

    seat: int
    identity: str
    gesture: str | None
    text: str


def feedback(seat: int, identity: str) -> PoliceFeedback:
    """3.11 “由裁判给出相应的手势……来告知警察被指认人的准确身份” as a private text.

    Only the killer's gesture is written in the rule text (竖起右手拇指); the
    others are told in words.
    """
    gesture = KILLER_GESTURE if identity == KILLER else None
    text = f"请看裁判手势：{seat}号的身份是{identity}。"
    if gesture:
        text = f"请看裁判手势（{gesture}）：{seat}号的身份是{identity}。"
    return PoliceFeedback(seat, identity, gesture, text)


# ---------------------------------------------------------------- players set up, documents


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


# ---------------------------------------------------------------- the pointing day (1.0, 2.0)


class PointingRules(RuleSet):
    """A set whose day is 指认 (``point``; a tie is pointed again among the tied,
    ``repoint``), then 动刀 (``knife``) on the defender; a defender who survives the
    knife starts the pointing again, until someone is out (1.0 4.7–4.11, 2.0 3.k–3.m)."""

    @abstractmethod
    def knife_post(self, count: KnifeCount) -> str:
        """The judge's post once a knife phase is closed (which way the pointing restarts)."""

    def first_stage(self) -> Stage:
        """The day starts with the pointing."""
        return Stage("point")

    def count_knives(
        self, ballots: Mapping[int, str], living: Collection[int], defender: int
    ) -> KnifeCount:
        """The knife phase counted against more than half of the players but the defender."""
        return knife_count(ballots, tuple(living), defender)

    def day(
        self, state: Any, stage: Stage, outcome: Outcome, round_no: int, knife: KnifeCount | None
    ) -> DayStep:
        """Pointing names the defender (or points again); the knife puts him out or not."""
        if knife is not None:
            posts = (self.knife_post(knife),)
            if knife.out:
                return self.out_step(
                    state, stage, (knife.defender,), round_no, posts=posts, knife=knife
                )
            return DayStep(stage, next=Stage("point"), posts=posts, knife=knife)
        step = pointing_step(PointStage(stage.kind, stage.candidates), outcome)
        if step.defender is not None:
            following = Stage("knife", defender=step.defender)
        else:
            assert step.stage is not None  # no defender: the pointing goes on
            following = Stage(step.stage.kind, step.stage.tied)
        return DayStep(stage, next=following, posts=step.posts)
