"""夜晚: the rule set's night as a form of living seats (``killmod night``), the dawn post."""

from __future__ import annotations

from flask import Blueprint, request

from killmod.announce.handouts import night_handout
from killmod.announce.outputs import Outputs
from killmod.announce.views import public_roster
from killmod.core.errors import KillmodError
from killmod.usecases.gamefile import last_step
from killmod.usecases.night import SelfAimed, record_night
from killmod.usecases.nightform import SEVERAL, night_choice, night_form
from killmod.usecases.status import game_status
from killmod.web.board import remember_post
from killmod.web.pages import capturing, game, settings, show

pages = Blueprint("night", __name__)


def _form(**more):
    with game() as opened:
        form = night_form(opened)
        roster = public_roster(game_status(opened).roster)
    return show(
        "web/night.html.j2",
        night=form.night,
        name=form.name,
        options=form.options,
        several=tuple(SEVERAL),
        ask_at=form.at,
        living=roster.living,
        chosen={key: request.form.getlist(key) for key in request.form},
        **more,
    )


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
        night_no = int(request.form["night"])
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
                self_aimed_confirmed=request.form.get("self_aimed") == "yes",
                deliver=deliver,
            )
            step = last_step(opened)
    except SelfAimed as refused:  # the judge confirms it on the form, and records again
        return _form(error=refused.shown, self_aimed=True), 422
    except KillmodError as error:
        return _form(error=error.message), 422
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
