"""Sending each player's private notice to his own uid by 站内短信, once each.

A notice is a secret for one player: it goes only to the uid the game file gives the
seat's holder, and only after the board has said, for every recipient, that this uid is
that player (the 发消息 dialog names the uid's member; a name that differs refuses the
whole sending before the first message).  Then, one by one, paced to the board's flood
control (at least ``interval`` seconds after killmod's last post or message):

1. the newest ``pmid`` in the conversation with the uid is noted (its last page; 0 when
   they never wrote): UCenter gives every message of the board the next number of one
   counter (``pm_indexes``' insert id, ``uc_client/model/pm.php``, ``sendpm()``), so the
   one sent next has a greater pmid, whatever the board's clock says;
2. ``sending`` recorded with it (``killmod.game.outbox``), the 发消息 form posted;
3. the board's answer recorded: the new ``pmid``; held (待审核, in the board's words: the
   player has not got it, and it is never sent again — X3.4 itself holds no message:
   ``source/include/spacecp/spacecp_pm.php``, ``op=send``, has no moderation, and its
   ``censor()`` refuses a word that would hold a post, ``word_banned``, when ``modasban``
   is set); or refused, in the board's words.

A timeout, or an answer that is no answer, sends killmod to the conversation: a message of
the judge's (marked 您) newer than the noted pmid with the notice's text is the one sent —
our clock and the board's are never compared.  A newer one of his that killmod did not
record and that reads otherwise may be it, changed by the board (a smiley made an image,
a word replaced): then it is not known whether the notice went out, it is not sent again,
and the judge is given the pmid to look at.  A notice already sent is not sent again; one
sent with no answer, or held, is looked for in the conversation first.  So a sending
stopped half-way (flood control twice, a closed connection, Ctrl-C) is resumed by running
the same command again: it goes on with the next unsent notice.  The notices' texts are
never written into the game file, only their keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from killmod.board.once import Attempt, comparable, flood_seconds, is_flood, submit_once
from killmod.board.session import Board, BoardOptions, BoardRefused, Session
from killmod.core.errors import BadInput
from killmod.core.redact import redact_url
from killmod.game import outbox
from killmod.game.store import Game
from scrapers import discuz_x_posting as dzx
from scrapers.base import ScrapeError


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
    """A notice gone to the board: its pmid (None when the board gave none), whether it
    had been sent before, and what is not settled yet — held by the board (待审核: its
    words), or a message of the judge's that may be it (``unsure``: its pmid).  Neither is
    sent again."""

    notice: Notice
    pmid: int | None
    already: bool = False
    held: str | None = None
    unsure: int | None = None

    @property
    def received(self) -> bool:
        """Whether the board shows it delivered."""
        return self.held is None and self.unsure is None

    @property
    def said(self) -> str:
        """What happened to it, in the judge's words (stderr; never the notice's text)."""
        who = f"{self.notice.seat}号 {self.notice.name}"
        if self.unsure is not None:
            return (
                f"不知道是否发出：{who}——聊天记录里法官发给他的一条（pmid {self.unsure}）"
                "在这一条之后、内容却对不上（论坛改了其中的字？），没有再发。请看一眼与他的"
                "聊天记录；那条不是这份通知时，请把私密文件夹里的通知手动发给他。"
            )
        if self.held is not None:
            still = "仍在" if self.already else ""
            return (
                f"{still}待审核：{who}——论坛收下了，但要审核后才送到（论坛的回答："
                f"「{self.held}」），他还没有收到；没有再发，请版主审核。"
            )
        return f"{'之前已发' if self.already else '已发'}：{who}（pmid {self.pmid}）"


@dataclass(frozen=True)
class Plan:
    """What is about to be sent, shown to the judge before: to whom, by whom."""

    judge: Session
    waiting: tuple[Notice, ...]
    sent: tuple[Sent, ...]
    interval: float

    @property
    def said(self) -> str:
        """The sentence the judge confirms (the command's and the judge's page's alike):
        as whom, to whom — each uid checked on the board —, how paced; never a text."""
        whom = "、".join(f"{n.seat}号 {n.name}（uid {n.uid}）" for n in self.waiting)
        minutes = len(self.waiting) * self.interval / 60
        before = f"已经发过 {len(self.sent)} 条，不再发。" if self.sent else ""
        return (
            f"将以 {self.judge.name}（uid {self.judge.uid}）的身份"
            f"发 {len(self.waiting)} 条站内短信，"
            f"每人只发自己的一条，论坛已核对每个 uid 的名字：{whom}。"
            f"每条间隔至少 {self.interval:g} 秒（约 {minutes:.1f} 分钟）。{before}"
        )


def notices_for(
    game: Game, texts: dict[int, str], what: str, *, step: int | None = None
) -> list[Notice]:
    """The notices of ``texts`` (by seat) to their seats' holders, for the recorded step
    ``step`` (default: the last one)."""
    roster = game.roster()
    if step is None:
        last = game.last_step()
        step = last.id if last else None
    return [
        Notice(seat, roster.seat(seat).name, roster.seat(seat).uid, text, step, what)
        for seat, text in sorted(texts.items())
    ]


def sending_said(sent: Sequence[Sent], total: int) -> list[str]:
    """What the judge is told once a sending is over (after each message's own line): all
    received, or which are not settled yet and why (those not told as they went)."""
    again = sum(1 for each in sent if each.already and each.received)
    fresh = sum(1 for each in sent if not each.already and each.received)
    tail = f"（另有 {again} 条之前已发过）" if again else ""
    unsettled = [each for each in sent if not each.received]
    if not unsettled:
        return [f"站内短信发完：这次发出 {fresh} 条，共 {total} 位玩家都已收到{tail}。"]
    lines = [each.said for each in unsettled if each.already]  # not shown as it went
    whom = "、".join(f"{each.notice.seat}号 {each.notice.name}" for each in unsettled)
    lines.append(
        f"站内短信：这次发出 {fresh} 条{tail}；{len(unsettled)} 位还没有确定收到（见上）：{whom}。"
    )
    return lines


def refuse_unsure(sent: Sequence[Sent]) -> None:
    """Refused (exit 1) when a message may have gone out or not: the judge looks first."""
    maybe = [each for each in sent if each.unsure is not None]
    if maybe:
        raise BoardRefused(
            f"不知道 {'、'.join(f'{each.notice.seat}号' for each in maybe)}的站内短信是否发出"
            "（见上）：没有再发。请看一眼与他们的聊天记录。"
        )


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
    """Send ``notices`` (those not sent yet) by 站内短信; see the module.  Returns what
    became of every notice; an empty list when the judge did not confirm."""
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
            earlier = outbox.record_of(game, _key(notice))
            if earlier is None or earlier.state == "failed":
                waiting.append(notice)
            elif earlier.state == "done":
                sent.append(Sent(notice, earlier.data["pmid"], already=True))
            else:  # sending (no answer) or held: is it in the conversation now?
                found = _looked_for(game, _Talk(board, notice, tz), earlier, clock)
                if found is None:
                    waiting.append(notice)
                else:
                    sent.append(found)
        dialogs = {notice.seat: _checked_dialog(board, notice) for notice in waiting}
        if waiting and not confirm(Plan(session, tuple(waiting), tuple(sent), options.interval)):
            return []
        for notice in waiting:
            outbox.wait_turn(game, options.interval, options.sleep, clock())
            formhash = dialogs[notice.seat].formhash or session.formhash
            talk = _Talk(board, notice, tz)
            sent.append(_send(game, talk, formhash, inbox.charset, clock))
            progress(sent[-1])
    return sent


def _looked_for(
    game: Game, talk: _Talk, earlier: outbox.Record, clock: Callable[[], datetime]
) -> Sent | None:
    """A notice sent before with no answer, or held: found in the conversation (recorded
    done), still held, or maybe there — None when it is not there (send it again)."""
    notice = talk.notice
    try:
        pmid = talk.find(earlier.data.get("after_pmid"), _recorded_pmids(game))
    except _MaybeIt as maybe:
        return Sent(notice, None, already=True, unsure=maybe.pmid)
    if pmid is not None:
        _record(game, notice, "done", {"pmid": pmid}, clock())
        return Sent(notice, pmid, already=True)
    if earlier.state == "held":
        return Sent(notice, earlier.data.get("pmid"), already=True, held=earlier.data["said"])
    return None


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


def _recorded_pmids(game: Game) -> set[int]:
    """The pmids killmod recorded as its own messages (held ones too, when given one)."""
    pmids = {r.data.get("pmid") for r in outbox.records(game).values() if r.what == "pm"}
    return {pmid for pmid in pmids if isinstance(pmid, int)}


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


class _MaybeIt(Exception):
    """A message of the judge's, newer than the noted pmid and not recorded by killmod,
    that does not read as the notice: it may be the notice, changed by the board."""

    def __init__(self, pmid: int) -> None:
        super().__init__(pmid)
        self.pmid = pmid


class _Talk:
    """The conversation with a notice's uid, as the judge sees it (``subop=view``)."""

    def __init__(self, board: Board, notice: Notice, tz: ZoneInfo) -> None:
        self.board = board
        self.notice = notice
        self.tz = tz

    def newest_pmid(self) -> int:
        """The pmid of the newest message in the conversation now (0: none yet), read from
        its last page, where the board lists the newest ten."""
        page = self._page(None, "这一条没有发出")
        return max((message.pmid for message in page.messages), default=0)

    def find(self, after: int | None, known: set[int]) -> int | None:
        """The pmid of the judge's message with the notice's text among the messages newer
        than the pmid ``after`` (the newest before it was sent), if there is one: read from
        the last page back, as far as messages newer than ``after`` go.  The board's clock
        and ours are never compared: the judge's mark (您), the text and the board's own
        numbering decide (the same text to the same uid is the same notice: its key).  A
        message of the judge's newer than ``after`` that reads otherwise and is none of the
        ``known`` pmids (sent by killmod) raises ``_MaybeIt``.
        (A record made before ``after`` was kept has none: the last two pages are read,
        for the text only.)"""
        wanted = comparable(self.notice.text)
        unread = "不知道这一条是否发出（再运行同一命令时，会先在聊天记录里找它）"
        page = self._page(None, unread)
        unsure: list[int] = []
        for read in range(1, page.pages + 1):
            for message in sorted(page.messages, key=lambda m: m.pmid, reverse=True):
                if not message.mine or (after is not None and message.pmid <= after):
                    continue
                if comparable(message.text) == wanted:
                    return message.pmid
                if after is not None and message.pmid not in known:
                    unsure.append(message.pmid)
            older = not page.messages or min(m.pmid for m in page.messages) <= (after or 0)
            if older or page.page <= 1 or (after is None and read == 2):
                break
            page = self._page(page.page - 1, unread)
        if unsure:
            raise _MaybeIt(max(unsure))
        return None

    def _page(self, number: int | None, unread: str) -> dzx.PmPage:
        """A page of the conversation (None: its last); refused, saying ``unread`` of
        the notice, when it is not one."""
        notice = self.notice
        url = dzx.conversation_url(self.board.root, notice.uid, number)
        try:
            return dzx.conversation(self.board.read(url).html, self.tz)
        except ScrapeError as error:
            raise BoardRefused(
                f"读不到与 {notice.seat}号 {notice.name}（uid {notice.uid}）的聊天记录："
                f"{error.message}（{redact_url(url)}）。{unread}；之前的已经发出并记下，"
                "再运行同一命令会从这一条接着发。"
            ) from None


def _send(
    game: Game, talk: _Talk, formhash: str, charset: str, clock: Callable[[], datetime]
) -> Sent:
    """Send one notice once (``killmod.board.once``): the conversation's newest pmid noted
    and ``sending`` recorded before, the board's answer after."""
    board, notice = talk.board, talk.notice
    after = talk.newest_pmid()
    data = {
        "uid": notice.uid,
        "for_step": notice.step,
        "board": redact_url(board.root),
        "after_pmid": after,
    }
    _record(game, notice, "sending", data, clock())
    url = dzx.pm_send_url(board.root, notice.uid)
    fields = dzx.pm_fields(formhash, notice.uid, notice.text)
    referer = dzx.conversation_url(board.root, notice.uid)
    held: list[str] = []

    def hold(answer: dzx.Answer) -> None:
        pmid = answer.values.get("pmid", "")
        data = {"said": answer.message, **({"pmid": int(pmid)} if pmid.isdigit() else {})}
        _record(game, notice, "held", data, clock())
        held.append(answer.message)

    attempt = Attempt(
        submit=lambda: board.submit(url, fields, charset, referer),
        find=lambda: talk.find(after, _recorded_pmids(game)),
        done=lambda pmid: _record(game, notice, "done", {"pmid": pmid}, clock()),
        failed=lambda said: _record(game, notice, "failed", {"said": said}, clock()),
        refusal=lambda answer: _refusal(answer, notice, board.options),
        unknown=(
            f"给 {notice.seat}号 {notice.name} 的站内短信没有得到论坛的回答，聊天记录里这之后"
            "也没有它：不知道是否发出。请看一眼与他的聊天记录；再运行同一命令时，killmod 会先"
            "在聊天记录里找它，找不到才再发"
        ),
        id_key="pmid",
        held=hold,
    )
    try:
        pmid = submit_once(attempt, board.options)
    except _MaybeIt as maybe:
        return Sent(notice, None, unsure=maybe.pmid)
    return Sent(notice, pmid, held=held[0] if held else None)


def _record(game: Game, notice: Notice, state: outbox.State, data: dict, at: datetime) -> None:
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
    banned = answer.values.get("wordbanned")
    if banned:  # X3.4's censor(): word_banned, the words in the answer's values
        return (
            f"{to}被论坛拒绝：「{said}」（论坛的敏感词：{banned}）。这份通知没有发出："
            f"请改用不含这些词的模板（--templates），或请管理员放行。{resume}"
        )
    return f"{to}被论坛拒绝：「{said}」。{resume}"
