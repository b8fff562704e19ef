"""计票: the vote thread and its deadline, the live count while the vote is open, the
judge's rulings, the announcement, and recording it (``tally``, ``open``)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from flask import Blueprint, current_app, request

from killmod.announce.handouts import alias_note, open_handout
from killmod.announce.tallypost import render_provisional, tally_notes, tally_outputs
from killmod.announce.tallyviews import public_tally, unknown_names
from killmod.announce.views import public_roster
from killmod.core.errors import SEAT, BadInput, KillmodError
from killmod.core.times import format_local
from killmod.usecases.alias import record_alias
from killmod.usecases.gamefile import last_step
from killmod.usecases.nightform import skippable_day
from killmod.usecases.open import open_vote
from killmod.usecases.provisional import NOW
from killmod.usecases.reading import board_skew, page_fetching
from killmod.usecases.replacing import latest_replaceable, recorded_vote, replaceable
from killmod.usecases.rulings import current_rulings, rule_post, rulings_path
from killmod.usecases.status import game_status
from killmod.usecases.tally import count_so_far
from killmod.web.board import remember_post
from killmod.web.pages import capturing, game, refusal, settings, show
from killmod.web.seats import ALIAS_FIELDS

pages = Blueprint("day", __name__)
FIELDS = {"--deadline": "deadline", "--evidence-url": "evidence_url", "--post": "evidence"}
OPEN_FIELDS = {"--deadline": "open_deadline"}


def now() -> datetime:
    """The real clock (tests replace it)."""
    return datetime.now(UTC)


def _board_cookies():
    cookies = settings().board_cookies
    return cookies if cookies.exists() else None


def fetching():
    return page_fetching(_board_cookies(), settings().cache)


def _round(state) -> int:
    return state.pending_lottery or state.upcoming[1]


def defaults() -> dict:
    """The vote the page is about: the round, and its thread and deadline as the game file
    remembers them (``open``, an earlier count), unless the judge typed others."""
    asked = request.values.get("round", "")
    with game() as opened:
        state = game_status(opened)
        skippable = skippable_day(opened)
        # a form carries the round it was shown for: a second tab records that round or nothing
        round_no = int(asked) if asked.isdigit() else _round(state)
        standing = recorded_vote(opened, round_no)
        again = replaceable(opened, round_no)
        # the latest recorded vote, which rulings or aliases may have changed since
        latest = latest_replaceable(opened)
    thread = request.values.get("thread") or state.threads.vote(round_no) or ""
    deadline = request.values.get("deadline", "").strip()
    if not deadline and standing is not None:  # a recorded vote: as it was counted
        deadline = standing.deadline
    elif not deadline and state.deadline is not None:  # as `status` suggests it to a command
        deadline = format_local(state.deadline, ZoneInfo(state.roster.timezone))
    return {
        "round_no": round_no,
        "thread": thread.strip(),
        "deadline": deadline,
        "roster": public_roster(state.roster),
        "remembered": state.deadline is not None,
        "skippable": skippable is not None and skippable == round_no,
        "recorded": standing is not None,
        "replaceable": again,
        "earlier": latest if latest != round_no else None,
    }


@pages.get("/vote")
def vote():
    """The vote page: 投票帖, 截止时间, 计票; the count loads below once both are given."""
    values = defaults()
    counting = bool(request.args.get("count")) and bool(values["thread"])
    return show("web/vote.html.j2", counting=counting, refresh=settings().refresh, **values)


def _skew(url: str) -> float | None:
    """The board's clock less this machine's, asked once per thread while the page runs."""
    known = current_app.extensions.setdefault("killmod_skew", {})
    if url not in known:
        known[url] = board_skew(url, fetching())
    return known[url]


def count_now(values: dict) -> dict:
    """The count as of now: provisional before the deadline (the post ``tally`` prints
    then), the final announcement after it."""
    rulings = rulings_path(settings().private_dir, values["round_no"])
    templates = settings().templates
    with game() as opened:
        counted = count_so_far(
            values["thread"],
            game=opened,
            deadline=values["deadline"] or None,
            round_no=values["round_no"],
            as_of=NOW,
            now=now(),
            fetching=fetching(),
            rulings=rulings if rulings.exists() else None,
        )
        final = counted.remaining.total_seconds() <= 0
        if final:
            text, _ = tally_outputs(
                counted.result, opened, "bbcode", templates, print_secrets=False
            )
        else:
            text = render_provisional(counted, "bbcode", templates)
    shown = public_tally(counted.result)
    return {
        "final": final,
        "text": text,
        "notes": tally_notes(counted.result, templates, page=True),
        "unknown": unknown_names(counted.result),
        "verdicts": shown.verdicts,
        "deadline_iso": counted.deadline.isoformat(),
        "offset": int(counted.deadline.utcoffset().total_seconds() // 60),
        "deadline_text": format_local(counted.deadline, ZoneInfo(counted.result.roster.timezone)),
        "rulings": current_rulings(rulings),
        "skew": _skew(values["thread"]),
    }


@pages.get("/vote/count")
def count():
    """The live count (htmx): asked again every ``refresh`` seconds while the vote is
    open; no longer once the final count is shown."""
    values = defaults()
    try:
        counted = count_now(values)
    except KillmodError as error:
        return show(
            "web/count.html.j2", refresh=settings().refresh, **values, **refusal(error, FIELDS)
        )
    return show("web/count.html.j2", refresh=settings().refresh, **values, **counted)


@pages.post("/vote/rule")
def rule():
    """A one-click ruling on one post (by pid), kept in the round's rulings file; the count
    again with it."""
    values = defaults()
    try:
        pid = int(request.form["pid"])
        rule_post(
            rulings_path(settings().private_dir, values["round_no"]),
            pid,
            request.form.get("choice", ""),
            request.form.get("note", "").strip() or "法官裁定",
        )
        counted = count_now(values)
    except KillmodError as error:
        return show(
            "web/count.html.j2", refresh=settings().refresh, **values, **refusal(error, FIELDS)
        )
    return show("web/count.html.j2", refresh=settings().refresh, **values, **counted)


# --- 记为别名 from the count (killmod alias) --------------------------------------------------


@pages.post("/vote/alias/confirm")
def alias_confirm():
    """记为别名……: which name becomes which seat's alias, to confirm (nothing recorded)."""
    return show("web/vote_alias.html.j2", form=request.form.to_dict(), **defaults())


@pages.post("/vote/alias")
def alias():
    """The name recorded as the seat's alias (``killmod alias``: record_alias, its note),
    then the vote counted again — the count page, whose 重新记录 records a recorded round
    anew with it."""
    values = defaults()
    try:
        seat = request.form.get("seat", "").strip()
        if not seat.isdigit():
            raise BadInput("请选择座位。", option=SEAT)
        with game() as opened:
            done = record_alias(opened, int(seat), request.form.get("alias", ""))
    except KillmodError as error:
        refused = refusal(error, ALIAS_FIELDS)
        return show("web/vote_alias.html.j2", form=request.form.to_dict(), **values, **refused), 422
    counting = bool(values["thread"])
    return show(
        "web/vote.html.j2",
        counting=counting,
        refresh=settings().refresh,
        done=alias_note(done),
        **values,
    )


@pages.post("/vote/open")
def open_thread():
    """开投票帖 (``open``): the deadline (and the vote thread) recorded; the opening post."""
    values = defaults()
    templates = settings().templates
    try:
        with game() as opened:
            deliver, captured = capturing(open_handout(templates, "bbcode"))
            opening = open_vote(
                opened,
                request.form.get("deadline", ""),
                thread=request.form.get("thread", "").strip() or None,
                now=now(),
                deliver=deliver,
            )
            step = last_step(opened)
    except KillmodError as error:
        refused = refusal(error, OPEN_FIELDS)
        return show("web/vote.html.j2", counting=False, **values, **refused), 422
    return show(
        "web/step_done.html.j2",
        title=f"第 {opening.round} 轮投票帖",
        post=captured.public,
        done="\n".join(captured.notes),
        thread="",
        key=remember_post(captured.public, f"{step.title}的公告", step.id),
        next_url="/vote",
    )
