"""A round already recorded, counted again (issue 25: nothing wrong is recorded silently).

A count of a recorded round is made on the game's state as it was when that round's vote
was counted — every step before the step that recorded it, never the deaths, substitutes,
warnings and nights that came after — and the judge is told on stderr that the round is
recorded and whether this count agrees with the record (outcome, ballots, warnings).
``--record --replace`` records on the same state.  Real game files, the tests' local
board; the scenario of the issue in the installed ``killmod``'s own processes.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

import killmod.commands.tally as tally_command
import killmod.commands.watch as watch_command
import killmod.web.day as day_page
from killmod.game.store import Game
from tests.support.gamefiles import (
    DEADLINE,
    LATER,
    TID,
    deadline,
    events,
    new_game,
    night,
    ok,
    refused,
    run,
    said,
    serve,
    tally,
    votes,
)
from tests.support.gamesteps import ROLES, console, vote_url
from tests.support.pagebuilder import SHANGHAI
from tests.support.webpage import board_for_a_12_game, let_in, roster_form, text_box
from tests.support.webpage import vote_thread as web_vote_thread

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_DAY = ROOT / "examples" / "day1"
EXAMPLE_DEADLINE = "2019-05-12 22:00"
AGREES = "与记录一致：结果、每张票和每个警告都相同。"
RECORDED = "第 1 轮的投票已经在"
# What the recorded announcement has after the count: the record's own lines.
RECORD_LINES = "\n（已记录为第 1 轮。"


def recorded_document(db: Path, round_no: int = 1) -> dict:
    """The round's standing recorded tally document, read from the file with plain SQLite."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = conn.execute(
            "select result from tallies where round = ? and void = 0 order by id desc limit 1",
            [round_no],
        ).fetchone()
    finally:
        conn.close()
    return json.loads(row[0])


def the_count(document: dict) -> tuple:
    """What a recount must repeat: the outcome (its camp is the announcement's), each
    ballot, each warning."""
    outcome = {k: v for k, v in document["outcome"].items() if k != "camp"}
    return outcome, document["ballots"], document["warnings"]


def announcement(recorded: str) -> str:
    """A recorded announcement without the lines only recording adds."""
    return recorded.split(RECORD_LINES)[0]


# --- the scenario, in the installed killmod's processes ------------------------------


@pytest.mark.slow
def test_a_recorded_round_is_counted_again_on_its_own_state(tmp_path):
    """The issue: after ``tally --record`` (5号 out, warnings 9/14/16), ``tally --round 1``
    counted round 1 with 5号 already dead — a tie of 7号 and 12号, more self votes — exit 0.
    Now it is the recorded count, told so; after night 2 too."""

    def killmod(*args: object):
        return console(*args, cwd=tmp_path)

    roster = ROOT / "examples" / "first-game.toml"
    assert killmod("init", "--roster", roster).returncode == 0
    assert killmod("deal", "--seed", 1).returncode == 0
    night_1 = ("night", "--round", 1, "--kill", 11, "--veto", 6, "--at", "2019-05-12 09:00")
    assert killmod(*night_1).returncode == 0
    recorded = killmod("tally", EXAMPLE_DAY, "--deadline", EXAMPLE_DEADLINE, "--record")
    assert recorded.returncode == 0, recorded.stderr
    assert "[b]5号 预言家本家[/b] 得票最高，被投出局。" in recorded.stdout
    assert RECORDED not in recorded.stderr  # a first record is no recount

    again = killmod("tally", EXAMPLE_DAY, "--deadline", EXAMPLE_DEADLINE, "--round", 1)
    assert again.returncode == 0, again.stderr
    assert again.stdout == announcement(recorded.stdout)  # not a tie of 7号 and 12号
    assert "第 1 轮的投票已经在" in again.stderr and AGREES in again.stderr

    # A night recorded after the tally changes nothing in round 1's count.
    night_2 = killmod("night", "--round", 2, "--kill", 7, "--at", "2019-05-13 09:00")
    assert night_2.returncode == 0, night_2.stderr
    after = killmod("tally", EXAMPLE_DAY, "--deadline", EXAMPLE_DEADLINE, "--round", 1)
    assert after.stdout == announcement(recorded.stdout) and AGREES in after.stderr
    doc = json.loads(
        killmod(
            "tally", EXAMPLE_DAY, "--deadline", EXAMPLE_DEADLINE, "--round", 1, "--format", "json"
        ).stdout
    )
    assert the_count(doc) == the_count(recorded_document(tmp_path / "killmod.db"))

    # A count that differs says how, and why it cannot be recorded anew yet.
    rulings = tmp_path / "rulings.toml"
    rulings.write_text('[26]\nignore = true\nnote = "截止时刻的帖"\n', encoding="utf-8")
    ruled = ["--deadline", EXAMPLE_DEADLINE, "--round", 1, "--rulings", rulings]
    differs = killmod("tally", EXAMPLE_DAY, *ruled)
    assert differs.returncode == 0, differs.stderr
    assert "与记录不同（2 处）：" in differs.stderr
    assert (
        "· 投票 12号 白开水：记录的是 5号 预言家本家（26楼，2019-05-12 22:00:00），"
        "重新计票是 7号 花生米（9楼，2019-05-12 12:03:10）" in differs.stderr
    )
    assert "· 结果：记录的是 5号 预言家本家 出局，重新计票是 7号 花生米 出局" in differs.stderr
    assert (
        "现在还不能 --record --replace：第 2 轮已经有记录，只能重新记录最近的一轮" in differs.stderr
    )
    assert killmod("tally", EXAMPLE_DAY, *ruled, "--record", "--replace").returncode == 2

    # Night 2 undone, the new count is recorded in the old one's place — on round 1's state.
    assert killmod("undo").returncode == 0
    differs = killmod("tally", EXAMPLE_DAY, *ruled)
    assert (
        '要按这次的结果改正记录，运行 killmod tally 投票帖 --round 1 --deadline "2019-05-12 '
        '22:00:00" --record --replace' in differs.stderr
    )
    replaced = killmod("tally", EXAMPLE_DAY, *ruled, "--record", "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert "并取代旧记录" in replaced.stderr and "与旧记录不同（2 处）：" in replaced.stderr
    assert "[b]7号 花生米[/b] 得票最高，被投出局。" in replaced.stdout
    status = killmod("status").stdout
    assert "5号 预言家本家" in status.split("出局：")[0]  # alive again
    assert "7号 花生米（第 1 轮被投票出局" in status


def game_with_a_warning(tmp_path: Path) -> Path:
    """A 1.2 game of 玩家1–16 whose 9号 carries a warning into it; one substitute, 替补甲."""
    extra = 'substitutes = ["替补甲"]\n[warnings]\n9 = 1'
    return new_game(tmp_path, "1.2", ROLES, extra=extra)


# Day 1: everyone votes 5号 (5号 votes 6号) but 9号, who says nothing: his second warning.
DAY_1 = {seat: 5 for seat in range(1, 16) if seat not in (5, 9)} | {5: 6}


@pytest.mark.slow
def test_a_substitute_the_recorded_tally_brought_in_is_not_in_its_recount(tmp_path, serve_site):
    db = game_with_a_warning(tmp_path)
    assert console("night", "--round", 1, "--kill", 16, "--db", db).returncode == 0
    url = vote_url(serve_site, DAY_1, 1)
    recorded = console("tally", url, "--db", db, "--deadline", deadline(1), "--record")
    assert recorded.returncode == 0, recorded.stderr
    assert "9号 玩家9：视为自投；第 2 次警告，由替补 替补甲 接替。" in recorded.stdout
    again = console("tally", url, "--db", db, "--deadline", deadline(1), "--round", 1)
    assert again.returncode == 0, again.stderr
    assert again.stdout == announcement(recorded.stdout) and AGREES in again.stderr
    doc = json.loads(
        console(
            *("tally", url, "--db", db, "--deadline", deadline(1), "--round", 1),
            *("--format", "json"),
        ).stdout
    )
    assert the_count(doc) == the_count(recorded_document(db))
    assert {"seat": 9, "name": "玩家9", "total": 2, "action": "substitute"}.items() <= next(
        w for w in doc["warnings"] if w["seat"] == 9
    ).items()

    # A step after the tally that changed the game: the tally is not recorded anew over it.
    out = console("out", 3, "--reason", "conduct", "--db", db, "--at", "2024-03-02 09:00")
    assert out.returncode == 0, out.stderr
    still = console("tally", url, "--db", db, "--deadline", deadline(1), "--round", 1)
    assert still.stdout == announcement(recorded.stdout) and AGREES in still.stderr
    replace = console(
        *("tally", url, "--db", db, "--deadline", deadline(1), "--round", 1),
        *("--record", "--replace"),
    )
    assert replace.returncode == 2
    assert "第 1 轮的投票记录之后，又记录了：" in replace.stderr
    assert "先用 killmod undo 一步步撤销到第 1 轮的投票之后" in replace.stderr
    assert console("undo", "--db", db).returncode == 0
    replace = console(
        *("tally", url, "--db", db, "--deadline", deadline(1), "--round", 1),
        *("--record", "--replace"),
    )
    assert replace.returncode == 0, replace.stderr
    assert "与旧记录一致" in replace.stderr
    substitutions = events(db, "substitution")
    assert [(e.seat, e.data["new"]) for e in substitutions] == [(9, "替补甲")]


# --- the rule sets whose day is several votes ---------------------------------------------

V4_ROLES = (
    {1: "杀手", 2: "杀手", 3: "杀手", 4: "杀手", 5: "杀手", 6: "警察", 7: "医生"}
    | {
        8: "狙击手",
        9: "花蝴蝶",
        10: "森林老人",
    }
    | {seat: "平民" for seat in range(11, 17)}
)
X_ROLES = {1: "杀手", 2: "杀手", 3: "警察", 4: "警察", 5: "平民", 6: "平民", 7: "平民", 8: "平民"}


def test_a_v4_revote_is_counted_again_on_the_state_before_it(tmp_path, serve_site):
    """V4.0: a tie, then the re-vote among the tied (11 out), then a night that kills 12 and
    ends 13's 癫狂: the re-vote counted again is the recorded one — 11 and 12 its only
    candidates, 13's ballot still not counted."""
    db = new_game(tmp_path, "v4", V4_ROLES)
    ok(night(db, 0, "--silence", 13))
    first = votes("20:00:00", {1: "投11", 2: "投11", 3: "投12", 4: "投12"})
    revote = votes("22:30:00", {1: "投11", 2: "投11", 3: "投12", 5: "投11", 13: "投12"})
    url = serve(serve_site, first + revote)
    ok(tally(db, url, "--record"))
    ok(tally(db, url, "--record", deadline=LATER))
    ok(night(db, 1, "--kill", 12))
    again = tally(db, url, "--round", 1, "--format", "json", deadline=LATER)
    assert RECORDED in said(again) and AGREES in said(again)
    doc = json.loads(again.stdout)
    assert doc["outcome"] == {"kind": "eliminated", "seat": 11}
    assert the_count(doc) == the_count(recorded_document(db))
    frenzied = [v for v in doc["verdicts"] if v["seat"] == 13 and v["floor"] > 5]
    assert [v["verdict"] for v in frenzied] == ["not_counted"]


def test_an_x_tied_revote_is_counted_again_on_the_state_before_it(tmp_path, serve_site):
    db = new_game(tmp_path, "x", X_ROLES)
    ok(night(db, 1, "--kill", 5))
    tie = {1: "投6", 2: "投7", 3: "投6", 4: "投7"}
    url = serve(serve_site, votes("20:00:00", tie) + votes("22:30:00", tie | {2: "投6"}))
    ok(tally(db, url, "--record"))
    second = json.loads(ok(tally(db, url, "--record", "--format", "json", deadline=LATER)))
    assert second["outcome"] == {"kind": "eliminated", "seat": 6}
    ok(night(db, 2, "--kill", 7))
    # No thread, no deadline given: the file's, those the re-vote was recorded with.
    again = run("tally", "--round", 1, "--format", "json", "--db", db)
    assert AGREES in said(again) and "不同" not in said(again)
    doc = json.loads(again.stdout)
    assert doc["day"]["stage"]["kind"] == "tied_revote" and doc["outcome"]["seat"] == 6
    assert the_count(doc) == the_count(recorded_document(db))


# --- an alias recorded after the tally, and what cannot be counted -----------------------------


def test_an_alias_recorded_after_the_tally_counts_in_its_recount_and_replace(tmp_path, serve_site):
    """The judge's corrections of who is who hold for a vote counted before them: the
    alias's recount says what changes, and ``--record --replace`` records it."""
    db = new_game(tmp_path, "1.2", ROLES, extra='substitutes = ["替补甲"]')
    ok(night(db, 1, "--kill", 16))
    ballots = {seat: 5 for seat in range(1, 16) if seat != 5} | {5: 6, 7: "投小五"}
    url = vote_url(serve_site, ballots, 1)
    ok(tally(db, url, "--record", deadline=deadline(1)))
    ok(run("alias", 5, "小五", "--db", db))
    again = tally(db, url, "--round", 1, deadline=deadline(1))
    assert "与记录不同（2 处）：" in said(again)
    assert "· 投票 7号 玩家7：记录的是 未投票，视为自投，重新计票是 5号 玩家5" in said(again)
    assert "· 警告：只在记录里有 7号 玩家7 第 1 次警告（警告）" in said(again)
    replaced = json.loads(
        ok(
            tally(
                db,
                url,
                "--round",
                1,
                "--record",
                "--replace",
                "--format",
                "json",
                deadline=deadline(1),
            )
        )
    )
    assert the_count(replaced) == the_count(recorded_document(db))
    assert 7 not in [w["seat"] for w in replaced["warnings"]]


def test_a_round_the_file_has_no_state_of_is_refused(tmp_path, serve_site):
    db = new_game(tmp_path, "1.2", ROLES, extra='substitutes = ["替补甲"]')
    ok(night(db, 1, "--kill", 16))
    url = vote_url(serve_site, DAY_1, 1)
    refused(
        tally(db, url, "--round", 3, deadline=deadline(1)),
        "第 3 轮还没有到：下一轮要计的是第 1 轮",
    )
    ok(night(db, 2, "--kill", 15, "--skip-day"))
    refused(
        tally(db, url, "--round", 1, deadline=deadline(1)),
        "第 1 轮的白天已经跳过（记录第 2 轮的夜晚时加了 --skip-day）",
    )


def test_an_x_day_the_judge_decided_has_no_vote_to_count_again(tmp_path, serve_site):
    db = new_game(tmp_path, "x", X_ROLES)
    ok(night(db, 1, "--kill", 5))
    ok(run("out", 1, "--reason", "confessed", "--db", db, "--at", "2024-03-01 20:00"))
    url = serve(serve_site, votes("20:00:00", {2: "投6", 3: "投6"}))
    refused(tally(db, url, "--round", 1), "已由法官判定结束（1号认匪")


# --- watch and the judge's page share the count --------------------------------------------


def test_watching_a_recorded_round_gives_its_recount(tmp_path, serve_site, monkeypatch):
    db = game_with_a_warning(tmp_path)
    ok(night(db, 1, "--kill", 16))
    url = vote_url(serve_site, DAY_1, 1)
    recorded = ok(tally(db, url, "--record", deadline=deadline(1)))
    ok(night(db, 2, "--kill", 15))
    later = datetime(2024, 3, 3, 12, 0, tzinfo=SHANGHAI)
    monkeypatch.setattr(watch_command, "now", lambda: later)
    monkeypatch.setattr(watch_command, "sleep", lambda seconds: None)
    watched = run("watch", url, "--db", db, "--deadline", deadline(1), "--round", 1)
    assert ok(watched) == announcement(recorded)
    assert AGREES in said(watched)


def test_the_judges_page_counts_a_recorded_round_as_tally_does(tmp_path, serve_site, monkeypatch):
    board = board_for_a_12_game()
    base = serve_site(board)
    ballots = {seat: "投5号" for seat in range(1, 9)} | {9: "投7号", 10: "弃权"}
    web_vote_thread(board, ballots, datetime(2024, 3, 1, 19, 0, tzinfo=SHANGHAI))
    db = tmp_path / "game" / "killmod.db"
    db.parent.mkdir()
    page = let_in(db)
    assert page.post("/new", roster_form(page.csrf)).status_code == 303
    assert page.post("/deal").status_code == 200
    roster = Game.open(db).roster()
    good = [p.seat for p in roster.players if p.role == "水民"]
    ok(run("night", "--round", 1, "--kill", good[-1], "--db", db, "--at", "2024-03-01 08:00"))
    url = f"{base}/forum.php?mod=viewthread&tid={TID}"
    after = datetime(2024, 3, 3, 9, 0, tzinfo=SHANGHAI)
    for module in (day_page, tally_command):
        monkeypatch.setattr(module, "now", lambda: after)
    ok(tally(db, url, "--record", deadline=DEADLINE))
    ok(run("night", "--round", 2, "--kill", good[-2], "--db", db, "--at", "2024-03-02 08:00"))
    shown = page.get(
        "/vote/count", query_string={"thread": url, "deadline": DEADLINE, "round": "1"}
    ).get_data(as_text=True)
    printed = tally(db, url, "--round", 1, deadline=DEADLINE)
    assert text_box(shown, "count-post") == ok(printed)
    assert "5号 玩家5[/b] 得票最高，被投出局。" in printed.stdout
    assert AGREES in said(printed) and AGREES in shown


R10_ROLES = {1: "杀手", 2: "杀手", 3: "平民", 4: "平民", 5: "平民", 6: "平民"}


def test_a_1_0_knife_is_counted_again_on_the_state_before_it(tmp_path, serve_site):
    """1.0: 指认 then 动刀 on 1号, who is out by it, then day 2's 指认; counted again, round 1's
    knife is the recorded one, 1号 its living defender."""
    db = new_game(tmp_path, "1.0", R10_ROLES)
    pointing = votes("20:00:00", {2: "投1", 3: "投1", 4: "投1", 5: "投2", 6: "投3"})
    knives = votes("22:30:00", {2: "刀", 3: "动刀", 4: "刀", 5: "刀", 6: "过"})
    url = serve(serve_site, pointing + knives)
    ok(tally(db, url, "--record", "--phase", "point"))
    knifed = json.loads(ok(tally(db, url, "--record", "--format", "json", deadline=LATER)))
    assert knifed["outcome"] == {"kind": "eliminated", "seat": 1}
    day_2 = serve(serve_site, votes("20:00:00", {2: "投3", 3: "投2", 4: "投3", 5: "投3"}), 2)
    ok(tally(db, day_2, "--record", "--round", 2, "--phase", "point", deadline=deadline(2)))
    again = tally(db, url, "--round", 1, "--phase", "knife", "--format", "json", deadline=LATER)
    assert AGREES in said(again)
    doc = json.loads(again.stdout)
    assert doc["day"]["knife"]["defender"] == 1 and doc["day"]["knife"]["knives"] == [2, 3, 4, 5]
    assert the_count(doc) == the_count(recorded_document(db))


def test_a_recount_tells_no_uid_its_record_already_kept(tmp_path, serve_site):
    """A roster without uids: the recorded tally pinned them (and said so); counted again,
    the same uids read are the record's, nothing new to tell."""
    players = "\n".join(f'[[players]]\nseat = {seat}\nname = "玩家{seat}"' for seat in ROLES)
    roster = tmp_path / "roster.toml"
    roster.write_text(
        'rules = "1.2"\ntimezone = "Asia/Shanghai"\njudges = ["法官"]\n' + players + "\n",
        encoding="utf-8",
    )
    db = tmp_path / "game.db"
    ok(run("init", "--roster", roster, "--db", db))
    ok(run("deal", "--seed", 1, "--db", db))
    ok(night(db, 1, "--kill", 16, "--yes"))
    url = vote_url(serve_site, {seat: 5 for seat in range(1, 16) if seat != 5} | {5: 6}, 1)
    recorded = tally(db, url, "--record", deadline=deadline(1))
    assert "读到了 uid" in said(recorded)
    again = tally(db, url, "--round", 1, "--format", "json", deadline=deadline(1))
    assert "读到了 uid" not in said(again) and AGREES in said(again)
