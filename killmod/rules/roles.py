"""The roles a game may hold under its rule set, and the forms of them a judge may type.

A role is one of its rule set's (with the 2.0 花样玩法 in play, their roles too).
Traditional characters are read as the simplified role they stand for (殺手 → 杀手,
檢查官 → 检查官, 醫生 → 医生…); anything else — 杀 手, killer, 杀手方 — is not a role,
and the roster, the deal and a new game file refuse it: a wrong role would make the
posts announce a wrong camp.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from killmod.core.errors import BadInput, KillmodError
from killmod.core.model import Roster
from killmod.rules import rule_set

# The traditional characters of the role names, to their simplified forms.
_SIMPLIFIED = str.maketrans(
    {
        "殺": "杀",
        "檢": "检",
        "査": "查",
        "醫": "医",
        "擊": "击",
        "體": "体",
        "藥": "药",
        "護": "护",
        "員": "员",
    }
)


def roles_of(rules: str, variants: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The roles of rule set ``rules`` with ``variants`` in play, in the set's order."""
    if variants:
        from killmod.rules import variants as played

        chosen = played.check_variants(variants)
        extra = tuple(played.extra_roles(chosen))
        ghost = (played.GHOST, played.POSSESSED) if "ghost" in chosen else ()
        return (played.POLICE, played.KILLER, played.CIVILIAN, *ghost, *extra)
    return tuple(rule_set(rules).ROLES)


def canonical_role(role: str, roles: tuple[str, ...]) -> str | None:
    """``role`` as one of ``roles`` (a traditional form read as simplified), or None."""
    if role in roles:
        return role
    simplified = role.translate(_SIMPLIFIED)
    return simplified if simplified in roles else None


def not_a_role(role: str, rules: str, roles: tuple[str, ...]) -> str:
    """Why ``role`` is refused: it is not a role of the set, and which ones are."""
    return f"写的是「{role}」，不是 {rules} 规则的身份（可用：{'、'.join(roles)}）"


def checked_roles(
    roles: Mapping[int, str | None], rules: str, variants: tuple[str, ...] = ()
) -> dict[int, str | None]:
    """``roles`` by seat in their canonical form; an unknown role is bad input naming the seat."""
    known = roles_of(rules, variants)
    checked = {}
    for seat, role in roles.items():
        if role is None:
            checked[seat] = None
            continue
        found = canonical_role(role, known)
        if found is None:
            raise BadInput(f"{seat}号的身份{not_a_role(role, rules, known)}。")
        checked[seat] = found
    return checked


def check_roster_roles(roster: Roster) -> Roster:
    """``roster`` with every role canonical (bad input for a role not of its set)."""
    roles = checked_roles({p.seat: p.role for p in roster.players}, roster.rules, roster.variants)
    players = tuple(replace(player, role=roles[player.seat]) for player in roster.players)
    return replace(roster, players=players)


def check_dealt(roles: Mapping[int, str], rules: str, variants: tuple[str, ...] = ()) -> None:
    """A deal's roles must all be the set's: anything else is killmod's own error."""
    known = roles_of(rules, variants)
    wrong = {seat: role for seat, role in roles.items() if role not in known}
    if wrong:
        listed = "、".join(f"{seat}号「{role}」" for seat, role in sorted(wrong.items()))
        raise KillmodError(
            f"发身份出错：{listed} 不是 {rules} 规则的身份。没有记录；请报告这个问题。"
        )
