"""A judge's forum uid, recorded after the set-up (``killmod judge``).

Posting and sending as the judge check that the board's session is a judge's account by
uid; a game file set up from a roster that named its judges without uids gets them here,
as a step of its own (undone like any other).
"""

from __future__ import annotations

from killmod.core.errors import BadInput
from killmod.core.names import fold
from killmod.game.store import Game


def record_judge(game: Game, name: str, uid: int) -> None:
    """Record that the judge ``name`` (one of the roster's, or a new one) is ``uid``."""
    with game.transaction(f"法官 {name} 的论坛 uid：{uid}", kind="judge", when_over=True):
        roster = game.roster()
        name = name.strip()
        if not name:
            raise BadInput("法官的名字不能是空的。")
        for player in roster.players:
            if fold(player.name) == fold(name) or player.uid == uid:
                raise BadInput(
                    f"{player.seat}号 {player.name}（uid {player.uid}）是玩家，不是法官。"
                )
        if name in roster.substitutes:
            raise BadInput(f"{name} 是替补，不是法官。")
        if roster.judge_uids.get(name) == uid:
            raise BadInput(f"法官 {name} 的 uid 已经是 {uid}。")
        game.record(None, "judge", None, {"name": name, "uid": uid})
