"""``killmod night``: record a night under the game's rule set and print the dawn (尸体) post.

The options are the night's choices (``NightChoice``); the game's rule set says which it
has and resolves them (``killmod.usecases.night``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from killmod.announce.outputs import Outputs, private_options
from killmod.commands.cli import user_errors
from killmod.commands.clitext import command
from killmod.commands.options import db_option, format_option, templates_option
from killmod.commands.speak import Speaker, board_options, post_after, post_option, speaker
from killmod.core.limits import MAX_ROUND

if TYPE_CHECKING:
    from killmod.game.store import Game
    from killmod.rules.base import NightChoice
    from killmod.usecases.inbox import InboxNight
    from killmod.usecases.night import RecordedNight


@command()
@click.option(
    "--round",
    "round_no",
    type=click.IntRange(min=0, max=MAX_ROUND),
    required=True,
    help="第几夜（1.2、X、2.0 从 1 算起；V4.0 从第零晚 0 算起）",
)
@click.option(
    "--kill",
    "kills",
    type=int,
    multiple=True,
    metavar="座位号",
    help="杀手方杀的座位号（1.2、V4.0 不写：本轮没有杀人；1.2 处罚增加特殊权力时可给两次）",
)
@click.option(
    "--veto",
    "vetoes",
    type=int,
    multiple=True,
    metavar="座位号",
    help="1.2：行使否决权的座位号（检查官全局一次；处罚为好人方增加特殊权力时可多给一次）",
)
@click.option(
    "--check",
    "checks",
    type=int,
    multiple=True,
    metavar="座位号",
    help="警察验的座位号（2.0 毒药局：验到毒药后可再给一次）",
)
@click.option("--butterfly", type=int, metavar="座位号", help="V4.0：花蝴蝶【蝶衣】的目标")
@click.option("--snipe", type=int, metavar="座位号", help="V4.0：狙击手【狙杀】的目标")
@click.option("--inject", type=int, metavar="座位号", help="V4.0：医生【注射】的目标")
@click.option("--silence", type=int, metavar="座位号", help="V4.0：森林老人【沉默】的目标")
@click.option(
    "--pact", type=int, metavar="座位号", help="2.0 毒药：生死状上的匪徒（杀到毒药时与之同死）"
)
@click.option("--possess", type=int, metavar="座位号", help="2.0 鬼匪：附体的目标（全局一次）")
@click.option(
    "--guard",
    "guards",
    multiple=True,
    metavar="守护神=目标",
    help="2.0 守护神：本轮的守护名单，如 8=3（可多次；不写即本轮不守护）",
)
@click.option(
    "--at",
    "at_text",
    metavar="时间",
    help="1.2：公布死亡的时间（默认现在），诈尸时间从此算 24 小时",
)
@click.option(
    "--replace", "replace_record", is_flag=True, help="重新记录已记录过的夜晚（旧记录保留）"
)
@click.option(
    "--skip-day",
    "skip_day",
    is_flag=True,
    help="上一轮白天的投票没有记录时，决定跳过这个白天（和这一夜一起记录，可以 undo）",
)
@format_option(("bbcode", "text", "json"), "输出：论坛代码、纯文本或 JSON")
@click.option(
    "--from-pm",
    "from_pm",
    is_flag=True,
    help="从法官的站内短信读取本夜的行动（需要 --cookies 和 --until；核对确认后才记录）",
)
@click.option(
    "--until",
    "until_text",
    metavar="时间",
    help="--from-pm：本夜行动的截止时间，如 2019-05-13 08:00",
)
@click.option(
    "--since",
    "since_text",
    metavar="时间",
    help="--from-pm：本夜开始的时间（默认：上一轮投票截止）",
)
@click.option("--board", "board_url", metavar="网址", help="--from-pm：论坛网址（默认：上次用的）")
@click.option("--early", is_flag=True, help="--from-pm：截止时间还没到也记录")
@post_option
@db_option
@private_options("--notices")
@templates_option
@board_options()
@user_errors
@speaker
def night(
    round_no: int,
    kills: tuple[int, ...],
    vetoes: tuple[int, ...],
    checks: tuple[int, ...],
    butterfly: int | None,
    snipe: int | None,
    inject: int | None,
    silence: int | None,
    pact: int | None,
    possess: int | None,
    guards: tuple[str, ...],
    at_text: str | None,
    replace_record: bool,
    skip_day: bool,
    fmt: str,
    from_pm: bool,
    until_text: str | None,
    since_text: str | None,
    board_url: str | None,
    early: bool,
    post_url: str | None,
    db_path: Path,
    outputs: Outputs,
    templates: Path | None,
    speaker: Speaker,
) -> None:
    """记录一夜的行动，打印尸体公告。公告只公布规则允许公布的；私下通知（警察的验人结果等）
    和本夜的结算过程写进私密文件夹。--from-pm 从法官的站内短信读取行动，核对确认后才记录。"""

    from killmod.core.errors import BadInput
    from killmod.game.guards import expect_night, refuse_if_over
    from killmod.game.store import Game
    from killmod.rules import rule_set_of
    from killmod.rules.base import NightChoice
    from killmod.usecases.night import check_night_choice, parse_guards

    if post_url and (fmt == "json" or outputs.print_secrets):
        raise BadInput(
            "--post 只发论坛代码或纯文本的公告，不能与 --format json 或 --print-secrets 同用。"
        )
    if not from_pm and (until_text or since_text or board_url or early):
        raise BadInput("--until、--since、--board 和 --early 只与 --from-pm 一起用。")
    choice = NightChoice(
        kill=kills[0] if kills else None,
        extra_kills=kills[1:],
        veto=vetoes,
        check=checks,
        butterfly=butterfly,
        snipe=snipe,
        inject=inject,
        silence=silence,
        pact=pact,
        possess=possess,
        guard=parse_guards(guards),
    )
    with Game.open(db_path) as game:
        rules = rule_set_of(game.roster())
        check_night_choice(rules, choice, round_no, at_text)
        if not replace_record:  # both again inside the step
            refuse_if_over(game)
        expect_night(game, rules, round_no, skip_day=skip_day)
        if from_pm:
            given = {k: v for k, v in choice.as_json().items() if k != "extra_kills"}
            if vetoes:
                given["veto"] = vetoes[0]
            read = _from_inbox(
                game,
                round_no,
                given,
                until_text=until_text,
                since_text=since_text,
                board_url=board_url,
                early=early,
                outputs=outputs,
                templates=templates,
                speaker=speaker,
            )
            if read is None:
                return
            from_letters = NightChoice.from_json(read)
            choice = replace(
                from_letters, extra_kills=choice.extra_kills, veto=choice.veto or from_letters.veto
            )
        _night(
            game,
            round_no,
            choice,
            at_text=at_text,
            replace_record=replace_record,
            skip_day=skip_day,
            fmt=fmt,
            outputs=outputs,
            templates=templates,
            speaker=speaker,
        )
        post_after(game, speaker, post_url, templates)


def _from_inbox(
    game: Game,
    night_no: int,
    given: dict,
    *,
    until_text: str | None,
    since_text: str | None,
    board_url: str | None,
    early: bool,
    outputs: Outputs,
    templates: Path | None,
    speaker: Speaker,
) -> dict | None:
    """The night's choices read from the judge's 站内短信, those given on the command line
    winning; the reading written to a private file for the judge to check; None unless he
    confirms.  Refused while a choice the letters do not settle is not given."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from killmod.announce.render import render_private
    from killmod.announce.views import inbox_night_view
    from killmod.board.inbox import read_night
    from killmod.commands.speak import board_of
    from killmod.core.errors import BadInput
    from killmod.usecases.inbox import OPTION_NAMES, inbox_window, refuse_early

    since, until = inbox_window(game, night_no, since_text, until_text)
    board = board_of(game, board_url, "读站内短信")
    reading = read_night(
        game, night_no, board, speaker.options("读站内短信"), until=until, since=since
    )
    text = render_private(
        "night.inbox.private.j2", templates, inbox_night_view(reading, game.roster(), given)
    )
    name = outputs.free_name(f"night{night_no}-inbox")
    written = outputs.secrets({name: text}, f"第 {night_no} 夜从站内短信读到的行动")
    where = str(written[0]) if written else "上面"
    _inbox_notes(reading)
    missing = [d for d in reading.unsettled() if d.option not in given]
    if missing:
        listed = "；".join(f"{OPTION_NAMES.get(d.option, d.option)}：{d.why}" for d in missing)
        flags = "、".join(f"--{d.option} 座位号" for d in missing)
        raise BadInput(
            f"站内短信定不了{listed}。核对 {where} 后用 {flags} 指定，再运行同一命令。"
            "什么也没有记录。"
        )
    refuse_early(until, datetime.now(ZoneInfo(game.roster().timezone)), early)
    question = f"核对 {where} 后，记录第 {night_no} 夜？"
    shown = f"第 {night_no} 夜的行动已从站内短信读出，写在 {where}。"
    if not speaker.confirm(shown, question, "没有记录"):
        return None
    read = reading.choices()
    if "check" in read:
        read["check"] = [read["check"]]
    return {**read, **given}


def _inbox_notes(reading: InboxNight) -> None:
    """What the judge may read on stderr: how many letters, no one's action."""
    from killmod.announce.handouts import inbox_notes
    from killmod.announce.outputs import note

    for line in inbox_notes(reading):
        note(line)


def _night(
    game: Game,
    night_no: int,
    choice: NightChoice,
    *,
    at_text: str | None,
    replace_record: bool,
    skip_day: bool,
    fmt: str,
    outputs: Outputs,
    templates: Path | None,
    speaker: Speaker,
) -> None:
    """The public dawn post (or its public JSON) on stdout; the police's answers, the
    notices and the night's resolution in a private file — both written before the night
    is committed; the penalties applied are a note for the judge."""
    from killmod.announce.handouts import night_handout
    from killmod.commands.speak import interactive
    from killmod.usecases.night import SelfAimed, record_night

    hand_out = night_handout(game, night_no, fmt, outputs, templates, capture=speaker.capture)

    def record(confirmed: bool) -> RecordedNight:
        return record_night(
            game,
            night_no,
            choice,
            at_text=at_text,
            replace=replace_record,
            skip_day=skip_day,
            self_aimed_confirmed=confirmed,
            deliver=hand_out,
        )

    try:
        record(False)
    except SelfAimed as refused:  # nothing recorded: shown, confirmed, recorded again
        if not (speaker.yes or interactive()):
            raise
        if speaker.confirm(refused.shown, "仍然记录这一夜？", "没有记录"):
            record(True)
