"""Dealing roles by the rule set's table, and the private notice each player gets."""

from __future__ import annotations

import random
import secrets
from pathlib import Path

from killmod.announce import render_private
from killmod.errors import BadInput
from killmod.gamestate import flow_of
from killmod.model import Player, Roster
from killmod.rules import title
from killmod.store import Game
from killmod.views import notice_view


def deal_roles(roster: Roster, seed: int | None = None) -> dict[int, str]:
    """Roles by seat: the rule set's table shuffled (``secrets`` unless a seed is given)."""
    rng = random.Random(seed) if seed is not None else secrets.SystemRandom()
    return flow_of(roster).deal([player.seat for player in roster.players], rng)


def deal(game: Game, seed: int | None = None) -> dict[int, str]:
    """Deal and store the roles; a game already dealt is refused."""
    roster = game.roster()
    if game.events("deal"):
        raise BadInput("本局已经发过身份了。")
    roles = deal_roles(roster, seed)
    with game.transaction():
        game.set_roles(roles)
        game.record(0, "deal", None, {"seeded": seed is not None})
    return roles


def notices(roster: Roster, templates: Path | None = None) -> dict[int, str]:
    """The private notice (站内短信) for each seat, from ``notice.j2``.

    Each tells the player's seat and role, what the role may do in the rule text's
    words (the flow's ``powers``), and — for a player of a team (the rule set's
    ``teams``: the killers, and the police where they act together) — the other members;
    it is signed with the judges' names from the roster.
    """
    flow = flow_of(roster)
    game = rules_title(roster)
    return {
        player.seat: render_private(
            "notice.j2",
            templates,
            notice_view(
                player,
                game,
                _partners(player, roster, flow.teams),
                flow.powers(player.role or ""),
                roster.judges,
            ),
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


def _partners(player: Player, roster: Roster, teams: tuple[frozenset[str], ...]) -> list[Player]:
    """The other members of ``player``'s team, if the role is in one."""
    team = next((roles for roles in teams if player.role in roles), frozenset())
    return [p for p in roster.players if p.role in team and p.seat != player.seat]


def notice_stem(player: Player) -> str:
    """A player's notice file is named by seat and name: ``05-meer``."""
    return f"{player.seat:02d}-{_safe(player.name)}"


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
