"""Rule sets, one module each, behind one registry.

Each module holds its set's pure functions and one ``killmod.rules.base.RuleSet``
subclass over them; ``rule_set`` is the one place a set's name picks it. A new set
is one module and one line of ``RULE_SETS`` (its spellings and title beside it).
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from functools import cache
from typing import TYPE_CHECKING

from killmod.core.errors import BadInput

if TYPE_CHECKING:
    from killmod.core.model import Roster
    from killmod.rules.base import RuleSet

# Each set's class, imported when a game asks for it: a command loads one set, not five.
RULE_SETS: dict[str, str] = {
    "1.2": "killmod.rules.r12:R12Rules",
    "v4": "killmod.rules.v4:V4Rules",
    "x": "killmod.rules.x:XRules",
    "1.0": "killmod.rules.r10:R10Rules",
    "2.0": "killmod.rules.r20:R20Rules",
}
# 2.0 with its 花样玩法 (a roster's ``variants``).
VARIANT_RULES = "killmod.rules.variants:VariantRules"

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


# How a vote thread's title names a rule set (after NFKC: full-width forms read as ASCII).
TITLE_MARKS = {
    "1.2": re.compile(r"(?<![\d.])1\.2(?![\d.])"),
    "v4": re.compile(r"(?<![A-Za-z\d.])[Vv]4(?:\.0)?(?![\d.])|(?<![\d.])4\.0(?![\d.])"),
    "x": re.compile(r"(?<![A-Za-z])[Xx]\s*游戏"),
    "1.0": re.compile(r"(?<![\d.])1\.0(?![\d.])|初级游戏"),
    "2.0": re.compile(r"(?<![\d.])2\.0(?![\d.])|花样玩法"),
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


def rule_set(name: str, variants: tuple[str, ...] = (), code: str | None = None) -> RuleSet:
    """The rule set called ``name`` (any usual spelling); 2.0 with ``variants``: its
    花样玩法; V4.0 with ``code``: that version."""
    return _rule_set(rule_set_name(name), tuple(variants), code)


def rule_set_of(roster: Roster) -> RuleSet:
    """The rule set of a roster (with its variants and version code)."""
    return rule_set(roster.rules, roster.variants, roster.code)


def registered() -> list[RuleSet]:
    """Every registered rule set, in the registry's order (without variants)."""
    return [rule_set(name) for name in RULE_SETS]


@cache
def _rule_set(name: str, variants: tuple[str, ...], code: str | None) -> RuleSet:
    if variants:
        with_variants = _class(VARIANT_RULES)
        if name != with_variants.NAME:
            raise BadInput(f"花样玩法只用于 {with_variants.NAME} 规则，不是 {name} 规则。")
        from killmod.rules.variants import check_variants

        return with_variants(check_variants(variants), code)
    return _class(RULE_SETS[name])(variants, code)


def _class(path: str) -> type[RuleSet]:
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)
