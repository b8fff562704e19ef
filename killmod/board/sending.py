"""Sending each player's private notice to his own uid by 站内短信, once each.

A notice is a secret for one player: it goes only to the uid the game file gives the
seat's holder, and only after the board has said, for every recipient, that this uid is
that player (the 发消息 dialog names the uid's member; a name that differs refuses the
whole sending before the first message).  Then, one by one, paced to the board's flood
control (at least ``interval`` seconds after killmod's last post or message): ``sending``
recorded, the form posted, the new ``pmid`` recorded (``killmod.game.outbox``).  A notice
already sent is not sent again; one sent with no answer is looked for in the conversation
first.  So a sending stopped half-way (flood control twice, a closed connection, Ctrl-C)
is resumed by running the same command again: it goes on with the next unsent notice.
The notices' texts are never written into the game file, only their keys.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from killmod.board.once import Attempt, flood_seconds, is_flood, submit_once
from killmod.board.session import Board, BoardOptions, BoardRefused, Session
from killmod.core.errors import BadInput
from killmod.core.redact import redact_url
from killmod.game import outbox
from killmod.game.store import Game
from scrapers import discuz_x_posting as dzx
from scrapers.base import ScrapeError

CLOCK_SLACK = timedelta(minutes=5)
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Notice:
    """One player's notice: to whom (seat, name, uid), the text, and the recorded step it
    belongs to (the deal, a substitution)."""

    seat: int
    name: str
    uid: int | None
    text: str
    step: int | None
    what: str


@dataclass(frozen=True)
class Sent:
    """A notice on the board: its pmid, and whether it had been sent before."""

    notice: Notice
    pmid: int
    already: bool = False


@dataclass(frozen=True)
class Plan:
    """What is about to be sent, shown to the judge before: to whom, by whom."""

    judge: Session
    waiting: tuple[Notice, ...]
    sent: tuple[Sent, ...]
    interval: float


def send_notices(
    game: Game,
    board_url: str,
    notices: Sequence[Notice],
    options: BoardOptions,
    *,
    confirm: Callable[[Plan], bool],
    progress: Callable[[Sent], None] = lambda sent: None,
    now: Callable[[], datetime] | None = None,
) -> list[Sent]:
    """Send ``notices`` (those not sent yet) by 站内短信; see the module.  Returns every
    notice's pmid; an empty list when the judge did not confirm."""
    _check_recipients(notices)
    roster = game.roster()
    tz = ZoneInfo(roster.timezone)
    clock = now or (lambda: datetime.now(tz).replace(microsecond=0))
    with Board(board_url, options) as board:
        inbox = board.read(dzx.inbox_url(board.root))
        session = board.judge(inbox.html, roster, inbox.url)
        sent: list[Sent] = []
        waiting: list[Notice] = []
        for notice in notices:
            key = _key(notice)
            earlier = outbox.record_of(game, key)
            if earlier is not None and earlier.state == "done":
                sent.append(Sent(notice, earlier.data["pmid"], already=True))
                continue
            if earlier is not None and earlier.state == "sending":
                found = _find(board, notice, earlier.at, tz)
                if found is not None:
                    _record(game, notice, "done", {"pmid": found}, clock())
                    sent.append(Sent(notice, found, already=True))
                    continue
            waiting.append(notice)
        dialogs = {notice.seat: _checked_dialog(board, notice) for notice in waiting}
        if waiting and not confirm(Plan(session, tuple(waiting), tuple(sent), options.interval)):
            return []
        for notice in waiting:
            outbox.wait_turn(game, options.interval, options.sleep, clock())
            formhash = dialogs[notice.seat].formhash or session.formhash
            sent.append(_send(game, board, notice, formhash, inbox.charset, clock, tz))
            progress(sent[-1])
    return sent


def _check_recipients(notices: Sequence[Notice]) -> None:
    """Every notice has its player's uid, and no uid gets two players' notices."""
    missing = [f"{n.seat}号 {n.name}" for n in notices if n.uid is None]
    if missing:
        raise BadInput(
            f"{'、'.join(missing)}没有论坛 uid，不能发站内短信：站内短信只按 uid 发，"
            "不按名字猜。请在名单里写 uid（替补用 killmod sub … --uid）。什么也没有发出。"
        )
    seen: dict[int, Notice] = {}
    for notice in notices:
        other = seen.setdefault(notice.uid, notice)
        if other.seat != notice.seat:
            raise BadInput(
                f"{other.seat}号 {other.name} 和 {notice.seat}号 {notice.name} 的 uid 都是 "
                f"{notice.uid}：一个帐号不能收两个座位的身份。请改正名单。什么也没有发出。"
            )


def _key(notice: Notice) -> str:
    return outbox.key_of(f"uid:{notice.uid}", notice.text)


def _checked_dialog(board: Board, notice: Notice) -> dzx.PmDialog:
    """The 发消息 dialog to the notice's uid; refused unless the board names the uid's
    member as the notice's player (before anything is sent)."""
    url = dzx.pm_dialog_url(board.root, notice.uid)
    try:
        dialog = dzx.pm_dialog(board.read(url).html)
    except ScrapeError as error:
        raise BoardRefused(
            f"读不到给 {notice.seat}号 {notice.name}（uid {notice.uid}）发消息的对话框："
            f"{error.message}。什么也没有发出。"
        ) from None
    if dialog.uid != notice.uid or dialog.name != notice.name:
        raise BadInput(
            f"论坛上 uid {notice.uid} 是「{dialog.name}」，不是 {notice.seat}号「{notice.name}」："
            "身份只发给名单上的人，名单里的 uid 或名字不对？请改正后再发。什么也没有发出。"
        )
    return dialog


def _send(
    game: Game,
    board: Board,
    notice: Notice,
    formhash: str,
    charset: str,
    clock: Callable[[], datetime],
    tz: ZoneInfo,
) -> Sent:
    """Send one notice once (``killmod.board.once``), recorded before and after."""
    sent_at = clock()
    data = {"uid": notice.uid, "for_step": notice.step, "board": redact_url(board.root)}
    _record(game, notice, "sending", data, sent_at)
    url = dzx.pm_send_url(board.root, notice.uid)
    fields = dzx.pm_fields(formhash, notice.uid, notice.text)
    referer = dzx.conversation_url(board.root, notice.uid)
    attempt = Attempt(
        submit=lambda: board.submit(url, fields, charset, referer),
        find=lambda: _find(board, notice, sent_at, tz),
        done=lambda pmid: _record(game, notice, "done", {"pmid": pmid}, clock()),
        failed=lambda said: _record(game, notice, "failed", {"said": said}, clock()),
        refusal=lambda answer: _refusal(answer, notice, board.options),
        unknown=(
            f"给 {notice.seat}号 {notice.name} 的站内短信没有得到论坛的回答，聊天记录里也没有："
            "不知道是否发出。请看一眼与他的聊天记录；再运行同一命令时，killmod 会先在"
            "聊天记录里找它，找不到才再发"
        ),
        id_key="pmid",
    )
    return Sent(notice, submit_once(attempt, board.options))


def _find(board: Board, notice: Notice, since: datetime, tz: ZoneInfo) -> int | None:
    """The pmid of the judge's message with the notice's text in the conversation with
    the notice's uid (its last page), if it is there."""
    url = dzx.conversation_url(board.root, notice.uid)
    try:
        page = dzx.conversation(board.read(url).html, tz)
    except ScrapeError as error:
        raise BoardRefused(f"读不到与 uid {notice.uid} 的聊天记录：{error.message}") from None
    wanted = _SPACE.sub("", notice.text)
    earliest = since.replace(second=0) - CLOCK_SLACK
    for message in sorted(page.messages, key=lambda m: m.pmid, reverse=True):
        if message.mine and message.at >= earliest and _SPACE.sub("", message.text) == wanted:
            return message.pmid
    return None


def _record(game: Game, notice: Notice, state: str, data: dict, at: datetime) -> None:
    title = f"站内短信：{notice.seat}号 {notice.name}（{notice.what}）"
    key = _key(notice)
    if state == "sending":
        outbox.begin(game, "pm", key, title, data, seat=notice.seat, now=at)
    else:
        outbox.finish(game, "pm", key, state, title, data, seat=notice.seat, now=at)


def _refusal(answer: dzx.Answer, notice: Notice, options: BoardOptions) -> str:
    """The board's refusal of one notice, and that the ones before it are sent."""
    said = answer.message
    to = f"给 {notice.seat}号 {notice.name} 的站内短信"
    resume = "之前的已经发出并记下；再运行同一命令会从这一条接着发。"
    if answer.kind == "system_error":
        return (
            f"{to}被拒绝：{said}。通常是表单校验码（formhash）不对：cookies 的登录已失效。"
            f"请重新导出 cookies.txt。{resume}"
        )
    if is_flood(answer):
        wait = flood_seconds(answer, options) + 1
        return (
            f"{to}被论坛的灌水预防拒绝：「{said}」；等了 {wait:g} 秒再试仍被拒绝"
            f"（可用 --interval 加大间隔）。{resume}"
        )
    return f"{to}被论坛拒绝：「{said}」。{resume}"
