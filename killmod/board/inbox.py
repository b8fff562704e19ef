"""The judge's 站内短信 read from the board for a night (``killmod night --from-pm``).

The inbox's pages and each conversation's pages are read back to the night's start; what
the letters say is settled by ``killmod.usecases.inbox``.  Their times are on the judge's
board clock: each page is read in the zone its footer declares (the judge's account may be
set to another zone than the game's) and its times given in the game's; a page that
declares none, where the others read did, is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo

from killmod.board.session import Board, BoardOptions, BoardRefused
from killmod.core.errors import BadInput
from killmod.core.model import Roster
from killmod.core.times import format_local, zone_label
from killmod.game.state import rule_set_of, state_for
from killmod.game.store import Game
from killmod.usecases.inbox import MINUTE, InboxNight, Letter, night_start, settle_letters
from scrapers import discuz_x_posting as dzx
from scrapers.base import ScrapeError


def read_night(
    game: Game,
    night_no: int,
    board_url: str,
    options: BoardOptions,
    *,
    until: datetime,
    since: datetime | None = None,
    reject_ambiguous: bool = False,
) -> InboxNight:
    """Read night ``night_no``'s actions from the judge's inbox; see the module."""
    roster = game.roster()
    rules = rule_set_of(roster)
    if not rules.night_options:
        raise BadInput(f"{rules.NAME} 规则的夜晚没有行动，没有要读的站内短信。")
    tz = ZoneInfo(roster.timezone)
    start = since or night_start(game, night_no)
    if until <= start:
        raise BadInput(
            f"截止时间 {format_local(until, tz)} 不在本夜开始（{format_local(start, tz)}）之后："
            "--until 写错了？"
        )
    from killmod.usecases.night import night_rights

    rights, _ = night_rights(game, rules.round_of_night(night_no))
    skills = rules.night_skills(state_for(game).state, rights)
    with Board(board_url, options) as board:
        page = board.read(dzx.inbox_url(board.root))
        board.judge(page.html, roster, page.url)
        letters, earlier = _letters(_Pages(board, tz), page.html, roster, start)
    return settle_letters(
        night_no, start, until, letters, earlier, skills, roster, reject_ambiguous
    )


class _Pages:
    """The inbox's and conversations' pages as read, each in the zone its footer declares:
    one that declares none, among pages that did, is refused (its times cannot be placed)."""

    def __init__(self, board: Board, tz: ZoneInfo) -> None:
        self.board, self.tz = board, tz
        self.declared: tuple[str, tzinfo] | None = None
        self.undeclared: str | None = None

    def parsed(self, parse, html: str, url: str) -> dzx.PmPage:
        try:
            page = parse(html, self.tz)
        except ScrapeError as error:
            raise BoardRefused(f"读不了站内短信页面：{url}（{error.message}）") from None
        if page.zone is not None and self.declared is None:
            self.declared = (url, page.zone)
        if page.zone is None and self.undeclared is None:
            self.undeclared = url
        if self.declared is not None and self.undeclared is not None:
            shown, zone = self.declared
            raise BoardRefused(
                f"站内短信页面 {self.undeclared} 没有注明时间是哪个时区的（页脚没有 GMT±N），"
                f"而 {shown} 注明了 {zone_label(zone)}：这一页的时间无法确定，已拒绝"
            )
        return page

    def read(self, parse, url: str) -> dzx.PmPage:
        return self.parsed(parse, self.board.read(url).html, url)


def _letters(
    pages: _Pages, first: str, roster: Roster, since: datetime
) -> tuple[list[Letter], int]:
    """Every player's message from ``since`` on, in the order sent (pmid), and how many
    earlier ones the pages read showed (not listed)."""
    seats = {p.uid: p for p in roster.players if p.uid is not None}
    letters: list[Letter] = []
    earlier = 0
    for talk in _conversations(pages, first, since):
        for message in _messages(pages, talk.uid, since):
            if message.mine:
                continue
            if message.at + MINUTE < since:
                earlier += 1
                continue
            player = seats.get(talk.uid)
            letters.append(
                Letter(
                    message.pmid,
                    talk.uid,
                    player.name if player else talk.name,
                    player.seat if player else None,
                    message.at,
                    message.text,
                )
            )
    letters.sort(key=lambda letter: letter.pmid)
    return letters, earlier


def _conversations(pages: _Pages, first: str, since: datetime) -> Iterator[dzx.Conversation]:
    """The inbox's conversations with a message from ``since`` on (newest first: the
    pages are read until one ends before ``since``)."""
    root = pages.board.root
    page = pages.parsed(dzx.inbox, first, dzx.inbox_url(root, 1))
    number = 1
    while True:
        for talk in page.conversations:
            if talk.last_at + MINUTE >= since:
                yield talk
        done = not page.conversations or page.conversations[-1].last_at + MINUTE < since
        if done or number >= page.pages:
            return
        number += 1
        page = pages.read(dzx.inbox, dzx.inbox_url(root, number))


def _messages(pages: _Pages, uid: int, since: datetime) -> list[dzx.Message]:
    """The conversation's messages from its last page back to the one that starts
    before ``since``."""
    root = pages.board.root
    page = pages.read(dzx.conversation, dzx.conversation_url(root, uid))
    found = list(page.messages)
    number = page.page
    while number > 1 and (not page.messages or min(m.at for m in page.messages) >= since):
        number -= 1
        page = pages.read(dzx.conversation, dzx.conversation_url(root, uid, number))
        found += page.messages
    return found
