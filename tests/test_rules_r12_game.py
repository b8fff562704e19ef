"""1.2 rules through the commands on a real game file: penalties, 诈尸, leave, 立判出局.

Each test is named like the rule it holds (docs/rules/1.2.md, 补充说明 二.1–二.6 and 五).
The game: 16 seats, 1–3 杀手, 4 检查官, 5–16 水民; votes are tallied over HTTP from the
tests' local board.
"""

from __future__ import annotations

import json

import pytest

from tests.support.gamefiles import (
    alive,
    deadline,
    events,
    new_game,
    night,
    ok,
    refused,
    run,
    serve,
    tally,
    tally_json,
    votes,
)

ROLES = {1: "杀手", 2: "杀手", 3: "杀手", 4: "检查官"} | {seat: "水民" for seat in range(5, 17)}


@pytest.fixture
def game(tmp_path):
    return new_game(tmp_path, "1.2", ROLES)


def penalty(db, seat: int, kind: str, choice: str, round_no: int = 1):
    return run("penalty", seat, "--round", round_no, "--kind", kind, "--choice", choice, "--db", db)


def everyone(target: int, db, hms: str = "20:00:00", but: tuple[int, ...] = ()) -> list:
    """A ballot for ``target`` from every living seat except ``but``."""
    return votes(hms, {seat: f"投{target}号" for seat in alive(db) if seat not in but})


# --- 二.3–二.5: the penalties are enforced on the next night -----------------------------------


def test_penalty_cancel_refuses_that_camps_powers_on_the_next_night(game):
    """“取消该玩家所在阵营所有特殊权利一轮”: a killer's violation takes the next kill away."""
    ok(night(game, 1, "--kill", 5))
    done = penalty(game, 1, "cancel", "好人方选择：取消杀手方一轮杀人")
    assert done.exit_code == 0 and "在第 2 轮的夜晚执行" in done.stderr  # a note for the judge
    refused(night(game, 2, "--kill", 6, "--skip-day"), "第 2 轮夜晚杀手方的特殊权利已被取消")
    refused(night(game, 2, "--kill", 6, "--skip-day"), "第 1 轮 1号 玩家1 犯规")
    assert 6 in alive(game) and len(events(game, "night")) == 1  # nothing recorded
    quiet = night(game, 2, "--veto", 7, "--skip-day")  # the other camp keeps its power
    assert quiet.exit_code == 0 and "本夜执行处罚" in quiet.stderr
    assert 7 not in alive(game)
    ok(night(game, 3, "--kill", 8, "--skip-day"))  # “一轮”: one night only


def test_penalty_cancel_for_the_good_camp_refuses_the_veto(game):
    ok(penalty(game, 6, "cancel", "杀手方选择：取消好人方一轮特殊权利"))
    ok(night(game, 1, "--kill", 9))
    refused(night(game, 2, "--veto", 1, "--skip-day"), "第 2 轮夜晚好人方的特殊权利已被取消")
    assert 1 in alive(game)
    ok(night(game, 2, "--kill", 10, "--skip-day"))
    ok(
        night(game, 3, "--veto", 1, "--skip-day")
    )  # the one-time veto is still there after the penalty


def test_two_kills_without_an_extra_power_are_refused_not_truncated(game):
    """“每轮可杀一人”: a second --kill is refused, never silently dropped."""
    refused(night(game, 1, "--kill", 5, "--kill", 6), "杀手每轮只能杀一人，--kill 给了 2 次")
    assert events(game, "night") == [] and {5, 6} <= set(alive(game))


def test_penalty_extra_lets_the_killers_kill_twice_that_night(game):
    """“为对立阵营增加特殊权力一轮”: a 好人's violation, the killers choose a second kill."""
    ok(penalty(game, 5, "extra", "杀手方选择：多杀一人"))
    ok(night(game, 1, "--kill", 6))
    post = ok(night(game, 2, "--kill", 7, "--kill", 8, "--skip-day"))
    assert "7号 玩家7[/b] 被杀，出局。" in post and "8号 玩家8[/b] 被杀，出局。" in post
    assert not {7, 8} & set(alive(game))
    (second,) = [e for e in events(game, "night") if e.round == 2]
    assert (second.data["kills"], second.data["kill"]) == ([7, 8], 7)
    refused(night(game, 3, "--kill", 9, "--kill", 10, "--skip-day"), "杀手每轮只能杀一人")


def test_penalty_extra_for_the_good_camp_is_one_more_veto(game):
    """Decision: the 好人方's extra power is a veto besides the 检查官's one-time veto."""
    ok(penalty(game, 1, "extra", "好人方选择：多一次否决权"))
    ok(night(game, 1, "--veto", 9))  # the one-time veto
    done = night(game, 2, "--veto", 2, "--format", "json", "--skip-day")
    assert done.exit_code == 0 and "本夜执行处罚" in done.stderr  # a note for the judge
    doc = json.loads(done.stdout)
    assert (doc["veto"], doc["extra_veto"], doc["out"]) == (None, 2, [2])
    refused(
        night(game, 3, "--veto", 10, "--skip-day"), "否决权只有一次使用机会：第 1 轮已经对 9号 用过"
    )


def test_penalty_is_a_1_2_rule_only(tmp_path):
    roles = {1: "杀手", 2: "杀手", 3: "警察", 4: "警察"} | dict.fromkeys(range(5, 9), "平民")
    x_game = new_game(tmp_path, "x", roles)
    refused(penalty(x_game, 1, "cancel", "取消"), "killmod penalty 是 1.2 规则的处罚")


# --- 五: the 诈尸 windows ----------------------------------------------------------------------


def test_zhashi_opens_at_the_announcement_and_closes_at_24h_or_the_next_death_of_its_kind(
    game, serve_site
):
    """“游戏在法官宣布死亡开始后的24小时可以诈尸，即：被杀死的在另一个被杀之前可以随便诈；
    被投死的在另一个被投死的之前可以随便诈”: from the 尸体 post's time or the vote's deadline,
    24 hours or until the next death of the same kind, whichever comes first."""
    post = ok(night(game, 1, "--kill", 5, "--at", "2024-03-01 08:00", "--format", "text"))
    assert "至 2024-03-02 08:00:00 止；下一名被杀者公布时即止（以先到者为准）" in post
    day1 = serve(serve_site, everyone(6, game))
    text = ok(tally(game, day1, "--record", "--format", "text"))
    assert "至 2024-03-02 22:00:00 止；下一名被投出局者公布时即止" in text
    ok(night(game, 2, "--kill", 7, "--at", "2024-03-02 07:00"))  # 23 hours after the first
    day2 = serve(serve_site, everyone(8, game), day=2)
    ok(tally(game, day2, "--record", "--round", 2, deadline=deadline(2, "21:00")))
    rows = [
        (5, "06:59:59", "被杀者：下一名被杀者公布之前"),
        (5, "07:00:01", "被杀者：下一名被杀者已公布"),
        (6, "20:59:59", "被投出局者：下一名被投出局者公布之前"),
        (6, "21:00:01", "被投出局者：下一名被投出局者已公布"),
        (7, "23:00:00", "被杀者：16 小时后，下一名被杀者还没有公布"),
    ]
    thread = serve(serve_site, rows, day=2)  # the game thread: the same builder serves it
    report = ok(run("audit", "--db", game, "--game-thread", thread))
    ghosts = [line for line in report.splitlines() if "诈尸时间已于" in line]
    assert [line.split("）")[0] for line in ghosts] == ["3楼 玩家5（5号", "5楼 玩家6（6号"]
    assert "03-02 07:00:01：诈尸时间已于 03-02 07:00:00 结束" in ghosts[0]
    assert "03-02 21:00:01：诈尸时间已于 03-02 21:00:00 结束" in ghosts[1]


# --- 二.1 请假 and 补充说明 4 不投票 -----------------------------------------------------------


def test_a_player_on_leave_who_does_not_vote_is_a_self_vote_but_not_warned(game, serve_site):
    """“最多请假一天” with “不投票者视为自投，并被警告一次”: Decision: on leave on the
    deadline's day, the non-voter is still counted as voting for himself, but not warned."""
    ok(run("leave", 9, "--day", "2024-03-01", "--db", game))
    url = serve(serve_site, everyone(6, game, but=(9, 10)))
    doc = tally_json(game, url, "--record")
    ballots = {b["seat"]: b for b in doc["ballots"]}
    assert (ballots[9]["kind"], ballots[9]["target"]) == ("self", 9)
    assert doc["excused"] == [9]
    assert [w["seat"] for w in doc["warnings"]] == [10]
    assert [e.seat for e in events(game, "warning")] == [10]
    text = ok(tally(game, url, "--format", "text", "--round", 1, "--replace", "--record"))
    assert "9号 玩家9：视为自投（请假，不警告）。" in text
    assert "10号 玩家10：视为自投；第 1 次警告。" in text


def test_leave_on_another_day_does_not_excuse_the_non_voter(game, serve_site):
    ok(run("leave", 9, "--day", "2024-02-29", "--db", game))
    doc = tally_json(game, serve(serve_site, everyone(6, game, but=(9,))), "--record")
    assert [w["seat"] for w in doc["warnings"]] == [9] and "excused" not in doc


def test_an_edited_only_ballot_or_one_for_a_dead_seat_makes_a_warned_non_voter(
    tmp_path, serve_site
):
    """Decision: a rejected post never stands as a ballot — a voter whose only ballot was
    edited (说明 (2) “不得在原帖中进行修改”) or named a dead seat has not voted: 自投 and warned."""
    db = new_game(tmp_path, "1.2", ROLES, out=(16,))
    rows = [
        *everyone(6, db, but=(10, 11)),
        (10, "20:30:00", "投6号", "20:40:00"),  # edited ten minutes later
        (11, "20:31:00", "投16号"),  # 16 is out
    ]
    doc = tally_json(db, serve(serve_site, rows), "--record")
    reasons = {r["seat"]: r["reason"] for r in doc["rejected"]}
    assert (reasons[10], reasons[11]) == ("edited", "invalid_target")
    ballots = {b["seat"]: b for b in doc["ballots"]}
    assert (ballots[10]["kind"], ballots[11]["kind"]) == ("self", "self")
    assert [(w["seat"], w["action"]) for w in doc["warnings"]] == [(10, "warn"), (11, "warn")]
    assert sorted(e.seat for e in events(db, "warning")) == [10, 11]


# --- 二.6 特殊说明: 立判出局 -------------------------------------------------------------------


def test_conduct_out_is_immediate_shows_the_camp_and_checks_the_win(game):
    """“一旦触犯上述规定，立判出局”: one recorded step, the camp announced (五), the win check."""
    post = ok(run("out", 1, "--reason", "conduct", "--note", "游戏帖 35 楼辱骂他人", "--db", game))
    assert "法官判定：1号 玩家1 立判出局" in post and "游戏帖 35 楼辱骂他人" in post
    assert "1号触犯游戏规定，立判出局。身份：杀手。" in post
    (death,) = events(game, "death")
    (decision,) = events(game, "out")
    assert (death.seat, death.data["how"], death.data["out_id"]) == (1, "out", decision.id)
    refused(run("out", 1, "--reason", "conduct", "--db", game), "1号 玩家1 已出局")
    refused(run("out", 2, "--reason", "confessed", "--db", game), "1.2 规则没有「confessed」")
    ok(run("out", 2, "--reason", "conduct", "--db", game))
    last = ok(run("out", 3, "--reason", "conduct", "--db", game))
    assert "游戏结束：好人方胜利" in last and "投出所有杀手" in last
    refused(run("out", 5, "--reason", "conduct", "--db", game), "游戏已经结束")


def test_the_vote_counts_on_the_state_after_a_conduct_out(game, serve_site):
    ok(run("out", 6, "--reason", "conduct", "--db", game))
    doc = tally_json(game, serve(serve_site, votes("20:00:00", {5: "投6号", 7: "投8号"})))
    assert {r["seat"]: r["reason"] for r in doc["rejected"]} == {5: "invalid_target"}
    assert 6 not in {b["seat"] for b in doc["ballots"]}


# --- undo: every step of this issue is undone as a whole, by the generic undo ----------------


def test_undo_takes_back_a_conduct_out_and_the_game_end_it_made(game):
    for seat in (1, 2, 3):
        ok(run("out", seat, "--reason", "conduct", "--db", game))
    assert events(game, "game_over")
    undone = ok(run("undo", "--db", game))
    assert "法官判定" in undone
    assert 3 in alive(game) and not events(game, "game_over")
    assert [e.seat for e in events(game, "out")] == [1, 2]
    ok(run("undo", "--db", game))
    ok(run("undo", "--db", game))
    assert {1, 2, 3} <= set(alive(game)) and events(game, "death") == []


def test_undo_takes_back_a_penalty_and_its_night_effects(game):
    ok(night(game, 1, "--kill", 5))
    ok(penalty(game, 1, "cancel", "取消杀手方一轮杀人"))
    refused(night(game, 2, "--kill", 6, "--skip-day"), "杀手方的特殊权利已被取消")
    ok(run("undo", "--db", game))  # the penalty
    assert events(game, "violation") == []
    ok(night(game, 2, "--kill", 6, "--skip-day"))  # the kill stands again
    ok(penalty(game, 6, "extra", "杀手方选择：多杀一人"))
    ok(night(game, 3, "--kill", 7, "--kill", 8, "--skip-day"))
    ok(run("undo", "--db", game))  # the night of the two kills
    assert {7, 8} <= set(alive(game))
    ok(run("undo", "--db", game))  # the penalty: one kill a night again
    refused(night(game, 3, "--kill", 7, "--kill", 8, "--skip-day"), "杀手每轮只能杀一人")
