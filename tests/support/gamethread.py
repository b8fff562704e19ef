"""A game thread (游戏帖) of the example game for the lurkers and audit tests.

The game is ``examples/roster.toml`` (16 seats; 6 and 11 out from the start; judge
法官大人; one substitute, 替补甲).  A thread is built from (author, time, body) rows,
an author being a seat number or an explicit (name, uid); it is served by the tests'
local Discuz! X board, every time shown to the second.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from killmod.game.roster import load_roster
from killmod.game.store import Game
from tests.support.forumserver import BaseUrl
from tests.support.pagebuilder import SHANGHAI, FakePost, FakeThread, Site, discuz_x_site

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_ROSTER = load_roster(ROOT / "examples" / "roster.toml")
GAME_TID = 8001
JUDGE = ("法官大人", 100)
OUTSIDER = ("路过的", 3001)
LIVING = tuple(player.seat for player in EXAMPLE_ROSTER.living)

# Round 1's vote closed at ROUND1_END, round 2's at ROUND2_END: round 2's window is between.
ROUND1_END = datetime(2019, 5, 11, 22, 0, 0, tzinfo=SHANGHAI)
ROUND2_END = datetime(2019, 5, 12, 22, 0, 0, tzinfo=SHANGHAI)
OPENING = datetime(2019, 5, 10, 20, 0, 0, tzinfo=SHANGHAI)

Author = int | tuple[str, int | None]


def at(text: str) -> datetime:
    """``"2019-05-12 10:00:00"`` in Shanghai time."""
    return datetime.fromisoformat(text).replace(tzinfo=SHANGHAI)


def game_thread(rows: Iterable[tuple[Author, datetime, str]]) -> FakeThread:
    """The game thread: the judge's opening post, then ``rows`` in time order."""
    pids = itertools.count(50001)
    posts = [
        FakePost(
            next(pids), *JUDGE, OPENING, "【游戏帖】1.2 规则，请在此讨论", time_style="absolute"
        )
    ]
    for author, when, body in sorted(rows, key=lambda row: row[1]):
        name, uid = _author(author)
        posts.append(FakePost(next(pids), name, uid, when, body, time_style="absolute"))
    return FakeThread(GAME_TID, "【1.2 版杀】游戏帖", posts, now=at("2019-06-01 12:00:00"))


def round2_rows(posts: dict[int, int] | None = None) -> list[tuple[Author, datetime, str]]:
    """Posts inside round 2's window: 3 for each living seat, or as many as ``posts`` says."""
    wanted = {seat: 3 for seat in LIVING} | (posts or {})
    start = ROUND1_END + timedelta(hours=1)
    rows = []
    for seat, count in wanted.items():
        for n in range(count):
            rows.append(
                (seat, start + timedelta(minutes=50 * n + seat), f"{seat}号的第 {n + 1} 帖")
            )
    return rows


def serve_game_thread(
    serve_site: Callable[[Site], BaseUrl], rows: Iterable[tuple[Author, datetime, str]]
) -> str:
    """The URL of ``rows``' game thread on a local board."""
    base = serve_site(discuz_x_site(game_thread(rows)))
    return f"{base}/forum.php?mod=viewthread&tid={GAME_TID}"


def new_game(tmp_path: Path, *, warnings: dict[int, int] | None = None) -> Path:
    """A game file of the example roster (with ``warnings`` carried in) in ``tmp_path``."""
    path = tmp_path / "game.db"
    roster = replace(EXAMPLE_ROSTER, warnings=warnings or {})
    Game.create(path, roster).close()
    return path


def record_deadlines(path: Path, *deadlines: datetime) -> None:
    """Record rounds 1, 2, … as tallied with these deadlines (no votes, no effects)."""
    game = Game.open(path)
    with game.transaction():
        for round_no, deadline in enumerate(deadlines, 1):
            tally_id = game.save_tally(
                round_no,
                deadline=deadline.isoformat(),
                source="vote-thread",
                title=None,
                snapshot="",
                result={"round": round_no, "verdicts": []},
                posts=[],
            )
            game.record(round_no, "day", None, {"tally_id": tally_id, "outcome": "none"})
    game.close()


def _author(author: Author) -> tuple[str, int | None]:
    if isinstance(author, int):
        player = EXAMPLE_ROSTER.seat(author)
        return player.name, player.uid
    return author
