"""Opening a vote (``killmod open``): the vote thread's first post, and its deadline recorded.

The opening post lists the living players by seat, the deadline to the second with its
time zone, whom this vote may name (a re-vote among the tied, the defender of a 动刀),
and the rule set's voting rules in the rule text's own words (each set's
``VOTE_RULES``).  Opening is a recorded step (undone by ``killmod undo``): a
``vote_opened`` event with the deadline, and the round's vote thread when one is given
(``killmod.game.threads``), so that ``tally``, ``watch`` and ``status`` know both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from killmod.ballots.deadline import parse_deadline
from killmod.core.errors import BadInput, about
from killmod.core.model import Roster, Stage
from killmod.core.times import format_iso, format_local
from killmod.game.guards import next_day, refuse_if_over, started_in_progress
from killmod.game.store import Delivery, Game
from killmod.game.threads import VOTE, refuse_other_part, remember
from killmod.rules import rule_set_of
from killmod.usecases.day import plan_day

KIND = "vote_opened"


@dataclass(frozen=True)
class Opening:
    """A vote opened: its round and stage, its deadline, the seats, the vote thread."""

    round: int
    stage: Stage
    deadline: datetime
    roster: Roster
    thread: str | None = None


def open_vote(
    game: Game,
    deadline_text: str,
    *,
    round_no: int | None = None,
    thread: str | None = None,
    now: datetime | None = None,
    deliver: Callable[[Opening], Delivery] | None = None,
) -> Opening:
    """Record the opening of the round's next vote (default: the round whose day comes
    next) with its deadline; ``deliver`` renders the opening post, written before the
    step is committed.

    A deadline without a date is the first such time after ``now``; one that has passed
    is refused (a vote is opened before it closes).
    """
    roster = game.roster()
    tz = ZoneInfo(roster.timezone)
    now = (now or datetime.now(tz)).astimezone(tz)
    with about("--deadline"):
        deadline = parse_deadline(deadline_text, tz, now)
    if deadline <= now:
        raise BadInput(
            f"截止时间 {format_local(deadline, tz)} 已经过去（现在 {format_local(now, tz)}）："
            "开投票帖要给以后的截止时间。",
            option="--deadline",
        )
    with game.transaction(kind="open") as step:
        refuse_if_over(game)
        expected = next_day(game)
        round_no = round_no or expected
        played = [e for e in game.events() if e.kind in ("day", "night")]
        if round_no != expected and (played or not started_in_progress(game)):
            raise BadInput(
                f"下一次投票是第 {expected} 轮的，不是第 {round_no} 轮："
                f"请用 --round {expected}（或不写 --round）。"
            )
        _refuse_before_night(game, round_no)
        plan = plan_day(game, round_no, phase=None, recording=True, replacing=False)
        shown = format_local(deadline, tz)
        step.describe(f"第 {round_no} 轮开始投票（截止 {shown}）", round_no=round_no)
        game.record(
            round_no,
            KIND,
            None,
            {"deadline": format_iso(deadline), "stage": plan.stage.as_json()},
        )
        if thread:
            refuse_other_part(game, thread, round_no)
            remember(game, thread, thread=VOTE, round_no=round_no)
        opening = Opening(round_no, plan.stage, deadline, game.roster(), thread)
        if deliver is not None:
            step.deliver(deliver(opening))
    return opening


def _refuse_before_night(game: Game, round_no: int) -> None:
    """A round's vote opens after its night: the players its night put out do not vote."""
    rules = rule_set_of(game.roster())
    night = rules.night_of_round(round_no)
    nights = {event.round for event in game.events("night")}
    played = [e for e in game.events() if e.kind in ("day", "night")]
    if night is None or round_no in nights or (not played and started_in_progress(game)):
        return
    raise BadInput(
        f"{rules.night_name(night)}还没有记录：先记录夜晚"
        f"（killmod night --round {night} …），再开第 {round_no} 轮的投票。"
    )


def opened_deadline(game: Game, round_no: int) -> datetime | None:
    """The deadline of the round's next vote as ``killmod open`` recorded it: the latest
    opening of the round after its last recorded vote (a re-vote is opened anew)."""
    deadline, events = None, game.events()
    for event in events:
        if event.round != round_no:
            continue
        if event.kind == KIND:
            deadline = datetime.fromisoformat(event.data["deadline"])
        elif event.kind in ("day", "suicide"):
            deadline = None
    return deadline
