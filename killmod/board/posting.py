"""Replying to a thread with a public post, as the judge, exactly once.

The post is a command's public post (stdout), never a secret: a text that carries a
private template's fixed words (a notice, the lots, the judge's night, what
``--print-secrets`` prints) is refused before anything is read from the board.  Then:

1. the thread page is read as the judge (``killmod.board.session``): logged in, a judge of the
   game by uid, the session's ``formhash`` and the quick-reply form; a thread titled
   with another rule set than the game's is refused;
2. the post's key (``killmod.game.outbox``: the thread and the text) is looked up: posted
   already → nothing is posted again (the pid is given); sent before with no answer →
   the thread's last page is looked at first, and a post of the judge with this text
   there is taken as the one sent;
3. the judge is shown where it goes, and confirms (``--yes``, or typing yes);
4. a file to attach (a vote's evidence bundle) is uploaded, where the board's uploader
   takes it (``killmod.board.attaching``; else refused before anything is posted);
5. ``sending`` is recorded, the reply form is posted, and the board's answer recorded:
   the new pid; or, refused, why in Chinese.  Flood control (两次发表间隔少于 N 秒) is
   waited out once, N seconds as the board says; a timeout, or an answer that is no
   answer, sends the judge to look at the last page before posting once more.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import scrapers.discuz_x as discuz_x
from killmod.announce.render import private_marks
from killmod.board.attaching import Attachment, upload_file, uploader_for
from killmod.board.once import Attempt, flood_seconds, is_flood, submit_once
from killmod.board.session import Board, BoardOptions, BoardRefused, Session
from killmod.core.errors import BadInput, TallyFailed
from killmod.core.redact import redact_url
from killmod.fetch.pages import parse_page
from killmod.game import outbox
from killmod.game.guards import refuse_other_rules
from killmod.game.store import Game
from scrapers import discuz_x_posting as dzx
from scrapers.discuz_x_upload import attachment_fields

# A post found on the board counts as the one sent from this long before it was sent
# (the board's clock and ours may differ).
CLOCK_SLACK = timedelta(minutes=5)
_FID_VAR = re.compile(r"fid = parseInt\('(\d+)'\)")
_TAG = re.compile(r"\[/?[A-Za-z*]+(?:=[^\[\]\n]*)?\]")
_SPACE = re.compile(r"\s+")


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
    """A post on the board: its pid (None: not posted), and whether it was there already."""

    tid: int
    pid: int | None
    already: bool = False


Confirm = Callable[[Preview], bool]


def refuse_private(text: str, templates: Path | None = None) -> None:
    """A text carrying a private template's fixed words is a secret: never posted."""
    found = [mark for mark in private_marks(templates) if mark in text]
    if found:
        raise BadInput(
            f"要发的内容里有保密内容的字样（「{found[0]}」）：站内短信、签位、夜晚的结算、"
            "--print-secrets 打印的内容都不能发到论坛。只发命令打印的公告。什么也没有发出。"
        )


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
    refuse_private(announcement.text, templates)
    roster = game.roster()
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
        if earlier is not None and earlier.state == "sending":
            pid = thread.find(session, announcement.text, earlier.at, _posted(game))
            if pid is not None:
                _done(game, key, title, pid, clock())
                return Posted(thread.tid, pid, already=True)
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
            },
            now=clock(),
        )
        sent_at = clock()
        pid = _reply(
            game, board, thread, session, announcement.text, key, title, clock, sent_at, extra
        )
        return Posted(thread.tid, pid)


def _key(game: Game, tid: int, text: str, again: bool) -> str:
    """The post's key; with ``again``, a new one after each time it was posted."""
    key = outbox.key_of(f"thread:{tid}", text)
    if not again:
        return key
    number = 1
    while (found := outbox.record_of(game, key)) is not None and found.state == "done":
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

    def find(self, session: Session, text: str, since: datetime, known: set[int]) -> int | None:
        """The pid of the judge's post with ``text`` on the thread's last page (and the
        page before when the last one starts after ``since``), if there is one.

        A post of the judge's from then on that is none of the ``known`` pids (posted by
        killmod) and does not read as ``text`` may be it, changed by the board (a smiley
        made an image): then it is not known whether the post went out, and nothing is
        posted again — refused, naming the pid to look at.
        """
        first = self._parse(self.board.read(self.url))
        wanted = _comparable(text)
        unsure: list[int] = []
        number = first.page_count
        while number >= 1:
            page = first if number == first.page_no else self._page(number)
            for post in page.posts:
                if post.uid != session.uid or post.posted_at < since - CLOCK_SLACK:
                    continue
                if _comparable(post.body) == wanted:
                    return post.pid
                if post.pid not in known:
                    unsure.append(post.pid)
            starts_after = page.posts and page.posts[0].posted_at >= since - CLOCK_SLACK
            if not starts_after:
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


def _posted(game: Game) -> set[int]:
    """The pids killmod recorded as its own posts."""
    return {
        r.data["pid"] for r in outbox.records(game).values() if r.what == "post" and "pid" in r.data
    }


def _comparable(text: str) -> str:
    """A post's words without BBCode tags and spaces: what the board shows of them."""
    return _SPACE.sub("", _TAG.sub("", text))


def _reply(
    game: Game,
    board: Board,
    thread: _Thread,
    session: Session,
    text: str,
    key: str,
    title: str,
    clock: Callable[[], datetime],
    sent_at: datetime,
    extra: dict[str, str],
) -> int:
    """Post the reply form once (``killmod.board.once``), the outcome recorded under ``key``;
    ``extra`` fields name an uploaded attachment."""
    url = thread.form.url(board.root)
    fields = {**thread.form.fields(session.formhash, text), **extra}
    attempt = Attempt(
        submit=lambda: board.submit(url, fields, thread.read.charset, thread.url),
        find=lambda: thread.find(session, text, sent_at, _posted(game)),
        done=lambda pid: _done(game, key, title, pid, clock()),
        failed=lambda said: _failed(game, key, title, said, clock()),
        refusal=lambda answer: _refusal(answer, board.options),
        unknown=(
            "发帖没有得到论坛的回答，帖子的最后一页上也没有这篇公告：不知道是否发出。"
            f"请到帖子里看一眼：{redact_url(thread.url)}；再运行同一命令时，"
            "killmod 会先在帖子里找它，找不到才再发"
        ),
        id_key="pid",
    )
    return submit_once(attempt, board.options)


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
