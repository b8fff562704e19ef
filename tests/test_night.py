"""`killmod night`: the 1.2 night (kill, one-time veto) → the 尸体 post, on a real game file."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.game.store import Game
from killmod.usecases.night import announcement_time

ROOT = Path(__file__).resolve().parent.parent
ROSTER = ROOT / "examples" / "roster.toml"
SHANGHAI = ZoneInfo("Asia/Shanghai")
# The example roster: 6 (杀手) and 11 are out; 9 and 14 are the living killers, 8 the 检查官.
GOOD_SEATS = (1, 2, 3, 4, 5, 7, 8, 10, 12, 13, 15, 16)


def run(*args: object):
    return CliRunner().invoke(main, [str(arg) for arg in args])


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "game.db"
    assert run("init", "--roster", ROSTER, "--db", path).exit_code == 0
    return path


def night(db: Path, round_no: int, *args: object):
    return run("night", "--round", round_no, "--db", db, *args)


def ok(done) -> str:
    assert done.exit_code == 0, done.output
    return done.output


def alive(db: Path, seat: int) -> bool:
    return Game.open(db).roster().seat(seat).alive


def without_names(text: str, db: Path) -> str:
    """The text with every player's name taken out (a name like 狼人杀手 is not a role)."""
    for player in sorted(Game.open(db).roster().players, key=lambda p: -len(p.name)):
        text = text.replace(player.name, "")
    return text


def test_a_kill_is_recorded_and_the_post_shows_the_camp_only(db: Path):
    post = ok(night(db, 1, "--kill", 8))  # the 检查官
    game = Game.open(db)
    (event,) = game.events("night")
    assert (event.round, event.data["kill"], event.data["veto"]) == (1, 8, None)
    (death,) = game.events("death")
    assert (death.seat, death.data["how"], death.data["night_id"]) == (8, "killed", event.id)
    assert not alive(db, 8)
    assert "[b]8号 闲云野鹤[/b] 被杀，出局。[/color]身份：[b]好人[/b]。" in post
    assert "检查官" not in post and "水民" not in post


def test_the_zhashi_window_ends_24_hours_after_the_announcement(db: Path):
    post = ok(night(db, 1, "--kill", 9, "--at", "2019-05-13 08:30", "--format", "text", "--yes"))
    assert "公布时间：2019-05-13 08:30:00" in post
    assert "至 2019-05-14 08:30:00 止" in post
    assert "9号 小明 被杀，出局。身份：杀手。" in post


def test_at_without_a_date_is_the_nearest_such_time():
    now = datetime(2019, 5, 13, 1, 0, tzinfo=SHANGHAI)
    last_night = datetime(2019, 5, 12, 23, 30, tzinfo=SHANGHAI)
    this_morning = datetime(2019, 5, 13, 8, 0, tzinfo=SHANGHAI)
    assert announcement_time("23:30", SHANGHAI, now) == last_night
    assert announcement_time("08:00", SHANGHAI, now) == this_morning
    assert announcement_time(None, SHANGHAI, now) == now


def test_json_output(db: Path):
    args = ("--kill", 1, "--veto", 14, "--at", "2019-05-13 08:00", "--format", "json")
    doc = json.loads(ok(night(db, 1, *args)))
    assert doc == {
        "schema": "killmod.night/1",
        "round": 1,
        "kill": 1,
        "veto": 14,
        "out": [1, 14],
        "camps": {"1": "好人", "14": "杀手"},
        "announced_at": "2019-05-13T08:00:00+08:00",
        "zhashi_until": "2019-05-14T08:00:00+08:00",
        "winner": None,
    }


def test_the_veto_is_refused_the_second_time(db: Path):
    post = ok(night(db, 1, "--veto", 3))
    assert "[b]3号 路人甲[/b] 被行使否决权，出局。" in post
    (death,) = Game.open(db).events("death")
    assert death.data["how"] == "vetoed"
    done = night(db, 2, "--kill", 1, "--veto", 4, "--skip-day")
    assert done.exit_code == 2 and "否决权只有一次使用机会：第 1 轮" in done.output
    assert alive(db, 1) and alive(db, 4)  # nothing of the refused night is recorded
    assert [e.round for e in Game.open(db).events("night")] == [1]


def test_the_veto_is_refused_when_the_inspector_is_out(db: Path):
    ok(night(db, 1, "--kill", 8))
    done = night(db, 2, "--veto", 9, "--skip-day")
    assert done.exit_code == 2 and "检查官已出局" in done.output
    assert alive(db, 9)


def test_the_inspector_killed_the_same_night_still_uses_the_veto(db: Path):
    ok(night(db, 1, "--kill", 8, "--veto", 9))
    assert not alive(db, 8) and not alive(db, 9)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--kill", 6), "6号 潜水员 已出局，不能被杀"),
        (("--veto", 11), "11号 星期八 已出局，不能被行使否决权"),
        (("--kill", 17), "没有 17 号座位"),
    ],
)
def test_a_dead_or_unknown_target_is_refused(db: Path, args: tuple, message: str):
    done = night(db, 1, *args)
    assert done.exit_code == 2 and message in done.output
    assert not Game.open(db).events("night")


def test_a_night_without_kill_or_veto_is_a_quiet_night(db: Path):
    post = ok(night(db, 1, "--format", "text"))
    assert "平安夜：本轮无人出局。" in post and "诈尸" not in post
    assert json.loads(ok(night(db, 2, "--format", "json", "--skip-day")))["zhashi_until"] is None
    assert not Game.open(db).events("death")


def test_kill_and_veto_on_the_same_seat_is_one_death(db: Path):
    post = ok(night(db, 1, "--kill", 5, "--veto", 5, "--format", "text"))
    assert "5号 预言家本家 被杀，被行使否决权，出局。身份：好人。" in post
    (death,) = Game.open(db).events("death")
    assert (death.data["how"], death.data["causes"]) == ("killed", ["killed", "vetoed"])
    assert night(db, 2, "--veto", 3, "--skip-day").exit_code == 2  # the veto is used up


def test_a_night_recorded_twice_is_refused_without_replace(db: Path):
    ok(night(db, 1, "--kill", 1))
    done = night(db, 1, "--kill", 2)
    assert done.exit_code == 2 and "--replace" in done.output
    assert alive(db, 2) and len(Game.open(db).events("night")) == 1


def test_replace_voids_the_old_events_and_keeps_them(db: Path):
    ok(night(db, 1, "--kill", 1, "--veto", 3))
    ok(night(db, 1, "--kill", 2, "--replace"))
    game = Game.open(db)
    assert alive(db, 1) and alive(db, 3) and not alive(db, 2)
    old, new = game.events("night", include_void=True)
    assert [e.id for e in game.events("night")] == [new.id]
    voided = [e for e in game.events(include_void=True) if e not in game.events()]
    assert {(e.kind, e.seat) for e in voided} == {("night", None), ("death", 1), ("death", 3)}
    (replaced,) = game.events("night_replaced")
    assert replaced.data["old"] == old.id and replaced.data["new"] == new.id
    assert ok(night(db, 2, "--veto", 3, "--skip-day"))  # the replaced night's veto no longer counts


def test_killers_win_at_four_left_and_the_game_over_post_is_printed(db: Path):
    targets = [1, 2, 3, 4, 5, 7, 8, 10, 12, 13]  # 14 living → 9, 14, 15, 16
    for round_no, seat in enumerate(targets[:-1], 1):
        skip = ("--skip-day",) if round_no > 1 else ()  # no day is voted in this test
        assert "游戏结束" not in ok(night(db, round_no, "--kill", seat, *skip))
    post = ok(night(db, len(targets), "--kill", targets[-1], "--skip-day"))
    assert "游戏结束：杀手方胜利" in post
    assert "9号 小明：杀手" in post  # the game-over post reveals every role
    (over,) = Game.open(db).events("game_over")
    assert over.data["winner"] == "杀手"


def test_good_wins_when_all_killers_are_out(db: Path):
    post = ok(night(db, 1, "--kill", 14, "--veto", 9, "--yes"))  # 14 is a killer
    assert "游戏结束：好人方胜利" in post
    again = night(db, 1, "--kill", 14, "--veto", 9, "--replace", "--format", "json", "--yes")
    ok(again)  # stderr: the judge's confirmation of the kill of a killer
    assert json.loads(again.stdout)["winner"] == "好人"
    assert len(Game.open(db).events("game_over")) == 1  # the replaced night's end is void


def test_nothing_is_recorded_after_the_game_is_over(db: Path):
    ok(night(db, 1, "--kill", 14, "--veto", 9, "--yes"))
    done = night(db, 2, "--kill", 1)
    assert done.exit_code == 2 and "游戏已经结束（好人方胜利）" in done.output
    assert alive(db, 1)


def test_status_after_a_night_asks_for_the_day(db: Path):
    ok(night(db, 1, "--kill", 1))
    assert "killmod tally 投票帖 --deadline 截止时间 --record --round 1" in ok(
        run("status", "--db", db)
    )


def test_public_night_posts_never_show_a_living_players_role(db: Path):
    """The 尸体 post in several states: only a dead killer's camp says 杀手."""
    states = [
        (1, (), 0),  # 平安夜
        (2, ("--kill", 4), 0),  # 狼人杀手 is a 水民
        (3, ("--kill", 16, "--veto", 8, "--yes"), 0),  # the 检查官 vetoes himself
        (4, ("--kill", 9, "--yes"), 1),  # a killer (self-kill)
        (5, ("--kill", 1), 0),
    ]
    for round_no, args, dead_killers in states:
        for fmt in ("bbcode", "text"):
            replace = ("--replace",) if fmt == "text" else ("--skip-day",) if round_no > 1 else ()
            post = ok(night(db, round_no, *args, "--format", fmt, *replace))
            text = without_names(post, db)
            assert "水民" not in text and "检查官" not in text
            assert text.count("杀手") == dead_killers, post
