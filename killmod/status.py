"""Where the game stands, and what the judge must do next."""

from __future__ import annotations

from dataclasses import dataclass

from killmod.model import Roster
from killmod.store import Event, Game


@dataclass(frozen=True)
class Status:
    """The game at a glance (what ``killmod status`` prints)."""

    round: int
    roster: Roster
    dealt: bool
    winner: str | None
    pending_lottery: int | None
    skipped: tuple[str, ...]
    next_step: str


def game_status(game: Game) -> Status:
    """Read the events and say where the game stands."""
    events = game.events()
    nights = {e.round for e in events if e.kind == "night"}
    days = {e.round for e in events if e.kind == "day"}
    round_no = max(nights | days, default=0)
    over = [e for e in events if e.kind == "game_over"]
    pending = _pending_lottery(events)
    roster = game.roster()
    dealt = any(e.kind == "deal" for e in events) or all(p.role for p in roster.players)
    return Status(
        round=round_no,
        roster=roster,
        dealt=dealt,
        winner=over[-1].data["winner"] if over else None,
        pending_lottery=pending,
        skipped=_skipped(nights, days),
        next_step=_next_step(
            round_no, nights, days, pending, _lots_made(events, pending), bool(over), dealt
        ),
    )


def _pending_lottery(events: list[Event]) -> int | None:
    """The round whose tie still waits for its lottery's result."""
    ties = {e.round for e in events if e.kind == "day" and e.data.get("outcome") == "tie"}
    drawn = {e.round for e in events if e.kind == "lottery_reveal"}
    waiting = sorted(ties - drawn)
    return waiting[-1] if waiting else None


def _lots_made(events: list[Event], pending: int | None) -> bool:
    """Whether the pending tie's lots are made (``lottery make``) and wait for the draw."""
    return any(e.kind == "lottery" and e.round == pending for e in events)


def _skipped(nights: set[int], days: set[int]) -> tuple[str, ...]:
    """Steps the judge handled by hand: a day with no night before it, two nights in a row."""
    notes = []
    for round_no in sorted(days - nights):
        notes.append(f"第 {round_no} 轮没有记录夜晚（权利行使）")
    for round_no in sorted(nights):
        if round_no + 1 in nights and round_no not in days:
            notes.append(f"第 {round_no} 轮没有记录白天的投票")
    return tuple(notes)


def _next_step(round_no, nights, days, pending, made, over, dealt) -> str:
    if over:
        return "游戏已结束：发揭秘帖（killmod status --reveal）。"
    if not dealt:
        return "发身份：killmod deal --notices 文件夹"
    if pending and made:
        return (
            f"第 {pending} 轮平票：已做签，等待第四人抽签；"
            f"抽出后 killmod lottery reveal --round {pending} --lot 签号"
        )
    if pending:
        return f"第 {pending} 轮平票：killmod lottery make --round {pending}"
    if round_no in nights and round_no not in days:
        return (
            f"第 {round_no} 轮白天投票截止后计票：killmod tally 投票帖 --record --round {round_no}"
        )
    return f"第 {round_no + 1} 轮夜晚：killmod night --round {round_no + 1} --kill 座位号"
