"""Where the game stands, and what the judge must do next."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from killmod.core.model import GameOver, Roster, Stage
from killmod.game.guards import skipped_days, tie_waiting
from killmod.game.state import day_goes_on, day_rounds, next_stage, rule_set_of, state_for
from killmod.game.store import Event, Game
from killmod.game.threads import Threads, remembered
from killmod.rules import rule_set, title
from killmod.rules.base import RuleSet
from killmod.usecases.day import PHASES
from killmod.usecases.history import Departure, chronicle
from killmod.usecases.open import opened_deadline


@dataclass(frozen=True)
class LeaveDay:
    """A recorded day of leave, as status shows it."""

    seat: int
    name: str
    day: str


@dataclass(frozen=True)
class Violation:
    """A recorded violation and the kind of its penalty, as status shows it; ``night`` the
    round whose night it falls on, ``pending`` whether that night is still to come."""

    round: int | None
    seat: int
    name: str
    penalty: str
    night: int | None = None
    pending: bool = True


@dataclass(frozen=True)
class Veto:
    """The rule set's one-time veto (1.2 检查官's 否决权): spent, and in which round."""

    spent: bool
    round: int | None = None


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
    phase: str = ""
    departures: tuple[Departure, ...] = ()
    veto: Veto | None = None
    threads: Threads = field(default_factory=Threads)
    deadline: datetime | None = None
    hidden: dict[str, Any] = field(default_factory=dict)
    rules_title: str = ""  # the set's name as judges write it (V4.0)
    # What comes next: ("over", n), ("day", n) — the vote of round n — or ("night", n).
    upcoming: tuple[str, int] = ("night", 1)


def game_status(game: Game) -> Status:
    """Read the events and say where the game stands.

    ``hidden`` holds the rule set's hidden night states (V4.0 marks and 癫狂, a 2.0
    possession used, the guards in force): for the judge's private channel only, never
    handed to a public template (``killmod.announce.views.status_view`` leaves it out).
    """
    events = game.events()
    nights = {e.round for e in events if e.kind == "night"}
    days = day_rounds(game)
    round_no = max(nights | days, default=0)
    over = [e for e in events if e.kind == "game_over"]
    roster = game.roster()
    rules = rule_set_of(roster)
    pending = tie_waiting(game) if rules.lottery else None
    dealt = any(e.kind == "deal" for e in events) or all(p.role for p in roster.players)
    following = next_stage(rules, game, round_no) if day_goes_on(game, round_no) else None
    threads = remembered(game).as_typed_here()
    upcoming = _upcoming(rules, round_no, nights, days, following, pending, bool(over))
    deadline = opened_deadline(game, upcoming[1]) if upcoming[0] == "day" else None
    next_words = _next_step(
        rules,
        round_no,
        nights,
        days,
        pending,
        _lots_made(events, pending),
        bool(over),
        dealt,
        following,
        _Fill(threads, deadline),
    )
    return Status(
        round=round_no,
        roster=roster,
        dealt=dealt,
        winner=GameOver.from_json(over[-1].data) if over else None,
        pending_lottery=pending,
        skipped=_skipped(rules, game, nights, days),
        next_step=next_words,
        leaves=tuple(
            LeaveDay(e.seat, e.data["name"], e.data["day"]) for e in events if e.kind == "leave"
        ),
        penalties=_penalties(game, nights),
        phase=_phase(rules, upcoming, round_no, following or rules.first_stage(), pending),
        departures=chronicle(game).departures,
        veto=_veto(roster, events),
        threads=threads,
        deadline=deadline,
        hidden=_hidden(game) if dealt else {},
        rules_title=title(roster.rules),
        upcoming=upcoming,
    )


def _upcoming(rules, round_no, nights, days, following, pending, over) -> tuple[str, int]:
    """What comes next: ``("over", n)``, ``("day", n)`` — the vote of round n — or
    ``("night", n)``, the night of round n."""
    if over:
        return "over", round_no
    if pending or following or (round_no in nights and round_no not in days):
        return "day", round_no
    if rules.night_of_round(round_no + 1) is None:
        return "day", round_no + 1
    return "night", round_no + 1


def _phase(
    rules: RuleSet, upcoming: tuple[str, int], round_no: int, stage: Stage, pending: int | None
) -> str:
    """The phase the game is in, in words: 白天（投票）, 白天（动刀，辩解者 3号）, and when the
    round is over, which comes next: a night as the set names it and ``night --round``
    numbers it (1.2 接下来是第 3 轮的夜晚, V4.0 接下来是第 2 夜), a day as 第 3 轮的白天."""
    kind, number = upcoming
    if kind == "over":
        return "游戏结束"
    if pending:
        return "白天（平票，待抽签或重新投票）"
    done = "本轮已结束，" if round_no else ""
    if kind == "night":
        return f"{done}接下来是{rules.night_name(rules.night_of_round(number))}"
    words = PHASES[stage.phase]
    if stage.defender is not None:
        words += f"，辩解者 {stage.defender}号"
    if stage.candidates:
        words += "，只能投 " + "、".join(f"{seat}号" for seat in stage.candidates)
    words = f"白天（{words}）"
    if number == round_no:
        return words
    return f"{done}接下来是第 {number} 轮的{words}"


def _penalties(game: Game, nights: set[int]) -> tuple[Violation, ...]:
    """The recorded penalties, with the night each falls on and whether it is to come."""
    from killmod.game.penalties import penalties

    return tuple(
        Violation(p.round, p.seat, p.name, p.kind, p.night, p.night not in nights)
        for p in penalties(game)
    )


def _veto(roster: Roster, events: list[Event]) -> Veto | None:
    """The 检查官's one-time veto, where the rule set has it: whether it is spent (that it
    was used is public: its player is announced “被行使否决权”; who holds it is not)."""
    if rule_set(roster.rules).VETO_ROLE is None:
        return None
    used = [e.round for e in events if e.kind == "night" and e.data.get("veto") is not None]
    return Veto(True, used[0]) if used else Veto(False)


def _hidden(game: Game) -> dict[str, Any]:
    """The rule set's hidden night states now, for the judge: V4.0's marks and 癫狂, a 2.0
    possession used and the guards in force (empty for the sets with none)."""
    current = state_for(game)
    return current.rules.hidden_state(current.state)


def _lots_made(events: list[Event], pending: int | None) -> bool:
    """Whether the pending tie's lots are made (``lottery make``) and wait for the draw."""
    return any(e.kind == "lottery" and e.round == pending for e in events)


def _skipped(rules: RuleSet, game: Game, nights: set[int], days: set[int]) -> tuple[str, ...]:
    """Steps the judge handled by hand: a day with no night before it, two nights in a row
    (a day skipped by decision, ``night --skip-day``, says so)."""
    notes = []
    for round_no in sorted(days - nights):
        night = rules.night_of_round(round_no)
        if night is not None:
            notes.append(f"{rules.night_name(night)}没有记录（权利行使）（法官手工处理）")
    decided = skipped_days(game)
    for round_no in sorted(nights):
        if round_no in decided:
            notes.append(f"第 {round_no} 轮没有投票：法官决定跳过白天（记录{decided[round_no]}时）")
        elif round_no + 1 in nights and round_no not in days:
            notes.append(f"第 {round_no} 轮没有记录白天的投票（法官手工处理）")
    return tuple(notes)


@dataclass(frozen=True)
class _Fill:
    """What the next command can be filled in with: the threads and the vote's deadline."""

    threads: Threads
    deadline: datetime | None

    def tally(self, round_no: int) -> str:
        """``killmod tally …`` of the round's vote, with what the game file knows."""
        thread = self.threads.vote(round_no)
        source = f'"{thread}"' if thread else "投票帖"
        shown = self.deadline.strftime("%Y-%m-%d %H:%M:%S") if self.deadline else None
        deadline = f'"{shown}"' if shown else "截止时间"
        command = f"killmod tally {source} --deadline {deadline} --record --round {round_no}"
        if self.deadline is None:
            return (
                f"先开投票帖：killmod open --round {round_no} --deadline 截止时间"
                f"{' --thread 投票帖网址' if thread is None else ''}；截止后 {command}"
            )
        return f"截止（{shown}）后 {command}"


def _next_step(
    rules, round_no, nights, days, pending, made, over, dealt, following, fill: _Fill
) -> str:
    if over:
        return "游戏已结束：发揭秘帖（killmod status --reveal）。"
    if not dealt:
        return "发身份：killmod deal --notices 文件夹"
    if pending and made:
        return (
            f"第 {pending} 轮平票：已做签，等待第四人抽签；"
            f"抽出后 killmod lottery reveal --round {pending} --lot 签号"
        )
    if pending and following:
        return (
            f"第 {pending} 轮平票：抽签 killmod lottery make --round {pending}；"
            f"或平票者重新投票，{fill.tally(pending)}"
        )
    if pending:
        return f"第 {pending} 轮平票：killmod lottery make --round {pending}"
    if following:
        what = PHASES[following.phase]
        return f"第 {round_no} 轮的下一次{what}：{fill.tally(round_no)}"
    first = PHASES[rules.first_stage().phase]
    if round_no in nights and round_no not in days:
        return f"第 {round_no} 轮白天{first}：{fill.tally(round_no)}"
    night = rules.night_of_round(round_no + 1)
    if night is None:
        return f"第 {round_no + 1} 轮白天{first}：{fill.tally(round_no + 1)}"
    return f"{rules.night_name(night)}：killmod night --round {night} --kill 座位号"
