"""记录 and 重新记录: a counted vote recorded after its confirmation (``tally --record``) with
the choice of where its evidence bundle goes (as ``--post`` attaches it, or
``--evidence-url``), and a recorded vote recorded again after a ruling or an alias changed
how it reads (``tally --record --replace``), once the judge has seen what that changes."""

from __future__ import annotations

from flask import Blueprint, request

from killmod.announce.tallypost import replacement_text, tally_handout
from killmod.board.attaching import ATTACHED, check_attachable, evidence_attachment
from killmod.core.errors import BadInput, KillmodError, about
from killmod.usecases.gamefile import last_step
from killmod.usecases.replacing import replacement
from killmod.usecases.rulings import rulings_path
from killmod.usecases.tally import tally as run_tally
from killmod.web.board import board_options, remember_post
from killmod.web.day import FIELDS, count_now, defaults, fetching
from killmod.web.pages import capturing, game, refusal, settings, show

pages = Blueprint("recording", __name__)
# Where the announcement says the evidence bundle is: attached to it (发到论坛, where the
# board takes it), at an address the judge gives, or to be asked of the judge.
ATTACH, AT_URL, ASK = "attach", "url", "ask"


def _evidence_form(values: dict, before: str | None = None) -> dict:
    """The confirmation's choice of where the evidence bundle goes, as filled in; by
    default where the record being replaced said (``before``), else attached to the
    announcement replied to the vote thread when the judge is signed in to post it (as
    ``tally --record --post`` attaches it), else to be asked of the judge."""
    signed = settings().board_cookies.exists()
    if before == ATTACHED:
        default, address = ATTACH, ""
    elif before:
        default, address = AT_URL, before
    else:
        default, address = (ATTACH if signed else ASK), ""
    return {
        "evidence": request.form.get("evidence") or default,
        "evidence_url": request.form.get("evidence_url", "").strip() or address,
        "evidence_thread": request.form.get("evidence_thread", "").strip() or values["thread"],
        "signed": signed,
    }


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


def _announcement(opened):
    """A recorded tally's hand-out, as ``tally --record`` prints it."""
    templates = settings().templates
    return lambda result: tally_handout(result, opened, "bbcode", templates)


def _vote_page(values: dict, error: KillmodError):
    return show("web/vote.html.j2", counting=False, **values, **refusal(error, FIELDS)), 422


# --- 记录 ---------------------------------------------------------------------------------


@pages.post("/vote/confirm")
def confirm():
    """What 记录 will record, and where: the announcement as it stands, to confirm, and
    where the evidence bundle goes."""
    values = defaults()
    try:
        counted = count_now(values)
    except KillmodError as error:
        return _vote_page(values, error)
    return _confirmation(values, counted)


def _confirmation(values: dict, counted: dict, **more):
    evidence = _evidence_form(values)
    early = not counted["final"]
    return show("web/vote_confirm.html.j2", early=early, **values, **counted, **evidence, **more)


@pages.post("/vote/record")
def record():
    """记录 (``tally --record``, ``--early`` before the deadline): one step with every
    guard inside it; a second tab or a command that recorded the round first is refused."""
    values = defaults()
    evidence = _evidence_form(values)
    try:
        return _record(values, evidence, replace=False)
    except KillmodError as error:
        refused = refusal(error, FIELDS)
        if refused["error_field"] not in ("evidence", "evidence_url"):
            return _vote_page(values, error)
        try:  # the confirmation again, the refusal beside the evidence's choice
            counted = count_now(values)
        except KillmodError as failed:
            return _vote_page(values, failed)
        return _confirmation(values, counted, **refused), 422


def _record(values: dict, evidence: dict, *, replace: bool):
    """The vote recorded (``replace``: recorded again), its announcement to copy or post —
    with the evidence bundle attached where the judge chose it — and the bundle to
    download."""
    round_no = values["round_no"]
    rulings = rulings_path(settings().private_dir, round_no)
    templates = settings().templates
    with game() as opened:
        evidence_at = _evidence_at(opened, evidence, round_no)
        deliver, captured = capturing(
            lambda result: tally_handout(result, opened, "bbcode", templates)
        )
        run_tally(
            values["thread"],
            deadline=values["deadline"] or None,
            game=opened,
            round_no=round_no,
            record=True,
            replace_record=replace,
            early=request.form.get("early") == "1",
            rulings=rulings if rulings.exists() else None,
            fetching=fetching(),
            deliver=deliver,
            evidence_at=evidence_at,
        )
        step = last_step(opened)
        attached = evidence_attachment(opened, round_no) if evidence_at == ATTACHED else None
    return show(
        "web/step_done.html.j2",
        title=f"第 {round_no} 轮计票已{'重新' if replace else ''}记录",
        post=captured.public,
        done="\n".join(captured.notes) or step.title,
        thread=evidence["evidence_thread"] if attached else values["thread"],
        key=remember_post(captured.public, f"{step.title}的公告", step.id, attached),
        attached=attached.name if attached else "",
        evidence_round=round_no,
    )


# --- 重新记录 -------------------------------------------------------------------------------


@pages.post("/vote/replace/confirm")
def replace_confirm():
    """What recording the round's vote again would record, and what it changes against the
    standing record: the replacing step run whole and taken back, nothing recorded."""
    values = defaults()
    try:
        return _replacement(values)
    except KillmodError as error:
        return _vote_page(values, error)


def _replacement(values: dict, **more):
    round_no = values["round_no"]
    rulings = rulings_path(settings().private_dir, round_no)
    templates = settings().templates
    with game() as opened:
        seen = replacement(
            opened,
            values["thread"],
            round_no=round_no,
            deadline=values["deadline"] or None,
            rulings=rulings if rulings.exists() else None,
            fetching=fetching(),
            build=_announcement(opened),
        )
    evidence = _evidence_form(values, seen.standing.published)
    return show(
        "web/vote_replace.html.j2",
        changes=replacement_text(seen, templates),
        text=seen.handout.public,
        notes="\n".join(seen.handout.notes),
        before=seen.standing.announcement or "",
        **values,
        **evidence,
        **more,
    )


@pages.post("/vote/replace")
def replace():
    """重新记录 (``tally --record --replace``): the round's last recorded vote voided (kept in
    the file) and the vote recorded anew, in one step with every guard inside it."""
    values = defaults()
    evidence = _evidence_form(values)
    try:
        return _record(values, evidence, replace=True)
    except KillmodError as error:
        refused = refusal(error, FIELDS)
        if refused["error_field"] not in ("evidence", "evidence_url"):
            return _vote_page(values, error)
        try:
            return _replacement(values, **refused), 422
        except KillmodError as failed:
            return _vote_page(values, failed)
