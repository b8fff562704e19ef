"""The ``killmod.tally/1`` JSON document of a tally (README's “The JSON document”).

Whole, it is what the game file records (``killmod.usecases.record``) and what
``--print-secrets`` prints; ``public_tally_json`` is the vote thread's copy of it, which
the announcement's ``--format json`` prints and an evidence bundle holds
(``killmod.usecases.evidence``).  Built from the result alone, with no template (and no
Jinja2 imported for it).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from killmod.core.model import (
    Ballot,
    Change,
    DayStep,
    Flag,
    GameWarning,
    Rejection,
    TallyResult,
    Verdict,
)
from killmod.core.redact import redact_url
from killmod.core.times import format_iso

if TYPE_CHECKING:
    from killmod.rules.base import RuleSet

SCHEMA = "killmod.tally/1"
# A silenced (V4.0 癫狂) player's ballot, shown publicly: not counted, no reason given.
NOT_COUNTED = "not_counted"
# The verdicts and flags that name a hidden night effect (V4.0 【沉默】).
HIDDEN_VERDICTS = {"frenzy": NOT_COUNTED}
HIDDEN_FLAGS = frozenset({"frenzy"})


def revealed_camps(result: TallyResult, rules: RuleSet) -> dict[int, str | None]:
    """The camps this tally announces: of the seat voted out and of the drowned (1.2 only)."""
    players = {player.seat: player for player in result.roster.players}
    revealed = {warning.seat for warning in result.warnings if warning.action == "out"}
    if result.outcome.kind == "eliminated":
        revealed.add(result.outcome.seat)
    return {seat: rules.announced_camp(players[seat].role) for seat in revealed}


def tally_json(result: TallyResult, rules: RuleSet) -> dict:
    """The ``killmod.tally/1`` document of README's “The JSON document” (plus ``verdicts``),
    whole: what the game file records, and what ``--print-secrets`` prints."""
    outcome: dict = {"kind": result.outcome.kind}
    if result.outcome.kind == "eliminated":
        outcome["seat"] = result.outcome.seat
        camp = revealed_camps(result, rules).get(result.outcome.seat)
        if camp:
            outcome["camp"] = camp
    elif result.outcome.kind == "tie":
        outcome["seats"] = list(result.outcome.seats)
    return {
        "schema": SCHEMA,
        "rules": result.rules,
        "round": result.round,
        "deadline": format_iso(result.deadline),
        "source": {
            "url": result.source.url,
            "title": result.source.title,
            "pages": result.source.pages,
            "posts": result.source.posts,
            "views": [
                {"view": v.view, "pages": v.pages, "why": v.why} for v in result.source.views
            ],
        },
        "ballots": [_ballot_json(b) for b in result.ballots],
        "counts": [
            {"seat": c.seat, "name": c.name, "votes": c.votes, "voters": list(c.voters)}
            for c in result.counts
        ],
        "outcome": outcome,
        "changes": [_change_json(c) for c in result.changes],
        "rejected": [_rejection_json(r) for r in result.rejected],
        "flags": [_flag_json(f) for f in result.flags],
        "warnings": [_warning_json(w) for w in result.warnings],
        "verdicts": [_verdict_json(v) for v in result.verdicts],
        **({"excused": list(result.excused)} if result.excused else {}),
        **({"day": _day_json(result.day)} if result.day else {}),
        **({"early": True} if result.early else {}),
    }


def public_tally_json(result: TallyResult, rules: RuleSet) -> dict:
    """The ``killmod.tally/1`` document as the vote thread may see it: a post a hidden
    night effect left uncounted (V4.0 癫狂) is ``not_counted``, with no flag naming it."""
    document = tally_json(result, rules)
    document["source"]["url"] = redact_url(document["source"]["url"])
    document["flags"] = [f for f in document["flags"] if f["reason"] not in HIDDEN_FLAGS]
    for verdict in document["verdicts"]:
        verdict["verdict"] = HIDDEN_VERDICTS.get(verdict["verdict"], verdict["verdict"])
    return document


def _ballot_json(b: Ballot) -> dict:
    return {
        "seat": b.seat,
        "name": b.name,
        "kind": b.kind,
        "target": b.target,
        "floor": b.floor,
        "posted_at": _iso(b.posted_at),
    }


def _change_json(c: Change) -> dict:
    return {
        "seat": c.seat,
        "floor": c.floor,
        "from": c.from_,
        "to": c.to,
        "posted_at": _iso(c.posted_at),
    }


def _rejection_json(r: Rejection) -> dict:
    return {
        "floor": r.floor,
        "author": r.author,
        "seat": r.seat,
        "reason": r.reason,
        "pid": r.pid,
        "posted_at": _iso(r.posted_at),
    }


def _flag_json(f: Flag) -> dict:
    return {
        "floor": f.floor,
        "seat": f.seat,
        "reason": f.reason,
        "detail": f.detail,
        **({"suggestion": f.suggestion} if f.suggestion is not None else {}),
    }


def _warning_json(w: GameWarning) -> dict:
    return {
        "seat": w.seat,
        "name": w.name,
        "total": w.total,
        "action": w.action,
        **({"substitute": w.substitute} if w.substitute else {}),
    }


def _verdict_json(v: Verdict) -> dict:
    return {
        "pid": v.pid,
        "floor": v.floor,
        "author": v.author,
        "seat": v.seat,
        "posted_at": _iso(v.posted_at),
        "verdict": v.verdict,
        "kind": v.kind,
        "target": v.target,
        "fragment": v.fragment,
        "ruling": v.ruling,
        "notes": list(v.notes),
        "read_as": v.read_as,
        "detail": v.detail,
    }


def _day_json(day: DayStep) -> dict:
    """What the vote leads to under the rule set: the stage, who is out, what is shown, next."""
    return {
        "stage": day.stage.as_json(),
        "out": list(day.out),
        "voted": list(day.voted),
        "shown": {str(seat): identity for seat, identity in day.shown},
        "next": day.next.as_json() if day.next else None,
        "posts": list(day.posts),
        "knife": day.knife.as_json() if day.knife else None,
        "over": day.over.as_json() if day.over else None,
    }


def _iso(moment: datetime | None) -> str | None:
    return format_iso(moment) if moment else None
