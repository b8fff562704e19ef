"""``killmod tally``: count a day vote from the vote thread."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from killmod.announce.outputs import PRINT_SECRETS, note, post
from killmod.announce.tallypost import (
    render_provisional,
    tally_handout,
    tally_notes,
    tally_outputs,
    tally_secrets,
)
from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.fetching import fetch_options
from killmod.commands.options import (
    board_options,
    count_options,
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
@count_options("输出：论坛代码、纯文本、JSON 或逐帖审计")
@click.option(
    PRINT_SECRETS,
    "print_secrets",
    is_flag=True,
    help="危险：把保密的结算细节（哪些帖因夜晚效果不计票，出自谁）也打印到屏幕上",
)
@post_option
@click.option(
    "--evidence-url",
    metavar="网址",
    help="记录时：计票证据包公布在哪里（写进公告）；默认 --post 时附在公告帖里，否则写向法官索取",
)
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
    evidence_url: str | None,
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
    if evidence_url and not record:
        raise BadInput("--evidence-url 写进记录的公告里：要和 --record 一起用。")
    # A recorded vote's evidence bundle goes with the announcement it posts, unless the
    # judge publishes it elsewhere (the announcement says where).
    attach = bool(post_url and record and not evidence_url)
    evidence_at = evidence_url
    with opened as game:
        if attach:  # the announcement will say 本帖附件: the board must take the bundle
            from killmod.board.attaching import ATTACHED, check_attachable

            check_attachable(game, post_url, speaker.options("--post 发帖"), round_no or 1)
            evidence_at = ATTACHED
        if as_of is not None or (not record and not early and fmt in ("bbcode", "text")):
            _so_far(game, source, as_of=as_of, **shared)
            result = None
        else:
            result = _tally(
                game,
                source,
                record=record,
                replace_record=replace_record,
                early=early,
                evidence_at=evidence_at,
                **shared,
            )
        if post_url:
            what = None if record else "目前的票数"
            bundle = None
            if attach and result:
                from killmod.board.attaching import evidence_attachment

                bundle = evidence_attachment(game, result.round)
            post_after(
                game, speaker, post_url, templates, what=what, recorded=record, attachment=bundle
            )


def _tally(
    game: Game | None,
    source: str,
    *,
    fmt: str,
    print_secrets: bool,
    templates: Path | None,
    speaker: Speaker,
    **options,
) -> TallyResult:
    """Count (and record) the vote; a recorded vote's post is printed before the record
    is committed, the notes for the judge once it is."""
    from killmod.usecases.tally import tally as run_tally

    def hand_out(result: TallyResult) -> Handout:
        return tally_handout(
            result, game, fmt, templates, print_secrets=print_secrets, capture=speaker.capture
        )

    recording = options["record"]
    result = run_tally(source, game=game, deliver=hand_out if recording else None, **options)
    if not recording:
        public, notes = tally_outputs(result, game, fmt, templates, print_secrets=print_secrets)
        post(speaker.capture(public))
        if notes:
            note(notes)
    return result


def recount(
    game: Game,
    source: str | None,
    *,
    fmt: str,
    templates: Path | None,
    fetching: FetchOptions,
    **options,
) -> None:
    """The vote counted again as ``killmod tally`` counts it without ``--record`` (the count
    so far before the deadline, the final count after it), after a step that changes how
    ballots read (``killmod alias``); ``options`` are the tally's (deadline, round, edits,
    ambiguous time, rulings, forum, profile)."""
    from killmod.commands.speak import DEFAULT_INTERVAL

    speaker = Speaker(fetching.cookies, fetching.timeout, DEFAULT_INTERVAL, yes=False)
    shared = {
        "roster": None,
        "phase": None,
        "fmt": fmt,
        "print_secrets": False,
        "templates": templates,
        "fetching": fetching,
        "speaker": speaker,
        **options,
    }
    if fmt in ("bbcode", "text"):
        _so_far(game, source, as_of=None, **shared)
    else:
        _tally(game, source, record=False, replace_record=False, early=False, **shared)


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
        public, notes = tally_outputs(
            counted.result, game, fmt, templates, print_secrets=print_secrets
        )
        post(speaker.capture(public))
        if notes:
            note(notes)
        return
    post(speaker.capture(render_provisional(counted, fmt, templates)))
    judge_notes(
        counted.result,
        templates,
        print_secrets=print_secrets and fmt != "json",
        game_file=game is not None,
    )
    if as_of is None:
        note(
            "截止时间还没到：上面是截至现在的临时票型（非最终结果），没有记录。"
            "截止后再计票；要现在就按最终结果的格式出公告，加 --early。"
        )


def judge_notes(
    result: TallyResult, templates: Path | None, *, print_secrets: bool, game_file: bool = True
) -> None:
    """The tally's notes for the judge on stderr (times to the minute, slips of the pen,
    loose readings, names nobody has, how many posts a hidden effect left uncounted); with
    ``--print-secrets`` whose posts those are, on stdout after the post."""
    notes = tally_notes(result, templates, game_file=game_file)
    if notes:
        note(notes)
    if print_secrets:
        secrets = tally_secrets(result, templates)
        if secrets.strip():
            post("\n" + secrets)
