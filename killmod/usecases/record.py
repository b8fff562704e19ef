"""Recording a day's tally in the game file: the posts snapshot, the result and its effects.

One step (one transaction): the snapshot, the tally, the death, the warnings and
substitutions it causes, the round's vote thread (``killmod.game.threads``) and the win check
after them are all written, or nothing is.  Re-recording a round voids the old
record's events (kept in the file) and writes the new ones; ``killmod undo`` voids the
step itself.  A round's day may hold several votes (a re-vote, 指认 then 动刀): each is
one tally, recorded with the stage it was and the vote that follows (``killmod.usecases.day``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import replace as dataclass_replace
from typing import Any
from zoneinfo import ZoneInfo

from killmod.core.model import Post, Recorded, TallyResult
from killmod.core.redact import redact_url
from killmod.core.times import format_iso, format_local
from killmod.fetch.thread import Thread
from killmod.game.delivery import Handout
from killmod.game.effects import record_if_over, record_warning
from killmod.game.guards import expect_day, refuse_if_over, refuse_same_thread
from killmod.game.store import Delivery, Game, post_row
from killmod.game.tallyjson import tally_json
from killmod.game.threads import VOTE, remember
from killmod.rules import rule_set
from killmod.usecases.evidence import canonical, sha256


def snapshot_hash(posts: tuple[Post, ...]) -> str:
    """SHA-256 of the posts as stored: anyone holding the snapshot can check it."""
    rows = [post_row(0, post) for post in sorted(posts, key=lambda post: post.pid)]
    for row in rows:
        del row["tally_id"]
    canonical = json.dumps(rows, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def record_tally(
    game: Game,
    thread: Thread,
    result: TallyResult,
    *,
    replace: bool,
    based_on: int | None = None,
    deliver: Callable[[TallyResult], Delivery] | None = None,
    evidence: dict[str, Any] | None = None,
    published: str | None = None,
) -> Recorded:
    """Store the tally of ``result.round`` with its snapshot and apply its effects.

    Every check that allows it runs again inside the step (the round is the next one,
    the vote not yet recorded, the thread not another round's), and ``based_on`` — the
    file's ``head()`` the count was made on — must still be the file's head.
    ``replace`` voids the round's last recorded tally.  ``deliver`` renders what the
    judge receives from the recorded result; it is written before the commit.
    ``evidence`` is the vote's count document (``killmod.usecases.evidence``): kept with
    the tally, its SHA-256 in ``Recorded.evidence`` for the announcement to print, with
    the announcement ``deliver`` made and where the judge publishes the bundle
    (``published``).
    """
    from killmod.usecases.day import plan_day

    rules = rule_set(result.rules)
    snapshot = snapshot_hash(thread.posts)
    deadline = format_iso(result.deadline)
    source = redact_url(thread.source)  # a login in the address is never kept
    shown = format_local(result.deadline, ZoneInfo(result.roster.timezone))  # as judges write
    title = f"第 {result.round} 轮的投票（{thread.title or source}，截止 {shown}）"
    with game.transaction(title, kind="tally", round_no=result.round, based_on=based_on) as step:
        if not replace:
            refuse_if_over(game)
        expect_day(game, result.round, replacing=replace)
        plan_day(game, result.round, phase=None, recording=True, replacing=replace)
        refuse_same_thread(game, result.round, snapshot, source)
        existing = game.tally_record(result.round) if replace else None
        document = tally_json(result, rules)
        tally_id = game.save_tally(
            result.round,
            deadline=deadline,
            source=source,
            title=thread.title,
            snapshot=snapshot,
            result=document,
            posts=list(thread.posts),
        )
        if existing:
            _void_old_record(game, existing, tally_id)
        _apply(game, result, tally_id)
        cause = {"tally_id": tally_id}
        remember(game, thread.source, thread=VOTE, round_no=result.round, cause=cause)
        winner = record_if_over(game, result.round, {"tally_id": tally_id}, result.day.over)
        count = canonical(evidence) if evidence is not None else None
        recorded = Recorded(
            tally_id,
            snapshot,
            winner,
            existing["id"] if existing else None,
            result.early,
            evidence=sha256(count) if count is not None else None,
            evidence_at=published if count is not None else None,
        )
        delivery = deliver(dataclass_replace(result, recorded=recorded)) if deliver else None
        if delivery is not None:
            step.deliver(delivery)
        if count is not None:
            announced = delivery.announcement if isinstance(delivery, Handout) else None
            game.save_evidence(
                tally_id,
                sha256=recorded.evidence,
                count=count.decode("utf-8"),
                announcement=announced,
                published=published,
            )
    return recorded


def _void_old_record(game: Game, existing: dict, tally_id: int) -> None:
    old_events = [e.id for e in game.events() if e.data.get("tally_id") == existing["id"]]
    game.void_tally(existing["id"])
    game.void_events(old_events)
    game.record(
        existing["round"],
        "tally_replaced",
        None,
        {"old": existing["id"], "new": tally_id, "voided_events": old_events},
    )


def _apply(game: Game, result: TallyResult, tally_id: int) -> None:
    """The day's vote (its stage, the next vote, whom it named), the players' uids read from
    the board (``uid`` events: the roster has them from then on), the deaths, the warnings."""
    round_no, day = result.round, result.day
    game.record(
        round_no,
        "day",
        None,
        {
            "tally_id": tally_id,
            "outcome": result.outcome.kind,
            "seat": result.outcome.seat,
            "seats": list(result.outcome.seats),
            "stage": day.stage.as_json(),
            "next": day.next.as_json() if day.next else None,
            "voted": list(day.voted),
            **({"early": True} if result.early else {}),
        },
    )
    for pin in result.pinned:  # uids the board showed for players the roster gave none
        game.record(round_no, "uid", pin.seat, {**pin.as_json(), "tally_id": tally_id})
    for seat in day.out:
        game.record(round_no, "death", seat, {"how": "voted", "tally_id": tally_id})
    for warning in result.warnings:
        record_warning(
            game,
            round_no,
            warning,
            reason="non_voter",
            at=result.deadline,
            cause={"tally_id": tally_id},
        )
