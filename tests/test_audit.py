"""`killmod audit` and `killmod penalty`: violations (犯规) and the opposing camp's penalties."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.game.store import Game
from killmod.usecases.audit import audit
from tests.support.gamethread import at, new_game, serve_game_thread
from tests.support.pagebuilder import DEMO_TID, demo_thread, discuz_x_site


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def game(tmp_path: Path, serve_site) -> Path:
    """The example game with round 1's vote recorded from the demo vote thread (5 voted out)."""
    db = new_game(tmp_path)
    url = f"{serve_site(discuz_x_site(demo_thread()))}/forum.php?mod=viewthread&tid={DEMO_TID}"
    result = run("tally", url, "--deadline", "22:00", "--db", str(db), "--record", "--round", "1")
    assert result.exit_code == 0, result.output
    return db


def test_vote_thread_posts_without_a_vote_or_a_right_to_vote_appear(game):
    found = audit(Game.open(game))
    assert [(v.round, v.floor, v.seat, v.reason) for v in found.vote_posts] == [
        (1, 19, 16, "no_vote"),
        (1, 21, 6, "dead"),
    ]
    text = run("audit", "--db", str(game)).output
    assert "第 1 轮 19楼 小透明（16号） 05-12 17:02:33：非正式投票内容的发言（犯规）" in text
    assert "第 1 轮 21楼 潜水员（6号） 05-12 18:20:47：已出局玩家在投票帖发言" in text
    assert "路过的" not in text  # an outsider's post is for the moderators, not a violation
    assert "未检查（用 --game-thread 给出游戏帖）" in text
    assert audit(Game.open(game), round_no=2).vote_posts == ()


def test_a_dead_players_game_thread_post_after_24_hours_is_found_but_not_within(game, serve_site):
    # seat 5, voted out in round 1: announced at the vote's deadline, 2019-05-12 22:00
    night = run(
        "night", "--round", "2", "--kill", "7", "--at", "2019-05-13 08:00", "--db", str(game)
    )
    assert night.exit_code == 0, night.output
    rows = [
        (6, at("2019-05-13 09:00:00"), "诈尸：正好 24 小时"),
        (6, at("2019-05-13 09:00:01"), "诈尸：超过 24 小时 1 秒"),
        (5, at("2019-05-13 22:00:00"), "投票截止后正好 24 小时"),
        (5, at("2019-05-13 22:00:01"), "投票截止后 24 小时 1 秒"),
        (7, at("2019-05-13 20:00:00"), "尸体公布后 12 小时"),
        (7, at("2019-05-14 09:00:00"), "尸体公布后 25 小时"),
        (11, at("2019-05-14 10:00:00"), "不知道何时出局"),
    ]
    url = serve_game_thread(serve_site, rows)
    found = audit(Game.open(game), game_thread=url, announced={6: "2019-05-12 09:00"}).game_thread
    assert [(p.seat, p.posted_at) for p in found.posts] == [
        (6, at("2019-05-13 09:00:01")),
        (5, at("2019-05-13 22:00:01")),
        (7, at("2019-05-14 09:00:00")),
    ]
    assert [p.seat for p in found.unknown] == [11]
    text = run(
        "audit", "--db", str(game), "--game-thread", url, "--announced", "6=2019-05-12 09:00"
    ).output
    assert "潜水员（6号） 05-13 09:00:01：诈尸时间已于 05-13 09:00:00 结束" in text
    assert "不知道何时宣布死亡，未检查：11号 星期八" in text


def test_announced_needs_the_game_thread_and_a_dated_time(game):
    alone = run("audit", "--db", str(game), "--announced", "6=2019-05-12 09:00")
    assert alone.exit_code == 2 and "--game-thread" in alone.output
    living = run(
        "audit", "--db", str(game), "--game-thread", "x", "--announced", "3=2019-05-12 09:00"
    )
    assert living.exit_code == 2 and "3号 路人甲 没有出局" in living.output


def test_penalty_is_recorded_and_listed(game):
    result = run(
        "penalty",
        "6",
        "--round",
        "1",
        "--kind",
        "extra",
        "--choice",
        "好人方选择：检查官多一次否决权",
        "--reason",
        "投票帖 21楼 出局后发言",
        "--db",
        str(game),
    )
    assert result.exit_code == 0, result.output
    assert "已记录犯规：第 1 轮 6号 潜水员（投票帖 21楼 出局后发言）" in result.output
    (event,) = Game.open(game).events("violation")
    assert (event.round, event.seat) == (1, 6)
    assert event.data == {
        "name": "潜水员",
        "penalty": "extra",
        "choice": "好人方选择：检查官多一次否决权",
        "reason": "投票帖 21楼 出局后发言",
        "camp": "杀手",
        "night": 2,
    }
    assert "在第 2 轮的夜晚执行" in result.output
    text = run("audit", "--db", str(game)).output
    assert (
        "第 1 轮 6号 潜水员：投票帖 21楼 出局后发言；"
        "处罚：为对立阵营增加特殊权力一轮——好人方选择：检查官多一次否决权"
    ) in text
    assert audit(Game.open(game), round_no=2).penalties == ()


def test_penalty_needs_a_known_kind_and_seat(game):
    wrong = run(
        "penalty", "6", "--round", "1", "--kind", "both", "--choice", "x", "--db", str(game)
    )
    assert wrong.exit_code == 2 and "cancel" in wrong.output
    nobody = run(
        "penalty", "17", "--round", "1", "--kind", "cancel", "--choice", "x", "--db", str(game)
    )
    assert nobody.exit_code == 2 and "没有 17 号座位" in nobody.output
    assert Game.open(game).events("violation") == []
