"""What a rule set tells the tally engine about counting a day vote."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class TallyPolicy:
    """How non-voters are counted and whether they are warned."""

    non_voter: Literal["self", "none"]
    warn_non_voters: bool


# The killers' role, named the same in every rule set.
KILLER = "杀手"
