"""今天: where the game stands and the next steps as buttons; and the page marked 仅法官可见."""

from __future__ import annotations

from flask import Blueprint, redirect, url_for

from killmod.announce.handouts import lots_message
from killmod.announce.notices import notice_renderer
from killmod.announce.render import render_game_over, render_private, render_public
from killmod.announce.views import public_roster, status_secrets_view, status_view
from killmod.core.errors import KillmodError
from killmod.usecases.deal import current_notices
from killmod.usecases.evidence import bundle_rounds
from killmod.usecases.gamefile import game_exists
from killmod.usecases.lottery import standing_lottery
from killmod.usecases.nightform import NightForm, night_form
from killmod.usecases.out import judge_outs
from killmod.usecases.penalty import penalty_kinds
from killmod.usecases.status import Status, game_status
from killmod.web.pages import game, settings, show, show_private

pages = Blueprint("today", __name__)


def next_steps(state: Status, lots_made: bool, night: str) -> list[tuple[str, str]]:
    """The buttons of what ``status`` suggests next: (words, the page's address); ``night``
    the next night as the rule set names it (``第 2 轮的夜晚``, V4.0 ``第 1 夜``), as status
    does."""
    kind, number = state.upcoming
    if state.winner is not None:
        return [("揭秘帖", url_for("today.page") + "#reveal")]
    if not state.dealt:
        return [("发身份", url_for("game_setup.deal"))]
    if state.pending_lottery and lots_made:
        return [(f"第 {state.pending_lottery} 轮平票：公布抽签结果", url_for("lottery.lottery"))]
    if state.pending_lottery:
        return [
            (f"第 {state.pending_lottery} 轮平票：抽签", url_for("lottery.lottery")),
            (f"第 {state.pending_lottery} 轮重新投票", url_for("day.vote")),
        ]
    if kind == "night":
        return [(night, url_for("night.night"))]
    return [(f"第 {number} 轮白天：计票", url_for("day.vote"))]


def skip_step(form: NightForm) -> tuple[str, str] | None:
    """The button that skips the day to come and records the night after it (``night
    --skip-day``), confirmed on the night's page; None when no day can be skipped."""
    if form.skips is None:
        return None
    words = f"跳过第 {form.skips} 轮白天，记录{form.name}……"
    return words, url_for("night.night", skip=1)


def other_steps(outs: bool, penalties: bool) -> list[tuple[str, str]]:
    """The steps a day may need besides what comes next (the rule set's own only)."""
    steps = [("潜水统计", url_for("lurkers.lurkers")), ("替补", url_for("seats.sub"))]
    if outs:
        steps.append(("法官判出局", url_for("seats.out")))
    steps.append(("请假", url_for("seats.leave")))
    steps.append(("别名", url_for("seats.alias")))
    if penalties:
        steps.append(("犯规处罚", url_for("seats.penalty")))
    steps.append(("游戏帖和投票帖", url_for("threads.threads")))
    return steps


@pages.get("/")
def page():
    """今天: the status as ``killmod status`` prints it, and the next steps."""
    if not game_exists(settings().db):
        return redirect(url_for("game_setup.new_game"))
    with game() as opened:
        state = game_status(opened)
        pending = state.pending_lottery
        lots_made = bool(pending) and standing_lottery(opened, pending) is not None
        others = other_steps(bool(judge_outs(opened)), bool(penalty_kinds(opened)))
        night = night_form(opened).name
        skipping = night_form(opened, skip_day=True)
        bundles = bundle_rounds(opened)
    templates = settings().templates
    status_text = render_public("status.text.j2", templates, status_view(state))
    reveal = render_game_over(state.winner, state.roster, templates) if state.winner else ""
    return show(
        "web/today.html.j2",
        status_text=status_text,
        steps=next_steps(state, lots_made, night),
        skip=skip_step(skipping),
        others=others if state.dealt and state.winner is None else [],
        roster=public_roster(state.roster),
        reveal=reveal,
        over=state.winner is not None,
        bundles=bundles,
    )


@pages.get("/private")
def private():
    """仅法官可见: each living player's current notice (his role) and the hidden night
    states — what the commands write to the private folder, shown on this page only."""
    with game() as opened:
        state = game_status(opened)
        try:
            notices = current_notices(opened, (), notice_renderer(settings().templates))
        except KillmodError as error:  # not dealt yet
            notices, why = {}, error.message
        else:
            why = ""
        pending = state.pending_lottery
        made = standing_lottery(opened, pending) if pending else None
        lots = lots_message(opened, made, settings().templates) if made else ""
    hidden = render_private("status.private.j2", settings().templates, status_secrets_view(state))
    return show_private(
        "web/private.html.j2",
        notices={seat: text for seat, text in sorted(notices.items())},
        why=why,
        hidden=hidden,
        lots=lots,
        lots_round=pending,
        folder=str(settings().private_dir),
    )
