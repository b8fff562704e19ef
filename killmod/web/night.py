"""夜晚: the rule set's night as a form of living seats (``killmod night``), or read from the
judge's 站内短信 for him to check and confirm (``night --from-pm``); the dawn post."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from flask import Blueprint, request

from killmod.announce.handouts import inbox_notes, night_handout
from killmod.announce.outputs import Outputs
from killmod.announce.render import render_private
from killmod.announce.views import inbox_night_view, public_roster
from killmod.board.inbox import read_night
from killmod.core.errors import BadInput, KillmodError
from killmod.usecases.gamefile import last_step
from killmod.usecases.inbox import OPTION_NAMES, inbox_window, refuse_early
from killmod.usecases.night import SelfAimed, record_night
from killmod.usecases.nightform import SEVERAL, night_choice, night_form
from killmod.usecases.reading import known_board
from killmod.usecases.status import game_status
from killmod.web.board import board_options, remember_post
from killmod.web.pages import capturing, game, refusal, settings, show, show_private

pages = Blueprint("night", __name__)
# A night's option as its errors name it (--kill) is the form's field of the same name.
SKIP = "--skip-day"
FIELDS = {f"--{option}": option for option in (*OPTION_NAMES, "extra-kills")} | {
    "--at": "at",
    SKIP: "skip_day",
}
INBOX_FIELDS = {"--until": "until", "--since": "since", "--early": "early", "--board": "board"}


def _values(**more) -> dict:
    """What the night's form shows: the next night, its options, the living seats, and the
    choices as given (``chosen``: option → the seats chosen, as the form sends them)."""
    with game() as opened:
        form = night_form(opened, skip_day=_skipping())
        roster = public_roster(game_status(opened).roster)
        board = known_board(opened)
    chosen = {key: request.form.getlist(key) for key in request.form}
    return {
        "night": form.night,
        "name": form.name,
        "skips": form.skips,
        "options": form.options,
        "several": tuple(SEVERAL),
        "ask_at": form.at,
        "living": roster.living,
        "chosen": chosen,
        "board": request.form.get("board") or board or "",
        "signed": settings().board_cookies.exists(),
        **more,
    }


def _form(**more):
    return show("web/night.html.j2", **_values(**more))


def _skipping() -> bool:
    """Whether the page is the night after a day to skip (跳过白天), which the judge
    confirms on the form (``skip_day``) before it is recorded."""
    return request.values.get("skip") == "1"


@pages.get("/night")
def night():
    """The next night's form: each of the set's powers a choice of living seats."""
    return _form()


@pages.post("/night")
def record():
    """The night recorded (every check of ``killmod night`` inside its step); the dawn post,
    the private detail written to the private folder before the commit."""
    templates = settings().templates
    try:
        night_no = _night_number()
        skip_day = request.form.get("skip_day") == "yes"
        if _skipping() and not skip_day:
            raise BadInput("请先勾选确认：跳过这个白天（不投票），直接记录这一夜。", option=SKIP)
        choice = night_choice({key: request.form.getlist(key) for key in request.form})
        with game() as opened:
            outputs = Outputs(settings().private_dir)
            deliver, captured = capturing(
                night_handout(opened, night_no, "bbcode", outputs, templates)
            )
            record_night(
                opened,
                night_no,
                choice,
                at_text=request.form.get("at", "").strip() or None,
                skip_day=skip_day,
                self_aimed_confirmed=request.form.get("self_aimed") == "yes",
                deliver=deliver,
            )
            step = last_step(opened)
    except SelfAimed as refused:  # the judge confirms it on the form, and records again
        return _form(error=refused.shown, self_aimed=True), 422
    except KillmodError as error:
        return _form(**refusal(error, FIELDS)), 422
    with game() as opened:
        thread = game_status(opened).threads.game or ""
    return show(
        "web/step_done.html.j2",
        title=f"{step.title}已记录",
        post=captured.public,
        done="\n".join(captured.notes),
        thread=thread,
        key=remember_post(captured.public, f"{step.title}的公告", step.id),
    )


def _night_number() -> int:
    text = request.form.get("night", "")
    if not text.isdigit():
        raise BadInput("表单里没有要记录的夜晚：请回到“夜晚”页再做。")
    return int(text)


@pages.post("/night/inbox")
def inbox():
    """从站内短信读取 (``night --from-pm``): the night's letters read from the judge's inbox
    and settled into choices, shown with every letter and why it counts or not (仅法官
    可见, and written to the private folder); nothing recorded — the judge checks, changes
    what he must, and records the form as any night."""
    templates = settings().templates
    try:
        night_no = _night_number()
        board = request.form.get("board", "").strip()
        if not board:
            raise BadInput("请给出论坛网址（如游戏帖的网址）。", option="--board")
        with game() as opened:
            roster = game_status(opened).roster
            since, until = inbox_window(
                opened, night_no, request.form.get("since") or None, request.form.get("until")
            )
            now = datetime.now(ZoneInfo(roster.timezone))
            refuse_early(until, now, bool(request.form.get("early")))
            reading = read_night(opened, night_no, board, board_options(), until=until, since=since)
            text = render_private(
                "night.inbox.private.j2", templates, inbox_night_view(reading, roster, {})
            )
        outputs = Outputs(settings().private_dir)
        name = outputs.free_name(f"night{night_no}-inbox")
        handout = outputs.handout("", {name: text}, f"第 {night_no} 夜从站内短信读到的行动")
        handout.write()
    except KillmodError as error:
        return _form(**refusal(error, INBOX_FIELDS)), 422
    read = reading.choices()
    chosen = {
        option: [" ".join(f"{a}={b}" for a, b in value)] if option == "guard" else [str(value)]
        for option, value in read.items()
    }
    unsettled = {d.option: d.why for d in reading.unsettled()}
    values = _values(done="\n".join([*inbox_notes(reading), *handout.notes]))
    values.update(chosen=chosen, unsettled=unsettled, inbox=text, until=f"{until:%Y-%m-%d %H:%M}")
    return show_private("web/private_night.html.j2", **values)
