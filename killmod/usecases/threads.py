"""The threads a game is played in, as the judge records them (``killmod thread``): the game
thread, and a round's vote thread (default: the round whose day comes next)."""

from __future__ import annotations

from dataclasses import dataclass

from killmod.core.errors import BadInput, about
from killmod.game.guards import refuse_if_over
from killmod.game.store import Game
from killmod.game.threads import GAME, VOTE, Threads, kept_address, remembered, set_thread

KINDS = (GAME, VOTE)
ADDRESS = "网址"  # the command's argument, as a refusal about it names it


@dataclass(frozen=True)
class RecordedThread:
    """A thread recorded: which (``game`` or ``vote``), the round of a vote thread, and the
    address as the game file keeps it."""

    kind: str
    round: int | None
    address: str

    @property
    def where(self) -> str:
        """The thread in the judge's words: 游戏帖, 第 2 轮的投票帖."""
        return "游戏帖" if self.kind == GAME else f"第 {self.round} 轮的投票帖"


def record_thread(game: Game, url: str, kind: str, round_no: int | None = None) -> RecordedThread:
    """Record ``url`` as the game thread (``kind`` ``game``) or a round's vote thread
    (``vote``), a step of its own that undo takes back; refused once the game is over, and
    — about the address (``网址``) — when it already is that thread or the game file knows
    it in another part."""
    if kind not in KINDS:
        raise BadInput(f"要记下的是游戏帖（game）还是投票帖（vote）？收到「{kind}」。")
    refuse_if_over(game)
    with about(ADDRESS):
        number = set_thread(game, url, thread=kind, round_no=round_no)
    return RecordedThread(kind, number, kept_address(url))


def known_threads(game: Game) -> Threads:
    """The threads the game file remembers."""
    return remembered(game)
