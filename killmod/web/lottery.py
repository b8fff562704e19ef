"""抽签: the tie's lots made (``lottery make``: the commitment post, the lots to the private
folder and the 仅法官可见 page), then the drawn lot revealed (``lottery reveal``)."""

from __future__ import annotations

from flask import Blueprint, request

from killmod.announce.handouts import lottery_handout, lottery_post, reveal_handout
from killmod.announce.outputs import Outputs
from killmod.core.errors import BadInput, KillmodError
from killmod.usecases.gamefile import last_step
from killmod.usecases.lottery import make_lottery, reveal_lottery, standing_lottery
from killmod.usecases.status import game_status
from killmod.web.board import remember_post
from killmod.web.pages import capturing, game, refusal, settings, show

pages = Blueprint("lottery", __name__)
FIELDS = {"--lot": "lot"}


def _page(**more):
    """The pending tie's lottery: lots to make, or the drawn lot to reveal."""
    with game() as opened:
        state = game_status(opened)
        round_no = state.pending_lottery
        made = standing_lottery(opened, round_no) if round_no else None
        post = lottery_post(opened, made, settings().templates) if made else ""
        thread = state.threads.vote(round_no) if round_no else None
    return show(
        "web/lottery.html.j2",
        round_no=round_no,
        made=made is not None,
        lots=len(made.mapping) if made else 0,
        commitment_post=post,
        thread=thread or "",
        form=request.form.to_dict(),
        **more,
    )


@pages.get("/lottery")
def lottery():
    """抽签: what the pending tie waits for."""
    return _page()


def _round() -> int:
    """The round the form was shown for (a second tab acts on that tie or on none)."""
    text = request.form.get("round", "")
    if not text.isdigit():
        raise BadInput("表单里没有平票的轮次：请回到“抽签”页再做。")
    return int(text)


def _done(title: str, public: str, notes: list[str], step, thread: str):
    return show(
        "web/step_done.html.j2",
        title=title,
        post=public,
        done="\n".join(notes) or step.title,
        thread=thread,
        key=remember_post(public, f"{step.title}的公告", step.id),
    )


@pages.post("/lottery/make")
def make():
    """做签 (``lottery make``): the lots drawn and recorded once per tie; the lots written to
    the private folder before the commit."""
    templates = settings().templates
    try:
        round_no = _round()
        with game() as opened:
            outputs = Outputs(settings().private_dir)
            deliver, captured = capturing(lottery_handout(opened, round_no, outputs, templates))
            make_lottery(opened, round_no, deliver=deliver)
            step = last_step(opened)
            thread = game_status(opened).threads.vote(round_no) or ""
    except KillmodError as error:
        return _page(**refusal(error, FIELDS)), 422
    notes = [*captured.notes, "签位也在“仅法官可见”页上：发给执行斑竹（或第三人），不要贴到论坛。"]
    return _done(f"第 {round_no} 轮平票的签", captured.public, notes, step, thread)


@pages.post("/lottery/reveal")
def reveal():
    """公布结果 (``lottery reveal``): the drawn lot's player out, the lots and the salt made
    public; the game's end when it came."""
    templates = settings().templates
    try:
        round_no = _round()
        lot = request.form.get("lot", "").strip()
        if not lot.isdigit():
            raise BadInput(f"签号要是数字（第四人抽出的签号），现在是「{lot}」。", option="--lot")
        with game() as opened:
            deliver, captured = capturing(reveal_handout(opened, templates))
            reveal_lottery(opened, round_no, int(lot), deliver=deliver)
            step = last_step(opened)
            thread = game_status(opened).threads.vote(round_no) or ""
    except KillmodError as error:
        return _page(**refusal(error, FIELDS)), 422
    return _done(step.title, captured.public, captured.notes, step, thread)
