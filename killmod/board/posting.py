"""Replying to a thread with a public post, as the judge, exactly once.

The post is a command's public post (stdout), never a secret: a text that carries a
private template's fixed words (a notice, the lots, the judge's night, what
``--print-secrets`` prints) or a living player's role, however it is written
(``killmod.board.secrecy``), is refused before anything is read from the board.  Then:

1. the thread page is read as the judge (``killmod.board.session``): logged in, a judge of the
   game by uid, the session's ``formhash`` and the quick-reply form; a thread titled
   with another rule set than the game's is refused;
2. the post's key (``killmod.game.outbox``: the thread and the text) is looked up: posted
   already → nothing is posted again (the pid is given); sent before with no answer, or
   held for moderation → the thread's newest posts are looked at first, and a post of the
   judge with this text there is taken as the one sent;
3. the judge is shown where it goes, and confirms (``--yes``, or typing yes);
4. a file to attach (a vote's evidence bundle) is uploaded, where the board's uploader
   takes it (``killmod.board.attaching``; else refused before anything is posted);
5. the pid of the thread's newest post is noted and ``sending`` recorded, the reply form is
   posted, and the board's answer recorded: the new pid; held for moderation (待审核, the
   board's words: nobody sees it yet, and it is never posted again); or, refused, why in
   Chinese.  Flood control (两次发表间隔少于 N 秒) is waited out once, N seconds as the board
   says; a timeout, or an answer that is no answer, sends the judge to look for his post
   among the posts newer than the noted pid — by his uid and the text, never by comparing
   the board's clock with ours — before posting once more.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import scrapers.discuz_x as discuz_x
from killmod.board.attaching import Attachment, upload_file, uploader_for
from killmod.board.once import Attempt, comparable, flood_seconds, is_flood, submit_once
from killmod.board.secrecy import refuse_private
from killmod.board.session import Board, BoardOptions, BoardRefused, Session
from killmod.core.errors import TallyFailed
from killmod.core.redact import redact_url
from killmod.fetch.pages import parse_page
from killmod.game import outbox
from killmod.game.guards import refuse_other_rules
from killmod.game.store import Game
from scrapers import discuz_x_posting as dzx
from scrapers.discuz_x_upload import attachment_fields

_FID_VAR = re.compile(r"fid = parseInt\('(\d+)'\)")


@dataclass(frozen=True)
class Announcement:
    """A public post to reply with: its text, what it is (for the record and the
    messages), the recorded step it belongs to and a file to attach (``attachment``:
    uploaded just before the reply, ``killmod.board.attaching``)."""

    text: str
    what: str
    step: int | None = None
    attachment: Attachment | None = None


@dataclass(frozen=True)
class Preview:
    """Where a post would go, shown to the judge before it is posted."""

    url: str
    tid: int
    title: str | None
    judge: Session
    characters: int
    attachment: Attachment | None = None


@dataclass(frozen=True)
class Posted:
    """A post on the board: its pid (None: not posted, or held without one), whether it was
    there already, and — when the board holds it for moderation (待审核) — the board's words
    (nobody sees the post until a moderator passes it)."""

    tid: int
    pid: int | None
    already: bool = False
    held: str | None = None

    @property
    def said(self) -> str:
        """What happened, in the judge's words (stderr, the judge's page)."""
        pid = f"（pid {self.pid}）" if self.pid else ""
        if self.held is not None and self.already:
            return (
                f"这篇已经发过{pid}，论坛还没有显示它：仍在待审核（「{self.held}」），没有再发。"
                f"请版主审核帖子 {self.tid} 里的回复。"
            )
        if self.held is not None:
            return (
                f"论坛收下了回复，但要审核后才显示：待审核（论坛的回答：「{self.held}」）{pid}。"
                f"帖子 {self.tid} 里现在谁也看不到这篇公告，请版主审核；已记在游戏文件里，"
                "再运行同一命令不会重发，会先看它是否已经显示。"
            )
        if self.already:
            return f"这篇已经发过：帖子 {self.tid} 的 pid {self.pid}，没有再发。"
        return f"已回复帖子 {self.tid}：pid {self.pid}（已记在游戏文件里）。"


Confirm = Callable[[Preview], bool]


def described(preview: Preview, what: str) -> str:
    """Where a post goes, as whom, what (``what``: 上面打印的公告…) and its attachment: the
    sentence the judge confirms, the command's and the judge's page's alike."""
    where = f"「{preview.title}」" if preview.title else ""
    said = (
        f"将以 {preview.judge.name}（uid {preview.judge.uid}）的身份回复帖子{where}"
        f"（tid {preview.tid}，{preview.url}）：内容是{what}（{preview.characters} 个字符）"
    )
    if preview.attachment is not None:
        size = len(preview.attachment.data) / 1024
        said += f"，附件 {preview.attachment.name}（{size:.0f} KB）"
    return said + "。"


def post_announcement(
    game: Game,
    url: str,
    announcement: Announcement,
    options: BoardOptions,
    *,
    confirm: Confirm,
    again: bool = False,
    templates: Path | None = None,
    now: Callable[[], datetime] | None = None,
) -> Posted:
    """Reply to the thread at ``url`` with ``announcement``, once; see the module."""
    roster = game.roster()
    refuse_private(announcement.text, templates, roster, over=bool(game.events("game_over")))
    tz = ZoneInfo(roster.timezone)
    clock = now or (lambda: datetime.now(tz).replace(microsecond=0))
    with Board(url, options) as board:
        thread = _Thread(board, url, tz)
        session = board.judge(thread.read.html, roster, url)
        refuse_other_rules(thread.page.title, roster.rules, game.path)
        key = _key(game, thread.tid, announcement.text, again)
        earlier = outbox.record_of(game, key)
        if earlier is not None and earlier.state == "done":
            return Posted(thread.tid, earlier.data.get("pid"), already=True)
        title = f"发帖：{announcement.what}（帖子 {thread.tid}）"
        if earlier is not None and earlier.state in ("sending", "held"):
            after = earlier.data.get("after_pid")
            pid = thread.find(session, announcement.text, after, _posted(game, besides=key))
            if pid is not None:
                _done(game, key, title, pid, clock())
                return Posted(thread.tid, pid, already=True)
            if earlier.state == "held":
                said = earlier.data.get("said", "")
                return Posted(thread.tid, earlier.data.get("pid"), already=True, held=said)
        attachment = announcement.attachment
        uploader = uploader_for(thread.read.html, attachment, url) if attachment else None
        preview = Preview(
            redact_url(url),
            thread.tid,
            thread.page.title,
            session,
            len(announcement.text),
            attachment,
        )
        if not confirm(preview):
            return Posted(thread.tid, None)
        outbox.wait_turn(game, options.interval, options.sleep, clock())
        extra = {}
        if attachment is not None:
            aid = upload_file(board, uploader, attachment, thread.url)
            extra = attachment_fields(aid, attachment.description)
        after = thread.newest_pid()
        outbox.begin(
            game,
            "post",
            key,
            title,
            {
                "thread": thread.tid,
                "board": redact_url(board.root),
                "url": redact_url(url),
                "title": announcement.what,
                "for_step": announcement.step,
                "after_pid": after,
            },
            now=clock(),
        )
        sent = _Sending(key, title, after, clock)
        return _reply(game, board, thread, session, announcement.text, sent, extra)


def _key(game: Game, tid: int, text: str, again: bool) -> str:
    """The post's key; with ``again``, a new one after each time it was posted."""
    key = outbox.key_of(f"thread:{tid}", text)
    if not again:
        return key
    number = 1
    while (found := outbox.record_of(game, key)) is not None and found.state in ("done", "held"):
        number += 1
        key = outbox.key_of(f"thread:{tid}#{number}", text)
    return key


class _Thread:
    """The thread replied to: its page as the judge sees it, its reply form, its posts."""

    def __init__(self, board: Board, url: str, tz: ZoneInfo) -> None:
        self.board = board
        self.url = url
        self.tz = tz
        self.read = board.read(url)
        self.page = self._parse(self.read)
        form = dzx.reply_form(self.read.html)
        if form is None:  # no reply box: the board's answer to the form will say why
            fid = _FID_VAR.search(self.read.html)
            tid = self.page.thread_id
            if fid is None or tid is None:
                raise BoardRefused(f"页面上没有回复框，也读不出版块和帖子编号：{redact_url(url)}")
            form = dzx.ReplyForm(int(fid.group(1)), int(tid), "")
        self.form = form
        self.tid = form.tid

    def _parse(self, read):
        try:
            return parse_page(read.fetched, tz=self.tz, forum=discuz_x.NAME)[1]
        except TallyFailed as error:  # a board message page, in the board's words
            raise BoardRefused(f"读不到要回复的帖子：{error.message}") from None

    def newest_pid(self) -> int:
        """The pid of the thread's newest post now, read from its last page: a reply made
        after this has a greater pid (Discuz numbers every post of the board from one
        counter: ``insertpost()``, ``source/function/function_forum.php``)."""
        page = self.page
        for _ in range(3):  # the thread may have grown a page since it was read
            if page.page_no >= page.page_count:
                break
            page = self._page(page.page_count)
        return max((post.pid for post in page.posts), default=0)

    def find(self, session: Session, text: str, after: int | None, known: set[int]) -> int | None:
        """The pid of the judge's post with ``text`` among the thread's posts newer than the
        pid ``after`` (the newest before it was sent), if there is one: read from the last
        page back, as far as posts newer than ``after`` go.  The board's clock and ours are
        never compared: the judge's uid, the text and the board's own post order decide.

        A post of the judge's newer than ``after`` that is none of the ``known`` pids
        (posted by killmod) and does not read as ``text`` may be it, changed by the board (a
        smiley made an image): then it is not known whether the post went out, and nothing
        is posted again — refused, naming the pid to look at.  (A record made before
        ``after`` was kept has none: the last two pages are read, for the text only.)
        """
        first = self._parse(self.board.read(self.url))
        wanted = comparable(text)
        unsure: list[int] = []
        number, read = first.page_count, 0
        while number >= 1:
            page = first if number == first.page_no else self._page(number)
            read += 1
            for post in page.posts:
                if post.uid != session.uid or post.pid in known:
                    continue
                if after is not None and post.pid <= after:
                    continue
                if comparable(post.body) == wanted:
                    return post.pid
                if after is not None:
                    unsure.append(post.pid)
            older = not page.posts or page.posts[0].pid <= (after or 0)
            if older or (after is None and read == 2):
                break
            number -= 1
        if unsure:
            raise BoardRefused(
                f"帖子里有法官的一篇回复（pid {unsure[-1]}）在发送之后、内容却对不上："
                f"它可能就是这篇公告（论坛改写了其中的字）。不知道是否发出，没有再发："
                f"请到帖子里看一眼 {redact_url(self.url)}；确实没有发出时，用 killmod post "
                "--again 再发。"
            )
        return None

    def _page(self, number: int):
        return self._parse(self.board.read(discuz_x.page_url(self.url, number)))


def _posted(game: Game, *, besides: str) -> set[int]:
    """The pids killmod recorded as its own other posts than the one under ``besides`` (held
    ones too, when the board gave one): a held reply's own pid is the one to find once a
    moderator passes it."""
    return {
        pid
        for key, r in outbox.records(game).items()
        if r.what == "post" and key != besides and (pid := r.data.get("pid")) is not None
    }


@dataclass(frozen=True)
class _Sending:
    """The post being sent: its key and title in the game file, the newest pid before it."""

    key: str
    title: str
    after: int
    clock: Callable[[], datetime]


def _reply(
    game: Game,
    board: Board,
    thread: _Thread,
    session: Session,
    text: str,
    sent: _Sending,
    extra: dict[str, str],
) -> Posted:
    """Post the reply form once (``killmod.board.once``), the outcome recorded under its key:
    done with the new pid, or held for moderation (待审核) in the board's words; ``extra``
    fields name an uploaded attachment."""
    url = thread.form.url(board.root)
    fields = {**thread.form.fields(session.formhash, text), **extra}
    held: list[str] = []

    def hold(answer: dzx.Answer) -> None:
        pid = answer.values.get("pid", "")
        data = {"said": answer.message, **({"pid": int(pid)} if pid.isdigit() else {})}
        outbox.finish(game, "post", sent.key, "held", sent.title, data, now=sent.clock())
        held.append(answer.message)

    attempt = Attempt(
        submit=lambda: board.submit(url, fields, thread.read.charset, thread.url),
        find=lambda: thread.find(session, text, sent.after, _posted(game, besides=sent.key)),
        done=lambda pid: _done(game, sent.key, sent.title, pid, sent.clock()),
        failed=lambda said: _failed(game, sent.key, sent.title, said, sent.clock()),
        refusal=lambda answer: _refusal(answer, board.options),
        unknown=(
            "发帖没有得到论坛的回答，帖子里发送之后的新帖中也没有这篇公告：不知道是否发出。"
            f"请到帖子里看一眼：{redact_url(thread.url)}；再运行同一命令时，"
            "killmod 会先在帖子里找它，找不到才再发"
        ),
        id_key="pid",
        held=hold,
    )
    pid = submit_once(attempt, board.options)
    return Posted(thread.tid, pid, held=held[0] if held else None)


def _refusal(answer: dzx.Answer, options: BoardOptions) -> str:
    """The board's refusal in Chinese, with what to do about it."""
    said = answer.message
    if answer.kind == "system_error":
        return (
            f"{said}。这通常是表单校验码（formhash）不对：cookies 的登录已失效，"
            "或在别处重新登录过。请在浏览器里重新登录后导出 cookies.txt。没有发出。"
        )
    if is_flood(answer):
        wait = flood_seconds(answer, options)
        return (
            f"论坛的灌水预防拒绝了回复：「{said}」；等了 {wait + 1:g} 秒再试仍被拒绝。"
            "过一会儿再运行同一命令。没有发出。"
        )
    if "关闭" in said:
        return f"论坛拒绝了回复：「{said}」——帖子已关闭，请版主打开，或回复到别的帖子。没有发出。"
    if "登录" in said:
        return (
            f"论坛拒绝了回复：「{said}」——cookies 的登录已失效：请在浏览器里重新登录后"
            "导出 cookies.txt。没有发出。"
        )
    if "权限" in said or "无权" in said:
        return f"论坛拒绝了回复：「{said}」——法官的帐号在这个版块没有回复权限。没有发出。"
    return f"论坛拒绝了回复：「{said}」。没有发出。"


def _done(game: Game, key: str, title: str, pid: int, at: datetime) -> None:
    outbox.finish(game, "post", key, "done", title, {"pid": pid}, now=at)


def _failed(game: Game, key: str, title: str, said: str, at: datetime) -> None:
    outbox.finish(game, "post", key, "failed", title, {"said": said}, now=at)
