"""`killmod watch --record`: at the deadline plus grace the round is recorded exactly as
`killmod tally --record` records it — the same guards, the same one step — the
announcement is printed and the watch ends; a failure to record leaves nothing written.

The end-to-end test runs the installed program in its own process against the local
board, with a deadline a few seconds ahead of the real clock.
"""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

import killmod.commands.open as open_command
import killmod.commands.watch as watch_command
from killmod.commands.cli import main
from tests.support.gamefiles import deadline, ok, run
from tests.support.gamesteps import console, everyone_votes, game_12, rows, vote_url
from tests.support.pagebuilder import SHANGHAI, FakePost, FakeThread, discuz_x_site

TID = 9300


def live_thread(now: datetime) -> FakeThread:
    """A vote thread whose posts came in over the last two minutes: everyone votes 16号."""
    posts = [
        FakePost(
            70001, "法官", 900, now - timedelta(minutes=2), "【投票帖】", time_style="absolute"
        )
    ]
    for n, (seat, target) in enumerate(sorted(everyone_votes(16).items())):
        when = now - timedelta(seconds=100 - 5 * n)
        body = f"投{target}号"
        posts.append(
            FakePost(70002 + n, f"玩家{seat}", 5000 + seat, when, body, time_style="absolute")
        )
    return FakeThread(TID, "【投票帖】", posts, now=now)


@pytest.mark.slow
def test_watch_record_end_to_end_records_as_tally_record_does(tmp_path, serve_site):
    for folder in ("watched", "twin"):
        (tmp_path / folder).mkdir()
    watched, twin = game_12(tmp_path / "watched"), game_12(tmp_path / "twin")
    now = datetime.now(SHANGHAI).replace(microsecond=0)
    thread = live_thread(now)
    base = serve_site(discuz_x_site(thread))
    url = f"{base}/forum.php?mod=viewthread&tid={TID}"
    closes = (now + timedelta(seconds=4)).strftime("%Y-%m-%d %H:%M:%S")
    cache = tmp_path / "cache"
    done = console(
        "watch", url, "--db", watched, "--deadline", closes, "--record",
        "--every", 1, "--grace", 1, "--delay", 0, "--cache", cache,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "距截止还有" in done.stderr  # the running count, on the judge's screen
    assert "（已记录为第 1 轮。投票帖快照 SHA-256：" in done.stdout
    assert done.stdout.startswith("[size=4][b]第 1 轮投票结果[/b][/size]")
    # the same thread and deadline recorded by tally --record: the same file, the same post
    tallied = console(
        "tally", url, "--db", twin, "--deadline", closes, "--record", "--delay", 0,
        "--cache", cache,
    )  # fmt: skip
    assert tallied.returncode == 0, tallied.stderr
    assert tallied.stdout == done.stdout
    assert rows(watched) == rows(twin)


class Board:
    """A vote thread whose clock moves as the watch sleeps (no real waiting)."""

    def __init__(self, url_thread: FakeThread) -> None:
        self.thread = url_thread

    def now(self) -> datetime:
        return self.thread.now

    def sleep(self, seconds: float) -> None:
        self.thread.now += timedelta(seconds=seconds)


def test_watch_record_takes_the_thread_and_deadline_the_game_file_remembers(
    tmp_path, serve_site, monkeypatch
):
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    board = Board(FakeThread(0, "", [], now=datetime(2024, 3, 1, 21, 58, tzinfo=SHANGHAI)))
    monkeypatch.setattr(watch_command, "now", board.now)
    monkeypatch.setattr(watch_command, "sleep", board.sleep)
    ok(run("thread", "vote", url, "--db", db))
    ok(run("night", "--round", 1, "--kill", 5, "--db", db))
    monkeypatch.setattr(open_command, "now", board.now)
    ok(run("open", "--deadline", "22:00", "--db", db))
    done = CliRunner().invoke(main, ["watch", "--db", str(db), "--record", "--delay", "0"])
    assert done.exit_code == 0, done.output
    assert "已记录为第 1 轮" in done.stdout and "距截止还有 2 分 0 秒" in done.stderr


def test_a_watch_whose_record_fails_writes_nothing(tmp_path, serve_site, monkeypatch):
    """Another killmod records the round while the watch waits: the watch's own record is
    refused at the deadline, nothing of it is written and no post is printed."""
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    board = Board(FakeThread(0, "", [], now=datetime(2024, 3, 1, 21, 59, tzinfo=SHANGHAI)))
    other = {"done": False}

    def sleep(seconds: float) -> None:
        board.sleep(seconds)
        if not other["done"] and board.now() >= datetime(2024, 3, 1, 22, 0, tzinfo=SHANGHAI):
            other["done"] = True
            ok(run("tally", url, "--db", db, "--deadline", deadline(1), "--record"))
            shutil.copy(db, tmp_path / "after-the-other.db")

    monkeypatch.setattr(watch_command, "now", board.now)
    monkeypatch.setattr(watch_command, "sleep", sleep)
    args = ["watch", url, "--db", str(db), "--deadline", deadline(1), "--record", "--delay", "0"]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 2, done.output
    assert "第 1 轮的投票已经记录过" in done.stderr
    assert done.stdout == ""
    assert rows(db) == rows(tmp_path / "after-the-other.db")


def test_watch_record_needs_the_game_file_and_a_round_it_can_record(tmp_path, serve_site):
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    roster = Path(tmp_path / "roster.toml")
    done = run("watch", url, "--roster", roster, "--deadline", deadline(1), "--record")
    assert done.exit_code == 2 and "--record 要写进游戏文件" in done.output
    ok(run("tally", url, "--db", db, "--deadline", deadline(1), "--record"))
    # the round given is recorded already: refused before the watch begins
    done = run("watch", url, "--db", db, "--deadline", deadline(1), "--record", "--round", 1)
    assert done.exit_code == 2 and "第 1 轮的投票已经记录过" in done.output
    # the next round, on the same thread: refused by the same guard as tally --record
    done = run("watch", url, "--db", db, "--deadline", deadline(1), "--record")
    assert done.exit_code == 2 and "是游戏文件记下的第 1 轮的投票帖，不是第 2 轮的" in done.output
