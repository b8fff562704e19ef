"""The players' forum uids, taken from the board when the roster gives none.

A forum account is its uid; a roster may name players without one.  The first read of the
game's thread then takes each such player's uid from the posts signed with his name
exactly as the board shows it (the post's author link, the mobile API's ``authorid``):
``pin_uids`` gives the roster with those uids and the pins, which the tally shows the
judge and records with its step (``killmod.usecases.record``).  From then on the player is
his uid: a post by another account whose name is his only after folding (``MEER``,
``meer`` + a zero-width space) is an outsider's (``killmod.ballots.count.AuthorIndex``).

A name shown with two uids, or one uid shown with two players' names, cannot be pinned:
refused, for the judge to give the uid in the roster.  A uid the roster already gives to
someone (a player, a former holder, a judge) is never pinned to another.  A view without
uids (printable, archiver) pins nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from killmod.core.errors import BadInput
from killmod.core.model import Post, Roster
from killmod.core.names import shown


@dataclass(frozen=True)
class Pin:
    """A player's uid read from the board: seat, name, uid and the first post that showed it."""

    seat: int
    name: str
    uid: int
    floor: int | None

    def as_json(self) -> dict:
        return {"seat": self.seat, "name": self.name, "uid": self.uid, "floor": self.floor}


def pin_uids(roster: Roster, posts: Iterable[Post]) -> tuple[Roster, tuple[Pin, ...]]:
    """``roster`` with the uids its players without one show in ``posts``, and those pins."""
    unpinned = {shown(player.name): player for player in roster.players if player.uid is None}
    if not unpinned:
        return roster, ()
    taken = set(roster.judge_uids.values()) | {
        uid
        for player in roster.players
        for uid in (player.uid, *(holder.uid for holder in player.former))
        if uid is not None
    }
    found: dict[int, dict[int, Post]] = {}
    for post in posts:
        if post.uid is None or post.uid in taken:
            continue
        player = unpinned.get(shown(post.author))
        if player is not None:
            found.setdefault(player.seat, {}).setdefault(post.uid, post)
    pins = []
    for seat, by_uid in sorted(found.items()):
        player = roster.seat(seat)
        if len(by_uid) > 1:
            uids = "、".join(f"uid {uid}（{post.floor}楼）" for uid, post in sorted(by_uid.items()))
            raise BadInput(
                f"名单上的 {seat}号 {player.name} 没有 uid，而帖子里不止一个帐号显示为这个名字："
                f"{uids}。不知道哪个是他：请在名单里写上他的 uid。"
            )
        ((uid, post),) = by_uid.items()
        pins.append(Pin(seat, player.name, uid, post.floor))
    seats_of: dict[int, list[Pin]] = {}
    for pin in pins:
        seats_of.setdefault(pin.uid, []).append(pin)
    for uid, same in seats_of.items():
        if len(same) > 1:
            who = "、".join(f"{pin.seat}号 {pin.name}" for pin in same)
            raise BadInput(
                f"论坛的同一个帐号（uid {uid}）用过名单上几个人的名字：{who}。"
                "请在名单里写上他们各自的 uid。"
            )
    pinned = {pin.seat: pin.uid for pin in pins}
    players = tuple(
        replace(player, uid=pinned[player.seat]) if player.seat in pinned else player
        for player in roster.players
    )
    return replace(roster, players=players), tuple(pins)
