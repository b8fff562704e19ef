"""The judge's own decisions (``killmod out``): a player put out, or a side that gives up.

Many rules end with the judge putting a player out or ending the game: 1.2's
“一旦触犯上述规定，立判出局”, X's 认匪 (“某某认匪，不用投票出局”), 误睁眼出局 and 投降,
2.0's 误睁眼, its “违反规则者退出本轮游戏” and 投降. Each rule set lists its own
(``JUDGE_OUTS``, by reason code); its rule set says what the decision does to the
game's state, what is shown (the set's reveal policy) and the posts.

One recorded step, one transaction: the ``out`` event, the death it causes
(none for a surrender) and the win check after it are all written, or nothing
is. The death carries ``out_id``, the game's end too: the step is undone as a
whole. Decision (docs/rules/x.md, 2.0.md): a player put out while the round's
pending vote is on him — his 动刀, or a re-vote among the tied — makes that vote
void: the day's first vote starts again, its posts counted after ``at``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from killmod.core.errors import SEAT, BadInput
from killmod.core.model import GameOver, Stage
from killmod.core.times import format_iso
from killmod.game.effects import record_if_over
from killmod.game.guards import next_day, refuse_if_over
from killmod.game.state import next_stage, round_votes, rule_set_of, state_for
from killmod.game.store import Delivery, Game
from killmod.rules.base import OutPlay


@dataclass(frozen=True)
class JudgeDecision:
    """A recorded decision: the round, the seat, the reason and its words, what it did.

    ``play`` holds who is out (nobody for a surrender), what is shown and the
    posts; ``winner`` is the game's end if it came (a surrender always ends it).
    """

    round: int
    seat: int
    reason: str
    words: str
    at: datetime
    note: str | None
    play: OutPlay
    winner: GameOver | None


def record_out(
    game: Game,
    seat: int,
    reason: str,
    *,
    round_no: int | None,
    at: datetime,
    note: str | None = None,
    deliver: Callable[[JudgeDecision], Delivery] | None = None,
) -> JudgeDecision:
    """Record the judge's decision ``reason`` on ``seat``, made ``at``, in the round going on
    (``round_no`` None) or in ``round_no``; ``deliver`` renders what the step hands out."""
    with game.transaction(kind="out") as step:
        refuse_if_over(game)
        round_no = round_no or next_day(game)
        step.describe(f"第 {round_no} 轮 {seat}号 法官判定（{reason}）", round_no=round_no)
        rules = rule_set_of(game.roster())
        outs = rules.JUDGE_OUTS
        if not outs:
            raise BadInput(f"{rules.NAME} 规则没有由法官判出局或投降的规定。")
        rule = outs.get(reason)
        if rule is None:
            known = "、".join(f"{code}（{r.words}）" for code, r in outs.items())
            raise BadInput(
                f"{rules.NAME} 规则没有「{reason}」这种判定。可用：{known}", option="--reason"
            )
        current = state_for(game)
        player = current.roster.seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位。", option=SEAT)
        if not player.alive:
            raise BadInput(f"{seat}号 {player.name} 已出局。", option=SEAT)
        pending = next_stage(rules, game, round_no)
        if rule.ends_day and pending is None:
            raise BadInput(
                f"第 {round_no} 轮的白天已经结束：{rule.words}不用投票出局，"
                f"要在这一轮投票结束前记录（或记在下一轮：--round {round_no + 1}）。"
            )
        restarts = _named_by(pending, seat) and bool(round_votes(game, round_no))
        data = {
            "reason": reason,
            "at": format_iso(at),
            "note": note,
            "surrender": rule.surrender,
            "ends_day": rule.ends_day,
            "restarts_day": restarts and not rule.ends_day and not rule.surrender,
            "next": (
                replace(rules.first_stage(), opened=at).as_json()
                if restarts and not rule.ends_day
                else None
            ),
        }
        if rule.surrender:
            over = rules.surrender(current.state, seat)
            out_id = game.record(round_no, "out", seat, data)
            winner = record_if_over(game, round_no, {"out_id": out_id}, over)
            play = OutPlay(current.state, ())
        else:
            play = rules.judge_out(current.state, seat, reason)
            out_id = game.record(round_no, "out", seat, data)
            game.record(
                round_no,
                "death",
                seat,
                {"how": "out", "reason": reason, "at": format_iso(at), "out_id": out_id},
            )
            winner = record_if_over(game, round_no, {"out_id": out_id})
        done = JudgeDecision(round_no, seat, reason, rule.words, at, note, play, winner)
        if deliver is not None:
            step.deliver(deliver(done))
    return done


def _named_by(stage: Stage | None, seat: int) -> bool:
    """Whether the round's pending vote is on ``seat``: his 动刀, or a re-vote among the tied."""
    return stage is not None and (stage.defender == seat or seat in stage.candidates)


def judge_outs(game: Game) -> tuple[tuple[str, str], ...]:
    """The decisions the game's rule set gives the judge: (reason code, the rule's words)."""
    return tuple((code, rule.words) for code, rule in rule_set_of(game.roster()).JUDGE_OUTS.items())
