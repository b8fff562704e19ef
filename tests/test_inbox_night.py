"""A night's actions read from the judge's 站内短信 (``night --from-pm``), on the fake board."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from killmod.board.inbox import read_night
from killmod.board.session import BoardOptions
from killmod.game.store import Game
from killmod.usecases.inbox import InboxNight
from tests.support.boardgames import BoardGame, board_game, from_pm
from tests.support.pagebuilder import SHANGHAI

# 1.2: killers 1, 2, 3; the 检查官 4; the rest 水民.
ROLES_12 = {
    seat: "杀手" if seat <= 3 else "检查官" if seat == 4 else "水民" for seat in range(1, 17)
}
SINCE = datetime(2019, 5, 12, 22, 0, tzinfo=SHANGHAI)
UNTIL = datetime(2019, 5, 13, 8, 0, tzinfo=SHANGHAI)


def at(day: int, hm: str) -> datetime:
    hour, minute = (int(part) for part in hm.split(":"))
    return datetime(2019, 5, day, hour, minute, tzinfo=SHANGHAI)


@pytest.fixture
def game(tmp_path: Path, serve_site) -> BoardGame:
    return board_game(tmp_path, serve_site, "1.2", ROLES_12)


def read(game: BoardGame, night: int = 1, until: datetime = UNTIL, **more) -> InboxNight:
    options = BoardOptions(game.cookies, timeout=5, interval=0)
    with Game.open(game.db) as opened:
        return read_night(opened, night, game.game_url, options, until=until, since=SINCE, **more)


def verdicts(reading: InboxNight) -> list[tuple[int | None, str, str | None, str]]:
    return [(r.letter.seat, r.letter.text, r.option, r.verdict) for r in reading.reads]


def night_from_pm(game: BoardGame, *more: object):
    return game.run(*from_pm(game.game_url), *more)


def test_the_killers_agreeing_is_the_kill_and_each_message_is_accounted_for(game: BoardGame):
    game.player_writes(1, "收到", at(12, "22:05"))
    game.player_writes(1, "杀 7号", at(12, "22:30"))
    game.player_writes(2, "杀 7", at(12, "23:10"))
    game.player_writes(3, "我们杀 九号", at(12, "23:11"))
    game.player_writes(3, "改主意了，杀7号", at(12, "23:59"))
    game.player_writes(4, "否决 5号", at(13, "07:30"))
    game.player_writes(5, "杀 3号", at(12, "23:00"))
    game.player_writes(1, "杀 8号", at(13, "08:01"))
    game.player_writes(6, "昨晚的事", at(12, "21:00"))
    reading = read(game)
    assert reading.choices() == {"kill": 7, "veto": 5}
    assert reading.unsettled() == []
    assert verdicts(reading) == [
        (1, "收到", None, "not_action"),
        (1, "杀 7号", "kill", "taken"),
        (2, "杀 7", "kill", "taken"),
        (3, "我们杀 九号", "kill", "superseded"),
        (3, "改主意了，杀7号", "kill", "taken"),
        (4, "否决 5号", "veto", "taken"),
        (5, "杀 3号", None, "not_entitled"),
        (1, "杀 8号", "kill", "late"),
    ]


def test_killers_who_disagree_leave_the_kill_to_the_judge(game: BoardGame):
    game.player_writes(1, "杀 7号", at(12, "22:30"))
    game.player_writes(2, "杀 9号", at(12, "22:40"))
    reading = read(game)
    (kill,) = reading.unsettled()
    assert kill.option == "kill" and kill.conflict and "1号→7号" in kill.why
    assert [r.verdict for r in reading.reads] == ["disagreement", "disagreement"]
    refused = night_from_pm(game, "--yes")
    assert refused.exit_code == 2
    assert "站内短信定不了杀人" in refused.output and "--kill 座位号" in refused.output
    with Game.open(game.db) as opened:
        assert opened.events("night") == []
    done = night_from_pm(game, "--yes", "--kill", 9)
    assert done.exit_code == 0, done.output
    with Game.open(game.db) as opened:
        (night,) = opened.events("night")
        assert night.data["kill"] == 9


def test_a_message_in_the_deadlines_minute_is_flagged_and_counted(game: BoardGame):
    game.player_writes(1, "杀 7号", at(13, "08:00"))
    reading = read(game)
    (only,) = reading.reads
    assert (only.verdict, only.flag) == ("taken", "time_ambiguous")
    assert reading.choices() == {"kill": 7}
    done = night_from_pm(game)
    assert "1 条站内短信与截止同一分钟" in done.stderr
    rejected = read(game, reject_ambiguous=True)
    assert rejected.reads[0].verdict == "time_ambiguous" and rejected.choices() == {}


def test_a_message_from_someone_outside_the_game_and_an_unreadable_one(game: BoardGame):
    game.board.member("路人", 9999)
    game.board.write(9999, 900, "杀 3号", at(12, "23:00"))
    game.player_writes(1, "杀 老王", at(12, "23:05"))
    reading = read(game)
    assert [(r.letter.seat, r.verdict) for r in reading.reads] == [
        (None, "not_player"),
        (1, "unreadable"),
    ]
    (kill,) = reading.unsettled()
    assert "1号的站内短信读不出目标" in kill.why


def test_without_yes_the_reading_is_written_for_the_judge_and_nothing_recorded(game: BoardGame):
    game.player_writes(1, "杀 7号", at(12, "22:30"))
    done = night_from_pm(game)
    assert done.exit_code == 0, done.output
    assert done.stdout == ""  # nothing public: no night was recorded
    assert "没有记录：确认无误后加 --yes" in done.stderr
    assert "7号" not in done.stderr and "杀 " not in done.stderr  # the action is secret
    (file,) = (game.tmp / "game-private").glob("night1-inbox*.txt")
    text = file.read_text(encoding="utf-8")
    assert "杀人：7号 玩家7（1号）" in text and "「杀 7号」→ 杀人，采用" in text
    with Game.open(game.db) as opened:
        assert opened.events("night") == []
    recorded = night_from_pm(game, "--yes")
    assert recorded.exit_code == 0, recorded.output
    assert "7号" in recorded.stdout  # the 尸体 post
    with Game.open(game.db) as opened:
        (night,) = opened.events("night")
        assert (night.data["kill"], night.data["veto"]) == (7, None)
    assert len(list((game.tmp / "game-private").glob("night1-inbox*.txt"))) == 2


def test_the_night_is_not_recorded_before_its_deadline(game: BoardGame):
    game.player_writes(1, "杀 7号", at(12, "22:30"))
    done = game.run(*from_pm(game.game_url, until="2099-01-01 08:00"), "--yes")
    assert done.exit_code == 2 and "还没到" in done.output


def test_long_inbox_and_long_conversations_are_read_page_by_page(game: BoardGame):
    for seat in range(5, 17):  # twelve conversations: two inbox pages
        game.player_writes(seat, "晚安", at(12, f"23:{seat:02d}"))
    for minute in range(12):  # twelve messages from seat 1: two conversation pages
        game.player_writes(1, "杀 8号" if minute < 11 else "杀 7号", at(12, f"22:{10 + minute}"))
    game.player_writes(2, "杀 7号", at(12, "22:05"))
    reading = read(game)
    assert reading.choices() == {"kill": 7}
    assert sum(1 for r in reading.reads if r.letter.seat == 1) == 12
    assert {r.letter.seat for r in reading.reads} == {1, 2, *range(5, 17)}


def test_one_seconds_messages_are_taken_in_the_order_sent(game: BoardGame):
    moment = at(12, "22:30")
    game.player_writes(1, "杀 8号", moment)
    game.player_writes(1, "杀 7号", moment)  # sent later in the same second
    reading = read(game)
    assert reading.choices() == {"kill": 7}


def test_v4_each_role_sends_its_own_skill(tmp_path: Path, serve_site):
    # V4.0, 11 players: 杀手 1–3, 平民 4–6, 警察 7, 医生 8, 狙击手 9, 花蝴蝶 10, 森林老人 11.
    roles = {1: "杀手", 2: "杀手", 3: "杀手", 4: "平民", 5: "平民", 6: "平民", 7: "警察"}
    roles |= {8: "医生", 9: "狙击手", 10: "花蝴蝶", 11: "森林老人"}
    game = board_game(tmp_path, serve_site, "v4", roles)
    game.player_writes(1, "杀 4号", at(12, "22:10"))
    game.player_writes(2, "同意，杀4", at(12, "22:11"))
    game.player_writes(7, "验 2号", at(12, "22:12"))
    game.player_writes(8, "注射 4号", at(12, "22:13"))
    game.player_writes(9, "狙 5", at(12, "22:14"))
    game.player_writes(10, "蝶衣 6号", at(12, "22:15"))
    game.player_writes(11, "沉默 3号", at(12, "22:16"))
    game.player_writes(4, "狙 1号", at(12, "22:17"))  # a 平民 has no skill
    options = BoardOptions(game.cookies, timeout=5, interval=0)
    with Game.open(game.db) as opened:
        reading = read_night(opened, 0, game.game_url, options, until=UNTIL, since=SINCE)
    assert reading.choices() == {
        "kill": 4,
        "check": 2,
        "inject": 4,
        "snipe": 5,
        "butterfly": 6,
        "silence": 3,
    }
    assert verdicts(reading)[-1] == (4, "狙 1号", None, "not_entitled")
    done = game.run(*from_pm(game.game_url, night=0), "--yes")
    assert done.exit_code == 0, done.output
    with Game.open(game.db) as opened:
        (night,) = opened.events("night")
        assert night.data["choice"] == {
            "kill": 4,
            "check": [2],
            "inject": 4,
            "snipe": 5,
            "butterfly": 6,
            "silence": 3,
        }


def test_x_takes_the_killers_majority_and_leaves_a_tie_to_the_judge(tmp_path: Path, serve_site):
    # X, 12 players: 警察 1–3, 杀手 4–6, 平民 7–12.
    roles = {
        seat: "警察" if seat <= 3 else "杀手" if seat <= 6 else "平民" for seat in range(1, 13)
    }
    game = board_game(tmp_path, serve_site, "x", roles)
    game.player_writes(4, "杀 8号", at(12, "22:10"))
    game.player_writes(5, "杀 8号", at(12, "22:11"))
    game.player_writes(6, "杀 9号", at(12, "22:12"))
    game.player_writes(1, "验 4号", at(12, "22:13"))
    game.player_writes(2, "验 5号", at(12, "22:14"))
    options = BoardOptions(game.cookies, timeout=5, interval=0)
    with Game.open(game.db) as opened:
        reading = read_night(opened, 1, game.game_url, options, until=UNTIL, since=SINCE)
    assert reading.choices() == {"kill": 8}
    (check,) = reading.unsettled()
    assert check.option == "check" and "意见平票" in check.why and "多数人的意见" in check.why
