"""The game file a judge can trust: complete in the one ``.db`` after every command, and, when
the operating system or SQLite refuses it, a Chinese message naming the file and what to do,
exit 2, no traceback, the file untouched (README, “The game file”).

Every command here is the installed ``killmod`` in its own process, as a judge runs it; the
files are real SQLite files.
"""

from __future__ import annotations

import os
import resource
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from killmod.game.store import SCHEMA_VERSION, Game
from tests.support.gamefiles import TID, deadline, roster_toml, vote_thread
from tests.support.gamesteps import (
    ROLES,
    ballots_for,
    console,
    digest,
    everyone_votes,
    game_12,
    rows,
    vote_url,
)
from tests.support.pagebuilder import discuz_x_site, render_discuz_x_page

ROOT = Path(__file__).resolve().parent
V1_GAME = ROOT / "data" / "v1-game.db"
TIE = {seat: 14 for seat in range(1, 8)} | {seat: 15 for seat in range(8, 15)} | {15: 1}


def refused_by_console(done, *words: str) -> None:
    """Exit 2, each of ``words`` in the message, no traceback, nothing on stdout."""
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    for word in words:
        assert word in done.stderr, done.stderr


# --- one file ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_after_every_kind_of_step_the_db_file_alone_holds_the_game(tmp_path, serve_site):
    db = game_12(tmp_path, dict.fromkeys(ROLES))
    day1 = vote_url(serve_site, TIE, 1)
    day2 = vote_url(serve_site, everyone_votes(13, [*range(1, 11), 12, 13]), 2)
    roster = tmp_path / "next.toml"
    roster.write_text(roster_toml("1.2", ROLES), encoding="utf-8")
    steps = {
        "deal": ["deal", "--seed", 3, "--notices", tmp_path / "notices"],
        "night": ["night", "--round", 1, "--kill", 16, "--at", "2024-02-29 23:00"],
        "tally": ["tally", day1, "--deadline", deadline(1), "--record"],
        "lottery make": ["lottery", "make", "--round", 1, "--out", tmp_path / "lots"],
        "lottery reveal": ["lottery", "reveal", "--round", 1, "--lot", 1],
        "sub": ["sub", 5, "替补甲", "--at", "2024-03-02 08:00"],
        "leave": ["leave", 6, "--day", "2024-03-02"],
        "penalty": ["penalty", 7, "--round", 1, "--kind", "cancel", "--choice", "取消"],
        "lurkers": ["lurkers", day1, "--round", 1, "--record"],
        "night 2": ["night", "--round", 2, "--kill", 12, "--at", "2024-03-01 23:00"],
        "undo": ["undo"],
        "night 2 again": ["night", "--round", 2, "--kill", 11, "--at", "2024-03-01 23:00"],
        "tally 2": ["tally", day2, "--deadline", deadline(2), "--record"],
        "notices": ["notices", "--out", tmp_path / "again"],
        "lottery show": ["lottery", "show", "--round", 1, "--out", tmp_path / "lots-again"],
        "next game": ["init", "--roster", roster, "--next-game"],
    }
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache-home")}
    for name, args in steps.items():
        done = console(*args, "--db", db, env=env)
        assert done.returncode == 0, f"{name}: {done.stderr}"
        for suffix in ("-journal", "-wal", "-shm"):
            assert not Path(f"{db}{suffix}").exists(), f"{name} left {suffix}"
        copy = tmp_path / "copies" / name / "killmod.db"
        copy.parent.mkdir(parents=True)
        shutil.copyfile(db, copy)  # the one file, as a judge backs it up
        assert rows(copy) == rows(db), name
        original, copied = (console("status", "--db", path).stdout for path in (db, copy))
        assert copied == original, name
    assert "第 1 轮（1.2 规则）" not in original  # the next game stands in the copy too


def test_a_step_is_in_the_file_when_it_commits_closed_or_not(tmp_path):
    db = game_12(tmp_path)
    game = Game.open(db)  # left open: no close, no checkpoint
    with game.transaction("第 1 轮 5号 出局"):
        game.record(1, "death", 5, {"how": "judged"})
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    assert not Game.open(copy).roster().seat(5).alive
    assert sqlite3.connect(copy).execute("PRAGMA journal_mode").fetchone() == ("delete",)
    game.close()


def test_the_game_is_a_context_manager_that_closes_the_file(tmp_path):
    db = game_12(tmp_path)
    with Game.open(db) as game:
        assert game.roster().players
    with pytest.raises(sqlite3.ProgrammingError):
        game.db.execute("select 1")


# --- files the operating system refuses -------------------------------------------------------


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` (a file or a folder) made read-only for killmod while the block runs.

    Permissions hold back any user but root; for root (who may write any file) the file
    is made immutable (``chattr +i``), which the kernel refuses to write for root too.
    """
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        os.chmod(path, 0o555 if path.is_dir() else 0o400)
        try:
            yield
        finally:
            os.chmod(path, mode)
        return
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("running as root on a file system without chattr +i: no read-only file")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


@pytest.mark.slow
def test_a_read_only_game_file_is_read_but_not_written(tmp_path):
    db = game_12(tmp_path)
    before = digest(db)
    with read_only(db):
        refused_by_console(
            console("sub", 5, "新人", "--db", db), "游戏文件是只读的", str(db), "chmod u+w"
        )
        assert console("status", "--db", db).returncode == 0  # reading still works
    assert digest(db) == before


@pytest.mark.slow
def test_a_game_file_in_a_read_only_folder_is_refused_whole(tmp_path):
    (tmp_path / "game").mkdir()
    db = game_12(tmp_path / "game")
    before = digest(db)
    with read_only(db.parent):
        refused_by_console(
            console("leave", 5, "--day", "2024-03-01", "--db", db),
            "游戏文件所在的文件夹不可写",
            str(db),
        )
        assert console("status", "--db", db).returncode == 0
    assert digest(db) == before


def limited_to(size: int):
    """A child process that may write no file past ``size`` bytes: a disk that is full."""
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


@pytest.mark.slow
def test_a_full_disk_is_refused_and_the_file_stays_as_it_was(tmp_path):
    db = game_12(tmp_path)
    thread = vote_thread(ballots_for(everyone_votes(16)))
    saved = tmp_path / "day1"  # saved pages: nothing but the game file is written
    saved.mkdir()
    for page in range(1, thread.page_count + 1):
        (saved / f"page-{page}.html").write_bytes(render_discuz_x_page(thread, page))
    before = rows(db)
    done = console(
        "tally", saved, "--db", db, "--deadline", deadline(1), "--record",
        env={"XDG_CACHE_HOME": str(tmp_path / "cache")}, preexec_fn=limited_to(8192),
    )  # fmt: skip
    refused_by_console(done, "读写游戏文件出错", str(db), "本步没有记录", "游戏文件保持原样")
    assert rows(db) == before


def test_sqlite_full_is_the_full_disk_message(tmp_path, serve_site):
    from killmod import tally

    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    before = rows(db)
    with Game.open(db) as game:
        game.db.execute("VACUUM")  # no free page left to fill
        pages = game.db.execute("PRAGMA page_count").fetchone()[0]
        game.db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own 'disk full'
        with pytest.raises(Exception) as refused:
            tally(url, deadline=deadline(1), game=game, record=True)
    assert "磁盘已满，写不进游戏文件" in str(refused.value) and str(db) in str(refused.value)
    assert refused.value.exit_code == 2
    assert rows(db) == before


@pytest.mark.slow
def test_a_full_disk_for_the_post_records_nothing(tmp_path, serve_site):
    db = game_12(tmp_path)
    url = vote_url(serve_site, everyone_votes(16), 1)
    before = rows(db)
    with open("/dev/full", "w") as full:
        done = console(
            "tally", url, "--db", db, "--deadline", deadline(1), "--record",
            env={"XDG_CACHE_HOME": str(tmp_path / "cache")}, stdout=full, stderr=subprocess.PIPE,
        )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "无法输出公告" in done.stderr and "本步没有记录" in done.stderr
    assert "Traceback" not in done.stderr
    assert rows(db) == before


@pytest.mark.slow
def test_a_damaged_game_file_is_refused_and_left_alone(tmp_path):
    db = game_12(tmp_path)
    data = bytearray(db.read_bytes())
    page = 4096
    data[2 * page + 8 : 2 * page + 400] = b"\x55" * 392  # a page of the tables, garbled
    db.write_bytes(bytes(data))
    before = digest(db)
    for command in (["status"], ["sub", 5, "新人"]):
        refused_by_console(console(*command, "--db", db), "游戏文件已损坏", str(db), "备份")
    assert digest(db) == before


@pytest.mark.slow
def test_a_file_that_is_no_database_is_refused(tmp_path):
    db = tmp_path / "killmod.db"
    db.write_bytes(b"not a database at all " * 200)
    refused_by_console(console("status", "--db", db), "不是 killmod 的游戏文件", str(db))


@pytest.mark.slow
def test_a_file_of_an_older_schema_is_refused_untouched_and_upgraded_on_request(tmp_path):
    db = tmp_path / "killmod.db"
    shutil.copyfile(V1_GAME, db)
    before = digest(db)
    refused_by_console(
        console("status", "--db", db),
        "旧版 killmod 的格式（第 1 版）",
        str(db),
        f"killmod upgrade --db {db}",
    )
    assert digest(db) == before and not Path(f"{db}-wal").exists()


@pytest.mark.slow
def test_a_file_of_a_newer_schema_is_refused(tmp_path):
    db = game_12(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("update settings set value = ? where key = 'schema'", [SCHEMA_VERSION + 1])
    refused_by_console(console("status", "--db", db), "更新版本的 killmod 写的", "请升级 killmod")


@pytest.mark.slow
def test_a_dangling_symlink_is_refused_and_never_followed(tmp_path):
    link = tmp_path / "killmod.db"
    link.symlink_to(tmp_path / "moved" / "game.db")
    refused_by_console(console("status", "--db", link), "符号链接", "不存在", str(link))
    roster = tmp_path / "roster.toml"
    roster.write_text(roster_toml("1.2", ROLES), encoding="utf-8")
    refused_by_console(
        console("init", "--roster", roster, "--db", link), "不会跟随符号链接", str(link)
    )
    assert not (tmp_path / "moved").exists()


@pytest.mark.slow
def test_a_game_file_of_another_rule_set_than_the_thread_is_refused(tmp_path, serve_site):
    db = game_12(tmp_path)
    thread = replace(vote_thread(ballots_for(everyone_votes(16))), title="【2.0规则】第1天投票帖")
    url = f"{serve_site(discuz_x_site(thread))}/forum.php?mod=viewthread&tid={TID}"
    before = digest(db)
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    for extra in ([], ["--record"]):
        done = console("tally", url, "--db", db, "--deadline", deadline(1), *extra, env=env)
        refused_by_console(done, "写的是 2.0 规则", f"游戏文件 {db} 是 1.2 规则", "--db")
    assert digest(db) == before


# --- the upgrade of an older file --------------------------------------------------------------


@pytest.mark.slow
def test_the_upgrade_keeps_every_record_and_makes_every_step_undoable(tmp_path):
    db = tmp_path / "killmod.db"
    shutil.copyfile(V1_GAME, db)
    old = sqlite3.connect(V1_GAME)
    standing = [row[0] for row in old.execute("select id from events where void = 0")]
    voided = [row[0] for row in old.execute("select id from events where void != 0")]
    done = console("upgrade", "--db", db)
    assert done.returncode == 0, done.stderr
    assert f"原文件保留在 {db}.v1.bak" in done.stderr
    assert digest(Path(f"{db}.v1.bak")) == digest(V1_GAME)
    with Game.open(db) as game:
        assert [e.id for e in game.events()] == standing
        assert sorted(e.id for e in game.events(include_void=True) if e.id not in standing) == (
            voided
        )
        roster_roles = game.db.execute("select role from players").fetchall()
        assert roster_roles == [(None,)] * 16 and len(game.dealt_roles()) == 16
        kinds = [step.kind for step in game.steps()]
    assert kinds[0] == "init" and "deal" in kinds and kinds.count("tally") == 2
    # undo all the way back: the replaced day comes back first, then each step in turn
    first = console("undo", "--db", db)
    assert "恢复：第 2 轮的投票" in first.stdout
    while (done := console("undo", "--db", db)).returncode == 0:
        pass
    refused_by_console(done, "本局没有可以撤销的步骤")
    with Game.open(db) as game:
        assert game.dealt_roles() == {} and game.events("death") == []
        assert [e.kind for e in game.events() if e.kind != "undone"] == ["substitution", "warning"]


@pytest.mark.slow
def test_an_upgrade_that_cannot_be_done_leaves_the_file_as_it_was(tmp_path):
    db = tmp_path / "killmod.db"
    shutil.copyfile(V1_GAME, db)
    conn = sqlite3.connect(db)  # schema 1 is WAL: closed, the change is in the file
    with conn:
        conn.execute("update players set role = 'killer' where seat = 1")
    conn.close()
    before = digest(db)
    refused_by_console(console("upgrade", "--db", db), "1号发到的身份「killer」不是 1.2 规则的身份")
    assert digest(db) == before
    assert [path.name for path in tmp_path.iterdir()] == ["killmod.db"]
    (tmp_path / "new").mkdir()
    refused_by_console(console("upgrade", "--db", game_12(tmp_path / "new")), "已经是第 2 版")
