"""帖子: the game thread and each round's vote thread recorded in the game file (``killmod
thread``), so that the pages read them and 发到论坛 replies to them without the judge
pasting an address again."""

from __future__ import annotations

from flask import Blueprint, request

from killmod.announce.handouts import thread_note
from killmod.core.errors import BadInput, KillmodError
from killmod.usecases.status import game_status
from killmod.usecases.threads import ADDRESS, known_threads, record_thread
from killmod.web.pages import game, refusal, show

pages = Blueprint("threads", __name__)
# The command's arguments, as its refusals name them → the form's fields.
FIELDS = {ADDRESS: "url", "--round": "round"}


def _page(form: dict | None = None, **more):
    """The threads known and the form (as filled in, unless ``form`` is given)."""
    with game() as opened:
        known = known_threads(opened)
        upcoming = game_status(opened).upcoming
    return show(
        "web/threads.html.j2",
        game_thread=known.game or "",
        votes=sorted(known.votes.items()),
        next_round=upcoming[1],
        form=request.form.to_dict() if form is None else form,
        **more,
    )


@pages.get("/threads")
def threads():
    """The threads the game file remembers, and the form that records one."""
    return _page()


@pages.post("/threads")
def record():
    """One thread recorded (``thread game URL`` / ``thread vote URL --round N``): a step of
    its own, refused with nothing recorded when the file knows it already or in another
    part."""
    kind = request.form.get("kind", "")
    url = request.form.get("url", "").strip()
    round_text = request.form.get("round", "").strip()
    try:
        if not url:
            raise BadInput("请给出帖子的网址。", option=ADDRESS)
        if kind == "vote" and round_text and not round_text.isdigit():
            raise BadInput(f"轮次要是数字，现在是「{round_text}」。", option="--round")
        round_no = int(round_text) if kind == "vote" and round_text else None
        with game() as opened:
            recorded = record_thread(opened, url, kind, round_no)
    except KillmodError as error:
        return _page(**refusal(error, FIELDS)), 422
    return _page(done=thread_note(recorded), form={})
