"""A nickname players vote with becomes one of a seat's aliases (``killmod alias``).

Players write 鱼 for 咸鱼王 and kp for kingpin; the tally reads such a name as no one's
and suggests the seat (README, “Reading a ballot”).  One recorded step, an ``alias``
event, makes it the seat's alias: the roster the tally reads replays it
(``killmod.game.store``) for the seat's current holder (a substitute starts without his
predecessor's aliases), and ``killmod undo`` takes it back like any step.
"""

from __future__ import annotations

from dataclasses import dataclass

from killmod.ballots.votes import reads_as_seat
from killmod.core.errors import SEAT, BadInput
from killmod.core.names import fold
from killmod.game.guards import refuse_if_over
from killmod.game.roster import name_taken
from killmod.game.store import Game

# An alias is a name players write in a post: as long as any name may be read (a ballot's
# name is at most this long after a verb, ``killmod.ballots.votes``).
MAX_ALIAS = 30
ALIAS = "别名"  # the command's argument, as its errors name it


@dataclass(frozen=True)
class Alias:
    """An alias recorded: the seat, its holder's name, the alias as the judge wrote it."""

    seat: int
    name: str
    alias: str


def record_alias(game: Game, seat: int, alias: str) -> Alias:
    """Record ``alias`` as a name of the player holding ``seat`` (one step).

    Refused when the seat does not exist, when the alias is empty, too long, reads as a
    seat of the game (5号), or is already someone's name, alias, former holder's name, a
    judge's or a substitute's — compared folded, as the tally compares them (case, width,
    traditional and simplified) — and once the game is over.
    """
    alias = " ".join(alias.split())
    with game.transaction(kind="alias") as step:
        refuse_if_over(game)
        roster = game.roster()
        player = roster.seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位。", option=SEAT)
        if not fold(alias):
            raise BadInput("别名不能是空的。", option=ALIAS)
        if len(alias) > MAX_ALIAS:
            raise BadInput(
                f"别名最长 {MAX_ALIAS} 个字，「{alias}」有 {len(alias)} 个字。", option=ALIAS
            )
        number = reads_as_seat(alias)
        if number is not None and roster.seat(number) is not None:
            raise BadInput(
                f"「{alias}」读作 {number} 号座位，不能作别名：投票帖里它就是那个座位。",
                option=ALIAS,
            )
        taken = name_taken(roster, alias)
        if taken is not None:
            holder, whose = taken
            if holder == seat:
                raise BadInput(
                    f"「{alias}」已经读作 {seat}号：它是{whose}"
                    "（不分大小写、全角半角和繁简体），不用再记为别名。",
                    option=ALIAS,
                )
            raise BadInput(
                f"「{alias}」已经是{whose}（不分大小写、全角半角和繁简体），"
                f"不能再作 {seat}号 的别名：计票分不清是谁。",
                option=ALIAS,
            )
        step.describe(f"{seat}号 {player.name} 的别名：{alias}")
        game.record(None, "alias", seat, {"alias": alias, "name": player.name})
    return Alias(seat, player.name, alias)
