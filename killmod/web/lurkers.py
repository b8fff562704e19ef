"""潜水: posts per living player in the game thread over a round (``lurkers``); the reminders
to the lurkers written to the private folder, then the warnings recorded (``--record``)."""

from __future__ import annotations

from flask import Blueprint, request

from killmod.announce.lurkerposts import (
    COUNT_WHAT,
    lurkers_handout,
    lurkers_post,
    prods,
    prods_note,
)
from killmod.announce.outputs import Outputs
from killmod.core.errors import BadInput, KillmodError
from killmod.usecases.gamefile import last_step
from killmod.usecases.lurkers import lurkers as count_lurkers
from killmod.usecases.reading import page_fetching
from killmod.usecases.status import game_status
from killmod.web.board import remember_post
from killmod.web.pages import capturing, game, refusal, settings, show

pages = Blueprint("lurkers", __name__)
FORMAT = "bbcode"
SOURCE = "游戏帖"  # the command's argument
FIELDS = {SOURCE: "source", "--round": "round", "--from": "from", "--to": "to", "--min": "min"}


def _values() -> dict[str, str]:
    """The form as filled in, the game thread and the round the game file suggests."""
    with game() as opened:
        state = game_status(opened)
    values = {key: value.strip() for key, value in request.values.items()}
    values.setdefault("source", state.threads.game or "")
    values.setdefault("round", str(state.round) if state.round else "")
    return values


def _form(values: dict[str, str], **more):
    return show("web/lurkers.html.j2", form=values, **more)


@pages.get("/lurkers")
def lurkers():
    """潜水: the game thread and the round to count."""
    return _form(_values())


def _count(values: dict[str, str], opened, *, record: bool, deliver=None):
    """The round's count, as ``killmod lurkers`` makes it from the same options."""
    if not values.get("source"):
        raise BadInput("请给出游戏帖的网址。", option=SOURCE)
    round_text, minimum = values.get("round", ""), values.get("min", "")
    for text, option in ((round_text, "--round"), (minimum, "--min")):
        if text and not text.isdigit():
            raise BadInput(f"要写数字，现在是「{text}」。", option=option)
    cookies = settings().board_cookies
    return count_lurkers(
        opened,
        values["source"],
        round_no=int(round_text) if round_text else None,
        from_text=values.get("from") or None,
        to_text=values.get("to") or None,
        minimum=int(minimum) if minimum else None,
        record=record,
        fetching=page_fetching(cookies if cookies.exists() else None, settings().cache),
        deliver=deliver,
    )


@pages.post("/lurkers/count")
def count():
    """统计 (``lurkers`` without ``--record``): the post, and a reminder to each lurker who
    can still be warned, written to the private folder; nothing recorded."""
    values = _values()
    templates = settings().templates
    try:
        with game() as opened:
            report = _count(values, opened, record=False)
            messages = prods(opened, report, Outputs(settings().private_dir), templates)
            text = lurkers_post(opened, report, FORMAT, templates)
            handout = Outputs(settings().private_dir).handout(
                "", messages, "潜水提醒短信（每位潜水玩家一份）"
            )
            handout.write()
    except KillmodError as error:
        return _form(values, **refusal(error, FIELDS)), 422
    notes = [*handout.notes, prods_note(report)] if messages else []
    return _form(
        values,
        counted=text,
        round_no=report.round,
        lurking=len(report.lurkers),
        done="\n".join(notes),
        key=remember_post(text, COUNT_WHAT, None),  # as lurkers --post without --record
        thread=_thread(values),
    )


def _thread(values: dict[str, str]) -> str:
    """The game thread counted, to reply to (a saved page is no thread to post in)."""
    return values["source"] if "://" in values["source"] else ""


@pages.post("/lurkers/record")
def record():
    """记录潜水警告 (``lurkers --record``): one step, the warnings and what they bring about
    (a substitute, 淹死); the post with them."""
    values = _values()
    try:
        with game() as opened:
            deliver, captured = capturing(lurkers_handout(opened, FORMAT, settings().templates))
            _count(values, opened, record=True, deliver=deliver)
            step = last_step(opened)
    except KillmodError as error:
        return _form(values, **refusal(error, FIELDS)), 422
    return show(
        "web/step_done.html.j2",
        title=step.title,
        post=captured.public,
        done="\n".join(captured.notes) or step.title,
        thread=_thread(values),
        key=remember_post(captured.public, f"{step.title}的公告", step.id),
    )
