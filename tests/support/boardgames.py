"""Games on the tests' fake Discuz board (``fakeboard``): the judge logged in by cookies.

A game is the ``gamefiles`` one (player N is ``玩家N``, uid 5000+N) whose roster names the
judge with his uid (``法官``, 900); every player and the judge are members of the board,
which holds the game thread (``GAME_TID``) and, once a test puts it there, the vote
thread (``gamefiles.TID``).  The judge's cookies.txt is made by logging in to the board
as a browser does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from click.testing import CliRunner, Result

from killmod.commands.cli import main
from tests.support.fakeboard import FakeBoard, log_in
from tests.support.forumserver import BaseUrl
from tests.support.gamefiles import JUDGE, name, roster_toml
from tests.support.pagebuilder import SHANGHAI, FakePost, FakeThread, Site

GAME_TID = 9200
OPENING = datetime(2024, 3, 1, 12, 0, 0, tzinfo=SHANGHAI)


def uid(seat: int) -> int:
    """The forum uid of the player in ``seat``."""
    return 5000 + seat


@dataclass
class BoardGame:
    """A game file, the board it is played on and the judge's cookies."""

    db: Path
    base: BaseUrl
    board: FakeBoard
    cookies: Path
    tmp: Path

    @property
    def game_url(self) -> str:
        return f"{self.base}/forum.php?mod=viewthread&tid={GAME_TID}"

    def thread_url(self, tid: int) -> str:
        return f"{self.base}/forum.php?mod=viewthread&tid={tid}"

    def run(self, *args: object, cookies: Path | bool = True, input: str | None = None) -> Result:
        """A killmod command on this game, with the judge's cookies (or ``cookies``; False:
        none) where it speaks on the board."""
        words = [str(arg) for arg in args]
        speaking = any(word in words for word in ("--post", "--send", "--from-pm", "post"))
        if speaking and cookies is not False and "--cookies" not in words:
            words += ["--cookies", str(self.cookies if cookies is True else cookies)]
        if "--db" not in words and words[0] not in ("rules",):
            words += ["--db", str(self.db)]
        return CliRunner().invoke(main, words, input=input)

    def player_writes(self, seat: int, text: str, at: datetime) -> int:
        """Player ``seat`` sends the judge a 站内短信 at ``at``."""
        return self.board.write(uid(seat), JUDGE[1], text, at)


def board_game(
    tmp_path: Path,
    serve_site: Callable[[Site], BaseUrl],
    rules: str,
    roles: Mapping[int, str | None],
    *,
    board: FakeBoard | None = None,
    judge_uid: bool = True,
    names: Mapping[int, str] | None = None,
    extra: str = "",
) -> BoardGame:
    """A game file made by ``killmod init`` and the board it is played on."""
    board = board or FakeBoard()
    board.member(JUDGE[0], JUDGE[1])
    for seat in roles:
        board.member((names or {}).get(seat, name(seat)), uid(seat))
    opening = FakePost(80001, JUDGE[0], JUDGE[1], OPENING, "【游戏帖】欢迎", time_style="absolute")
    board.add_thread(FakeThread(GAME_TID, f"【{rules} 游戏帖】", [opening], now=OPENING))
    text = roster_toml(rules, roles, extra=extra, names=names)
    if judge_uid:
        text = text.replace(
            'judges = ["法官"]', f'judges = [{{ name = "法官", uid = {JUDGE[1]} }}]'
        )
    roster = tmp_path / "roster.toml"
    roster.write_text(text, encoding="utf-8")
    db = tmp_path / "game.db"
    done = CliRunner().invoke(main, ["init", "--roster", str(roster), "--db", str(db)])
    assert done.exit_code == 0, done.output
    base = serve_site(board)
    cookies = log_in(base, JUDGE[0], "secret", tmp_path / "cookies.txt", charset=board.charset)
    return BoardGame(db, base, board, cookies, tmp_path)


def from_pm(
    board_url: str,
    *,
    night: int = 1,
    since: str = "2019-05-12 22:00",
    until: str = "2019-05-13 08:00",
) -> list[object]:
    """The words of ``killmod night --from-pm``: night ``night``'s actions read from the
    judge's 站内短信 on the board of ``board_url``, sent from ``since`` to ``until``."""
    return [
        "night",
        "--round",
        night,
        "--from-pm",
        "--board",
        board_url,
        "--since",
        since,
        "--until",
        until,
    ]


def ok(done: Result) -> str:
    """The stdout of a command that succeeded."""
    assert done.exit_code == 0, done.output
    return done.stdout
