"""``killmod undo``: the last recorded step, whatever its kind, is voided — kept in the event
log — and the game is back where it was before it; undo again takes the step before."""

from __future__ import annotations

from pathlib import Path

import pytest

from killmod.game.store import Game
from killmod.usecases.undo import undo
from tests.support.gamefiles import deadline, new_game, night, ok, refused, run, serve, tally, votes
from tests.support.gamesteps import (
    ROLES,
    everyone_votes,
    game_12,
    record_day,
    status,
    vote_url,
)

R20_ROLES = {1: "杀手", 2: "杀手", 3: "杀手", 4: "警察", 5: "警察", 6: "警察"} | {
    seat: "平民" for seat in range(7, 13)
}
TIE = {seat: 15 for seat in range(1, 8)} | {seat: 16 for seat in range(8, 15)} | {15: 16, 16: 15}


def undone(db: Path) -> str:
    return ok(run("undo", "--db", db))


def standing_and_void(db: Path) -> tuple[int, int]:
    game = Game.open(db)
    return len(game.events()), len(game.events(include_void=True))


# Each kind of step: what comes before it, the step itself, and the title undo names it by.
def _tie(db, tmp_path, serve_site):
    ok(record_day(db, vote_url(serve_site, TIE, 1), 1))


def _day(db, tmp_path, serve_site):
    ok(record_day(db, vote_url(serve_site, everyone_votes(16), 1), 1))


STEPS = {
    "tally": (None, _day, "第 1 轮的投票"),
    "night": (None, lambda db, *_: ok(night(db, 1, "--kill", 5)), "第 1 轮的夜晚"),
    "sub": (
        None,
        lambda db, *_: ok(run("sub", 5, "新人", "--db", db)),
        "5号的替补：新人 接替 玩家5",
    ),
    "lottery make": (
        _tie,
        lambda db, *_: ok(run("lottery", "make", "--round", 1, "--db", db)),
        "第 1 轮平票的签",
    ),
    "lottery reveal": (
        lambda db, *rest: (_tie(db, *rest), ok(run("lottery", "make", "--round", 1, "--db", db))),
        lambda db, *_: ok(run("lottery", "reveal", "--round", 1, "--lot", 1, "--db", db)),
        "第 1 轮的抽签结果（1 号签）",
    ),
    "penalty": (
        None,
        lambda db, *_: ok(
            run("penalty", 6, "--round", 1, "--kind", "cancel", "--choice", "取消", "--db", db)
        ),
        "第 1 轮 6号 玩家6 的犯规处罚",
    ),
    "leave": (
        None,
        lambda db, *_: ok(run("leave", 7, "--day", "2024-03-01", "--db", db)),
        "7号 玩家7 请假（2024-03-01）",
    ),
    "lurkers": (
        _day,
        lambda db, tmp_path, serve_site: ok(
            run(
                "lurkers",
                vote_url(serve_site, everyone_votes(16), 1),
                "--round",
                1,
                "--record",
                "--db",
                db,
            )
        ),
        "第 1 轮的潜水警告",
    ),
    "tally --replace": (
        _day,
        lambda db, tmp_path, serve_site: ok(
            record_day(
                db, vote_url(serve_site, everyone_votes(15), 1), 1, "--round", 1, "--replace"
            )
        ),
        "第 1 轮的投票",
    ),
    "night --replace": (
        lambda db, *_: ok(night(db, 1, "--kill", 5)),
        lambda db, *_: ok(night(db, 1, "--kill", 6, "--replace")),
        "第 1 轮的夜晚",
    ),
}


@pytest.mark.parametrize("kind", STEPS)
def test_undo_voids_the_last_step_of_any_kind_and_status_is_as_before(kind, tmp_path, serve_site):
    db = game_12(tmp_path)
    before_step, step, title = STEPS[kind]
    if before_step:
        before_step(db, tmp_path, serve_site)
    earlier = status(db)
    standing = standing_and_void(db)[0]
    step(db, tmp_path, serve_site)
    assert status(db) != earlier
    report = undone(db)
    assert f"步：{title}" in report
    assert "这一步的记录作废" in report or "恢复" in report
    assert report.endswith(earlier)  # the state the game is back to
    assert status(db) == earlier
    now_standing, everything = standing_and_void(db)
    assert now_standing == standing + 1  # and the undo itself, in the event log
    assert everything > now_standing  # the voided step is kept


def test_undo_of_a_replacement_brings_the_old_record_back(tmp_path, serve_site):
    db = game_12(tmp_path)
    ok(record_day(db, vote_url(serve_site, everyone_votes(16), 1), 1))
    first = status(db)
    old = Game.open(db).tally_record(1)["id"]
    url = vote_url(serve_site, everyone_votes(15), 1)
    ok(record_day(db, url, 1, "--round", 1, "--replace"))
    report = undone(db)
    assert "恢复：第 1 轮的投票" in report
    assert status(db) == first
    assert Game.open(db).tally_record(1)["id"] == old


def test_undo_goes_back_step_by_step_to_the_start_and_no_further(tmp_path, serve_site):
    db = game_12(tmp_path, dict.fromkeys(ROLES))
    states = [status(db)]
    ok(run("deal", "--db", db, "--notices", tmp_path / "notices", "--seed", 7))
    states.append(status(db))
    ok(night(db, 1, "--kill", 16))
    states.append(status(db))
    ok(record_day(db, vote_url(serve_site, everyone_votes(15, range(1, 16)), 1), 1))
    states.append(status(db))
    for state in reversed(states[:-1]):
        undone(db)
        assert status(db) == state
    refused(run("undo", "--db", db), "本局没有可以撤销的步骤")
    assert Game.open(db).dealt_roles() == {}


def test_undoing_the_deal_voids_its_roles_and_it_can_be_dealt_again(tmp_path):
    db = game_12(tmp_path, dict.fromkeys(ROLES))
    ok(run("deal", "--db", db, "--notices", tmp_path / "a", "--seed", 1))
    first = {p.seat: p.role for p in Game.open(db).roster().players}
    assert "已发出的站内短信作废" in undone(db)
    assert all(p.role is None for p in Game.open(db).roster().players)
    ok(run("deal", "--db", db, "--notices", tmp_path / "b", "--seed", 2))
    assert {p.seat: p.role for p in Game.open(db).roster().players} != first


def test_undo_of_the_step_that_ended_the_game_lets_the_game_go_on(tmp_path, serve_site):
    db = game_12(tmp_path, out=(2, 3))
    ended = ok(record_day(db, vote_url(serve_site, everyone_votes(1, range(4, 17)), 1), 1))
    assert "游戏结束" in ended
    refused(night(db, 2, "--kill", 5), "游戏已经结束")
    report = undone(db)
    assert "游戏结束（好人方胜利）" in report and "1号 玩家1 出局（投票）" in report
    ok(record_day(db, vote_url(serve_site, everyone_votes(16, range(1, 17)), 1), 1))


def test_a_suicide_is_undone_like_any_step(tmp_path, serve_site):
    db = new_game(tmp_path, "2.0", R20_ROLES)
    url = serve(serve_site, votes("20:00:00", dict.fromkeys(range(3, 10), "投2号")))
    ok(tally(db, url, "--record"))
    earlier = status(db)
    ok(run("suicide", 2, "--db", db))
    assert "第 1 轮 2号 亮牌自杀" in undone(db)
    assert status(db) == earlier


def test_a_new_kind_of_step_is_undone_without_code_of_its_own(tmp_path):
    """A step kind undo has never heard of (as `killmod out` will write): voided whole."""
    db = game_12(tmp_path)
    earlier = status(db)
    with Game.open(db) as game:
        with game.transaction() as step:
            step.describe("第 1 轮 5号 被法官判出局", kind="out")
            game.record(1, "judged_out", 5, {"reason": "认匪"})
            game.record(1, "death", 5, {"how": "judged"})
        assert not game.roster().seat(5).alive
        done = undo(game)
    assert done.step.kind == "out" and done.step.title == "第 1 轮 5号 被法官判出局"
    assert "5号 玩家5 出局（judged）" in done.effects
    assert status(db) == earlier


def test_a_step_without_a_title_is_named_by_what_it_recorded(tmp_path):
    db = game_12(tmp_path)
    with Game.open(db) as game:
        with game.transaction():
            game.record(2, "violation", 6, {"name": "玩家6"})
        assert game.last_step().title == "第 2 轮 6号 犯规处罚"


def test_the_count_counts_on_the_state_before_an_undone_tally(tmp_path, serve_site):
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    ok(record_day(db, url, 1))
    undone(db)
    # the same round again, from the same thread: the undone record is not a round
    assert "已记录为第 1 轮" in ok(record_day(db, url, 1))
    assert ok(run("tally", url, "--db", db, "--deadline", deadline(1)))
