"""Where the game stands, and what the judge must do next."""

from __future__ import annotations

from dataclasses import dataclass

from killmod.days import PHASES
from killmod.flows.base import Flow
from killmod.gamestate import day_goes_on, day_rounds, flow_of, next_stage
from killmod.model import GameOver, Roster
from killmod.store import Event, Game


@dataclass(frozen=True)
class LeaveDay:
    """A recorded day of leave, as status shows it."""

    seat: int
    name: str
    day: str


@dataclass(frozen=True)
class Violation:
    """A recorded violation and the kind of its penalty, as status shows it."""

    round: int | None
    seat: int
    name: str
    penalty: str


@dataclass(frozen=True)
class Status:
    """The game at a glance (what ``killmod status`` prints)."""

    round: int
    roster: Roster
    dealt: bool
    winner: GameOver | None
    pending_lottery: int | None
    skipped: tuple[str, ...]
    next_step: str
    leaves: tuple[LeaveDay, ...] = ()
    penalties: tuple[Violation, ...] = ()


def game_status(game: Game) -> Status:
    """Read the events and say where the game stands."""
    events = game.events()
    nights = {e.round for e in events if e.kind == "night"}
    days = day_rounds(game)
    round_no = max(nights | days, default=0)
    over = [e for e in events if e.kind == "game_over"]
    roster = game.roster()
    flow = flow_of(roster)
    pending = _pending_lottery(events) if flow.lottery else None
    dealt = any(e.kind == "deal" for e in events) or all(p.role for p in roster.players)
    following = next_stage(flow, game, round_no) if day_goes_on(game, round_no) else None
    return Status(
        round=round_no,
        roster=roster,
        dealt=dealt,
        winner=GameOver.from_json(over[-1].data) if over else None,
        pending_lottery=pending,
        skipped=_skipped(flow, nights, days),
        next_step=_next_step(
            flow,
            round_no,
            nights,
            days,
            pending,
            _lots_made(events, pending),
            bool(over),
            dealt,
            following,
        ),
        leaves=tuple(
            LeaveDay(e.seat, e.data["name"], e.data["day"]) for e in events if e.kind == "leave"
        ),
        penalties=tuple(
            Violation(e.round, e.seat, e.data["name"], e.data["penalty"])
            for e in events
            if e.kind == "violation"
        ),
    )


def _pending_lottery(events: list[Event]) -> int | None:
    """The round whose tie (its last recorded vote) still waits for its lottery's result."""
    last_votes = {e.round: e for e in events if e.kind == "day"}
    ties = {n for n, e in last_votes.items() if e.data.get("outcome") == "tie"}
    drawn = {e.round for e in events if e.kind == "lottery_reveal"}
    waiting = sorted(ties - drawn)
    return waiting[-1] if waiting else None


def _lots_made(events: list[Event], pending: int | None) -> bool:
    """Whether the pending tie's lots are made (``lottery make``) and wait for the draw."""
    return any(e.kind == "lottery" and e.round == pending for e in events)


def _skipped(flow: Flow, nights: set[int], days: set[int]) -> tuple[str, ...]:
    """Steps the judge handled by hand: a day with no night before it, two nights in a row."""
    notes = []
    for round_no in sorted(days - nights):
        if flow.night_of_round(round_no) is not None:
            notes.append(f"第 {round_no} 轮没有记录夜晚（权利行使）")
    for round_no in sorted(nights):
        if round_no + 1 in nights and round_no not in days:
            notes.append(f"第 {round_no} 轮没有记录白天的投票")
    return tuple(notes)


def _next_step(flow, round_no, nights, days, pending, made, over, dealt, following) -> str:
    if over:
        return "游戏已结束：发揭秘帖（killmod status --reveal）。"
    if not dealt:
        return "发身份：killmod deal --notices 文件夹"
    if pending and made:
        return (
            f"第 {pending} 轮平票：已做签，等待第四人抽签；"
            f"抽出后 killmod lottery reveal --round {pending} --lot 签号"
        )
    tally = "killmod tally 投票帖 --record --round"
    if pending and following:
        return (
            f"第 {pending} 轮平票：抽签 killmod lottery make --round {pending}；"
            f"或平票者重新投票，截止后 {tally} {pending}"
        )
    if pending:
        return f"第 {pending} 轮平票：killmod lottery make --round {pending}"
    if following:
        what = PHASES[following.phase]
        return f"第 {round_no} 轮的下一次{what}截止后计票：{tally} {round_no}"
    if round_no in nights and round_no not in days:
        return f"第 {round_no} 轮白天投票截止后计票：{tally} {round_no}"
    night = flow.night_of_round(round_no + 1)
    if night is None:
        return f"第 {round_no + 1} 轮白天投票截止后计票：{tally} {round_no + 1}"
    return f"第 {round_no + 1} 轮夜晚：killmod night --round {night} --kill 座位号"
