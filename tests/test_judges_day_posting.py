"""The judge's day posted through the fake board: ``open``, ``remind`` and ``sub`` with
``--post`` reply with exactly the post they printed, once, as the judge."""

from __future__ import annotations

from pathlib import Path

import pytest

import killmod.commands.open as open_command
import killmod.commands.remind as remind_command
from killmod.game import outbox
from killmod.game.store import Game
from tests.support.boardgames import GAME_TID, BoardGame, board_game
from tests.support.gamefiles import TID, vote_thread
from tests.support.pagebuilder import SHANGHAI

ROLES = {seat: "杀手" if seat <= 3 else "检查官" if seat == 4 else "水民" for seat in range(1, 17)}


@pytest.fixture
def game(tmp_path: Path, serve_site, monkeypatch) -> BoardGame:
    from datetime import datetime

    moment = datetime(2024, 3, 1, 20, 30, tzinfo=SHANGHAI)
    for module in (open_command, remind_command):
        monkeypatch.setattr(module, "now", lambda: moment)
    game = board_game(tmp_path, serve_site, "1.2", ROLES)
    ballots = [(seat, f"20:{seat:02d}:00", "投5号") for seat in range(1, 9)]
    game.board.add_thread(vote_thread(ballots))
    night = game.run("night", "--round", 1, "--kill", 16, "--at", "2024-03-01 18:30")
    assert night.exit_code == 0, night.output
    return game


def test_open_remind_and_sub_reply_with_what_they_printed(game: BoardGame):
    vote_url = game.thread_url(TID)
    common = ("--interval", 0, "--yes")
    opened = game.run(
        "open", "--round", 1, "--deadline", "2024-03-01 22:00", "--thread", vote_url,
        "--post", game.game_url, *common,
    )  # fmt: skip
    assert opened.exit_code == 0, opened.output
    reminded = game.run("remind", "--post", vote_url, *common)
    assert reminded.exit_code == 0, reminded.output
    subbed = game.run("sub", 15, "替补甲", "--post", game.game_url, *common)
    assert subbed.exit_code == 0, subbed.output
    replies = game.board.replies
    assert [(tid, text) for tid, _pid, text in replies] == [
        (GAME_TID, opened.stdout),
        (TID, reminded.stdout),
        (GAME_TID, subbed.stdout),
    ]
    assert "还没有投票" in reminded.stdout and "9号" in reminded.stdout
    assert "替补甲" in subbed.stdout and "杀手" not in subbed.stdout
    with Game.open(game.db) as opened_game:
        records = [r for r in outbox.records(opened_game).values() if r.what == "post"]
        kinds = {step.id: step.kind for step in opened_game.steps()}
    # the opening and the substitution belong to their steps; the reminder to none
    assert [kinds.get(record.data.get("for_step")) for record in records] == [
        "open",
        None,
        "sub",
    ]


def test_the_same_reminder_is_not_posted_twice(game: BoardGame):
    vote_url = game.thread_url(TID)
    ok = game.run("open", "--deadline", "2024-03-01 22:00", "--thread", vote_url)
    assert ok.exit_code == 0, ok.output
    first = game.run("remind", "--post", vote_url, "--interval", 0, "--yes")
    assert first.exit_code == 0, first.output
    again = game.run("remind", "--post", vote_url, "--interval", 0, "--yes")
    assert again.exit_code == 0, again.output
    assert "这篇已经发过" in again.stderr
    assert len(game.board.replies) == 1


def test_remind_post_needs_the_game_file(game: BoardGame, tmp_path: Path):
    roster = tmp_path / "roster.toml"
    done = game.run(
        "remind", game.thread_url(TID), "--deadline", "22:00", "--roster", roster,
        "--post", game.thread_url(TID), "--yes",
    )  # fmt: skip
    assert done.exit_code == 2
    assert "用 --db，不用 --roster" in done.output
    assert game.board.replies == []
