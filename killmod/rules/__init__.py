"""Rule sets, one module each, as pure functions over the game's state."""

from __future__ import annotations

import importlib
import unicodedata
from types import ModuleType

from killmod.core.errors import BadInput

# Each set's module, imported when a game asks for it: a command loads one set, not five.
RULE_SETS: dict[str, str] = {
    "1.2": "killmod.rules.r12",
    "v4": "killmod.rules.v4",
    "x": "killmod.rules.x",
    "1.0": "killmod.rules.r10",
    "2.0": "killmod.rules.r20",
}

# How judges write each set's name, folded (NFKC, lower case, no spaces): V4、V4.0、v4,
# X、x、X游戏, 1.2、V1.2 … all name the set.
SPELLINGS: dict[str, str] = {
    "1.2": "1.2",
    "v1.2": "1.2",
    "v4": "v4",
    "v4.0": "v4",
    "4.0": "v4",
    "x": "x",
    "x游戏": "x",
    "1.0": "1.0",
    "v1.0": "1.0",
    "2.0": "2.0",
    "v2.0": "2.0",
}


# Each set's name as the rule texts and judges write it (the roster's is lower case).
TITLES: dict[str, str] = {"1.2": "1.2", "v4": "V4.0", "x": "X", "1.0": "1.0", "2.0": "2.0"}


def title(name: str) -> str:
    """The set's name as judges write it: ``V4.0`` for ``v4``."""
    return TITLES.get(name, name)


def canonical_name(name: str) -> str | None:
    """The rule set a judge means by ``name`` (any case and usual spelling), or None."""
    folded = "".join(unicodedata.normalize("NFKC", name).lower().split())
    return SPELLINGS.get(folded)


def rule_set_name(name: str) -> str:
    """The canonical name of the set ``name`` spells; an unknown name is bad input."""
    found = canonical_name(name)
    if found is None:
        raise BadInput(f"未知的规则「{name}」。可用：1.2、V4.0（v4）、X、1.0、2.0（不分大小写）")
    return found


def announced_camp(rules: ModuleType, role: str | None) -> str | None:
    """The camp announced when a player is out, where the set announces it (1.2), else None."""
    return rules.camp(role) if getattr(rules, "REVEAL_CAMP", False) else None


def rule_set(name: str) -> ModuleType:
    """The module of the rule set called ``name`` (any usual spelling)."""
    return importlib.import_module(RULE_SETS[rule_set_name(name)])
