"""The judge's 站内短信 read from the board for a night (``killmod night --from-pm``).

The inbox's pages and each conversation's pages are read back to the night's start; what
the letters say is settled by ``killmod.usecases.inbox``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

from killmod.board.session import Board, BoardOptions, BoardRefused
from killmod.core.errors import BadInput
from killmod.core.model import Roster
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
            f"截止时间 {until:%Y-%m-%d %H:%M} 不在本夜开始（{start:%Y-%m-%d %H:%M}）之后："
            "--until 写错了？"
        )
    from killmod.usecases.night import night_rights

    rights, _ = night_rights(game, rules.round_of_night(night_no))
    skills = rules.night_skills(state_for(game).state, rights)
    with Board(board_url, options) as board:
        page = board.read(dzx.inbox_url(board.root))
        board.judge(page.html, roster, page.url)
        letters, earlier = _letters(board, page.html, roster, tz, start)
    return settle_letters(
        night_no, start, until, letters, earlier, skills, roster, reject_ambiguous
    )


def _letters(
    board: Board, first: str, roster: Roster, tz: ZoneInfo, since: datetime
) -> tuple[list[Letter], int]:
    """Every player's message from ``since`` on, in the order sent (pmid), and how many
    earlier ones the pages read showed (not listed)."""
    seats = {p.uid: p for p in roster.players if p.uid is not None}
    letters: list[Letter] = []
    earlier = 0
    for talk in _conversations(board, first, tz, since):
        for message in _messages(board, talk.uid, tz, since):
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


def _conversations(
    board: Board, first: str, tz: ZoneInfo, since: datetime
) -> Iterator[dzx.Conversation]:
    """The inbox's conversations with a message from ``since`` on (newest first: the
    pages are read until one ends before ``since``)."""
    html, number = first, 1
    while True:
        page = _parsed(dzx.inbox, html, tz, dzx.inbox_url(board.root, number))
        for talk in page.conversations:
            if talk.last_at + MINUTE >= since:
                yield talk
        done = not page.conversations or page.conversations[-1].last_at + MINUTE < since
        if done or number >= page.pages:
            return
        number += 1
        html = board.read(dzx.inbox_url(board.root, number)).html


def _messages(board: Board, uid: int, tz: ZoneInfo, since: datetime) -> list[dzx.Message]:
    """The conversation's messages from its last page back to the one that starts
    before ``since``."""
    url = dzx.conversation_url(board.root, uid)
    page = _parsed(dzx.conversation, board.read(url).html, tz, url)
    found = list(page.messages)
    number = page.page
    while number > 1 and (not page.messages or min(m.at for m in page.messages) >= since):
        number -= 1
        url = dzx.conversation_url(board.root, uid, number)
        page = _parsed(dzx.conversation, board.read(url).html, tz, url)
        found += page.messages
    return found


def _parsed(parse, html: str, tz: ZoneInfo, url: str) -> dzx.PmPage:
    try:
        return parse(html, tz)
    except ScrapeError as error:
        raise BoardRefused(f"读不了站内短信页面：{url}（{error.message}）") from None
