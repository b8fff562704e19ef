"""The game file: init, deal, recording tallies across rounds, substitutes, status."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
from dataclasses import replace as dataclass_replace
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.game.store import Game
from tests.support.pagebuilder import (
    DEMO_ROSTER_TOML,
    DEMO_TID,
    FakeThread,
    demo_thread,
    discuz_x_site,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_PAGES = str(ROOT / "examples" / "day1")
DEADLINE = ["--deadline", "2019-05-12 22:00"]
NEXT_DEADLINE = ["--deadline", "2019-05-13 22:00"]


def next_day_thread() -> FakeThread:
    """The demo vote thread a day later: the next round's vote, with the same ballots."""
    thread = demo_thread()
    day = timedelta(days=1)
    posts = [
        dataclass_replace(
            post,
            pid=post.pid + 1000,
            posted_at=post.posted_at + day,
            edited_at=post.edited_at + day if post.edited_at else None,
            quote=(post.quote[0], post.quote[1] + day, post.quote[2]) if post.quote else None,
        )
        for post in thread.posts
    ]
    return dataclass_replace(thread, posts=posts, now=thread.now + day)


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A game file made from the demo roster (roles given), in its own folder."""
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    db = tmp_path / "killmod.db"
    assert run("init", "--roster", str(roster), "--db", str(db)).exit_code == 0
    return db


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def events(db: Path, kind: str | None = None, *, include_void: bool = False) -> list:
    return Game.open(db).events(kind, include_void=include_void)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_init_creates_a_file_only_its_owner_can_read(game):
    assert mode(game) == 0o600
    roster = Game.open(game).roster()
    assert len(roster.players) == 16 and roster.substitutes == ("替补甲",)


def test_init_refuses_to_overwrite_without_force(game, tmp_path):
    roster = str(tmp_path / "roster.toml")
    again = run("init", "--roster", roster, "--db", str(game))
    assert again.exit_code == 2 and "--force" in again.output
    assert run("init", "--roster", roster, "--db", str(game), "--force").exit_code == 0
    assert mode(game) == 0o600


def test_a_missing_game_file_is_a_clear_error(tmp_path):
    result = run("status", "--db", str(tmp_path / "none.db"))
    assert result.exit_code == 2 and "找不到游戏文件" in result.output


def test_a_file_that_is_not_a_game_is_refused(tmp_path):
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("create table t (x)").connection.close()
    result = run("status", "--db", str(other))
    assert result.exit_code == 2 and "不是 killmod 的游戏文件" in result.output


def test_deal_follows_the_1_2_table_and_writes_private_notices(tmp_path):
    roster = tmp_path / "roster.toml"
    roster.write_text(
        DEMO_ROSTER_TOML.replace('role = "杀手"\n', "")
        .replace('role = "水民"\n', "")
        .replace('role = "检查官"\n', ""),
        encoding="utf-8",
    )
    db = tmp_path / "g.db"
    run("init", "--roster", str(roster), "--db", str(db))
    notices = tmp_path / "notices"
    result = run("deal", "--db", str(db), "--seed", "3", "--notices", str(notices))
    assert result.exit_code == 0
    roles = [p.role for p in Game.open(db).roster().players]
    assert (roles.count("杀手"), roles.count("水民"), roles.count("检查官")) == (3, 12, 1)
    # the command's own output carries no role
    assert not any(role in result.output for role in ("杀手", "水民", "检查官"))
    files = sorted(notices.iterdir())
    assert len(files) == 16 and all(mode(f) == 0o600 for f in files)
    players = Game.open(db).roster().players
    killers = [p for p in players if p.role == "杀手"]
    first_killer = (notices / f"{killers[0].seat:02d}-{killers[0].name}.txt").read_text("utf-8")
    assert "【杀手】" in first_killer
    assert all(f"{k.seat}号 {k.name}" in first_killer for k in killers[1:])
    villager = next(p for p in players if p.role == "水民")
    text = (notices / f"{villager.seat:02d}-{villager.name}.txt").read_text("utf-8")
    assert "【水民】" in text and "同伴" not in text


def test_deal_with_a_seed_is_reproducible_and_refused_twice(tmp_path):
    dealt = []
    for name in ("a", "b"):
        roster = tmp_path / f"{name}.toml"
        roster.write_text(
            DEMO_ROSTER_TOML.replace('role = "杀手"\n', "")
            .replace('role = "水民"\n', "")
            .replace('role = "检查官"\n', ""),
            encoding="utf-8",
        )
        db = tmp_path / f"{name}.db"
        run("init", "--roster", str(roster), "--db", str(db))
        run("deal", "--db", str(db), "--seed", "11", "--notices", str(tmp_path / name))
        dealt.append([p.role for p in Game.open(db).roster().players])
        again = run("deal", "--db", str(db), "--notices", str(tmp_path / name))
        assert again.exit_code == 2 and "已经发过身份" in again.output
    assert dealt[0] == dealt[1]


def dealable(tmp_path: Path) -> Path:
    """A game file of the demo roster with no roles yet."""
    roster = tmp_path / "roster.toml"
    roster.write_text(re.sub(r'role = "[^"]*"\n', "", DEMO_ROSTER_TOML), encoding="utf-8")
    db = tmp_path / "killmod.db"
    assert run("init", "--roster", str(roster), "--db", str(db)).exit_code == 0
    return db


def test_deal_writes_the_notices_beside_the_game_file_by_default(tmp_path):
    db = dealable(tmp_path)
    result = run("deal", "--db", str(db), "--seed", "3")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""  # no public post, and never a role on the screen
    folder = tmp_path / "killmod-private"
    assert f"{folder}{os.sep}（16 个文件）" in result.stderr
    assert mode(folder) == 0o700
    files = sorted(folder.iterdir())
    assert len(files) == 16 and all(mode(f) == 0o600 for f in files)
    assert not any(role in result.output for role in ("杀手", "水民", "检查官"))


def test_a_planted_link_in_the_private_folder_is_refused_and_nothing_is_dealt(tmp_path):
    db = dealable(tmp_path)
    folder = tmp_path / "killmod-private"
    folder.mkdir()
    seat = Game.open(db).roster().players[3]
    planted = folder / f"{seat.seat:02d}-{seat.name}.txt"
    elsewhere = tmp_path / "shared.txt"
    planted.symlink_to(elsewhere)
    result = run("deal", "--db", str(db))
    assert result.exit_code == 2
    assert str(planted) in result.output and "符号链接" in result.output
    assert not elsewhere.exists() and not events(db, "deal")
    assert sorted(folder.iterdir()) == [planted]


def test_printing_the_notices_takes_an_option_that_says_so(tmp_path):
    db = dealable(tmp_path)
    result = run("deal", "--db", str(db), "--seed", "3", "--print-secrets")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("（不要贴到论坛）——") == 16 and "身份是【" in result.stdout
    assert not (tmp_path / "killmod-private").exists()


def test_deal_refuses_a_roster_of_the_wrong_size(tmp_path):
    roster = tmp_path / "small.toml"
    roster.write_text('rules = "1.2"\n[[players]]\nseat = 1\nname = "a"\n', encoding="utf-8")
    db = tmp_path / "s.db"
    run("init", "--roster", str(roster), "--db", str(db))
    result = run("deal", "--db", str(db), "--notices", str(tmp_path / "n"))
    assert result.exit_code == 2 and "16 名玩家" in result.output


def test_record_stores_snapshot_result_death_and_warnings_in_one_step(game):
    result = run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(game), "--record", "--round", "1")
    assert result.exit_code == 0, result.output
    db = Game.open(game)
    tally = db.tally_record(1)
    assert tally["snapshot_sha256"] in result.output
    stored = list(db.db.query("select * from posts where tally_id = ?", [tally["id"]]))
    assert len(stored) == 30
    assert json.loads(tally["result"])["outcome"] == {
        "kind": "eliminated",
        "seat": 5,
        "camp": "好人",
    }
    assert [(e.seat, e.data["how"]) for e in db.events("death")] == [(5, "voted")]
    assert sorted(e.seat for e in db.events("warning")) == [9, 14, 16]
    assert not db.roster().seat(5).alive


def test_the_snapshot_hash_is_the_hash_of_the_stored_posts(game):
    from killmod.fetch.thread import read_thread
    from killmod.game.roster import parse_roster
    from killmod.usecases.record import snapshot_hash

    run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(game), "--record", "--round", "1")
    tz = __import__("zoneinfo").ZoneInfo(parse_roster(DEMO_ROSTER_TOML).timezone)
    thread = read_thread(EXAMPLE_PAGES, tz=tz)
    assert Game.open(game).tally_record(1)["snapshot_sha256"] == snapshot_hash(thread.posts)


def test_recording_a_round_twice_is_refused_without_replace(game):
    run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(game), "--record", "--round", "1")
    again = run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(game), "--record", "--round", "1")
    assert again.exit_code == 2 and "--replace" in again.output
    assert len(events(game, "death")) == 1


def test_when_a_step_was_recorded_is_told_in_the_games_time_zone(game):
    """The machine's clock is UTC here, the game's Asia/Shanghai: messages use the game's."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    def local(iso: str) -> str:
        return (
            datetime.fromisoformat(iso)
            .astimezone(ZoneInfo("Asia/Shanghai"))
            .strftime("%Y-%m-%d %H:%M:%S")
        )

    night = ["night", "--round", "1", "--kill", "7", "--at", "2019-05-11 23:00", "--db", str(game)]
    assert run(*night).exit_code == 0
    stored = Game.open(game).last_step().recorded_at
    again = run(*night)
    assert f"第 1 轮的夜晚已经记录过（{local(stored)} 记录）" in again.output, again.output
    undone = run("undo", "--db", str(game))
    assert undone.exit_code == 0, undone.output
    assert f"（{local(stored)} 记录）" in undone.output, undone.output
    run("night", "--round", "1", "--kill", "7", "--at", "2019-05-11 23:00", "--db", str(game))
    run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(game), "--record", "--round", "1")
    tally_undone = run("undo", "--db", str(game))
    assert "截止 2019-05-12 22:00:00）" in tally_undone.output, tally_undone.output
    for output in (again.output, undone.output, tally_undone.output):
        assert not re.search(r"\d{2}:\d{2}:\d{2}(?:\.\d+)?[+-]\d{2}:\d{2}", output), output


def test_replace_keeps_the_old_record_voided_and_counts_on_the_state_before_it(game, tmp_path):
    run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(game), "--record", "--round", "1")
    rulings = tmp_path / "rulings.toml"
    rulings.write_text("[14]\nignore = true\n", encoding="utf-8")  # seat 13's vote for 5
    result = run(
        "tally",
        EXAMPLE_PAGES,
        *DEADLINE,
        "--db",
        str(game),
        "--record",
        "--round",
        "1",
        "--replace",
        "--rulings",
        str(rulings),
    )
    assert result.exit_code == 0, result.output
    assert "取代之前的记录" in result.output
    deaths = events(game, "death")
    assert deaths == []  # 5, 7 and 12 tie at 3: nobody is out until the lottery
    voided = [e for e in events(game, include_void=True) if e.kind == "death"]
    assert [(e.seat, e.data["how"]) for e in voided] == [(5, "voted")]
    # the same warnings again, not doubled: counted on the state before round 1
    assert Game.open(game).roster().warnings == {9: 1, 13: 1, 14: 1, 16: 1}
    assert [e.kind for e in events(game, "tally_replaced")] == ["tally_replaced"]


def test_warnings_carry_across_rounds_then_substitute_then_drown(game, serve_site):
    run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(game), "--record", "--round", "1")
    url = f"{serve_site(discuz_x_site(next_day_thread()))}/forum.php?mod=viewthread&tid={DEMO_TID}"
    doc = json.loads(
        run(
            "tally",
            url,
            *NEXT_DEADLINE,
            "--db",
            str(game),
            "--record",
            "--round",
            "2",
            "--format",
            "json",
        ).stdout  # the judge is told on stderr where the substitute's notice is
    )
    actions = {w["seat"]: (w["total"], w["action"], w.get("substitute")) for w in doc["warnings"]}
    assert actions[9] == (2, "substitute", "替补甲")
    assert actions[14] == (2, "out", None)
    assert actions[16] == (2, "out", None)
    roster = Game.open(game).roster()
    assert roster.seat(9).name == "替补甲" and roster.seat(9).role == "杀手"
    assert roster.seat(9).former[0].name == "小明"
    assert not roster.seat(14).alive and not roster.seat(16).alive
    assert roster.substitutes == ()


def test_drowned_players_are_announced_with_their_camp_only(game, serve_site):
    run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(game), "--record", "--round", "1")
    url = f"{serve_site(discuz_x_site(next_day_thread()))}/forum.php?mod=viewthread&tid={DEMO_TID}"
    text = run(
        "tally", url, *NEXT_DEADLINE, "--db", str(game), "--record", "--round", "2", "--format",
        "text",
    ).output  # fmt: skip
    assert "14号 老王：视为自投；第 2 次警告，无替补，出局（淹死），身份：杀手" in text
    assert "9号 小明：视为自投；第 2 次警告，由替补 替补甲 接替" in text


def test_a_substitute_keeps_the_role_and_the_old_names_later_posts_are_replaced(game):
    result = run("sub", "3", "新人", "--uid", "4242", "--at", "2019-05-12 12:00", "--db", str(game))
    assert result.exit_code == 0, result.output
    roster = Game.open(game).roster()
    assert (roster.seat(3).name, roster.seat(3).uid, roster.seat(3).role) == ("新人", 4242, "水民")
    doc = json.loads(
        run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(game), "--format", "json").output
    )
    reasons = {r["floor"]: r["reason"] for r in doc["rejected"]}
    assert reasons[20] == "replaced"  # 路人甲's post after 12:00
    seat3 = next(b for b in doc["ballots"] if b["seat"] == 3)
    assert (seat3["kind"], seat3["target"], seat3["floor"]) == ("vote", 5, 4)  # before 12:00


def test_sub_refuses_a_dead_seat_and_a_name_already_seated(game):
    assert "已出局" in run("sub", "6", "新人", "--db", str(game)).output
    assert "已经在本局" in run("sub", "3", "meer", "--db", str(game)).output


def test_status_says_what_was_skipped_and_what_comes_next(game):
    before = run("status", "--db", str(game)).output
    assert "还没有开始（1.2 规则）" in before and "存活 14 人" in before
    run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(game), "--record", "--round", "1")
    after = run("status", "--db", str(game)).output
    assert "存活 13 人" in after
    assert "警告：9号 1 次、14号 1 次、16号 1 次" in after
    assert "第 1 轮的夜晚没有记录" in after
    assert "下一步：第 2 轮的夜晚" in after
    for role in ("水民", "检查官"):
        assert role not in after


def test_the_win_check_ends_the_game_and_reveals_every_role(tmp_path):
    # killers 5, 9, 14: voting out 5 leaves killers 9 and 14 — no win; make 5 the last killer
    roster_text = DEMO_ROSTER_TOML.replace('role = "杀手"', 'role = "水民"')
    roster_text = roster_text.replace(
        'name = "预言家本家"\nuid = 2004\naliases = ["本家"]\nalive = true\nrole = "水民"',
        'name = "预言家本家"\nuid = 2004\naliases = ["本家"]\nalive = true\nrole = "杀手"',
    )
    roster = tmp_path / "roster.toml"
    roster.write_text(roster_text, encoding="utf-8")
    db = tmp_path / "g.db"
    run("init", "--roster", str(roster), "--db", str(db))
    result = run("tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(db), "--record", "--round", "1")
    assert "身份：[b]杀手[/b]" in result.output
    assert "游戏结束：好人方胜利" in result.output
    assert "8号 闲云野鹤：检查官" in result.output
    assert "游戏已结束" in run("status", "--db", str(db)).output
    assert "揭秘" in run("status", "--db", str(db), "--reveal").output


def test_a_game_ending_tally_in_json_is_one_document_that_says_the_game_is_over(tmp_path):
    roster_text = DEMO_ROSTER_TOML.replace('role = "杀手"', 'role = "水民"')
    roster_text = roster_text.replace(
        'name = "预言家本家"\nuid = 2004\naliases = ["本家"]\nalive = true\nrole = "水民"',
        'name = "预言家本家"\nuid = 2004\naliases = ["本家"]\nalive = true\nrole = "杀手"',
    )
    roster = tmp_path / "roster.toml"
    roster.write_text(roster_text, encoding="utf-8")
    db = tmp_path / "g.db"
    run("init", "--roster", str(roster), "--db", str(db))
    result = CliRunner().invoke(
        main,
        ["tally", EXAMPLE_PAGES, *DEADLINE, "--db", str(db), "--record", "--format", "json"],
    )
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["outcome"] == {"kind": "eliminated", "seat": 5, "camp": "杀手"}
    assert document["game_over"]["winner"] == "好人"
    assert "[b]" not in result.stdout


def test_reveal_is_refused_before_the_game_ends(game):
    result = run("status", "--db", str(game), "--reveal")
    assert result.exit_code == 2 and "还没有结束" in result.output


def test_a_failed_step_writes_nothing(game, monkeypatch):
    import killmod.usecases.record as record

    def broken(*args, **kwargs):
        raise RuntimeError("disk gone")

    monkeypatch.setattr(record, "record_if_over", broken)
    with pytest.raises(RuntimeError):
        from killmod import tally

        tally(EXAMPLE_PAGES, deadline="2019-05-12 22:00", game=game, round_no=1, record=True)
    db = Game.open(game)
    assert db.tally_record(1) is None
    assert db.events() == []
    assert db.db["posts"].count == 0
