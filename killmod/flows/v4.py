"""The V4.0 flow: the four-step night, 癫狂 in the day vote, ties by lot or re-vote."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

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
)
from killmod.rules import v4
from killmod.rules.r10 import KnifeCount
from killmod.rules.v4 import KILLER, POLICE


class V4Flow(Flow):
    """官方规则 S03 暨杀人游戏 V4.0.

    Decision (docs/rules/v4.md, “In the commands”): a tie is settled as the judge
    chooses — by lot (``killmod lottery``) or by a re-vote among the tied (the
    round's next tally); the announcement offers both.
    """

    rules = v4
    lottery = True
    night_base = 0
    first_night = 0
    night_options = frozenset({"butterfly", "kill", "check", "snipe", "inject", "silence"})
    teams = (frozenset({KILLER}), frozenset({POLICE}))

    def decode(self, code: str) -> dict:
        """版本号: the row of the code's player count, with the code's lose condition."""
        return v4.decode(code)

    def start(self, players: Sequence[Player]) -> v4.V4State:
        """The dealt roles against the version code (the row's reference code by default)."""
        roles = dealt_roles(players)
        code = self.code or v4.table_row(len(roles))["code"]
        return replace(v4.new_game(roles, code), out=frozenset(out_at_start(players)))

    def night(self, state: v4.V4State, choice: NightChoice, night_no: int) -> NightPlay:
        """游戏流程 08–11 over the state at nightfall."""
        actions = v4.NightActions(
            butterfly=choice.butterfly,
            kill=choice.kill,
            check=choice.single_check(),
            snipe=choice.snipe,
            inject=choice.inject,
            silence=choice.silence,
        )
        result = v4.resolve_night(state, actions)
        police = result.police
        return NightPlay(
            state=result.state,
            out=result.out,
            document=v4.night_json(result, night_no),
            checks=() if police is None else (Check(police.seat, police.camp),),
            events=tuple(event.text for event in result.events),
        )

    def night_skills(self, state: v4.V4State) -> tuple[NightSkill, ...]:
        """二、身份与技能: the living players of each role with a skill.

        “所有存活状态的杀手可以共同选择一名角色……若杀手不共群，则由所有存活状态的杀手选出
        一名杀手执行技能” (and the same of the 警察): one choice, the team's; killers who send
        different ones have not chosen (docs/rules/v4.md, “Night actions by 站内短信”).
        """
        together = "共同选择；若不共群，则选出一名执行技能"
        return (
            NightSkill("butterfly", state.holders(v4.BUTTERFLY)),
            NightSkill("kill", state.holders(KILLER), "agree", together),
            NightSkill("check", state.holders(POLICE), "agree", together),
            NightSkill("snipe", state.holders(v4.SNIPER)),
            NightSkill("inject", state.holders(v4.DOCTOR)),
            NightSkill("silence", state.holders(v4.OLD_MAN)),
        )

    def vote_out(self, state: v4.V4State, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """游戏流程 14: the day of the vote is the round."""
        (seat,) = seats
        return OutPlay(v4.vote_out(state, seat, round_no), seats)

    def day(
        self,
        state: v4.V4State,
        stage: Stage,
        outcome: Outcome,
        round_no: int,
        knife: KnifeCount | None,
    ) -> DayStep:
        """A tie offers a re-vote among the tied (or the lottery); else the default."""
        if outcome.kind == "tie":
            return DayStep(stage, next=Stage("revote", candidates=outcome.seats))
        return super().day(state, stage, outcome, round_no, knife)

    def silenced(self, state: v4.V4State) -> frozenset[int]:
        """The 癫狂 players (``v4.counts_vote``): their posts carry no ballot today."""
        return frozenset(seat for seat in state.living if not v4.counts_vote(state, seat))

    def verdict(self, state: v4.V4State) -> GameOver | None:
        """胜负判定, its conditions met joined in one reason."""
        verdict = v4.check_win(state)
        return None if verdict is None else GameOver(verdict.winner, "；".join(verdict.reasons))
