"""Rule sets, one module each, as pure functions over the game's state."""

from __future__ import annotations

from types import ModuleType

from killmod.errors import BadInput
from killmod.rules import r12

RULE_SETS: dict[str, ModuleType] = {r12.NAME: r12}


def rule_set(name: str) -> ModuleType:
    """The module of the rule set called ``name``."""
    try:
        return RULE_SETS[name]
    except KeyError:
        raise BadInput(f"未知的规则「{name}」。可用：{'、'.join(RULE_SETS)}") from None
