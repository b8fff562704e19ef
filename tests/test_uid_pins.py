"""Uids pinned (issue 25.4): a roster without uids gets them from the board, once.

The first read of a game whose roster gives no uids takes each player's uid from the posts
signed with his name exactly as the board shows it (the author link), shows them, and a
recorded tally keeps them in the game file (``uid`` events, undone with their step).  From
then on the player is his uid: a renamed player is still himself, and an account whose name
is his only after folding (``MEER``, a zero-width space, full-width characters) — or that
took his old name — is an outsider's, never his ballot.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from killmod.ballots.count import AuthorIndex
from killmod.ballots.uids import Pin, pin_uids
from killmod.core.errors import BadInput
from killmod.core.model import Player, Post, Roster
from killmod.game.store import Game
from tests.support.gamefiles import TID, ok, run, vote_thread
from tests.support.gamesteps import console
from tests.support.pagebuilder import FakePost, discuz_x_site

SHANGHAI = ZoneInfo("Asia/Shanghai")
AT = datetime(2024, 3, 1, 20, 0, tzinfo=SHANGHAI)


def post(pid: int, author: str, uid: int | None) -> Post:
    return Post(pid, pid, author, uid, AT, "second", "投2号")


ROSTER = Roster((Player(1, "meer"), Player(2, "阿狸"), Player(3, "老王", uid=3000)))


def test_uids_are_taken_from_posts_signed_with_the_name_as_shown():
    posts = [post(1, "MEER", 9), post(2, "meer\u200b", 8), post(3, "meer", 5), post(4, "meer", 5)]
    roster, pins = pin_uids(ROSTER, posts)
    assert pins == (Pin(1, "meer", 5, 3),)
    assert [p.uid for p in roster.players] == [5, None, 3000]


def test_a_name_with_a_cjk_compatibility_ideograph_is_another_account():
    """金\uf902 looks like 金車 and NFC makes it 金車, but the board keeps it: another
    account, which pinned its uid to 金車's seat when 金車 had not posted yet, and whose
    ballots then counted as his."""
    roster = Roster((Player(1, "金車"),))
    lookalike = [post(1, "金\uf902", 6666)]
    assert pin_uids(roster, lookalike)[1] == ()
    assert pin_uids(roster, [*lookalike, post(2, "金車", 5001)])[1] == (Pin(1, "金車", 5001, 2),)
    assert AuthorIndex(roster).identify(lookalike[0]) == ("not_player", None)
    assert AuthorIndex(roster).lookalike(lookalike[0]) == "金車"


def test_a_view_without_uids_and_a_uid_already_given_pin_nothing():
    assert pin_uids(ROSTER, [post(1, "meer", None)])[1] == ()
    assert pin_uids(ROSTER, [post(1, "meer", 3000)])[1] == ()  # 老王's account


def test_a_name_shown_with_two_uids_is_refused():
    with pytest.raises(BadInput, match=r"1号 meer 没有 uid.*uid 5（1楼）、uid 6（2楼）"):
        pin_uids(ROSTER, [post(1, "meer", 5), post(2, "meer", 6)])


def test_one_uid_under_two_players_names_is_refused():
    with pytest.raises(BadInput, match=r"uid 5.*1号 meer、2号 阿狸"):
        pin_uids(ROSTER, [post(1, "meer", 5), post(2, "阿狸", 5)])


# --- a game file, as the judge runs it ---------------------------------------------------------

NO_UIDS = "\n".join(
    ['rules = "1.2"', 'timezone = "Asia/Shanghai"', 'judges = ["法官"]', 'substitutes = ["替补甲"]']
    + [
        f'[[players]]\nseat = {seat}\nname = "玩家{seat}"\nrole = "{role}"'
        for seat, role in ((seat, "杀手" if seat <= 3 else "水民") for seat in range(1, 17))
    ]
)


def game_without_uids(tmp_path: Path) -> Path:
    roster = tmp_path / "roster.toml"
    roster.write_text(NO_UIDS + "\n", encoding="utf-8")
    db = tmp_path / "game.db"
    ok(run("init", "--roster", roster, "--db", db))
    ok(run("night", "--round", "1", "--kill", "16", "--db", db, "--at", "2024-03-01 09:00"))
    return db


def thread_of(rows: list[tuple[str, int, str, str]], day: int) -> object:
    """A vote thread of (author, uid, "HH:MM:SS", body) rows, each time to the second."""
    thread = vote_thread([], day)
    opening = thread.posts[0].posted_at
    for n, (author, uid, hms, body) in enumerate(rows, 1):
        hour, minute, second = (int(part) for part in hms.split(":"))
        at = opening.replace(hour=hour, minute=minute, second=second)
        thread.posts.append(FakePost(80001 + n, author, uid, at, body, time_style="absolute"))
    return thread


def uids(db: Path) -> dict[int, int | None]:
    with Game.open(db) as game:
        return {player.seat: player.uid for player in game.roster().players}


def first_day(tmp_path: Path, serve_site) -> Path:
    """Day 1 recorded on a game without uids, lookalikes among the posts; the game file."""
    db = game_without_uids(tmp_path)
    rows = [(f"玩家{seat}", 5000 + seat, f"20:00:{seat:02d}", "投5号") for seat in range(1, 16)]
    rows += [
        ("玩家6\u200b", 6666, "20:30:00", "改票 投7号"),  # another account: a zero-width space
        ("玩家７", 7777, "20:31:00", "改票 投8号"),  # another account: a full-width digit
    ]
    url = serve_site(discuz_x_site(thread_of(rows, 1))) + f"/forum.php?mod=viewthread&tid={TID}"
    done = console("tally", url, "--db", db, "--deadline", "2024-03-01 22:00", "--record")
    assert done.returncode == 0, done.stderr
    assert "1号 玩家1（uid 5001）" in done.stderr and "随这一步记入游戏文件" in done.stderr
    assert uids(db) == {seat: 5000 + seat for seat in range(1, 16)} | {16: None}
    with sqlite3.connect(db) as conn:
        (result,) = conn.execute("select result from tallies").fetchone()
    document = json.loads(result)
    ballots = {b["seat"]: b["target"] for b in document["ballots"]}
    assert ballots[6] == 5 and ballots[7] == 5  # the lookalikes changed nothing
    rejected = {(r["author"], r["reason"]) for r in document["rejected"]}
    assert {("玩家6\u200b", "not_player"), ("玩家７", "not_player")} <= rejected
    return db


@pytest.mark.slow
def test_the_first_read_pins_the_uids_and_a_lookalike_is_an_outsider(tmp_path, serve_site):
    first_day(tmp_path, serve_site)


@pytest.mark.slow
def test_from_then_on_the_player_is_his_uid(tmp_path, serve_site):
    db = first_day(tmp_path, serve_site)
    ok(run("night", "--round", "2", "--kill", "15", "--db", db, "--at", "2024-03-02 09:00"))
    rows = [
        (f"玩家{seat}", 5000 + seat, f"20:00:{seat:02d}", "投4号")
        for seat in range(1, 14)
        if seat not in (5, 6)  # 5 was voted out; 6 renamed himself
    ]
    rows += [
        ("新名字", 5006, "20:10:00", "投3号"),  # 玩家6, renamed: still seat 6
        ("玩家6", 8888, "20:11:00", "投2号"),  # an account that took 玩家6's old name
    ]
    url = serve_site(discuz_x_site(thread_of(rows, 2))) + f"/forum.php?mod=viewthread&tid={TID}"
    done = console("tally", url, "--db", db, "--deadline", "2024-03-02 22:00", "--format", "json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert {b["seat"]: b["target"] for b in document["ballots"]}[6] == 3
    assert ("玩家6", "not_player") in {(r["author"], r["reason"]) for r in document["rejected"]}
    assert "读到了 uid" not in done.stderr  # nothing new to pin


@pytest.mark.slow
def test_undo_takes_the_pins_back_with_their_step(tmp_path, serve_site):
    db = first_day(tmp_path, serve_site)
    done = console("undo", "--db", db)
    assert done.returncode == 0, done.stderr
    assert "从论坛读到的 1号 玩家1 的 uid（5001）" in done.stdout + done.stderr
    assert set(uids(db).values()) == {None}
