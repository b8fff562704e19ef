"""What went out to the board, in the game file: kept through undo, no step of the game."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.board.posting import Announcement, post_announcement
from killmod.board.session import BoardOptions
from killmod.commands.cli import main
from killmod.core.errors import BadInput
from killmod.game import outbox
from killmod.game.store import BOARD, Game
from tests.support.boardgames import BoardGame, board_game, ok

ROLES = {seat: "杀手" if seat <= 3 else "检查官" if seat == 4 else "水民" for seat in range(1, 17)}
NOW = datetime(2024, 3, 1, 12, 0).astimezone()


@pytest.fixture
def game(tmp_path: Path, serve_site) -> BoardGame:
    return board_game(tmp_path, serve_site, "1.2", ROLES)


def post(game: BoardGame, text: str, step: int | None = None) -> int:
    options = BoardOptions(game.cookies, timeout=5, interval=0, sleep=lambda s: None)
    with Game.open(game.db) as opened:
        posted = post_announcement(
            opened, game.game_url, Announcement(text, "公告", step), options, confirm=lambda p: True
        )
    return posted.pid


def test_undo_passes_over_what_went_out_to_the_step_before(game: BoardGame):
    ok(game.run("night", "--round", 1, "--kill", 7))
    with Game.open(game.db) as opened:
        night = opened.last_step().id
    pid = post(game, "第 1 轮 尸体：7号 出局", night)
    ok(game.run("leave", 9, "--day", "2024-03-02"))
    first = game.run("undo")
    assert "请假" in first.output and "不会撤回" not in first.output
    second = game.run("undo")
    assert "第 1 轮的夜晚" in second.output
    assert f"回复到帖子 9200的公告（pid {pid}）不会撤回" in second.output
    with Game.open(game.db) as opened:
        (record,) = outbox.records(opened).values()
        assert (record.state, record.data["pid"]) == ("done", pid)
        assert all(step.kind != BOARD for step in opened.steps())
        assert opened.events("night") == []


def test_the_night_posted_can_still_be_recorded_again(game: BoardGame):
    ok(game.run("night", "--round", 1, "--kill", 7))
    with Game.open(game.db) as opened:
        night = opened.last_step().id
    post(game, "第 1 轮 尸体：7号 出局", night)
    done = game.run("night", "--round", 1, "--kill", 8, "--replace")
    assert done.exit_code == 0, done.output


def test_a_post_is_no_change_to_a_step_computed_meanwhile(game: BoardGame):
    with Game.open(game.db) as opened:
        head = opened.head()
        outbox.begin(opened, "post", "k" * 64, "发帖：测试", {"thread": 1}, now=NOW)
        with opened.transaction("请假", based_on=head):
            opened.record(1, "leave", 9, {"day": "2024-03-02"})


def test_a_send_in_flight_by_a_living_process_is_not_sent_again(game: BoardGame):
    import subprocess
    import sys

    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        with Game.open(game.db) as opened:
            outbox.begin(opened, "pm", "k" * 64, "站内短信：测试", {"uid": 5001}, now=NOW)
            opened.db.execute(
                "update events set data = json_set(data, '$.process', ?) where kind = 'board'",
                [sleeper.pid],
            )
            opened.db.conn.commit()
            with pytest.raises(BadInput, match=f"另一个 killmod（进程 {sleeper.pid}）正在发送"):
                outbox.begin(opened, "pm", "k" * 64, "站内短信：测试", {"uid": 5001}, now=NOW)
    finally:
        sleeper.kill()
        sleeper.wait()
    with Game.open(game.db) as opened:  # its process gone, the send may be looked for again
        outbox.begin(opened, "pm", "k" * 64, "站内短信：测试", {"uid": 5001}, now=NOW)


def test_a_judges_uid_recorded_after_the_set_up_lets_him_post(tmp_path: Path, serve_site):
    game = board_game(tmp_path, serve_site, "1.2", ROLES, judge_uid=False)
    file = tmp_path / "post.txt"
    file.write_text("第 1 轮公告正文", encoding="utf-8")
    refused = game.run("post", file, "--thread", game.game_url, "--yes")
    assert refused.exit_code == 2 and "killmod judge" in refused.output
    wrong = game.run("judge", "玩家3", "--uid", 999)
    assert wrong.exit_code == 2 and "是玩家，不是法官" in wrong.output
    ok(game.run("judge", "法官", "--uid", 900))
    done = game.run("post", file, "--thread", game.game_url, "--yes")
    assert done.exit_code == 0, done.output
    assert len(game.board.replies) == 1
    ok(game.run("undo"))  # the uid is a step like any other
    with Game.open(game.db) as opened:
        assert opened.roster().judge_uids == {}


def test_the_judge_by_uid_is_also_no_ballot(tmp_path: Path, serve_site):
    game = board_game(tmp_path, serve_site, "1.2", ROLES, judge_uid=False)
    ok(game.run("judge", "法官助理", "--uid", 901))
    with Game.open(game.db) as opened:
        roster = opened.roster()
    assert "法官助理" in roster.judges and roster.judge_uids == {"法官助理": 901}


def test_rules_and_help_list_the_new_commands():
    done = CliRunner().invoke(main, ["--help"])
    assert "post" in done.output and "judge" in done.output
