"""The ``killmod.tally/1`` JSON document as the vote thread may see it.

The whole document is ``killmod.game.tallyjson``'s; built with no template (and no
Jinja2 imported for it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from killmod.announce.views import HIDDEN_FLAGS, HIDDEN_VERDICTS
from killmod.core.model import TallyResult
from killmod.core.redact import redact_url
from killmod.game.tallyjson import tally_json

if TYPE_CHECKING:
    from killmod.rules.base import RuleSet


def public_tally_json(result: TallyResult, rules: RuleSet) -> dict:
    """The ``killmod.tally/1`` document as the vote thread may see it: a post a hidden
    night effect left uncounted (V4.0 癫狂) is ``not_counted``, with no flag naming it."""
    document = tally_json(result, rules)
    document["source"]["url"] = redact_url(document["source"]["url"])
    document["flags"] = [f for f in document["flags"] if f["reason"] not in HIDDEN_FLAGS]
    for verdict in document["verdicts"]:
        verdict["verdict"] = HIDDEN_VERDICTS.get(verdict["verdict"], verdict["verdict"])
    return document
