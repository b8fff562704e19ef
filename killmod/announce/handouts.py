"""What each recorded step hands the judge — its public post, its private files, its notes —
built from the step's result for ``Step.deliver``.  The commands and the judge's page
(``killmod.web``) build it here alike, so the page shows what the command prints, to the
byte."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from killmod.announce.notices import notice_renderer
from killmod.announce.outputs import Outputs, step_file
from killmod.announce.views import PublicView

if TYPE_CHECKING:
    from killmod.core.model import GameOver, Roster
    from killmod.game.delivery import Handout
    from killmod.game.store import Event, Game
    from killmod.usecases.history import Chronicle
    from killmod.usecases.night import RecordedNight
    from killmod.usecases.open import Opening
    from killmod.usecases.undo import Undone


def deal_handout(
    game: Game, outputs: Outputs, templates: Path | None, dealt: dict[int, str]
) -> Callable[[Roster], Handout]:
    """``deal``'s hand-out: each player's notice as a new private file (their names
    checked free now, before anything is recorded); ``dealt`` receives the texts by seat."""
    from killmod.usecases.deal import notice_stem, notices

    names = {
        player.seat: step_file(game, notice_stem(player), "deal", lambda event: True)
        for player in game.roster().players
    }
    outputs.refuse_taken(names.values())

    def hand_out(roster: Roster) -> Handout:
        texts = notices(roster, notice_renderer(templates))
        dealt.update(texts)
        handout = outputs.handout(
            "", {names[seat]: text for seat, text in texts.items()}, "站内短信（每位玩家一份）"
        )
        handout.notes.append(f"已发身份：{len(texts)} 名玩家。")
        return handout

    return hand_out


def open_handout(
    templates: Path | None, fmt: str, capture: Callable[[str], str] | None = None
) -> Callable[[Opening], Handout]:
    """``open``'s hand-out: the vote thread's first post (handed to ``capture``, for
    ``--post``) and the note of what was recorded."""
    from zoneinfo import ZoneInfo

    from killmod.announce.render import render_public
    from killmod.announce.views import open_view
    from killmod.core.times import format_local
    from killmod.game.delivery import Handout
    from killmod.rules import rule_set

    def hand_out(opening: Opening) -> Handout:
        view = open_view(opening, rule_set(opening.roster.rules))
        public = render_public(f"open.{fmt}.j2", templates, view)
        shown = format_local(opening.deadline, ZoneInfo(opening.roster.timezone))
        recorded = f"已记录：第 {opening.round} 轮投票截止 {shown}"
        if opening.thread:
            recorded += "，投票帖已记下"
        return Handout(public=capture(public) if capture else public, notes=[recorded + "。"])

    return hand_out


def night_handout(
    game: Game,
    night_no: int,
    fmt: str,
    outputs: Outputs,
    templates: Path | None,
    capture: Callable[[str], str] | None = None,
) -> Callable[[RecordedNight], Handout]:
    """``night``'s hand-out: the dawn post (``bbcode``/``text``, the game-over post after
    it when the night ended the game; handed to ``capture``) or its public JSON; the
    police's answers, the notices and the night's resolution as a private file (its name
    checked free now); the penalties applied as a note (never the violator's camp)."""
    import json
    from dataclasses import replace

    from killmod.announce.render import render_private, render_public
    from killmod.announce.views import dawn_view, night_secrets_view, record_view
    from killmod.game.delivery import Handout
    from killmod.rules import rule_set_of

    name = step_file(game, f"night{night_no}-private", "night", _night_number(night_no))
    outputs.refuse_taken([name])

    def hand_out(done: RecordedNight) -> Handout:
        roster = game.roster()
        private = render_private("night.private.j2", templates, night_secrets_view(done, roster))
        if fmt == "json" and outputs.print_secrets:
            document = done.timed(done.play.document)
            handout = Handout(public=json.dumps(document, ensure_ascii=False, indent=1) + "\n")
        else:
            if fmt == "json":
                document = done.public_document(rule_set_of(roster))
                public = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
            else:
                public = render_public(f"dawn.{fmt}.j2", templates, dawn_view(done, roster))
                public += _game_over(game, done.winner, templates)
                public = capture(public) if capture else public
            handout = outputs.handout(public, {name: private}, "私下通知和本夜的结算过程")
        applied = [replace(penalty, camp=None) for penalty in done.penalties]
        if applied:
            view = record_view(applied=applied)
            handout.notes.insert(0, render_public("night.penalties.text.j2", templates, view))
        return handout

    return hand_out


def _night_number(night_no: int) -> Callable[[Event], bool]:
    return lambda event: event.data.get("night") == night_no


def _game_over(game: Game, winner: GameOver | None, templates: Path | None) -> str:
    """The game-over post (揭秘) after the step that ended the game, or nothing."""
    from killmod.announce.render import render_game_over

    return "\n" + render_game_over(winner, game.roster(), templates) if winner else ""


def undo_handout(templates: Path | None) -> Callable[[Undone], Handout]:
    """``undo``'s hand-out: what was voided, then the game as ``status`` shows it."""
    from killmod.announce.render import render_public
    from killmod.announce.views import status_view, undo_view
    from killmod.game.delivery import Handout

    def report(done: Undone) -> Handout:
        text = render_public("undo.text.j2", templates, undo_view(done))
        state = render_public("status.text.j2", templates, status_view(done.status))
        return Handout(public=text + "\n" + state)

    return report


def story_view(story: Chronicle) -> PublicView:
    """``history``'s public view of the game's story, under its rule set."""
    from killmod.announce.views import history_view
    from killmod.rules import rule_set

    return history_view(story, rule_set(story.rules))
