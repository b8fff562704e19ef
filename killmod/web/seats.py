"""The judge's steps on one seat: 替补 (``sub``), 出局 (``out``), 请假 (``leave``), 处罚
(``penalty``) and 别名 (``alias``) — each a form, each through the use case its command
calls."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from flask import Blueprint, request

from killmod.announce.handouts import (
    alias_note,
    leave_note,
    out_handout,
    penalty_note,
    sub_handout,
)
from killmod.announce.notices import notice_renderer
from killmod.announce.outputs import Outputs
from killmod.announce.views import public_roster
from killmod.board.sending import notices_for
from killmod.core.errors import SEAT, BadInput, KillmodError, about
from killmod.usecases.alias import ALIAS, record_alias
from killmod.usecases.deal import current_notices
from killmod.usecases.gamefile import last_step
from killmod.usecases.lurkers import record_leave
from killmod.usecases.night import announcement_time
from killmod.usecases.out import judge_outs, record_out
from killmod.usecases.penalty import penalty_kinds, record_penalty
from killmod.usecases.reading import known_board
from killmod.usecases.replacing import latest_replaceable
from killmod.usecases.status import game_status
from killmod.usecases.sub import refuse_unsendable, substitute
from killmod.usecases.tally import recount_hint
from killmod.web.board import board_options, remember_post
from killmod.web.pages import capturing, game, refusal, settings, show
from killmod.web.sending import remember_sending

pages = Blueprint("seats", __name__)
FORMAT = "bbcode"  # the commands' default post format
SUB_FIELDS = {
    SEAT: "seat",
    "替补": "name",
    "--uid": "uid",
    "--at": "at",
    "--board": "board",
    "--send": "send",
}
OUT_FIELDS = {SEAT: "seat", "--reason": "reason", "--round": "round", "--at": "at"}
LEAVE_FIELDS = {SEAT: "seat", "--day": "day", "--note": "note"}
ALIAS_FIELDS = {SEAT: "seat", ALIAS: "alias"}
PENALTY_FIELDS = {SEAT: "seat", "--round": "round", "--kind": "kind", "--choice": "choice"}


def _form(template: str, form: dict | None = None, **more):
    """A seat's form (as filled in, unless ``form`` is given), with the seats and what the
    rule set offers."""
    with game() as opened:
        state = game_status(opened)
        outs = judge_outs(opened)
        kinds = penalty_kinds(opened)
        board = known_board(opened)
    return show(
        template,
        board=board or "",
        signed=settings().board_cookies.exists(),
        roster=public_roster(state.roster),
        outs=outs,
        kinds=kinds,
        round_now=state.round or 1,
        form=request.form.to_dict() if form is None else form,
        **more,
    )


def _seat() -> int:
    text = request.form.get("seat", "").strip()
    if not text.isdigit():
        raise BadInput("请选择座位。", option=SEAT)
    return int(text)


def _number(field: str, option: str, what: str) -> int | None:
    text = request.form.get(field, "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise BadInput(f"{what}要是数字，现在是「{text}」。", option=option)
    return int(text)


def _text(field: str) -> str | None:
    return request.form.get(field, "").strip() or None


def _done(
    title: str,
    public: str,
    notes: list[str],
    step,
    thread: str | None,
    sending: tuple[str, str] = ("", ""),
):
    """The step recorded: its post to copy or post, and its notices to send (``sending``:
    their key and what they are, when the judge asked to send them)."""
    return show(
        "web/step_done.html.j2",
        title=title,
        post=public,
        done="\n".join(notes) or step.title,
        thread=thread or "",
        key=remember_post(public, f"{step.title}的公告", step.id),
        sending_key=sending[0],
        sending_what=sending[1],
    )


# --- 替补 ---------------------------------------------------------------------------------


@pages.get("/sub")
def sub():
    """替补: a substitute takes over a living seat (its role unchanged)."""
    return _form("web/sub.html.j2")


@pages.post("/sub")
def sub_record():
    """The substitution recorded (``killmod sub``): the 换替补 post; the substitute's notice
    written to the private folder before the commit."""
    send = request.form.get("send") == "yes"
    board = request.form.get("board", "").strip()
    templates = settings().templates
    try:
        seat = _seat()
        name = request.form.get("name", "").strip()
        if not name:
            raise BadInput("请写替补的论坛名。", option="替补")
        uid = _number("uid", "--uid", "替补的 uid")
        with game() as opened:
            if send:  # as sub --send: refused before anything is recorded
                _ready_to_send(opened, name, uid, board)
            outputs = Outputs(settings().private_dir)
            deliver, captured = capturing(
                sub_handout(opened, seat, name, FORMAT, outputs, templates)
            )
            substitute(opened, seat, name, uid=uid, at_text=_text("at"), deliver=deliver)
            step = last_step(opened)
            thread = game_status(opened).threads.game
            if send:
                texts = current_notices(opened, (seat,), notice_renderer(templates))
                notices = notices_for(opened, texts, "替补")
    except KillmodError as error:
        return _form("web/sub.html.j2", **refusal(error, SUB_FIELDS)), 422
    what = f"替补 {name} 的站内短信（{seat}号的身份）"
    key = remember_sending(board, notices, what) if send else ""
    return _done(step.title, captured.public, captured.notes, step, thread, sending=(key, what))


def _ready_to_send(opened, name: str, uid: int | None, board: str) -> None:
    """What sending the substitute's notice needs, checked before the step is recorded: his
    uid, the board, the judge signed in to it."""
    refuse_unsendable(opened, name, uid)
    if not board:
        raise BadInput("请给出论坛网址（如游戏帖的网址），站内短信在那里发。", option="--board")
    with about("--send"):
        board_options()


# --- 出局 ---------------------------------------------------------------------------------


@pages.get("/out")
def out():
    """出局: the judge's own decision on a seat (立判出局, 认匪, 误睁眼…, 投降)."""
    return _form("web/out.html.j2")


@pages.post("/out")
def out_record():
    """The decision recorded (``killmod out``) with the win check; the rule text's post."""
    try:
        seat = _seat()
        reason = request.form.get("reason", "")
        round_no = _number("round", "--round", "轮次")
        with game() as opened:
            tz = ZoneInfo(game_status(opened).roster.timezone)
            with about("--at"):
                at = announcement_time(_text("at"), tz)
            deliver, captured = capturing(out_handout(opened, FORMAT, settings().templates))
            record_out(
                opened,
                seat,
                reason,
                round_no=round_no,
                at=at,
                note=_text("note"),
                deliver=deliver,
            )
            step = last_step(opened)
            thread = game_status(opened).threads.game
    except KillmodError as error:
        return _form("web/out.html.j2", **refusal(error, OUT_FIELDS)), 422
    return _done(step.title, captured.public, captured.notes, step, thread)


# --- 请假 ---------------------------------------------------------------------------------


@pages.get("/leave")
def leave():
    """请假: a player's day of leave (not counted as lurking that day)."""
    return _form("web/leave.html.j2")


@pages.post("/leave")
def leave_record():
    """The day of leave recorded (``killmod leave``): what the command tells the judge."""
    try:
        seat = _seat()
        with game() as opened:
            recorded = record_leave(opened, seat, request.form.get("day", ""), note=_text("note"))
    except KillmodError as error:
        return _form("web/leave.html.j2", **refusal(error, LEAVE_FIELDS)), 422
    return _form(
        "web/leave.html.j2", {}, done=leave_note(recorded, settings().templates).rstrip("\n")
    )


# --- 处罚 ---------------------------------------------------------------------------------


@pages.get("/penalty")
def penalty():
    """处罚: a violation and the penalty the opposing camp chose (1.2)."""
    return _form("web/penalty.html.j2")


@pages.post("/penalty")
def penalty_record():
    """The violation and its penalty recorded (``killmod penalty``): the night it falls on,
    never the violator's camp."""
    try:
        seat = _seat()
        round_no = _number("round", "--round", "轮次")
        if round_no is None:
            raise BadInput("请写犯规的轮次。", option="--round")
        with game() as opened:
            recorded = record_penalty(
                opened,
                seat,
                round_no=round_no,
                kind=request.form.get("kind", ""),
                choice=request.form.get("choice", ""),
                reason=_text("reason"),
            )
    except KillmodError as error:
        return _form("web/penalty.html.j2", **refusal(error, PENALTY_FIELDS)), 422
    return _form(
        "web/penalty.html.j2", {}, done=penalty_note(recorded, settings().templates).rstrip("\n")
    )


# --- 别名 ---------------------------------------------------------------------------------


@pages.get("/alias")
def alias():
    """别名: a nickname players vote with (kp, 鱼) becomes a seat's alias."""
    return _form("web/alias.html.j2")


@pages.post("/alias")
def alias_record():
    """The alias recorded (``killmod alias``); then the vote counted again on 计票, or what
    to do when the round's count is recorded already."""
    try:
        seat = _seat()
        with game() as opened:
            done = record_alias(opened, seat, request.form.get("alias", ""))
            hint = recount_hint(opened, None, None)
            again = latest_replaceable(opened) if hint else None
    except KillmodError as error:
        return _form("web/alias.html.j2", **refusal(error, ALIAS_FIELDS)), 422
    note = alias_note(done)
    return _form("web/alias.html.j2", {}, done=note, hint=hint or "", again=again, recorded=True)
