"""Rule sets, one module each, as pure functions over the game's state."""

from __future__ import annotations

from types import ModuleType

from killmod.errors import BadInput
from killmod.rules import r10, r12, r20, v4, x

RULE_SETS: dict[str, ModuleType] = {module.NAME: module for module in (r12, v4, x, r10, r20)}


def announced_camp(rules: ModuleType, role: str | None) -> str | None:
    """The camp announced when a player is out, where the set announces it (1.2), else None."""
    return rules.camp(role) if getattr(rules, "REVEAL_CAMP", False) else None


def rule_set(name: str) -> ModuleType:
    """The module of the rule set called ``name``."""
    try:
        return RULE_SETS[name]
    except KeyError:
        raise BadInput(f"未知的规则「{name}」。可用：{'、'.join(RULE_SETS)}") from None
