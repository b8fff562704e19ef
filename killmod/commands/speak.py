"""The options of the commands that speak on the board, and the judge's confirmation.

``--post URL`` (with ``--cookies`` and ``--yes``) replies to a thread with the public post
the command printed, once its step is recorded; ``--send`` sends the notices by 站内短信;
``night --from-pm`` reads the inbox.  Nothing goes out unless the judge confirms: ``--yes``,
or typing ``yes`` when killmod runs on a terminal; without either, killmod shows what
would go out and where, and sends nothing.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from killmod.board.attaching import Attachment
    from killmod.board.posting import Announcement
    from killmod.board.session import BoardOptions
    from killmod.game.store import Game

DEFAULT_INTERVAL = 16.0  # seconds: Discuz X3's flood control is 15 s by default


def board_options(*, cookies: bool = True) -> Callable:
    """``--cookies``, ``--yes`` and ``--interval`` (``cookies``: also ``--cookies`` and
    ``--timeout``, for a command that has no fetching options of its own)."""
    options = [
        click.option(
            "--yes", is_flag=True, help="不再询问，直接发出（默认只显示要发什么、发到哪里）"
        ),
        click.option(
            "--interval",
            type=click.FloatRange(min=0),
            default=DEFAULT_INTERVAL,
            show_default=True,
            help="两次发帖或站内短信之间至少间隔的秒数（论坛的灌水预防）",
        ),
    ]
    if cookies:
        options += [
            click.option(
                "--cookies",
                type=click.Path(path_type=Path),
                help="法官登录论坛的 cookies.txt（Netscape 格式，浏览器扩展导出）",
            ),
            click.option(
                "--timeout",
                type=click.FloatRange(min=0.1),
                default=20.0,
                show_default=True,
                help="等论坛回应的秒数",
            ),
        ]

    def decorate(command: Callable) -> Callable:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


post_option = click.option(
    "--post",
    "post_url",
    metavar="帖子网址",
    help="记录后把公告回复到这个帖子（需要 --cookies；确认后才发出）",
)


@dataclass
class Speaker:
    """How this command may speak on the board: the judge's cookies, the pacing, whether
    he confirmed already, and the public post it printed (to be posted)."""

    cookies: Path | None
    timeout: float
    interval: float
    yes: bool
    printed: list[str] = field(default_factory=list)

    def options(self, what: str) -> BoardOptions:
        """The board options; refused without ``--cookies``."""
        from killmod.board.session import BoardOptions
        from killmod.core.errors import BadInput
        from killmod.fetch.http import load_cookies

        if self.cookies is None:
            raise BadInput(
                f"{what}要以法官的身份登录论坛：请用 --cookies 给出浏览器导出的 cookies.txt，"
                "或在 killmod serve 的“登录论坛”页登录后给出私密文件夹里的 board-cookies.txt"
                "（命令不要、也不保存密码）。"
            )
        load_cookies(self.cookies)  # a file that is no cookies.txt: refused now
        return BoardOptions(self.cookies, timeout=self.timeout, interval=self.interval)

    def capture(self, text: str) -> str:
        """Keep the public post a step printed (to post it once the step is recorded)."""
        self.printed.append(text)
        return text

    def confirm(
        self,
        shown: str,
        question: str,
        undone: str = "什么也没有发出",
        later: str = "确认无误后加 --yes 再运行",
    ) -> bool:
        """``shown`` on stderr, then the judge's yes: ``--yes``, or typed on a terminal;
        without either, ``undone`` says what did not happen and ``later`` how to do it."""
        click.echo(shown, err=True)
        if self.yes:
            return True
        if interactive():
            answer = click.prompt(
                f"{question}输入 yes 确认", default="", show_default=False, err=True
            )
            if answer.strip().lower() == "yes":
                return True
            click.echo(f"已取消，{undone}。", err=True)
            return False
        click.echo(f"{undone}：{later}。", err=True)
        return False


def interactive() -> bool:
    """Whether the judge is at a terminal, to type his confirmation."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def speaker(command: Callable) -> Callable:
    """Hand the command a ``Speaker`` from ``--yes``, ``--interval`` (and ``--cookies``,
    ``--timeout`` when it has its own fetching options, given as ``fetching``)."""

    @functools.wraps(command)
    def with_speaker(*args, yes, interval, **kwargs):
        fetching = kwargs.get("fetching")
        if fetching is not None:
            cookies, timeout = fetching.cookies, fetching.timeout
        else:
            cookies, timeout = kwargs.pop("cookies"), kwargs.pop("timeout")
        speaking = Speaker(cookies, timeout, interval, yes)
        if kwargs.get("post_url"):
            if kwargs.get("roster_path"):
                from killmod.core.errors import BadInput

                raise BadInput("--post 要把发过的帖记在游戏文件里：用 --db，不用 --roster。")
            # refused before anything is recorded
            _ready_to_post(kwargs["post_url"], speaking.options("--post 发帖"), kwargs)
        if kwargs.get("send"):
            speaking.options("--send 发站内短信")
        if kwargs.get("from_pm"):
            speaking.options("--from-pm 读站内短信")
        return command(*args, speaker=speaking, **kwargs)

    return with_speaker


def _ready_to_post(url: str, options: BoardOptions, kwargs: dict) -> None:
    """What ``--post`` needs, checked before the command records its step: the thread's
    address, the judge's cookies for that board, a judge's uid in the game file."""
    from killmod.board.session import refuse_unready
    from killmod.game.store import Game

    db_path = kwargs.get("db_path")
    if db_path is None or not Path(db_path).exists():
        return  # the command itself refuses a missing game file
    with Game.open(Path(db_path)) as game:
        refuse_unready(url, options, game.roster())


def post_after(
    game: Game,
    speaker: Speaker,
    url: str | None,
    templates: Path | None,
    *,
    what: str | None = None,
    recorded: bool = True,
    attachment: Attachment | None = None,
) -> None:
    """Post what the command printed to the thread ``url``, after its step is recorded
    (``recorded``: the post belongs to the step; ``what`` defaults to the step's title),
    with ``attachment`` (a vote's evidence bundle) where given."""
    if not url or not speaker.printed:
        return
    from killmod.board.posting import Announcement
    from killmod.core.errors import KillmodError

    step = game.last_step() if recorded else None
    label = what or (f"{step.title}的公告" if step else "公告")
    announcement = Announcement(
        "".join(speaker.printed), label, step.id if step else None, attachment
    )
    try:
        post_text(game, speaker, url, announcement, templates)
    except KillmodError as error:
        if recorded:
            error.message += (
                "（本步已经记录，公告已打印在上面：保存后可用 killmod post --thread URL 文件 "
                "--yes 再发。）"
            )
        raise


def post_text(
    game: Game,
    speaker: Speaker,
    url: str,
    announcement: Announcement,
    templates: Path | None,
    *,
    again: bool = False,
) -> None:
    """Reply to ``url`` with ``announcement`` once (``again``: once more), after the judge
    confirms."""
    from killmod.board.posting import Preview, described, post_announcement

    def confirm(preview: Preview) -> bool:
        shown = described(preview, f"上面打印的{announcement.what}")
        return speaker.confirm(shown, "发到论坛？")

    posted = post_announcement(
        game,
        url,
        announcement,
        speaker.options("发帖"),
        confirm=confirm,
        again=again,
        templates=templates,
    )
    if posted.pid is None and posted.held is None:
        return  # not confirmed: nothing went out
    click.echo(posted.said, err=True)


send_options = (
    click.option("--send", is_flag=True, help="把站内短信直接发给每位玩家的 uid（需要 --cookies）"),
    click.option(
        "--board", "board_url", metavar="帖子网址", help="--send：论坛网址（默认：上次用的）"
    ),
)


def with_send_options(command: Callable) -> Callable:
    """``--send`` and ``--board``, then the board options and the ``Speaker``."""
    for option in reversed(send_options):
        command = option(command)
    return command


def board_of(game: Game, board_url: str | None, what: str = "发站内短信") -> str:
    """The board to speak on: ``--board``, else the one killmod last used for this game."""
    from killmod.core.errors import BadInput
    from killmod.game.outbox import remembered_board

    board = board_url or remembered_board(game)
    if board is None:
        raise BadInput(f"要{what}，请用 --board 给出论坛网址（如游戏帖的网址）。")
    return board


def send_after(
    game: Game,
    speaker: Speaker,
    board: str,
    texts: dict[int, str],
    what: str,
    *,
    step: int | None = None,
    later: str | None = None,
) -> None:
    """Send the notices ``texts`` (by seat) by 站内短信 on ``board`` to their seats' holders,
    once each, after the judge confirms (``later``: how to send them when he does not), as
    ``what`` of the recorded step ``step`` (default: the last one); what was sent is named
    on stderr (never what it says)."""
    from killmod.board.sending import (
        Plan,
        Sent,
        notices_for,
        refuse_unsure,
        send_notices,
        sending_said,
    )

    notices = notices_for(game, texts, what, step=step)

    def confirm(plan: Plan) -> bool:
        if later:
            return speaker.confirm(plan.said, "发出？", later=later)
        return speaker.confirm(plan.said, "发出？")

    def progress(sent: Sent) -> None:
        click.echo(sent.said, err=True)

    sent = send_notices(
        game, board, notices, speaker.options("发站内短信"), confirm=confirm, progress=progress
    )
    if not sent:
        return
    for line in sending_said(sent, len(notices)):
        click.echo(line, err=True)
    refuse_unsure(sent)
