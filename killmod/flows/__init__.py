"""Each rule set's flow: the same small interface over its pure rule module.

``flow_for(rules, variants, code)`` is the one place a rule set's name picks its
flow; the use cases call the flow and never branch on the name. See
``killmod.flows.base`` for the interface.
"""

from __future__ import annotations

import importlib

from killmod.core.errors import BadInput
from killmod.flows.base import Flow
from killmod.rules import rule_set_name

# Each set's flow class, imported when a game asks for it (with its rule module).
FLOWS: dict[str, str] = {
    "1.2": "killmod.flows.r12:R12Flow",
    "v4": "killmod.flows.v4:V4Flow",
    "x": "killmod.flows.x:XFlow",
    "1.0": "killmod.flows.pointing:R10Flow",
    "2.0": "killmod.flows.pointing:R20Flow",
}
VARIANTS = "killmod.flows.pointing:VariantFlow"


def _flow_class(path: str) -> type[Flow]:
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def flow_for(rules: str, variants: tuple[str, ...] = (), code: str | None = None) -> Flow:
    """The flow of the rule set called ``rules`` (any usual spelling; 2.0 with ``variants``:
    the variants' flow)."""
    rules = rule_set_name(rules)
    if variants:
        variant_flow = _flow_class(VARIANTS)
        if rules != variant_flow.rules.NAME:
            raise BadInput(f"花样玩法只用于 {variant_flow.rules.NAME} 规则，不是 {rules} 规则。")
        from killmod.rules.variants import check_variants

        return variant_flow(check_variants(variants), code)
    return _flow_class(FLOWS[rules])(variants, code)
