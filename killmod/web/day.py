"""计票: the vote thread and its deadline, the live count while the vote is open, the
judge's rulings, the announcement, and recording it (``tally``, ``open``)."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, current_app, request

from killmod.announce.handouts import open_handout
from killmod.announce.tallypost import render_provisional, tally_handout, tally_notes, tally_outputs
from killmod.announce.views import public_roster, public_tally
from killmod.board.attaching import ATTACHED, check_attachable, evidence_attachment
from killmod.core.errors import BadInput, KillmodError, about
from killmod.usecases.gamefile import last_step
from killmod.usecases.nightform import skippable_day
from killmod.usecases.open import open_vote
from killmod.usecases.provisional import NOW
from killmod.usecases.reading import board_skew, page_fetching
from killmod.usecases.rulings import current_rulings, rule_post, rulings_path
from killmod.usecases.status import game_status
from killmod.usecases.tally import count_so_far
from killmod.usecases.tally import tally as run_tally
from killmod.web.board import board_options, remember_post
from killmod.web.pages import capturing, game, refusal, settings, show

pages = Blueprint("day", __name__)
FIELDS = {"--deadline": "deadline", "--evidence-url": "evidence_url", "--post": "evidence"}
# Where the announcement says the evidence bundle is: attached to it (发到论坛, where the
# board takes it), at an address the judge gives, or to be asked of the judge.
ATTACH, AT_URL, ASK = "attach", "url", "ask"
OPEN_FIELDS = {"--deadline": "open_deadline"}


def now() -> datetime:
    """The real clock (tests replace it)."""
    return datetime.now(UTC)


def _board_cookies():
    cookies = settings().board_cookies
    return cookies if cookies.exists() else None


def _fetching():
    return page_fetching(_board_cookies(), settings().cache)


def _round(state) -> int:
    return state.pending_lottery or state.upcoming[1]


def _defaults() -> dict:
    """The vote the page is about: the round, and its thread and deadline as the game file
    remembers them (``open``, an earlier count), unless the judge typed others."""
    with game() as opened:
        state = game_status(opened)
        skippable = skippable_day(opened)
    asked = request.values.get("round", "")
    # a form carries the round it was shown for: a second tab records that round or nothing
    round_no = int(asked) if asked.isdigit() else _round(state)
    thread = request.values.get("thread") or state.threads.vote(round_no) or ""
    deadline = request.values.get("deadline", "").strip()
    if not deadline and state.deadline is not None:
        deadline = state.deadline.strftime("%Y-%m-%d %H:%M:%S")
    return {
        "round_no": round_no,
        "thread": thread.strip(),
        "deadline": deadline,
        "roster": public_roster(state.roster),
        "remembered": state.deadline is not None,
        "skippable": skippable is not None and skippable == round_no,
    }


@pages.get("/vote")
def vote():
    """The vote page: 投票帖, 截止时间, 计票; the count loads below once both are given."""
    values = _defaults()
    counting = bool(request.args.get("count")) and bool(values["thread"])
    return show("web/vote.html.j2", counting=counting, refresh=settings().refresh, **values)


def _skew(url: str) -> float | None:
    """The board's clock less this machine's, asked once per thread while the page runs."""
    known = current_app.extensions.setdefault("killmod_skew", {})
    if url not in known:
        known[url] = board_skew(url, _fetching())
    return known[url]


def _count(values: dict) -> dict:
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
            fetching=_fetching(),
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
        "notes": tally_notes(counted.result, templates),
        "verdicts": shown.verdicts,
        "deadline_iso": counted.deadline.isoformat(),
        "offset": int(counted.deadline.utcoffset().total_seconds() // 60),
        "deadline_text": counted.deadline.strftime("%Y-%m-%d %H:%M:%S"),
        "rulings": current_rulings(rulings),
        "skew": _skew(values["thread"]),
    }


@pages.get("/vote/count")
def count():
    """The live count (htmx): asked again every ``refresh`` seconds while the vote is
    open; no longer once the final count is shown."""
    values = _defaults()
    try:
        counted = _count(values)
    except KillmodError as error:
        return show(
            "web/count.html.j2", refresh=settings().refresh, **values, **refusal(error, FIELDS)
        )
    return show("web/count.html.j2", refresh=settings().refresh, **values, **counted)


@pages.post("/vote/rule")
def rule():
    """A one-click ruling on one post (by pid), kept in the round's rulings file; the count
    again with it."""
    values = _defaults()
    try:
        pid = int(request.form["pid"])
        rule_post(
            rulings_path(settings().private_dir, values["round_no"]),
            pid,
            request.form.get("choice", ""),
            request.form.get("note", "").strip() or "法官裁定",
        )
        counted = _count(values)
    except KillmodError as error:
        return show(
            "web/count.html.j2", refresh=settings().refresh, **values, **refusal(error, FIELDS)
        )
    return show("web/count.html.j2", refresh=settings().refresh, **values, **counted)


def _evidence_form(values: dict) -> dict:
    """The confirmation's choice of where the evidence bundle goes, as filled in; by
    default attached to the announcement replied to the vote thread when the judge is
    signed in to post it (as ``tally --record --post`` attaches it), else to be asked of
    the judge."""
    signed = settings().board_cookies.exists()
    return {
        "evidence": request.form.get("evidence") or (ATTACH if signed else ASK),
        "evidence_url": request.form.get("evidence_url", "").strip(),
        "evidence_thread": request.form.get("evidence_thread", "").strip() or values["thread"],
        "signed": signed,
    }


@pages.post("/vote/confirm")
def confirm():
    """What 记录 will record, and where: the announcement as it stands, to confirm, and
    where the evidence bundle goes."""
    values = _defaults()
    try:
        counted = _count(values)
    except KillmodError as error:
        return show("web/vote.html.j2", counting=False, **values, **refusal(error, FIELDS)), 422
    return _confirmation(values, counted)


def _confirmation(values: dict, counted: dict, **more):
    early = not counted["final"]
    evidence = _evidence_form(values)
    return show("web/vote_confirm.html.j2", early=early, **values, **counted, **evidence, **more)


def _evidence_at(opened, evidence: dict, round_no: int) -> str | None:
    """Where the announcement says the bundle is, checked before anything is recorded: the
    board must take it as an attachment of the judge's reply (``--post``), or an address
    must be given (``--evidence-url``)."""
    if evidence["evidence"] == AT_URL:
        if not evidence["evidence_url"]:
            raise BadInput("请写证据包公布的网址（如网盘的链接）。", option="--evidence-url")
        return evidence["evidence_url"]
    if evidence["evidence"] != ATTACH:
        return None
    with about("--post"):
        if not evidence["evidence_thread"]:
            raise BadInput("请写公告要回复到的帖子（证据包附在这篇回复里）。")
        check_attachable(opened, evidence["evidence_thread"], board_options(), round_no)
    return ATTACHED


@pages.post("/vote/record")
def record():
    """记录 (``tally --record``, ``--early`` before the deadline): one step with every
    guard inside it; a second tab or a command that recorded the round first is refused."""
    values = _defaults()
    rulings = rulings_path(settings().private_dir, values["round_no"])
    templates = settings().templates
    evidence = _evidence_form(values)
    try:
        with game() as opened:
            evidence_at = _evidence_at(opened, evidence, values["round_no"])

            def build(result):
                return tally_handout(result, opened, "bbcode", templates)

            deliver, captured = capturing(build)
            run_tally(
                values["thread"],
                deadline=values["deadline"] or None,
                game=opened,
                round_no=values["round_no"],
                record=True,
                early=request.form.get("early") == "1",
                rulings=rulings if rulings.exists() else None,
                fetching=_fetching(),
                deliver=deliver,
                evidence_at=evidence_at,
            )
            step = last_step(opened)
            attached = (
                evidence_attachment(opened, values["round_no"]) if evidence_at == ATTACHED else None
            )
    except KillmodError as error:
        refused = refusal(error, FIELDS)
        if refused["error_field"] in ("evidence", "evidence_url"):
            return _refused_evidence(values, refused)
        return show("web/vote.html.j2", counting=False, **values, **refused), 422
    return show(
        "web/step_done.html.j2",
        title=f"第 {values['round_no']} 轮计票已记录",
        post=captured.public,
        done="\n".join(captured.notes) or step.title,
        thread=evidence["evidence_thread"] if attached else values["thread"],
        key=remember_post(captured.public, f"{step.title}的公告", step.id, attached),
        attached=attached.name if attached else "",
        evidence_round=values["round_no"],
    )


def _refused_evidence(values: dict, refused: dict):
    """The confirmation again, the refusal beside the evidence's choice (nothing recorded)."""
    try:
        counted = _count(values)
    except KillmodError as error:
        return show("web/vote.html.j2", counting=False, **values, **refusal(error, FIELDS)), 422
    return _confirmation(values, counted, **refused), 422


@pages.post("/vote/open")
def open_thread():
    """开投票帖 (``open``): the deadline (and the vote thread) recorded; the opening post."""
    values = _defaults()
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
