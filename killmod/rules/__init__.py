"""Rule sets, one module each, as pure functions over the game's state."""

from __future__ import annotations

import importlib
from types import ModuleType

from killmod.errors import BadInput

# Each set's module, imported when a game asks for it: a command loads one set, not five.
RULE_SETS: dict[str, str] = {
    "1.2": "killmod.rules.r12",
    "v4": "killmod.rules.v4",
    "x": "killmod.rules.x",
    "1.0": "killmod.rules.r10",
    "2.0": "killmod.rules.r20",
}


def announced_camp(rules: ModuleType, role: str | None) -> str | None:
    """The camp announced when a player is out, where the set announces it (1.2), else None."""
    return rules.camp(role) if getattr(rules, "REVEAL_CAMP", False) else None


def rule_set(name: str) -> ModuleType:
    """The module of the rule set called ``name``."""
    if name not in RULE_SETS:
        raise BadInput(f"未知的规则「{name}」。可用：{'、'.join(RULE_SETS)}")
    return importlib.import_module(RULE_SETS[name])
