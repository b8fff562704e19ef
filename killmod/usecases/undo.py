"""``killmod undo``: void the game's last recorded step, whatever kind of step it was.

Every event and tally a step wrote carries the step's id (``killmod.game.store``), so undoing
needs nothing of the step's own: its rows are voided by the undo, and what the step
had voided (the old record a ``--replace`` replaced) stands again.  The private files the
step wrote are moved aside, into ``void/step<N>/`` in their folder
(``killmod.game.private_files.MoveAside``): the next such step writes its own under the
natural names.  Nothing is deleted:
the voided step stays in the event log, and the undo is a step of its own (which
``undo`` skips, so that undoing again takes the step before).  The game's first step
(setting it up) is never undone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from killmod.core.errors import BadInput
from killmod.core.model import GameOver, Roster
from killmod.core.times import local_text
from killmod.game import outbox
from killmod.game.private_files import MoveAside
from killmod.game.store import (
    INIT,
    KIND_NAMES,
    PRIVATE_FILES,
    UNDO,
    Delivery,
    Event,
    Game,
    StepRecord,
)
from killmod.rules import rule_set
from killmod.usecases.status import Status, game_status

# Death causes as the undo report names them.
_HOW = {
    "voted": "投票",
    "drowned": "淹死",
    "lottery": "抽签",
    "killed": "夜晚被杀",
    "vetoed": "否决权",
    "night": "夜晚",
    "suicide": "亮牌自杀",
}


@dataclass(frozen=True)
class Undone:
    """What an undo voided, what stands again, and where the game is now."""

    step: StepRecord
    effects: tuple[str, ...]
    restored: tuple[StepRecord, ...]
    status: Status


def undo(game: Game, *, deliver: Callable[[Undone], Delivery] | None = None) -> Undone:
    """Void the last standing step of the current game (one step: the check is inside it)."""
    with game.transaction("撤销", kind=UNDO, when_over=True) as step:
        target = game.last_step()
        if target is None or target.kind == INIT:
            raise BadInput(
                "本局没有可以撤销的步骤：最早的一步是建立游戏本身"
                "（要从头来过，用 killmod init --force 重新建立）。"
            )
        roster = game.roster()
        own = [event for event in game.events() if event.step == target.id]
        effects = tuple(text for text in (describe(e, roster) for e in own) if text)
        effects += tuple(gone_out(record) for record in outbox.for_step(game, target.id))
        restored = {s.id for s in game.steps(include_void=True) if s.void == target.id}
        files = [name for e in own if e.kind == PRIVATE_FILES for name in e.data["files"]]
        game.void_step(target.id)
        moved = {"moved": files} if files else {}
        game.record(target.round, "undone", None, {"step": target.id, "kind": target.kind, **moved})
        if files:
            step.deliver(MoveAside([Path(name) for name in files], target.id))
        step.describe(f"撤销：{target.title}", round_no=target.round)
        done = Undone(
            target,
            effects,
            tuple(s for s in game.steps() if s.id in restored),
            game_status(game),
        )
        if deliver is not None:
            step.deliver(deliver(done))
    return done


def gone_out(record: outbox.Record) -> str:
    """What was posted or sent for an undone step: it stays on the board (nothing secret)."""
    maybe = "可能已经" if record.state == "sending" else "已经"
    if record.what == "post":
        where = f"帖子 {record.data.get('thread')}"
        pid = f" pid {record.data['pid']}" if record.data.get("pid") else ""
        shown = pid.strip() or "结果不明"
        if record.state == "held":
            shown = f"待审核{pid}"
        return f"{maybe}回复到{where}的公告（{shown}）不会撤回：请到论坛上删除或发帖更正"
    held = "（待审核）" if record.state == "held" else ""
    return (
        f"{maybe}发给 {record.seat}号（uid {record.data.get('uid')}）的站内短信{held}无法收回："
        "请另发站内短信告诉他作废"
    )


def describe(event: Event, roster: Roster) -> str | None:
    """What an event of an undone step did, as the report says it (nothing secret)."""
    player = roster.seat(event.seat) if event.seat is not None else None
    who = f"{event.seat}号 {player.name}" if player else f"{event.seat}号"
    data = event.data
    if event.kind == "death":
        how = _HOW.get(data.get("how"), data.get("how") or "")
        return f"{who} 出局（{how}）" if how else f"{who} 出局"
    if event.kind == "revival":
        return f"{who} 复活"
    if event.kind == "warning":
        return f"{who} 的警告"
    if event.kind == "substitution":
        return f"{event.seat}号由 {data.get('new')} 接替 {data.get('old')}"
    if event.kind == "game_over":
        return f"游戏结束（{GameOver.from_json(data).headline}）"
    if event.kind == "deal":
        return "发出的身份：已发出的站内短信作废，重新 killmod deal 后要重新发送"
    if event.kind == "lottery":
        return "做的签：已公布的承诺值作废"
    if event.kind == "day":
        return f"第 {event.round} 轮的投票结果"
    if event.kind == "night":
        rules = rule_set(roster.rules)
        night = event.data.get("night", rules.night_of_round(event.round or 0))
        return rules.night_name(night) if night is not None else f"第 {event.round} 轮的夜晚"
    if event.kind == "thread":
        where = "游戏帖" if data.get("thread") == "game" else f"第 {event.round} 轮的投票帖"
        return f"记下的{where}地址（{data.get('url')}）"
    if event.kind == "day_skipped":
        return f"跳过第 {event.round} 轮白天的决定"
    if event.kind == "alias":
        return f"{event.seat}号 {data.get('name')} 的别名「{data.get('alias')}」"
    if event.kind == "uid":
        return f"从论坛读到的 {event.seat}号 {data.get('name')} 的 uid（{data.get('uid')}）"
    if event.kind == "vote_opened":
        shown = local_text(data["deadline"], roster.timezone)
        return f"第 {event.round} 轮投票的截止时间（{shown}）"
    if event.kind in ("tally_replaced", "night_replaced", "undone", PRIVATE_FILES):
        return None
    return KIND_NAMES.get(event.kind, event.kind) + (f"（{who}）" if event.seat else "")
