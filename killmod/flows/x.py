"""The X flow: night kill and check, 遗言 for the first deaths, the staged tie procedure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from killmod.core.model import DayStep, GameOver, Outcome, Player, Stage
from killmod.flows.base import (
    Check,
    Flow,
    NightChoice,
    NightPlay,
    NightSkill,
    OutPlay,
    dealt_roles,
    out_at_start,
    with_document,
)
from killmod.rules import x
from killmod.rules.r10 import KnifeCount
from killmod.rules.x import KILLER, POLICE


class XFlow(Flow):
    """标准游戏规则（X游戏）.

    Decision (docs/rules/x.md, “In the commands”): each vote of a tie's procedure
    is one recorded tally of the round; the stage it reached is kept in the game
    file with it.
    """

    rules = x
    night_options = frozenset({"kill", "check"})
    teams = (frozenset({KILLER}), frozenset({POLICE}))

    def start(self, players: Sequence[Player]) -> x.XState:
        """The dealt roles against the table."""
        return replace(x.new_game(dealt_roles(players)), deaths=out_at_start(players))

    def night(self, state: x.XState, choice: NightChoice, night_no: int) -> NightPlay:
        """3.3–3.16: the required kill and the police's check, answered by a gesture."""
        result = x.resolve_night(state, choice.required_kill(), choice.single_check())
        answer = result.feedback
        checks = () if answer is None else (Check(answer.seat, answer.identity, answer.gesture),)
        play = NightPlay(result.state, (result.victim,), {}, posts=result.posts, checks=checks)
        return with_document(play, night_no)

    def night_skills(self, state: x.XState) -> tuple[NightSkill, ...]:
        """3.6 and 3.11: the living killers kill, the living police check, each team as
        one; 3.6 “如果意见无法完全统一，则由裁判取其中多数人的意见” (``x.team_choice``)."""
        majority = "如果意见无法完全统一，则由裁判取其中多数人的意见"
        return (
            NightSkill("kill", state.holders(KILLER), "majority", majority),
            NightSkill("check", state.holders(POLICE), "majority", majority),
        )

    def check_first_kill(self, victim: str, previous: dict[str, Any] | None) -> None:
        """注意事项 8): not the previous X game's first victim (by forum name)."""
        if previous is not None and previous.get("rules") == x.NAME:
            x.check_first_kill(victim, previous.get("first_victim"))

    def vote_out(self, state: x.XState, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """3.19: out after 遗言 while they last."""
        (seat,) = seats
        result = x.vote_out(state, seat)
        return OutPlay(result.state, seats, posts=result.posts)

    def judge_out(self, state: x.XState, seat: int, reason: str) -> OutPlay:
        """认匪, 误睁眼, a broken rule: out as by the vote, 遗言 while they last, no card."""
        result = x.judge_out(state, seat, reason)
        return OutPlay(result.state, (seat,), posts=result.posts)

    def surrender(self, state: x.XState, seat: int) -> GameOver:
        """注意事项 5) 投降: the last 警察 or 杀手 gives up; his side loses."""
        return x.surrender(state, seat)

    def day(
        self,
        state: x.XState,
        stage: Stage,
        outcome: Outcome,
        round_no: int,
        knife: KnifeCount | None,
    ) -> DayStep:
        """4.5) ``x.tie_stage`` over the round's votes: out, the next re-vote, or a draw."""
        step = x.tie_stage(x.TieStage(stage.kind, stage.candidates), outcome)
        if step.out is not None:
            return self.out_step(state, stage, (step.out,), round_no)
        following = step.stage
        return DayStep(
            stage,
            next=None if following is None else Stage(following.kind, following.tied),
            posts=step.posts,
            over=GameOver(None, step.posts[-1]) if step.draw else None,
        )
