"""What the tally's templates receive: the announcement and the audit (``tally_view``), the
notes for the judge (``tally_notes_view``) and the posts a hidden effect left uncounted
(``tally_secrets_view``, private).

Public facts only in a public view (``killmod.announce.views`` says what they are): the
tally without the roster's roles, the judge's flags or a hidden effect (a post it left
uncounted reads as not counted).  Apart from the other commands' views, so that
``tally`` (and ``watch``, the judge's page) loads these alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from types import ModuleType

from killmod.announce.audience import PrivateView, PublicView
from killmod.core.model import (
    Ballot,
    Change,
    Count,
    DayStep,
    GameWarning,
    Outcome,
    Recorded,
    Rejection,
    Roster,
    Source,
    TallyResult,
    Verdict,
)
from killmod.core.redact import redact_url
from killmod.game.tallyjson import HIDDEN_FLAGS, HIDDEN_VERDICTS, revealed_camps


@dataclass(frozen=True)
class PublicTally:
    """A tally as the vote thread may see it: no roster, no note meant for the judge."""

    rules: str
    round: int
    deadline: datetime
    source: Source
    ballots: tuple[Ballot, ...]
    counts: tuple[Count, ...]
    outcome: Outcome
    changes: tuple[Change, ...]
    rejected: tuple[Rejection, ...]
    warnings: tuple[GameWarning, ...]
    verdicts: tuple[Verdict, ...]
    recorded: Recorded | None = None
    day: DayStep | None = None
    early: bool = False  # counted before its deadline (the post says so)


def names(roster: Roster) -> dict[int, str]:
    """Names by seat."""
    return {player.seat: player.name for player in roster.players}


# Verdicts whose ballot stands or stood: the trail of a seat's ballots, and a loose reading
# of one changed the count.
_BALLOT_VERDICTS = frozenset({"counted", "superseded"})


def public_verdict(verdict: Verdict) -> Verdict:
    """A post's verdict as the vote thread may see it: a hidden effect becomes “not counted”."""
    hidden = HIDDEN_VERDICTS.get(verdict.verdict)
    return verdict if hidden is None else replace(verdict, verdict=hidden)


def public_tally(result: TallyResult) -> PublicTally:
    """``result`` without the roster (roles), the judge's flags and hidden effects."""
    source = replace(result.source, url=redact_url(result.source.url))
    return PublicTally(
        rules=result.rules,
        round=result.round,
        deadline=result.deadline,
        source=source,
        ballots=result.ballots,
        counts=result.counts,
        outcome=result.outcome,
        changes=result.changes,
        rejected=result.rejected,
        warnings=result.warnings,
        verdicts=tuple(public_verdict(v) for v in result.verdicts),
        recorded=result.recorded,
        day=result.day,
        early=result.early,
    )


def tally_view(result: TallyResult, rules: ModuleType) -> PublicView:
    """The tally templates (announcement, audit): the public tally, names by seat, the
    announced camps, the rule set's tally policy and what the vote leads to (``day``).

    ``listed`` are the rejected posts the announcement lists: a post with no vote in
    it only where the rule set calls it a violation (1.2 二.5). ``excused`` are the
    non-voters on leave (counted, not warned). ``zhashi_until`` is the end of the
    voted-out player's 诈尸 window where the set has one (1.2): 24 hours from the
    deadline, the vote's announcement.  ``changed`` are the seats with a vote change, in
    seat order, and ``trail`` each seat's ballots that stand or stood as (kind, target,
    floor, posted_at), which the vote changes and the audit list: a long thread's 30,000
    vote changes without reading an attribute through the sandbox for each.
    """
    policy = rules.TALLY_POLICY
    zhashi = rules.ZHASHI
    trail: dict[int, list[tuple]] = {}
    tally = public_tally(result)
    for v in tally.verdicts:
        if v.seat is not None and v.verdict in _BALLOT_VERDICTS:
            trail.setdefault(v.seat, []).append((v.kind, v.target, v.floor, v.posted_at))
    return PublicView(
        {
            "result": tally,
            "names": names(result.roster),
            "ballots": {ballot.seat: ballot for ballot in result.ballots},
            "camps": revealed_camps(result, rules),
            "changed": sorted({change.seat for change in result.changes}),
            "trail": trail,
            "non_voters": [b for b in result.ballots if b.kind == "self"],
            "warnings": {warning.seat: warning for warning in result.warnings},
            "policy": policy,
            "silences": rules.SILENCES_VOTERS,
            "day": result.day,
            "off_candidates": {v.pid for v in result.verdicts if "not_candidate" in v.notes},
            "listed": [
                r for r in result.rejected if r.reason != "no_vote" or r.reason in policy.violations
            ],
            "excused": set(result.excused),
            "zhashi_until": (
                result.deadline + zhashi
                if zhashi is not None and result.outcome.kind == "eliminated"
                else None
            ),
            "blocked": {v.pid for v in result.verdicts if "banned" in v.notes},
            "suggestions": suggestions(result),
            "voted_out": result.outcome.seat if result.outcome.kind == "eliminated" else None,
            "parts": {
                v.pid: v.detail
                for v in result.verdicts
                if v.verdict == "ambiguous" and v.read_as == "part"
            },
        }
    )


def suggestions(result: TallyResult) -> dict[tuple[int | None, str], int]:
    """The seat suggested for each name nobody has (a near miss), by floor and name."""
    return {(f.floor, f.detail): f.suggestion for f in result.flags if f.reason == "near_miss"}


def tally_notes_view(
    result: TallyResult, *, game_file: bool = True, page: bool = False
) -> PublicView:
    """The judge's notes on a tally that are no secret: minute-precision times in the
    deadline's minute, ballots that look like a slip of the pen (not counted), and how many
    posts a hidden effect left uncounted (not whose); the loose readings — a ballot read
    from a part of a name or from a name in another script than the roster's (``loose``),
    a part of several names (``unsure``) — and each name nobody has with the command that
    makes it the suggested seat's alias (``unknown``; ``game_file``: the judge counts with
    a game file, else from a roster file; ``page``: on the judge's page, whose 记为别名
    button does what the command would); and a recorded vote counted again, compared with
    its record (``recount``, ``killmod.usecases.recount``); ``api_sizes``: a post read from
    the mobile API was counted, and the API shows no text size."""
    public = [public_verdict(v) for v in result.verdicts]
    return PublicView(
        {
            "flags": [f for f in result.flags if f.reason not in HIDDEN_FLAGS],
            "hidden": sum(1 for f in result.flags if f.reason in HIDDEN_FLAGS),
            "names": names(result.roster),
            "loose": [
                v
                for v in public
                if v.verdict in _BALLOT_VERDICTS
                and v.kind == "vote"
                and (v.read_as == "part" or "script" in v.notes)
            ],
            "unsure": [v for v in public if v.verdict == "ambiguous" and v.read_as == "part"],
            "unknown": [v for v in public if v.verdict == "unknown_target" and v.detail],
            "suggestions": suggestions(result),
            "game_file": game_file,
            "page": page,
            "recount": result.recount,
            "deadline": result.deadline,
            "api_sizes": counted_from_api(result),
        }
    )


def counted_from_api(result: TallyResult) -> bool:
    """Whether a post read from the mobile API was counted: the API shows no text size
    (``killmod.fetch.api.SIZES_UNSEEN``), so a ballot hidden in text sized 0 reads as any."""
    from_api = any(view.view == "api" for view in result.source.views)
    return from_api and any(verdict.verdict == "counted" for verdict in result.verdicts)


@dataclass(frozen=True)
class UnknownName:
    """A name a ballot gave that nobody has (``unknown_target``): the first floor it is
    on, the name, and the seat it looks like (``suggested``: a near miss, else None)."""

    floor: int | None
    name: str
    suggested: int | None


def unknown_names(result: TallyResult) -> tuple[UnknownName, ...]:
    """Each name nobody has that a post voted with, once, in the order of the posts: the
    names the judge may make a seat's alias (``killmod alias``)."""
    view = tally_notes_view(result)
    found: dict[str, UnknownName] = {}
    for v in view.values["unknown"]:
        suggested = view.values["suggestions"].get((v.floor, v.detail))
        found.setdefault(v.detail, UnknownName(v.floor, v.detail, suggested))
    return tuple(found.values())


def tally_secrets_view(result: TallyResult) -> PrivateView:
    """The posts a hidden effect left uncounted, with whose they are (the judge's detail)."""
    return PrivateView(
        {
            "flags": [f for f in result.flags if f.reason in HIDDEN_FLAGS],
            "names": names(result.roster),
        }
    )
