"""Dealing roles by the rule set's table, and the private notice each player gets."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from killmod.core.errors import BadInput
from killmod.core.model import Player, Roster
from killmod.game.guards import refuse_if_over
from killmod.game.store import Delivery, Game
from killmod.rules import rule_set_of, title
from killmod.rules.roles import check_dealt


@dataclass(frozen=True)
class NoticeContent:
    """What a player's private notice (站内短信) tells: the seat and role, the game's rules,
    the partners of the player's team, the role's powers in the rule text's words, and the
    judges who sign it."""

    player: Player
    game: str
    partners: list[Player]
    powers: tuple[str, ...]
    judges: tuple[str, ...]


def shuffled_roles(roster: Roster, seed: int | None = None) -> dict[int, str]:
    """Roles by seat: the rule set's table shuffled (``secrets`` unless a seed is given)."""
    rng = random.Random(seed) if seed is not None else secrets.SystemRandom()
    roles = rule_set_of(roster).deal([player.seat for player in roster.players], rng)
    check_dealt(roles, roster.rules, roster.variants)
    return roles


def deal(
    game: Game,
    seed: int | None = None,
    *,
    deliver: Callable[[Roster], Delivery] | None = None,
) -> dict[int, str]:
    """Deal and record the roles (in the ``deal`` event); a game already dealt is refused.

    ``deliver`` renders what the players receive from the dealt roster (the notices):
    it is written before the deal is committed.
    """
    with game.transaction("发身份", kind="deal", round_no=0) as step:
        refuse_if_over(game)
        if game.events("deal"):
            raise BadInput("本局已经发过身份了。要重新发，先用 killmod undo 撤销发身份。")
        played = [e for e in game.events() if e.kind in ("night", "day")]
        if played:
            raise BadInput("本局已经记录了夜晚或投票，不能再发身份。")
        roles = shuffled_roles(game.roster(), seed)
        data = {"seeded": seed is not None, "roles": {str(s): r for s, r in roles.items()}}
        game.record(0, "deal", None, data)
        if deliver is not None:
            step.deliver(deliver(game.roster()))
    return roles


def notices(roster: Roster, render: Callable[[NoticeContent], str]) -> dict[int, str]:
    """The private notice (站内短信) for each seat, as ``render`` writes it from its content.

    Each tells the player's seat and role, what the role may do in the rule text's
    words (the rule set's ``powers``), and — for a player of a team (the rule set's
    ``teams``: the killers, and the police where they act together) — the other members;
    it is signed with the judges' names from the roster.
    """
    rules = rule_set_of(roster)
    game = rules_title(roster)
    return {
        player.seat: render(
            NoticeContent(
                player,
                game,
                _partners(player, roster, rules.teams),
                rules.powers(player.role or ""),
                roster.judges,
            )
        )
        for player in roster.players
    }


def rules_title(roster: Roster) -> str:
    """The game's rules as a notice names them: ``V4.0 规则``, ``2.0 规则，花样玩法：鬼匪``."""
    text = f"{title(roster.rules)} 规则"
    if roster.variants:
        from killmod.rules.variants import VARIANT_NAMES

        text += f"，花样玩法：{'、'.join(VARIANT_NAMES[v] for v in roster.variants)}"
    return text


def current_notices(
    game: Game, seats: tuple[int, ...], render: Callable[[NoticeContent], str]
) -> dict[int, str]:
    """The notices of the living players as the game stands (``killmod notices``).

    A substitute holding a seat gets the seat's notice in his own name; ``seats``
    limits them to those seats (each must be living).
    """
    roster = game.roster()
    missing = [player.seat for player in roster.players if player.role is None]
    if missing:
        raise BadInput("本局还没有发身份（killmod deal）：没有站内短信可以重发。")
    living = {player.seat for player in roster.living}
    for seat in seats:
        player = roster.seat(seat)
        if player is None:
            raise BadInput(f"没有 {seat} 号座位")
        if seat not in living:
            raise BadInput(f"{seat}号 {player.name} 已出局：只给存活的玩家重发站内短信。")
    wanted = set(seats) or living
    texts = notices(roster, render)
    return {seat: text for seat, text in texts.items() if seat in wanted}


def _partners(player: Player, roster: Roster, teams: tuple[frozenset[str], ...]) -> list[Player]:
    """The other members of ``player``'s team, if the role is in one."""
    team = next((roles for roles in teams if player.role in roles), frozenset())
    return [p for p in roster.players if p.role in team and p.seat != player.seat]


def notice_stem(player: Player) -> str:
    """A player's notice file is named by seat and name: ``05-meer``."""
    return f"{player.seat:02d}-{_safe(player.name)}"


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
