"""A 1.2 day on the judge's page for the tests: the game made from the page's form, dealt,
night 1 recorded, its round-1 vote thread on the local board — and a twin of the game file
for the command to take the same step on, so that the page's text is compared to the
command's to the byte."""

from __future__ import annotations

import re
import shutil
from datetime import datetime
from pathlib import Path

from click.testing import CliRunner

from killmod.commands.cli import main
from tests.support.boardgames import GAME_TID
from tests.support.gamefiles import TID
from tests.support.pagebuilder import SHANGHAI
from tests.support.webpage import (
    board_for_a_12_game,
    judge_cookies,
    let_in,
    roster_form,
    vote_thread,
)

OPENED = datetime(2024, 3, 1, 19, 0, tzinfo=SHANGHAI)
DEADLINE = "2024-03-01 22:00"
READ_AT = datetime(2024, 3, 2, 9, 0, 0, tzinfo=SHANGHAI)  # the next morning
TIE = {seat: "投5号" for seat in range(1, 7)} | {seat: "投7号" for seat in range(7, 13)}
FIVE_OUT = {seat: "投5号" for seat in range(1, 13)}


def run(*args: object):
    return CliRunner().invoke(main, [str(arg) for arg in args])


class _AnyDatetime(type):
    def __instancecheck__(cls, value: object) -> bool:
        return isinstance(value, datetime)


def read_at_one_moment(monkeypatch, at: datetime = READ_AT) -> None:
    """The vote thread read at ``at`` by the page and by the command alike: a recorded
    vote's count document keeps when it was read (to the second), and its SHA-256 is in
    the announcement — the page's and the command's are the same text only when both
    read it in the same second."""
    import killmod.usecases.tally as tally_usecase

    class Clock(datetime, metaclass=_AnyDatetime):
        @classmethod
        def now(cls, tz=None):
            return at.astimezone(tz) if tz else at.replace(tzinfo=None)

    monkeypatch.setattr(tally_usecase, "datetime", Clock)


def error_beside(html: str, field: str) -> str:
    """The refusal shown beside the form's ``field`` (and only the pointer at the top)."""
    beside = rf'<span class="field-error" role="alert" id="error-{field}">(.*?)</span>'
    found = re.search(beside, html)
    assert found, f"no refusal beside {field}: {html[html.find('<main>') :][:1500]}"
    assert "什么也没有记录：见下面标红的一项" in html
    return found[1]


def done_note(html: str) -> str:
    """What the page says it did (the green box at the top)."""
    found = re.search(r'<div class="done" role="status" id="done">(.*?)</div>', html, re.S)
    assert found, f"nothing done: {html[html.find('<main>') :][:1500]}"
    return found[1]


class Day:
    """A 1.2 game made on the page, dealt, night 1 recorded (16 killed), its round-1 vote
    thread on the local board; ``twin()`` copies the game file for the command."""

    def __init__(self, tmp_path: Path, serve_site, ballots: dict[int, str], **board):
        self.tmp = tmp_path
        self.board = board_for_a_12_game()
        for key, value in board.items():  # the board's settings (attachments…)
            setattr(self.board, key, value)
        self.base = serve_site(self.board)
        vote_thread(self.board, ballots, OPENED)
        self.db = tmp_path / "game" / "killmod.db"
        self.db.parent.mkdir()
        self.page = let_in(self.db)
        assert self.page.post("/new", roster_form(self.page.csrf)).status_code == 303
        assert self.page.post("/deal").status_code == 200
        # the deal is random: 16 may be a killer, and the judge confirms his kill
        night = {"night": "1", "kill": "16", "at": "2024-03-01 18:30", "self_aimed": "yes"}
        assert self.page.post("/night", night).status_code == 200
        self.vote_url = f"{self.base}/forum.php?mod=viewthread&tid={TID}"
        self.game_url = f"{self.base}/forum.php?mod=viewthread&tid={GAME_TID}"
        assert run("thread", "game", self.game_url, "--db", self.db).exit_code == 0
        self.private = self.db.parent / "killmod-private"

    def record_vote(self) -> None:
        done = run("tally", self.vote_url, "--db", self.db, "--deadline", DEADLINE, "--record")
        assert done.exit_code == 0, done.output

    def sign_in(self) -> Path:
        """The judge's cookies.txt, imported on the page (登录论坛); its path."""
        cookies = judge_cookies(self.base, self.tmp)
        with cookies.open("rb") as stream:
            imported = self.page.post("/login/cookies", {"cookies": (stream, "cookies.txt")})
        assert imported.status_code == 200, imported.get_data(as_text=True)
        return cookies

    def twin(self) -> Path:
        twin = self.tmp / "twin" / "killmod.db"
        twin.parent.mkdir(exist_ok=True)
        shutil.copy(self.db, twin)
        return twin

    def status(self) -> str:
        return run("status", "--db", self.db).stdout
