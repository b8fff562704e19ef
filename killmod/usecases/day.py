"""The day's vote under the rule set: which vote a tally counts, and what it leads to.

A round's day may be several votes — a re-vote among the tied (V4.0, X), 指认
then 动刀 (1.0, 2.0) — each recorded as one tally of the round, with the stage
it was and the vote that follows. ``vote_to_count`` reads the game file for the vote
the tally counts and the state it is counted on — the game now, or for a recorded
vote counted again the state it was counted on: its stage, whom it may name, who is
silenced, since when; ``DayPlan.settle`` turns the count into the rule set's
``DayStep``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from killmod.ballots.count import Scope
from killmod.ballots.votes import BallotReader, KnifeReader, point_grammar
from killmod.core.errors import BadInput
from killmod.core.model import Count, DayStep, GameOver, Outcome, Roster, Stage, TallyResult
from killmod.core.times import format_iso
from killmod.game.state import counted_on, next_stage, round_votes, rule_set_of, state_for

if TYPE_CHECKING:  # a tally from a roster file loads no game file, no 1.0 rules
    from killmod.core.model import KnifeCount
    from killmod.game.store import Delivery, Game
    from killmod.rules.base import OutPlay, RuleSet

PHASES = {"vote": "投票", "point": "指认", "knife": "动刀"}


@dataclass(frozen=True)
class DayPlan:
    """The vote a tally counts: the rule set's rules, the stage, and the game's state.

    ``state`` is None when there is none to go on (a roster file): the count then
    says nothing of what follows, except a knife phase's count. ``leave`` are the
    recorded days of leave by seat (of the seat's holder in ``state``).
    """

    rules: RuleSet
    stage: Stage
    state: Any = None
    leave: Mapping[int, frozenset[date]] = field(default_factory=dict)

    def scope(self) -> Scope:
        """Who has no ballot, whom the vote may name, since when it runs, who is on leave."""
        silenced = self.rules.silenced(self.state) if self.state is not None else frozenset()
        return Scope(silenced, frozenset(self.stage.candidates), self.stage.opened, self.leave)

    def reader(self, roster: Roster) -> BallotReader | KnifeReader:
        """The knife phase reads 动刀/杀/过 on the defender; the pointing reads 指认 too."""
        if self.stage.phase == "knife":
            return KnifeReader(self.stage.defender)
        if self.stage.phase == "point":
            return BallotReader(roster, point_grammar())
        return BallotReader(roster)

    def settle(self, result: TallyResult) -> TallyResult:
        """The count with what it leads to under the rule set (``result.day``)."""
        knife = self._knife(result) if self.stage.phase == "knife" else None
        if knife is not None:
            result = replace(
                result, outcome=_knife_outcome(knife), counts=_knife_counts(knife, result)
            )
        if self.state is None:
            return (
                result if knife is None else replace(result, day=DayStep(self.stage, knife=knife))
            )
        step = self.rules.day(self.state, self.stage, result.outcome, result.round, knife)
        if step.next is not None:
            step = replace(step, next=replace(step.next, opened=result.deadline))
        return replace(result, day=step)

    def _knife(self, result: TallyResult) -> KnifeCount:
        """动刀 ballots (a vote on the defender) and 过 (an abstain) against the threshold."""
        from killmod.rules.shared import KNIFE, PASS

        ballots = {
            b.seat: KNIFE if b.kind == "vote" else PASS
            for b in result.ballots
            if b.kind in ("vote", "abstain")
        }
        living = [ballot.seat for ballot in result.ballots]
        return self.rules.count_knives(ballots, living, self.stage.defender)


def _knife_outcome(knife: KnifeCount) -> Outcome:
    return Outcome("eliminated", seat=knife.defender) if knife.out else Outcome("none")


def _knife_counts(knife: KnifeCount, result: TallyResult) -> tuple[Count, ...]:
    if not knife.knives:
        return ()
    name = result.roster.seat(knife.defender).name
    return (Count(knife.defender, name, len(knife.knives), knife.knives),)


@dataclass(frozen=True)
class Vote:
    """The vote a tally counts from the game file, and the state it is counted on.

    ``roster`` are its seats and ``plan`` the vote; ``recorded`` the round's standing
    recorded tally (its row) when this count is that vote counted again — on the state it
    was counted on, never on what came after it (``killmod.game.state.counted_on``).
    """

    roster: Roster
    plan: DayPlan
    recorded: Mapping[str, Any] | None = None


def plan_day(
    game: Game, round_no: int, *, phase: str | None, recording: bool, replacing: bool
) -> DayPlan:
    """The round's next vote from the game file (re-recording: the vote recorded last)."""
    return vote_to_count(game, round_no, phase=phase, recording=recording, replacing=replacing).plan


def vote_to_count(
    game: Game, round_no: int, *, phase: str | None, recording: bool, replacing: bool
) -> Vote:
    """The round's next vote, on the game's state now; a round whose day is over (or,
    ``replacing``, whose last vote is recorded again) counts its last recorded vote on the
    state it was counted on (docs/rules/1.2.md, “Counting a recorded round again”).

    Recording a round whose day is over needs ``replacing``.  A round the file cannot give
    the state of — its day skipped, decided by the judge, before the file began, not yet
    come — is refused; so is recording a vote anew once steps after it changed the game.
    """
    from killmod.game.guards import already_recorded

    existing = game.tally_record(round_no)
    if replacing and existing is not None:
        return _checked_vote(_recorded_vote(game, existing, replacing=True), phase)
    current = state_for(game)
    stage = next_stage(current.rules, game, round_no)
    if stage is None:
        if recording:
            _refuse_if_decided(game, current.rules, round_no)
            recorded_at = existing["recorded_at"] if existing else None
            raise already_recorded(f"第 {round_no} 轮的投票", recorded_at, game.roster().timezone)
        if existing is None:
            _refuse_if_decided(game, current.rules, round_no, counting=True)
            raise BadInput(f"第 {round_no} 轮没有记录的投票，无法重新计票。")
        return _checked_vote(_recorded_vote(game, existing, replacing=False), phase)
    if not recording:
        _refuse_unknown_round(game, round_no)
    leave = leave_days(game, current.roster)
    plan = DayPlan(current.rules, stage, current.state, leave)
    return _checked_vote(Vote(current.roster, plan), phase)


def _recorded_vote(game: Game, existing: Mapping[str, Any], *, replacing: bool) -> Vote:
    """The round's recorded last vote, on the state it was counted on."""
    round_no = existing["round"]
    counted = counted_on(game, existing)
    if counted is None:
        raise BadInput(
            f"第 {round_no} 轮的投票是旧版 killmod 记录的，游戏文件看不出它是按什么状态计的票"
            "（谁还在、谁有几次警告）：不能重新计票。"
        )
    then = counted.state
    if replacing:
        _refuse_if_changed_since(game, existing, counted.before)
    plan = DayPlan(then.rules, counted.stage, then.state, leave_days(game, then.roster))
    return Vote(then.roster, plan, existing)


def _refuse_if_changed_since(game: Game, existing: Mapping[str, Any], before: int) -> None:
    """Recording a vote anew puts its effects where the old ones were: refused once a step
    after it changed the game (a substitute, an out, a warning…), which was decided on the
    old result and would no longer follow from the new one.  The judge's corrections of who
    is who (an alias, a judge's uid) and what the old record itself brought about (its
    lottery) are no such step."""
    from killmod.game.store import CORRECTIONS

    then = state_for(game, before=before)
    now = state_for(game, without_tally=existing["id"])
    if (then.roster, then.state) == (now.roster, now.state):
        return
    later = sorted(
        {
            event.step
            for event in game.events()
            if event.id >= before
            and event.step != existing["step_id"]
            and event.data.get("tally_id") != existing["id"]
            and event.kind not in CORRECTIONS
        }
        - {None}
    )
    titles = {step.id: step.title for step in game.steps()}
    named = "、".join(titles[step] for step in later if step in titles) or "别的步骤"
    round_no = existing["round"]
    raise BadInput(
        f"第 {round_no} 轮的投票记录之后，又记录了：{named}。它们是按原来的计票结果记录的，"
        f"重新记录第 {round_no} 轮会让它们对不上：先用 killmod undo 一步步撤销到第 {round_no} 轮"
        "的投票之后，再 --record --replace。"
    )


def _refuse_unknown_round(game: Game, round_no: int) -> None:
    """A vote counted without recording is the round's next one: of the round to come, or
    of one whose day goes on.  A round whose day was skipped, before the file began, or
    still to come after the next one has no state the file can give."""
    from killmod.game.guards import next_day, skipped_days, started_in_progress

    expected = next_day(game)
    played = [e for e in game.events() if e.kind in ("day", "night")]
    if round_no == expected or (not played and started_in_progress(game)):
        return
    skipped = skipped_days(game)
    if round_no in skipped:
        raise BadInput(
            f"第 {round_no} 轮的白天已经跳过（记录{skipped[round_no]}时加了 --skip-day），"
            f"没有那一天的投票，游戏文件也没有那时的状态：不能计第 {round_no} 轮的票。"
        )
    if round_no < expected:
        raise BadInput(
            f"游戏文件里没有第 {round_no} 轮的投票记录，不知道那一轮计票时的状态"
            f"（谁还在、谁有几次警告）：不能计第 {round_no} 轮的票。"
            f"下一轮要计的是第 {expected} 轮（不写 --round 即是）。"
        )
    raise BadInput(
        f"第 {round_no} 轮还没有到：下一轮要计的是第 {expected} 轮（不写 --round 即是），"
        f"之间的夜晚还没有记录，不知道第 {round_no} 轮时的状态。"
    )


def _checked_vote(vote: Vote, phase: str | None) -> Vote:
    return replace(vote, plan=_checked(vote.plan, phase))


def _refuse_if_decided(
    game: Game, rules: RuleSet, round_no: int, *, counting: bool = False
) -> None:
    """A day the judge's decision took the place of the vote (X 认匪) has no vote to record
    (``counting``: to count again)."""
    votes = round_votes(game, round_no)
    if votes and votes[-1].kind == "out" and votes[-1].data.get("ends_day"):
        decision = votes[-1]
        words = rules.JUDGE_OUTS[decision.data["reason"]].words
        what = "可以重新计票" if counting else "要记录"
        raise BadInput(
            f"第 {round_no} 轮的白天已由法官判定结束（{decision.seat}号{words}，不用投票出局），"
            f"没有投票{what}。"
        )


def leave_days(game: Game, roster: Roster) -> dict[int, frozenset[date]]:
    """Each seat's recorded days of leave, of the player who holds the seat now."""
    from killmod.usecases.lurkers import leaves

    days: dict[int, set[date]] = {}
    for leave in leaves(game):
        player = roster.seat(leave.seat)
        if player is not None and player.name == leave.name:
            days.setdefault(leave.seat, set()).add(leave.day)
    return {seat: frozenset(held) for seat, held in days.items()}


def roster_plan(roster: Roster, phase: str | None) -> DayPlan:
    """A vote counted from a roster file: the day's first vote, no state to go on."""
    if phase == "knife":
        raise BadInput("动刀阶段要用游戏文件（--db）：辩解者来自已记录的指认结果。")
    rules = rule_set_of(roster)
    return _checked(DayPlan(rules, rules.first_stage()), phase)


def _checked(plan: DayPlan, phase: str | None) -> DayPlan:
    """The judge's ``--phase`` must be the phase the vote is in."""
    stage = plan.stage
    if phase is None or phase == stage.phase:
        return plan
    if stage.phase == "vote":
        raise BadInput(f"{plan.rules.NAME} 规则的白天只有投票，没有指认和动刀阶段：不用 --phase。")
    now = f"{PHASES[stage.phase]}阶段"
    if stage.defender is not None:
        now += f"（辩解者 {stage.defender}号）"
    raise BadInput(f"这一轮现在是{now}，不是{PHASES[phase]}阶段。")


# --- a killer's suicide (2.0) -------------------------------------------------------------


@dataclass(frozen=True)
class Suicide:
    """A recorded suicide: the round, the seat, in his defence or not, what follows."""

    round: int
    seat: int
    defending: bool
    play: OutPlay
    winner: GameOver | None


def record_suicide(
    game: Game,
    seat: int,
    round_no: int | None,
    at: datetime,
    *,
    deliver: Callable[[Suicide], Delivery] | None = None,
) -> Suicide:
    """注意事项 f), g): a killer shows his card and kills himself during the day of ``round_no``.

    ``round_no`` is the day going on (None: the game file's).  Decision (docs/rules/2.0.md,
    “In the commands”): it is in his own defence when the round's next vote is the knife
    on him — the day ends and the night follows; at any other time he gives up (放弃游戏)
    and the pointing starts again from him, its posts counted after ``at``.
    """
    from killmod.game.effects import record_if_over
    from killmod.game.guards import next_day, refuse_if_over

    with game.transaction(kind="suicide") as step:
        refuse_if_over(game)
        today = next_day(game)
        if round_no is not None and round_no != today:
            raise BadInput(f"正在进行的是第 {today} 轮的白天，不是第 {round_no} 轮。")
        round_no = today
        step.describe(f"第 {round_no} 轮 {seat}号 亮牌自杀", round_no=round_no)
        current = state_for(game)
        stage = next_stage(current.rules, game, round_no)
        if stage is None:
            raise BadInput(f"第 {round_no} 轮的白天已经结束，不能再自杀出局。")
        defending = stage.defender == seat
        play = current.rules.suicide(current.state, seat, defending)
        following = None if play.next is None else replace(play.next, opened=at)
        event_id = game.record(
            round_no,
            "suicide",
            seat,
            {
                "defending": defending,
                "at": format_iso(at),
                "next": following.as_json() if following else None,
            },
        )
        game.record(round_no, "death", seat, {"how": "suicide", "suicide_id": event_id})
        winner = record_if_over(game, round_no, {"suicide_id": event_id})
        done = Suicide(round_no, seat, defending, replace(play, next=following), winner)
        if deliver is not None:
            step.deliver(deliver(done))
    return done
