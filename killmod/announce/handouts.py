"""What each recorded step hands the judge — its public post, its private files, its notes —
built from the step's result for ``Step.deliver``.  The commands and the judge's page
(``killmod.web``) build it here alike, so the page shows what the command prints, to the
byte."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from killmod.announce.audience import PublicView
from killmod.announce.notices import notice_renderer
from killmod.announce.outputs import Outputs, step_file

if TYPE_CHECKING:
    from killmod.core.model import GameOver, Roster
    from killmod.game.delivery import Handout
    from killmod.game.penalties import Penalty
    from killmod.game.store import Event, Game
    from killmod.usecases.alias import Alias
    from killmod.usecases.history import Chronicle
    from killmod.usecases.inbox import InboxNight
    from killmod.usecases.lottery import Lottery, Reveal
    from killmod.usecases.lurkers import Leave
    from killmod.usecases.night import RecordedNight
    from killmod.usecases.open import Opening
    from killmod.usecases.out import JudgeDecision
    from killmod.usecases.sub import Substitution
    from killmod.usecases.threads import RecordedThread
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


def inbox_notes(reading: InboxNight) -> list[str]:
    """What the judge is told of a night read from his inbox: how many letters, taken and
    not, and those in the deadline's minute — never anyone's action."""
    taken = sum(1 for read in reading.reads if read.verdict == "taken")
    others = len(reading.reads) - taken
    notes = [
        f"第 {reading.night} 夜：读到 {len(reading.reads)} 条站内短信，"
        f"采用 {taken} 条，不计 {others} 条。"
    ]
    minute = sum(1 for read in reading.reads if read.flag == "time_ambiguous")
    if minute:
        notes.append(
            f"请法官留意：{minute} 条站内短信与截止同一分钟（论坛只显示到分钟，可能在截止之后），"
            "已照计，见私密文件。"
        )
    return notes


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


def lottery_handout(
    game: Game,
    round_no: int,
    outputs: Outputs,
    templates: Path | None,
    capture: Callable[[str], str] | None = None,
) -> Callable[[Lottery], Handout]:
    """``lottery make``'s hand-out: the commitment post for the vote thread (handed to
    ``capture``) and the lots for the 执行斑竹 as a private file (its name checked free
    now, before anything is recorded)."""

    def same_round(event: Event) -> bool:
        return event.round == round_no

    name = step_file(game, f"round{round_no}-lottery-private", "lottery", same_round)
    outputs.refuse_taken([name])

    def hand_out(made: Lottery) -> Handout:
        public = lottery_post(game, made, templates)
        public = capture(public) if capture else public
        private = lots_message(game, made, templates)
        return outputs.handout(public, {name: private}, "签位（给执行斑竹或第三人的站内留言）")

    return hand_out


def lottery_post(game: Game, made: Lottery, templates: Path | None) -> str:
    """The lottery's public post: the tied players and the commitment (no lot)."""
    from killmod.announce.render import render_public
    from killmod.announce.views import lottery_view
    from killmod.usecases.lottery import PREFIX

    view = lottery_view(made, game.roster(), PREFIX)
    return render_public("lottery.public.bbcode.j2", templates, view)


def lots_message(game: Game, made: Lottery, templates: Path | None) -> str:
    """The lots for the 执行斑竹 or the third person (secret: lot → seat, the salt)."""
    from killmod.announce.render import render_private
    from killmod.announce.views import lots_view

    return render_private("lottery.private.j2", templates, lots_view(made, game.roster()))


def reveal_handout(
    game: Game, templates: Path | None, capture: Callable[[str], str] | None = None
) -> Callable[[Reveal], Handout]:
    """``lottery reveal``'s hand-out: who is out and his camp, the lots and the salt made
    public, and the game-over post when the draw ended the game."""
    from killmod.announce.render import render_public
    from killmod.announce.views import reveal_view
    from killmod.game.delivery import Handout

    def hand_out(drawn: Reveal) -> Handout:
        view = reveal_view(drawn, game.roster())
        public = render_public("lottery.reveal.bbcode.j2", templates, view)
        public += _game_over(game, drawn.winner, templates)
        return Handout(public=capture(public) if capture else public)

    return hand_out


def sub_handout(
    game: Game,
    seat: int,
    name: str,
    fmt: str,
    outputs: Outputs,
    templates: Path | None,
    capture: Callable[[str], str] | None = None,
) -> Callable[[Substitution], Handout]:
    """``sub``'s hand-out: the 换替补 post (handed to ``capture``), the substitute's notice
    (the seat's role) as a private file (its name checked free now), and the notes."""
    from killmod.announce.render import render_public
    from killmod.announce.views import substitution_view
    from killmod.core.model import Player
    from killmod.usecases.deal import notice_stem, notices

    file_name = step_file(
        game,
        notice_stem(Player(seat, name)),
        "substitution",
        lambda event: event.seat == seat and event.data.get("new") == name,
    )
    outputs.refuse_taken([file_name])

    def hand_out(done: Substitution) -> Handout:
        public = render_public(f"sub.{fmt}.j2", templates, substitution_view(done))
        player = done.roster.seat(seat)
        texts = (
            {file_name: notices(done.roster, notice_renderer(templates))[seat]}
            if player.role
            else {}
        )
        public = capture(public) if capture else public
        handout = outputs.handout(public, texts, f"替补 {name} 的站内短信（{seat}号的身份）")
        handout.notes.append(f"{seat}号：{name} 接替 {done.old}，身份不变。")
        if not player.role:
            handout.notes.append("还没有发身份：发身份（killmod deal）时替补会收到这个座位的短信。")
        return handout

    return hand_out


def out_handout(
    game: Game, fmt: str, templates: Path | None, capture: Callable[[str], str] | None = None
) -> Callable[[JudgeDecision], Handout]:
    """``out``'s hand-out: the judge's decision in the rule text's words (what the set
    shows), and the game-over post when it ended the game."""
    from killmod.announce.render import render_public
    from killmod.announce.views import decision_view
    from killmod.game.delivery import Handout

    def hand_out(done: JudgeDecision) -> Handout:
        view = decision_view(done, game.roster())
        public = render_public(f"out.{fmt}.j2", templates, view)
        public += _game_over(game, done.winner, templates)
        return Handout(public=capture(public) if capture else public)

    return hand_out


def leave_note(recorded: Leave, templates: Path | None) -> str:
    """What ``leave`` tells the judge it recorded."""
    from killmod.announce.render import render_public
    from killmod.announce.views import record_view

    return render_public("leave.text.j2", templates, record_view(leave=recorded))


def penalty_note(recorded: Penalty, templates: Path | None) -> str:
    """What ``penalty`` tells the judge it recorded: the night it falls on, never the
    violator's camp."""
    from dataclasses import replace

    from killmod.announce.render import render_public
    from killmod.announce.views import record_view

    shown = replace(recorded, camp=None)
    return render_public("penalty.text.j2", templates, record_view(penalty=shown))


def thread_note(recorded: RecordedThread) -> str:
    """What ``thread`` tells the judge it recorded."""
    return f"已记下{recorded.where}：{recorded.address}"


def alias_note(done: Alias) -> str:
    """What ``alias`` tells the judge it recorded."""
    return f"已记下：「{done.alias}」是 {done.seat}号 {done.name} 的别名（killmod undo 可撤销）。"
