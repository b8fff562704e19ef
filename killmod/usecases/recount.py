"""A recorded vote counted again: whether this count agrees with the record.

A round whose vote is recorded is counted again on the state it was counted on
(``killmod.usecases.day.vote_to_count``), never on what came after it.  The judge is told
that the vote is recorded, and how this count's outcome, ballots and warnings differ from
the record — compared as ``killmod verify`` compares a bundle
(``killmod.usecases.verify.compare``) — in the tally's notes (``tally.notes.text.j2``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from killmod.core.errors import BadInput
from killmod.core.model import Recount, Stage, TallyResult
from killmod.game.tallyjson import tally_json
from killmod.rules import rule_set

if TYPE_CHECKING:
    from killmod.game.store import Game

# What a count must repeat to agree with the record (the brief of issue 25): who is out,
# each ballot, each warning.  The posts' verdicts and the counts follow from them.
COMPARED = ("outcome", "ballots", "warnings")


def compare_with_record(
    result: TallyResult,
    recorded: Mapping[str, Any],
    *,
    replacing: bool = False,
    final: bool = True,
    blocked: str | None = None,
) -> Recount:
    """How ``result`` compares with the recorded tally ``recorded`` (its row of ``tallies``);
    a provisional count (``final`` False) is not compared: it is no final count.
    ``blocked``: why recording it anew would be refused now (``replace_refusal``)."""
    from killmod.usecases.verify import compare

    tz = ZoneInfo(result.roster.timezone)
    differences: tuple[Any, ...] = ()
    if final:
        document = json.loads(recorded["result"])
        counted = tally_json(result, rule_set(result.rules))
        found = compare(document, counted, Stage())
        differences = tuple(d for d in found if d.part in COMPARED)
    return Recount(
        round=recorded["round"],
        recorded_at=datetime.fromisoformat(recorded["recorded_at"]).astimezone(tz),
        deadline=datetime.fromisoformat(recorded["deadline"]).astimezone(tz),
        differences=differences,
        replacing=replacing,
        final=final,
        blocked=blocked,
    )


def replace_refusal(game: Game, round_no: int) -> str | None:
    """Why ``killmod tally --round N --record --replace`` would be refused now (its
    message: a later round recorded, steps since that followed from the record, a file
    that cannot be written), or None when it would record."""
    from killmod.usecases.day import vote_to_count
    from killmod.usecases.tally import check_recordable

    try:
        check_recordable(game, round_no, replacing=True)
        vote_to_count(game, round_no, phase=None, recording=True, replacing=True)
    except BadInput as error:
        return error.message
    return None
