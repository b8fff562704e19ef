"""The 1.0 and 2.0 flows (and 2.0's 花样玩法): pointing, then 动刀 on the most pointed.

A round's day is a chain of votes: 指认 (``point``; a tie is pointed again among
the tied, ``repoint``), then 动刀 (``knife``) on the defender; a defender who
survives the knife starts the pointing again, until someone is out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from killmod.core.errors import BadInput
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
from killmod.rules import r10, r20, variants
from killmod.rules.r10 import KnifeCount


class R10Flow(Flow):
    """初级游戏 1.0版: no night kill; the knife's half is of every living player."""

    rules = r10

    def start(self, players: Sequence[Player]) -> r10.R10State:
        """The dealt roles against the table (2 or 3 killers)."""
        return replace(r10.new_game(dealt_roles(players)), out=out_at_start(players))

    def first_stage(self) -> Stage:
        """The day starts with the pointing."""
        return Stage("point")

    def count_knives(
        self, ballots: Mapping[int, str], living: Iterable[int], defender: int
    ) -> KnifeCount:
        """The knife phase counted against the set's more-than-half threshold."""
        return self.rules.count_knives(ballots, tuple(living), defender)

    def vote_out(self, state: Any, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """4.10–4.14: out by the knife; from round two the card is shown."""
        (seat,) = seats
        result = r10.vote_out(state, seat)
        return OutPlay(result.state, seats, result.shown, result.posts)

    def day(
        self, state: Any, stage: Stage, outcome: Outcome, round_no: int, knife: KnifeCount | None
    ) -> DayStep:
        """Pointing names the defender (or points again); the knife puts him out or not."""
        if knife is not None:
            posts = (self.rules.knife_post(knife),)
            if knife.out:
                return self.out_step(
                    state, stage, (knife.defender,), round_no, posts=posts, knife=knife
                )
            return DayStep(stage, next=Stage("point"), posts=posts, knife=knife)
        step = self.rules.pointing_step(r10.PointStage(stage.kind, stage.candidates), outcome)
        if step.defender is not None:
            following = Stage("knife", defender=step.defender)
        else:
            assert step.stage is not None  # no defender: the pointing goes on
            following = Stage(step.stage.kind, step.stage.tied)
        return DayStep(stage, next=following, posts=step.posts)


class R20Flow(R10Flow):
    """标准游戏 2.0版: the knife's half is of the others; night kill and check; suicide."""

    rules = r20
    night_options = frozenset({"kill", "check"})
    # 3.d–3.j: on the first night the killers, then the police, see each other.
    teams = (frozenset({r20.KILLER}), frozenset({r20.POLICE}))
    first_night = 2  # 3.d–3.j: the first night only shows the teams to each other

    def start(self, players: Sequence[Player]) -> Any:
        """The dealt roles against the table."""
        return replace(r20.new_game(dealt_roles(players)), deaths=out_at_start(players))

    def night_skills(self, state: Any) -> tuple[NightSkill, ...]:
        """3.q and 3.t: the killers kill, the police check, the dead among them too
        (注意事项 l), ``r20.night_team``); i) “无法统一意见时，裁判将遵循少数服从多数”."""
        majority = "无法统一意见时，裁判将遵循少数服从多数"
        return (
            NightSkill("kill", r20.night_team(state, r20.KILLER), "majority", majority),
            NightSkill("check", r20.night_team(state, r20.POLICE), "majority", majority),
        )

    def night(self, state: Any, choice: NightChoice, night_no: int) -> NightPlay:
        """3.p–3.w: the required kill, turned at dawn; the check answered by a gesture."""
        result = r20.resolve_night(state, choice.required_kill(), choice.single_check())
        answer = result.feedback
        checks = () if answer is None else (Check(answer.seat, answer.identity, answer.gesture),)
        play = NightPlay(
            result.state,
            (result.victim,),
            {},
            shown=((result.victim, result.shown),),
            posts=result.posts,
            checks=checks,
        )
        return with_document(play, night_no)

    def vote_out(self, state: Any, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """3.n: out by the knife, no card shown (f)), 遗言 offered as the rule says."""
        (seat,) = seats
        result = r20.vote_out(state, seat)
        return OutPlay(result.state, seats, posts=result.posts)

    def judge_out(self, state: Any, seat: int, reason: str) -> OutPlay:
        """m) 误睁眼, n) a broken rule: out, no card, no 遗言."""
        result = r20.judge_out(state, seat, reason)
        return OutPlay(result.state, (seat,), posts=result.posts)

    def surrender(self, state: Any, seat: int) -> GameOver:
        """e) 投降: the seat's side loses."""
        return r20.surrender(state, seat)

    def suicide(self, state: Any, seat: int, defending: bool) -> OutPlay:
        """注意事项 g): in his own defence the night follows; before it, pointing restarts."""
        result = r20.suicide(state, seat, defending)
        following = None if result.next == "night" else Stage("point")
        return OutPlay(result.state, (seat,), ((seat, r20.KILLER),), result.posts, following)


class VariantFlow(R20Flow):
    """2.0 with its 花样玩法 (鬼匪, 毒药, 守护神, 警神/匪神): the variants' night and reveals."""

    night_options = frozenset({"kill", "check", "pact", "possess", "guard"})
    # 关于鬼匪: the 鬼匪 is one of the 匪帮, drawn after the gang is known.
    teams = (frozenset({r20.KILLER, variants.GHOST}), frozenset({r20.POLICE}))

    def table(self) -> list[dict]:
        """The 2.0 table with the variants' roles."""
        return variants.table(self.variants)

    def table_row(self, players: int) -> dict:
        """The 2.0 row with the variants' roles in civilians' places."""
        return variants.table_row(players, self.variants)

    def summary(self, players: int | None = None) -> list[str]:
        """2.0, then the variants' rules."""
        return [*r20.summary(players), *variants.summary(self.variants, players)]

    def deal(self, seats: Iterable[int], rng: Any) -> dict[int, str]:
        """The table with the variants' roles; the 鬼匪 drawn among the killers."""
        return variants.deal(seats, self.variants, rng)

    def powers(self, role: str) -> tuple[str, ...]:
        """2.0's powers with what the variants give or add."""
        return variants.powers(role, self.variants)

    def start(self, players: Sequence[Player]) -> variants.VariantState:
        """The dealt roles against the variants' table."""
        state = variants.new_game(dealt_roles(players), self.variants)
        return replace(state, out=frozenset(out_at_start(players)))

    def night_skills(self, state: variants.VariantState) -> tuple[NightSkill, ...]:
        """2.0's teams (the 匪帮 with the 鬼匪 and the possessed), the 生死状 with the kill
        (其他细微规则变化 2), the living 鬼匪's one 附体, and each guardian's own guard."""
        majority = "无法统一意见时，裁判将遵循少数服从多数"
        gang = tuple(s for s in sorted(state.roles) if state.roles[s] in variants.KILLER_SIDE)
        police = tuple(s for s in sorted(state.roles) if state.roles[s] == r20.POLICE)
        ghost = tuple(
            s
            for s in sorted(state.roles)
            if state.roles[s] == variants.GHOST and state.alive(s) and not state.possession_used
        )
        return (
            NightSkill("kill", gang, "majority", majority),
            NightSkill("pact", gang if variants.POISON in state.roles.values() else (), "majority"),
            NightSkill("possess", ghost),
            NightSkill("check", police, "majority", majority),
            NightSkill("guard", state.active_guardians()),
        )

    def night(self, state: variants.VariantState, choice: NightChoice, night_no: int) -> NightPlay:
        """Guards, the kill (with the 生死状), the possession, the checks, then 渎职."""
        actions = variants.NightActions(
            kill=choice.required_kill(),
            pact=choice.pact,
            possess=choice.possess,
            checks=choice.check,
            guards=dict(choice.guard),
        )
        result = variants.resolve_night(state, actions)
        play = NightPlay(
            result.state,
            tuple(death.seat for death in result.deaths),
            {},
            shown=tuple((d.seat, d.shown) for d in result.deaths if d.shown is not None),
            posts=result.posts,
            checks=tuple(Check(c.seat, c.identity) for c in result.checks),
            notices=result.notices,
            events=result.events,
        )
        return with_document(play, night_no)

    def vote_out(
        self, state: variants.VariantState, seats: tuple[int, ...], round_no: int
    ) -> OutPlay:
        """The vote with the guards in force: a guardian may die in the voted one's place."""
        result = variants.vote_out(state, seats)
        shown = tuple((d.seat, d.shown) for d in result.deaths if d.shown is not None)
        return OutPlay(result.state, tuple(d.seat for d in result.deaths), shown, result.posts)

    def day(
        self,
        state: variants.VariantState,
        stage: Stage,
        outcome: Outcome,
        round_no: int,
        knife: KnifeCount | None,
    ) -> DayStep:
        """2.0's day, and 守护 4: the guardian and the guarded tied at the top both die."""
        if knife is None and outcome.kind == "tie":
            pair = variants.double_kill(state, outcome.seats)
            if pair is not None:
                posts = (variants.double_kill_post(pair),)
                return self.out_step(state, stage, pair, round_no, posts=posts)
        return super().day(state, stage, outcome, round_no, knife)

    def judge_out(self, state: variants.VariantState, seat: int, reason: str) -> OutPlay:
        """2.0's decisions; the card shows as the variants show a death outside the vote."""
        rule = self.judge_outs.get(reason)
        if rule is None or rule.surrender:
            raise BadInput(f"2.0 花样玩法没有「{reason}」这种出局。")
        result = variants.leave(state, seat, "judged", how=rule.words)
        shown = tuple((d.seat, d.shown) for d in result.deaths if d.shown is not None)
        return OutPlay(result.state, (seat,), shown, result.posts)

    def surrender(self, state: variants.VariantState, seat: int) -> GameOver:
        """2.0 e) 投降 with the variants' sides."""
        return variants.surrender(state, seat)

    def verdict(self, state: variants.VariantState) -> GameOver | None:
        """细则 5A–D: the 鬼匪 and the possessed count with the 匪; a disabled 警神 as 平民."""
        return variants.check_win(state)

    def suicide(self, state: variants.VariantState, seat: int, defending: bool) -> OutPlay:
        """A 匪's suicide, shown as 鬼匪 5 says; what follows is 2.0's."""
        result = variants.leave(state, seat, "suicide")
        following = None if defending else Stage("point")
        posts = (*result.posts, r20.after_suicide(seat, defending))
        shown = tuple((d.seat, d.shown) for d in result.deaths if d.shown is not None)
        return OutPlay(result.state, (seat,), shown, posts, following)
