"""Recording a round's vote again (``tally --record --replace``) after a ruling or an alias
changed how its ballots read — and, before it is done, what it would change.

The preview is the step itself, taken back: the replacing tally runs whole, with every guard
and on the state before the day as the real one does, and its hand-out is built; then the
step is abandoned inside its transaction, so nothing is written (no row, no private file).
What it would record is compared with the standing record, part by part, as ``killmod
verify`` compares a bundle's record with its recount (``killmod.usecases.verify.compare``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from killmod.core.errors import BadInput
from killmod.core.model import TallyResult
from killmod.core.times import local_text
from killmod.fetch.http import FetchOptions
from killmod.game.delivery import Handout
from killmod.game.store import Game
from killmod.game.tallyjson import public_tally_json
from killmod.rules import rule_set
from killmod.usecases.recount import replace_refusal
from killmod.usecases.tally import tally
from killmod.usecases.verify import Difference, compare


@dataclass(frozen=True)
class RecordedVote:
    """A round's standing recorded vote: its deadline (as the judge writes it, in the game's
    time zone), its thread as kept, its announcement as printed and where its evidence
    bundle was said to be (None: kept without them)."""

    round: int
    deadline: str
    source: str
    announcement: str | None
    published: str | None


@dataclass(frozen=True)
class Replacement:
    """What recording the round's vote again would record: its hand-out (the announcement,
    the notes), the standing record it replaces, and every difference between them
    (``differences``: empty when the record would stay as it is; None when the standing
    record kept no public result to compare with)."""

    round: int
    handout: Handout
    standing: RecordedVote
    differences: tuple[Difference, ...] | None
    names: dict[int, str]


def recorded_vote(game: Game, round_no: int) -> RecordedVote | None:
    """The round's standing recorded vote, if any."""
    row = game.tally_record(round_no)
    if row is None:
        return None
    kept = game.evidence(row["id"])
    return RecordedVote(
        round_no,
        local_text(row["deadline"], game.roster().timezone),
        row["source"],
        kept["announcement"] if kept else None,
        kept["published"] if kept else None,
    )


def replaceable(game: Game, round_no: int) -> bool:
    """Whether the round's recorded vote may be recorded again now: it is recorded, and
    ``tally --record --replace`` would not be refused
    (``killmod.usecases.recount.replace_refusal``: a later round recorded…)."""
    return game.tally_record(round_no) is not None and replace_refusal(game, round_no) is None


def latest_replaceable(game: Game) -> int | None:
    """The latest round with a recorded vote, if it may be recorded again."""
    rounds = [row["round"] for row in game.tallies()]
    latest = max(rounds, default=None)
    return latest if latest is not None and replaceable(game, latest) else None


class _Seen(Exception):
    """The replacing step's hand-out, built: the step stops here and is taken back."""

    def __init__(self, result: TallyResult, handout: Handout) -> None:
        super().__init__("preview")
        self.result, self.handout = result, handout


def replacement(
    game: Game,
    source: str | None,
    *,
    round_no: int,
    deadline: str | datetime | None,
    rulings: Any = None,
    fetching: FetchOptions | None = None,
    evidence_at: str | None = None,
    build: Callable[[TallyResult], Handout],
) -> Replacement:
    """What ``tally --record --replace`` of round ``round_no`` would record (``build`` makes
    its hand-out, as the recording step's ``deliver`` would), recorded nowhere; refused as
    the replacement itself is (a later round recorded, the game over…)."""
    standing = recorded_vote(game, round_no)
    if standing is None:
        raise BadInput(f"第 {round_no} 轮的投票还没有记录：没有要重新记录的。")

    def deliver(result: TallyResult) -> Handout:
        raise _Seen(result, build(result))

    try:
        tally(
            source,
            deadline=deadline,
            game=game,
            round_no=round_no,
            record=True,
            replace_record=True,
            rulings=rulings,
            fetching=fetching,
            deliver=deliver,
            evidence_at=evidence_at,
        )
    except _Seen as seen:
        return Replacement(
            round_no,
            seen.handout,
            standing,
            _differences(game, round_no, seen.result),
            {p.seat: p.name for p in seen.result.roster.players},
        )
    raise RuntimeError("a recorded tally hands out before its commit (record_tally)")


def _differences(game: Game, round_no: int, result: TallyResult) -> tuple[Difference, ...] | None:
    """The standing record's public result against the replacement's (None: it kept none,
    recorded before killmod kept evidence)."""
    row = game.tally_record(round_no)
    kept = game.evidence(row["id"]) if row else None
    if kept is None:
        return None
    before = json.loads(kept["count"])["result"]
    after = public_tally_json(result, rule_set(result.rules))
    return tuple(compare(before, after, result.day.stage))
