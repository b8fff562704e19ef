"""The tie lottery of the 1.2 rules (四、平票处理): lots, a public commitment, the draw's result.

The judge gives the k tied players the lot numbers 1..k at random and sends
the lots privately to the 执行斑竹 (or a third person); a fourth person draws
one number in the vote thread.  Before the draw the judge publishes a SHA-256
commitment over the lots and a secret salt; the result post publishes both,
so anyone can check that the lots were not changed after the draw.

The lottery's events carry the ``tally_id`` of the tie they settle: recording
that round's tally again voids them with the rest of the old record.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from killmod.core.errors import BadInput
from killmod.core.model import GameOver
from killmod.game.effects import record_if_over
from killmod.game.guards import refuse_if_over
from killmod.game.store import Delivery, Event, Game
from killmod.rules import rule_set, rule_set_of

PREFIX = "killmod-lottery/1"
_PAIR = re.compile(r"\s*(\d+)\s*=\s*(\d+)\s*")


@dataclass(frozen=True)
class Lottery:
    """The lots of one round's tie: lot number → seat, the salt and the commitment."""

    round: int
    mapping: dict[int, int]
    salt: str
    commitment: str
    tally_id: int | None
    event_id: int

    @property
    def canonical(self) -> str:
        return canonical(self.round, self.mapping, self.salt)

    @property
    def mapping_text(self) -> str:
        return format_mapping(self.mapping)


@dataclass(frozen=True)
class Reveal:
    """The drawn lot: who is out, their public camp, and the game's end if it came."""

    lottery: Lottery
    lot: int
    seat: int
    camp: str | None
    winner: GameOver | None


# --- the commitment ---------------------------------------------------------------------


def format_mapping(mapping: dict[int, int]) -> str:
    """The lots as ``1=5,2=7``: lot=seat pairs by lot number, no spaces."""
    return ",".join(f"{lot}={mapping[lot]}" for lot in sorted(mapping))


def parse_mapping(text: str) -> dict[int, int]:
    """Read ``1=5,2=7`` back; the lots must be 1..k and the seats different."""
    mapping: dict[int, int] = {}
    for pair in text.split(","):
        match = _PAIR.fullmatch(pair)
        if match is None:
            raise BadInput(
                f"签位写法不对：「{pair.strip()}」。应写作 签号=座位号，用逗号分隔，如 1=5,2=7"
            )
        lot, seat = int(match[1]), int(match[2])
        if lot in mapping:
            raise BadInput(f"签位里 {lot} 号签写了两次")
        mapping[lot] = seat
    if sorted(mapping) != list(range(1, len(mapping) + 1)):
        raise BadInput(f"签号应为 1–{len(mapping)} 各一次：{text}")
    if len(set(mapping.values())) != len(mapping):
        raise BadInput(f"签位里同一个座位出现了两次：{text}")
    return mapping


def canonical(round_no: int, mapping: dict[int, int], salt: str) -> str:
    """The string the commitment hashes: ``killmod-lottery/1|round=3|1=5,2=7|<salt>``."""
    return f"{PREFIX}|round={round_no}|{format_mapping(mapping)}|{salt}"


def commitment(round_no: int, mapping: dict[int, int], salt: str) -> str:
    """SHA-256 (lowercase hex) of the canonical string in UTF-8."""
    return hashlib.sha256(canonical(round_no, mapping, salt).encode("utf-8")).hexdigest()


def verify(published: str, round_no: int, mapping: dict[int, int], salt: str) -> bool:
    """Whether the published commitment is the hash of these lots and this salt."""
    return published.strip().lower() == commitment(round_no, mapping, salt.strip())


def draw(seats: list[int], seed: int | None = None) -> dict[int, int]:
    """Lot numbers 1..k for ``seats`` at random (``secrets`` unless a seed is given)."""
    order = sorted(seats)
    shuffle = random.Random(seed).shuffle if seed is not None else secrets.SystemRandom().shuffle
    shuffle(order)
    return {lot: seat for lot, seat in enumerate(order, 1)}


# --- making the lots and revealing the draw ----------------------------------------------


def make_lottery(
    game: Game,
    round_no: int,
    seed: int | None = None,
    *,
    deliver: Callable[[Lottery], Delivery] | None = None,
) -> Lottery:
    """Draw and record the lots for the recorded tie of ``round_no`` (once per tie)."""
    with game.transaction(kind="lottery_make", round_no=round_no) as step:
        refuse_if_over(game)
        tie = _tie(game, round_no)
        made = standing_lottery(game, round_no)
        if made is not None:
            raise BadInput(
                f"第 {round_no} 轮已经做过签了（{made.commitment[:16]}…）："
                f"等第四人抽签后用 killmod lottery reveal --round {round_no} --lot 签号"
            )
        roster = game.roster()
        seats = [seat for seat in tie.data["seats"] if roster.seat(seat).alive]
        if not seats:
            raise BadInput(f"第 {round_no} 轮平票的玩家都已出局，无需抽签")
        mapping = draw(seats, seed)
        salt = secrets.token_hex(16)
        digest = commitment(round_no, mapping, salt)
        tally_id = tie.data.get("tally_id")
        event_id = game.record(
            round_no,
            "lottery",
            None,
            {
                "tally_id": tally_id,
                "seats": seats,
                "mapping": {str(lot): seat for lot, seat in mapping.items()},
                "salt": salt,
                "commitment": digest,
            },
        )
        step.describe(f"第 {round_no} 轮平票的签（承诺值 {digest[:16]}…）")
        made = Lottery(round_no, mapping, salt, digest, tally_id, event_id)
        if deliver is not None:
            step.deliver(deliver(made))
    return made


def reveal_lottery(
    game: Game,
    round_no: int,
    lot: int,
    *,
    deliver: Callable[[Reveal], Delivery] | None = None,
) -> Reveal:
    """Record the death the drawn ``lot`` stands for, then the win check."""
    title = f"第 {round_no} 轮的抽签结果（{lot} 号签）"
    with game.transaction(title, kind="lottery_reveal", round_no=round_no) as step:
        refuse_if_over(game)
        lottery = standing_lottery(game, round_no)
        if lottery is None:
            raise BadInput(
                f"第 {round_no} 轮还没有做签：先 killmod lottery make --round {round_no}"
            )
        if any(e.round == round_no for e in game.events("lottery_reveal")):
            raise BadInput(f"第 {round_no} 轮的抽签结果已经公布过了")
        if lot not in lottery.mapping:
            raise BadInput(f"签号应为 1–{len(lottery.mapping)}，收到 {lot}", option="--lot")
        roster = game.roster()
        player = roster.seat(lottery.mapping[lot])
        if not player.alive:
            raise BadInput(f"{lot} 号签代表的 {player.seat}号 {player.name} 已出局", option="--lot")
        cause = {"tally_id": lottery.tally_id, "lottery_id": lottery.event_id}
        game.record(round_no, "death", player.seat, {"how": "lottery", "lot": lot, **cause})
        game.record(
            round_no,
            "lottery_reveal",
            player.seat,
            {"lot": lot, "salt": lottery.salt, "mapping": lottery.mapping_text, **cause},
        )
        winner = record_if_over(game, round_no, cause)
        camp = rule_set(roster.rules).announced_camp(player.role)
        drawn = Reveal(lottery, lot, player.seat, camp, winner)
        if deliver is not None:
            step.deliver(deliver(drawn))
    return drawn


def standing_lottery(game: Game, round_no: int) -> Lottery | None:
    """The round's recorded lots, if any (voided ones do not count)."""
    events = [e for e in game.events("lottery") if e.round == round_no]
    return _lottery(events[-1]) if events else None


def recorded_lottery(game: Game, round_no: int) -> Lottery:
    """The round's standing lots, for ``lottery show`` (bad input when none were made)."""
    lottery = standing_lottery(game, round_no)
    if lottery is None:
        raise BadInput(f"第 {round_no} 轮没有做过签（或做的签已撤销）：没有可以重发的签位。")
    return lottery


def _tie(game: Game, round_no: int) -> Event:
    """The round's standing recorded tally, which must be a tie the rule set draws lots for."""
    roster = game.roster()
    if not rule_set_of(roster).lottery:
        raise BadInput(f"{roster.rules} 规则平票不抽签：按规则再投票（killmod tally … --record）。")
    days = [e for e in game.events("day") if e.round == round_no]
    if not days or days[-1].data.get("outcome") != "tie":
        raise BadInput(
            f"第 {round_no} 轮没有记录平票：抽签要先用 killmod tally … --record 记录平票的投票结果"
        )
    return days[-1]


def _lottery(event: Event) -> Lottery:
    data = event.data
    mapping = {int(lot): seat for lot, seat in data["mapping"].items()}
    return Lottery(
        event.round, mapping, data["salt"], data["commitment"], data.get("tally_id"), event.id
    )
