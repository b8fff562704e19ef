"""``killmod tally``: count a day vote from the vote thread."""

from __future__ import annotations

import json
from contextlib import nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from killmod.announce.outputs import PRINT_SECRETS, note, post
from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.fetching import fetch_options
from killmod.commands.options import (
    ambiguous_time_option,
    board_options,
    edits_option,
    templates_option,
    vote_thread_options,
)
from killmod.commands.speak import Speaker, post_after, post_option, speaker
from killmod.commands.speak import board_options as speaking_options

if TYPE_CHECKING:
    from killmod.core.model import TallyResult
    from killmod.fetch.http import FetchOptions
    from killmod.game.delivery import Handout
    from killmod.game.store import Game
    from killmod.usecases.provisional import Provisional

FORMATS = ("bbcode", "text", "json", "audit")


def now() -> datetime:
    """The real clock of a count during the day (tests replace it)."""
    return datetime.now(UTC)


@command()
@vote_thread_options
@click.option("--record", is_flag=True, help="把结果、帖子快照、警告和出局记录进游戏文件")
@click.option(
    "--replace", "replace_record", is_flag=True, help="重新记录已记录过的一轮（旧记录保留）"
)
@click.option(
    "--early",
    is_flag=True,
    help="截止时间还没到也记录（如所有人都已投票）：记录和公告都会注明“提前计票”",
)
@click.option(
    "--phase",
    type=click.Choice(("point", "knife")),
    help="1.0/2.0：指认（point）或动刀（knife）阶段（默认：游戏文件里的下一次投票）",
)
@click.option(
    "--as-of",
    "as_of",
    metavar="楼层|时间|now",
    help="临时票型：截至某楼（25）、某时（21:30）或现在（now）的票型，注明非最终结果，不能记录",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="bbcode",
    show_default=True,
    help="输出：论坛代码、纯文本、JSON 或逐帖审计",
)
@edits_option
@ambiguous_time_option
@click.option(
    "--rulings",
    type=click.Path(path_type=Path),
    help="法官裁定文件（TOML，按帖子编号 [pid.N] 或楼层 [N]）",
)
@click.option(
    PRINT_SECRETS,
    "print_secrets",
    is_flag=True,
    help="危险：把保密的结算细节（哪些帖因夜晚效果不计票，出自谁）也打印到屏幕上",
)
@post_option
@templates_option
@board_options
@speaking_options(cookies=False)
@fetch_options(offline=True)
@user_errors
@speaker
def tally(
    source: str | None,
    deadline: str | None,
    roster_path: Path | None,
    db_path: Path,
    round_no: int | None,
    record: bool,
    replace_record: bool,
    early: bool,
    phase: str | None,
    as_of: str | None,
    fmt: str,
    edits: str,
    ambiguous_time: str,
    rulings: Path | None,
    print_secrets: bool,
    post_url: str | None,
    templates: Path | None,
    forum: str | None,
    profile_path: Path | None,
    fetching: FetchOptions,
    speaker: Speaker,
) -> None:
    """计票：读取投票帖（网址、保存的网页或文件夹；默认游戏文件记下的本轮投票帖），输出公告；
    --post 把公告回复到帖子。截止前（不加 --record、--early）输出截至现在的临时票型，
    注明非最终结果。"""
    from killmod.core.errors import BadInput

    if as_of is not None and (record or early):
        raise BadInput("--as-of 是临时票型（非最终结果），不能记录，也不能和 --early 一起用。")
    if as_of is not None and fmt == "audit":
        raise BadInput("临时票型没有逐帖审计：--as-of 请用 --format bbcode、text 或 json。")

    if post_url and (fmt in ("json", "audit") or print_secrets):
        raise BadInput(
            "--post 只发公告（--format bbcode 或 text），不能与 --format json/audit 或 "
            "--print-secrets 同用。"
        )
    if not roster_path and not Path(db_path).exists() and None in (source, deadline):
        missing = "和".join(
            word
            for word, given in (("投票帖", source), ("--deadline 截止时间", deadline))
            if not given
        )
        raise BadInput(
            f"请给出{missing}：没有游戏文件 {db_path}，读不到记下的投票帖和截止时间"
            "（或用 --roster 给出花名册，或先用 killmod init 建立游戏文件）。"
        )
    if roster_path:  # no game file: the SQLite library is not even imported
        opened = nullcontext(None)
    else:
        from killmod.game.store import Game

        opened = Game.using(db_path)
    shared = {
        "deadline": deadline,
        "roster": roster_path,
        "round_no": round_no,
        "phase": phase,
        "fmt": fmt,
        "print_secrets": print_secrets,
        "edits": edits,
        "ambiguous_time": ambiguous_time,
        "rulings": rulings,
        "templates": templates,
        "forum": forum,
        "profile": profile_path,
        "fetching": fetching,
        "speaker": speaker,
    }
    with opened as game:
        if as_of is not None or (not record and not early and fmt in ("bbcode", "text")):
            _so_far(game, source, as_of=as_of, **shared)
        else:
            _tally(
                game, source, record=record, replace_record=replace_record, early=early, **shared
            )
        if post_url:
            what = None if record else "目前的票数"
            post_after(game, speaker, post_url, templates, what=what, recorded=record)


def _tally(
    game: Game | None,
    source: str,
    *,
    fmt: str,
    print_secrets: bool,
    templates: Path | None,
    speaker: Speaker,
    **options,
) -> None:
    """Count (and record) the vote; a recorded vote's post is printed before the record
    is committed, the notes for the judge once it is."""
    from killmod.usecases.tally import tally as run_tally

    def hand_out(result: TallyResult) -> Handout:
        return tally_handout(
            result, game, fmt, templates, print_secrets=print_secrets, speaker=speaker
        )

    recording = options["record"]
    result = run_tally(source, game=game, deliver=hand_out if recording else None, **options)
    if not recording:
        public, notes = _outputs(result, game, fmt, templates, print_secrets=print_secrets)
        post(speaker.capture(public))
        if notes:
            note(notes)


def tally_handout(
    result: TallyResult,
    game: Game | None,
    fmt: str,
    templates: Path | None,
    *,
    print_secrets: bool = False,
    speaker: Speaker | None = None,
) -> Handout:
    """What a recorded tally hands the judge: the announcement (the game-over post when the
    game ended; kept by ``speaker`` for ``--post``), and the notes for the judge once the
    step is committed."""
    from killmod.commands.notices import hand_substitutes_their_notices
    from killmod.game.delivery import Handout

    public, notes = _outputs(result, game, fmt, templates, print_secrets=print_secrets)
    if speaker is not None:
        public = speaker.capture(public)
    handout = Handout(public=public, notes=[notes] if notes else [])
    if game is not None and result.recorded is not None:
        hand_substitutes_their_notices(game, result.warnings, handout, templates)
    return handout


def _so_far(
    game: Game | None,
    source: str | None,
    *,
    as_of: str | None,
    fmt: str,
    print_secrets: bool,
    templates: Path | None,
    speaker: Speaker,
    **options,
) -> None:
    """The provisional count as of ``as_of``; without one, the count as of now, which once
    the deadline has passed is the final count (printed as ``tally`` prints it)."""
    from killmod.usecases.provisional import NOW, parse_cut
    from killmod.usecases.tally import count_so_far

    counted = count_so_far(source, game=game, as_of=parse_cut(as_of or NOW), now=now(), **options)
    if as_of is None and counted.remaining.total_seconds() <= 0:
        public, notes = _outputs(counted.result, game, fmt, templates, print_secrets=print_secrets)
        post(speaker.capture(public))
        if notes:
            note(notes)
        return
    post(speaker.capture(render_provisional(counted, fmt, templates)))
    judge_notes(counted.result, templates, print_secrets=print_secrets and fmt != "json")
    if as_of is None:
        note(
            "截止时间还没到：上面是截至现在的临时票型（非最终结果），没有记录。"
            "截止后再计票；要现在就按最终结果的格式出公告，加 --early。"
        )


def render_provisional(counted: Provisional, fmt: str, templates: Path | None) -> str:
    """The provisional count's post (``bbcode``/``text``) or its JSON document."""
    from killmod.rules import rule_set

    if fmt == "json":
        from killmod.announce.views import provisional_json

        return json.dumps(provisional_json(counted), ensure_ascii=False, indent=1) + "\n"
    from killmod.announce.render import render_public
    from killmod.announce.views import provisional_view

    view = provisional_view(counted, rule_set(counted.result.rules))
    return render_public(f"provisional.{fmt}.j2", templates, view)


def _outputs(
    result: TallyResult,
    game: Game | None,
    fmt: str,
    templates: Path | None,
    *,
    print_secrets: bool,
) -> tuple[str, str]:
    """The public post (the announcement or the JSON, the game-over post when the game
    ended; with ``--print-secrets`` the judge's secrets after it) and the notes for the
    judge (stderr): times to the minute, slips of the pen, posts a hidden effect left
    uncounted."""
    from killmod.rules import rule_set

    rules = rule_set(result.rules)
    winner = result.recorded.winner if result.recorded else None
    # Each output imports what it needs only: no Jinja2 for the JSON document.
    if fmt == "json":
        from killmod.announce.tallydoc import public_tally_json
        from killmod.game.tallyjson import tally_json

        document = tally_json(result, rules) if print_secrets else public_tally_json(result, rules)
        if winner:  # stdout stays one JSON document: the game's end is a key of it
            document["game_over"] = winner.as_json()
        public = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    else:
        from killmod.announce.render import render_game_over, render_tally

        public = render_tally(result, fmt, rules, templates)
        if winner:
            public += render_game_over(winner, game.roster(), templates)
    if print_secrets and fmt != "json":
        secrets = _secrets(result, templates)
        public += "\n" + secrets if secrets.strip() else ""
    return public, _notes(result, templates)


def judge_notes(result: TallyResult, templates: Path | None, *, print_secrets: bool) -> None:
    """The tally's notes for the judge on stderr (times to the minute, slips of the pen,
    how many posts a hidden effect left uncounted); with ``--print-secrets`` whose posts
    those are, on stdout after the post."""
    notes = _notes(result, templates)
    if notes:
        note(notes)
    if print_secrets:
        secrets = _secrets(result, templates)
        if secrets.strip():
            post("\n" + secrets)


def _notes(result: TallyResult, templates: Path | None) -> str:
    from killmod.announce.views import tally_notes_view

    view = tally_notes_view(result)
    # The bundled notes say nothing when there is nothing to note: no template to render.
    if templates is None and not (view.values["flags"] or view.values["hidden"]):
        return ""
    from killmod.announce.render import render_public

    notes = render_public("tally.notes.text.j2", templates, view)
    return notes.rstrip("\n") if notes.strip() else ""


def _secrets(result: TallyResult, templates: Path | None) -> str:
    from killmod.announce.render import render_private
    from killmod.announce.views import tally_secrets_view

    return render_private("tally.private.j2", templates, tally_secrets_view(result))
