"""Each rule set's flow: the same small interface over its pure rule module.

``flow_for(rules, variants, code)`` is the one place a rule set's name picks its
flow; the use cases call the flow and never branch on the name. See
``killmod.flows.base`` for the interface.
"""

from __future__ import annotations

from killmod.errors import BadInput
from killmod.flows.base import Flow
from killmod.flows.pointing import R10Flow, R20Flow, VariantFlow
from killmod.flows.r12 import R12Flow
from killmod.flows.v4 import V4Flow
from killmod.flows.x import XFlow
from killmod.rules import variants as variant_rules

FLOWS: dict[str, type[Flow]] = {
    flow.rules.NAME: flow for flow in (R12Flow, V4Flow, XFlow, R10Flow, R20Flow)
}


def flow_for(rules: str, variants: tuple[str, ...] = (), code: str | None = None) -> Flow:
    """The flow of the rule set called ``rules`` (2.0 with ``variants``: the variants' flow)."""
    if rules not in FLOWS:
        raise BadInput(f"未知的规则「{rules}」。可用：{'、'.join(FLOWS)}")
    if variants:
        if rules != VariantFlow.rules.NAME:
            raise BadInput(f"花样玩法只用于 {VariantFlow.rules.NAME} 规则，不是 {rules} 规则。")
        return VariantFlow(variant_rules.check_variants(variants), code)
    return FLOWS[rules](variants, code)
