"""The judge's page in the tests: an app on a game file, a client let in with its token,
and a 1.2 game's board (the judge, sixteen players, a substitute) to play it on."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from flask.testing import FlaskClient

from killmod.web.app import create_app
from tests.support.boardgames import GAME_TID, OPENING, uid
from tests.support.fakeboard import FakeBoard, log_in
from tests.support.gamefiles import JUDGE, TID, name
from tests.support.pagebuilder import FakePost, FakeThread

PLAYERS = 16
SUBSTITUTE = "替补甲"
HOST = "127.0.0.1"


def board_for_a_12_game() -> FakeBoard:
    """The board: the judge, 玩家1–玩家16 and the substitute as members, the game thread."""
    board = FakeBoard()
    board.member(JUDGE[0], JUDGE[1])
    for seat in range(1, PLAYERS + 1):
        board.member(name(seat), uid(seat))
    board.member(SUBSTITUTE, 6000)
    opening = FakePost(80001, JUDGE[0], JUDGE[1], OPENING, "【游戏帖】欢迎", time_style="absolute")
    board.add_thread(FakeThread(GAME_TID, "【1.2 游戏帖】", [opening], now=OPENING))
    return board


def vote_thread(board: FakeBoard, ballots: dict[int, str], at: datetime) -> FakeThread:
    """The vote thread on ``board``: the judge's opening post at ``at``, then one post per
    seat a minute apart."""
    posts = [FakePost(81001, *JUDGE, at, "【第一天投票帖】", time_style="absolute")]
    for n, (seat, body) in enumerate(sorted(ballots.items()), start=1):
        moment = at + timedelta(minutes=n)
        posts.append(
            FakePost(81001 + n, name(seat), uid(seat), moment, body, time_style="absolute")
        )
    thread = FakeThread(TID, "【1.2 第一天投票帖】", posts, now=posts[-1].posted_at)
    board.add_thread(thread)
    return thread


def post_ballot(thread: FakeThread, seat: int, body: str, at: datetime) -> None:
    """A player posts ``body`` in ``thread`` at ``at`` (as the board takes a reply)."""
    pid = max(post.pid for post in thread.posts) + 1
    thread.posts.append(FakePost(pid, name(seat), uid(seat), at, body, time_style="absolute"))
    thread.now = max(thread.now, at)


def roster_form(csrf: str) -> dict[str, str]:
    """The 新游戏 form filled in for the 1.2 game of sixteen."""
    form = {
        "csrf": csrf,
        "rules": "1.2",
        "players": str(PLAYERS),
        "judges": f"{JUDGE[0]} {JUDGE[1]}",
        "substitutes": SUBSTITUTE,
        "timezone": "Asia/Shanghai",
    }
    for seat in range(1, PLAYERS + 1):
        form[f"name{seat}"] = name(seat)
        form[f"uid{seat}"] = str(uid(seat))
    return form


@dataclass
class Page:
    """A test client let in, and the app's tokens."""

    client: FlaskClient
    token: str
    csrf: str

    def get(self, path: str, **options):
        return self.client.get(path, headers={"Host": HOST}, **options)

    def post(self, path: str, data: dict | None = None, **options):
        data = {"csrf": self.csrf, **(data or {})}
        return self.client.post(path, data=data, headers={"Host": HOST}, **options)


def let_in(db: Path, **options) -> Page:
    """The page of ``db``, its client let in by the token (the cookie set)."""
    app = create_app(db, interval=0, **options)
    app.testing = True
    client = app.test_client()
    token = app.config["KILLMOD"].token
    client.get(f"/?token={token}", headers={"Host": HOST})
    return Page(client, token, app.config["KILLMOD"].csrf)


def text_box(html: str, box: str) -> str:
    """The text of the page's text box ``box`` (a post with its 复制 button)."""
    found = re.search(rf'<textarea readonly[^>]*id="{box}-text">(.*?)</textarea>', html, re.S)
    assert found, f"no text box {box}"
    from html import unescape

    return unescape(found[1].removeprefix("\n"))  # the parser drops the first line break


def judge_cookies(base: str, folder: Path) -> Path:
    """The judge's cookies.txt, logged in as a browser does."""
    return log_in(base, JUDGE[0], "secret", folder / "cookies.txt")


def roster_file(folder: Path) -> Path:
    """The roster of the 1.2 game of sixteen as a file (what the 新游戏 form makes), for the
    page's import field."""
    from tests.support.gamefiles import roster_toml

    text = roster_toml(
        "1.2", dict.fromkeys(range(1, PLAYERS + 1)), extra=f'substitutes = ["{SUBSTITUTE}"]'
    ).replace('judges = ["法官"]', f'judges = [{{ name = "{JUDGE[0]}", uid = {JUDGE[1]} }}]')
    path = folder / "名单.toml"
    path.write_text(text, encoding="utf-8")
    return path
