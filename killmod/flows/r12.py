"""The 1.2 flow: its state is the roster the store derives; a tie goes to the lottery.

The 1.2 night (kill, veto, 诈尸 window) is ``killmod.usecases.night``'s own; this flow
serves the rule book, the deal, the day vote and the win check.
"""

from __future__ import annotations

from typing import Any

from killmod.core.errors import BadInput
from killmod.core.model import GameOver, Roster
from killmod.flows.base import Flow, NightSkill, OutPlay
from killmod.rules import r12


class R12Flow(Flow):
    """“杀人游戏”标准化规则 1.2."""

    rules = r12
    state_is_roster = True
    lottery = True
    night_options = frozenset({"kill"})  # and the 检查官's veto, killmod.usecases.night's own

    def vote_out(self, state: Any, seats: tuple[int, ...], round_no: int) -> OutPlay:
        """The roster is updated by the recorded death itself."""
        return OutPlay(state, seats)

    def night_skills(self, state: Roster) -> tuple[NightSkill, ...]:
        """补充说明 一.3 “权利行使轮，特殊身份的玩家向法官提交杀人名单”: the living killers'
        one list, and the living 检查官's veto (一次, 任意一轮).

        Decision (docs/rules/1.2.md, “Night actions by 站内短信”): the rule text names one
        list, not how killers who send different ones are settled; killmod takes the kill
        only when every killer who named one named the same seat, else the judge decides.
        """
        living = state.living
        killers = tuple(p.seat for p in living if p.role == r12.KILLER)
        veto = tuple(p.seat for p in living if p.role == r12.VETO_ROLE)
        return (
            NightSkill("kill", killers, "agree", "特殊身份的玩家向法官提交杀人名单"),
            NightSkill("veto", veto),
        )

    def verdict(self, state: Roster) -> GameOver | None:
        """三、胜利条件 over the roster's players."""
        return r12.check_win(state.players)

    def judge_out(self, state: Roster, seat: int, reason: str) -> OutPlay:
        """二.6 “一旦触犯上述规定，立判出局”: out, the camp announced as for any death (五)."""
        if reason not in r12.JUDGE_OUTS:
            raise BadInput(f"1.2 规则没有「{reason}」这种出局。")
        player = state.seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位。")
        if not player.alive:
            raise BadInput(f"{seat}号 {player.name} 已出局。")
        camp = r12.camp(player.role)
        shown = ((seat, camp),) if camp else ()
        return OutPlay(state, (seat,), shown, (r12.judge_out_post(seat, camp),))
