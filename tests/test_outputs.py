"""What a step hands the judge is written before the step is committed; what was lost can be
written again from the game file; output that cannot be encoded never crashes a command."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from killmod.game.store import Game
from tests.support.gamefiles import deadline, night, ok, private_text, refused, run, said
from tests.support.gamesteps import (
    KILLMOD,
    ROLES,
    console,
    everyone_votes,
    game_12,
    record_day,
    rows,
    vote_url,
)

TIE = {seat: 15 for seat in range(1, 8)} | {seat: 16 for seat in range(8, 15)} | {15: 16, 16: 15}
# A reader in the middle of a read transaction: a writer's COMMIT waits for it, then fails.
READING = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN")
conn.execute("select count(*) from events").fetchone()
print("READING", flush=True)
sys.stdin.readline()
conn.execute("COMMIT")
"""


def dealt(tmp_path: Path) -> Path:
    db = game_12(tmp_path, dict.fromkeys(ROLES))
    ok(run("deal", "--db", db, "--notices", tmp_path / "notices", "--seed", 3))
    return db


# --- written before the commit -------------------------------------------------------------------


def test_notices_that_cannot_be_written_leave_nothing_recorded(tmp_path):
    db = game_12(tmp_path, dict.fromkeys(ROLES))
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "03-玩家3.txt").write_text("上一局的短信", encoding="utf-8")
    before = rows(db)
    refused(run("deal", "--db", db, "--notices", folder, "--seed", 3), "03-玩家3.txt 已经存在")
    assert rows(db) == before  # no roles dealt that nobody was told
    assert sorted(os.listdir(folder)) == ["03-玩家3.txt"]
    ok(run("deal", "--db", db, "--notices", tmp_path / "fresh", "--seed", 3))
    assert len(os.listdir(tmp_path / "fresh")) == 16


def test_lots_that_cannot_be_written_leave_no_lottery(tmp_path, serve_site):
    db = game_12(tmp_path)
    ok(record_day(db, vote_url(serve_site, TIE, 1), 1))
    blocked = tmp_path / "lots"
    blocked.write_text("a file where the folder should be", encoding="utf-8")
    before = rows(db)
    refused(run("lottery", "make", "--round", 1, "--out", blocked, "--db", db), "无法建立文件夹")
    assert rows(db) == before
    assert Game.open(db).events("lottery") == []


@pytest.mark.slow
def test_a_commit_that_fails_takes_the_written_notices_back(tmp_path):
    db = game_12(tmp_path, dict.fromkeys(ROLES))
    reader = subprocess.Popen(
        [sys.executable, "-c", READING, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert reader.stdout.readline().strip() == "READING"
    try:
        done = console(
            "deal", "--db", db, "--notices", tmp_path / "notices",
            env={"KILLMOD_BUSY_SECONDS": "1"},
        )  # fmt: skip
    finally:
        reader.communicate("\n", timeout=30)
    assert done.returncode == 1, done.stderr
    assert "本步没有记录" in done.stderr and "刚写的私下文件已删除" in done.stderr
    assert "Traceback" not in done.stderr and "已发身份" not in done.stderr
    assert not list((tmp_path / "notices").iterdir())  # the notices were written, then removed
    assert Game.open(db).events("deal") == []
    ok(run("deal", "--db", db, "--notices", tmp_path / "notices"))  # and it deals now


# --- written again from the game file --------------------------------------------------------


def test_notices_are_written_again_for_the_living_and_the_substitutes(tmp_path):
    db = dealt(tmp_path)
    ok(night(db, 1, "--kill", 16))
    ok(run("sub", 5, "新人", "--db", db))
    again = tmp_path / "again"
    told = said(run("notices", "--out", again, "--db", db))
    assert f"重发的站内短信（15 份）写在 {again}" in told and "只有你能读" in told
    names = sorted(os.listdir(again))
    assert "16-玩家16-again.txt" not in names and "05-新人-again.txt" in names
    assert len(names) == 15
    role = Game.open(db).roster().seat(5).role
    seat5 = (again / "05-新人-again.txt").read_text("utf-8")
    assert seat5.startswith("新人，你好") and f"【{role}】" in seat5
    original = tmp_path / "notices" / "01-玩家1.txt"
    assert (again / "01-玩家1-again.txt").read_text("utf-8") == original.read_text("utf-8")
    ok(run("notices", "--out", again, "--seat", 5, "--db", db))  # never over a file:
    assert (again / "05-新人-again-2.txt").read_text("utf-8") == seat5  # a new one beside it
    refused(run("notices", "--out", tmp_path / "x", "--seat", 16, "--db", db), "16号 玩家16 已出局")


def test_notices_go_to_the_games_private_folder_unless_told(tmp_path):
    db = dealt(tmp_path)
    ok(run("notices", "--seat", 1, "--db", db))
    assert private_text(db, "01-玩家1-again.txt").startswith("玩家1，你好")


def test_notices_before_the_deal_are_refused(tmp_path):
    db = game_12(tmp_path, dict.fromkeys(ROLES))
    refused(run("notices", "--out", tmp_path / "n", "--db", db), "本局还没有发身份")


def test_the_lots_are_written_again_from_the_game_file(tmp_path, serve_site):
    db = game_12(tmp_path)
    ok(record_day(db, vote_url(serve_site, TIE, 1), 1))
    ok(run("lottery", "make", "--round", 1, "--out", tmp_path / "lots", "--db", db))
    made = (tmp_path / "lots" / "round1-lottery-private.txt").read_text("utf-8")
    told = said(run("lottery", "show", "--round", 1, "--out", tmp_path / "lots", "--db", db))
    assert "第 1 轮的签位（重发）写在" in told
    assert (tmp_path / "lots" / "round1-lottery-private-again.txt").read_text("utf-8") == made
    refused(
        run("lottery", "show", "--round", 2, "--out", tmp_path / "x", "--db", db),
        "第 2 轮没有做过签",
    )


# --- output that cannot be encoded -------------------------------------------------------------


def emoji_game(tmp_path: Path, serve_site) -> tuple[Path, str]:
    db = game_12(tmp_path, names={16: "玩家😀"})
    return db, vote_url(serve_site, everyone_votes(16), 1)


@pytest.mark.slow
def test_a_post_to_a_file_is_utf8_whatever_the_console(tmp_path, serve_site):
    db, url = emoji_game(tmp_path, serve_site)
    post = tmp_path / "post.txt"
    with post.open("wb") as out:
        done = subprocess.run(
            [str(KILLMOD), "tally", url, "--db", str(db), "--deadline", deadline(1), "--record"],
            stdout=out,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONIOENCODING": "gbk", "XDG_CACHE_HOME": str(tmp_path)},
        )
    assert done.returncode == 0, done.stderr.decode("gbk", "replace")
    assert "16号 玩家😀" in post.read_bytes().decode("utf-8")
    assert len(Game.open(db).tallies()) == 1


@pytest.mark.slow
def test_a_console_that_cannot_show_a_character_gets_a_mark_and_a_notice(tmp_path, serve_site):
    db, url = emoji_game(tmp_path, serve_site)
    leader, follower = pty.openpty()
    done = subprocess.run(
        [str(KILLMOD), "tally", url, "--db", str(db), "--deadline", deadline(1), "--record"],
        stdout=follower,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONIOENCODING": "gbk", "XDG_CACHE_HOME": str(tmp_path)},
        timeout=120,
    )
    os.close(follower)
    shown = _read_all(leader).decode("gbk")
    assert done.returncode == 0, done.stderr.decode("gbk", "replace")
    assert "16号 玩家?" in shown and "已记录为第 1 轮" in shown
    notice = done.stderr.decode("gbk")
    assert f"终端显示不了 {shown.count('玩家?')} 个字符，已用 ? 代替" in notice
    assert len(Game.open(db).tallies()) == 1


def _read_all(descriptor: int) -> bytes:
    chunks = []
    while True:
        try:
            chunk = os.read(descriptor, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(descriptor)
    return b"".join(chunks)
