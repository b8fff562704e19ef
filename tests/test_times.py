"""Reading post times as boards show them: absolute, relative, titles, edit notices."""

import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from killmod.ballots.deadline import parse_deadline
from killmod.core.errors import BadInput
from killmod.core.times import format_iso, format_local, parse_board_time, parse_edit_notice

TZ = ZoneInfo("Asia/Shanghai")
# The page was fetched a little after 22:00 on 2019-05-12 (with microseconds, as a clock gives).
NOW = datetime(2019, 5, 12, 22, 0, 12, 345678, tzinfo=TZ)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=TZ)


@pytest.mark.parametrize(
    ("text", "expected", "precision"),
    [
        ("2019-5-3 18:40:49", at(2019, 5, 3, 18, 40, 49), "second"),
        ("2019-5-3 18:40", at(2019, 5, 3, 18, 40), "minute"),
        ("2019-05-03 18:40", at(2019, 5, 3, 18, 40), "minute"),
        ("2019/5/3 18:40", at(2019, 5, 3, 18, 40), "minute"),
        ("19-05-03 18:40", at(2019, 5, 3, 18, 40), "minute"),
        ("2019年5月3日 18:40", at(2019, 5, 3, 18, 40), "minute"),
        ("2019年5月3日 18:40:07", at(2019, 5, 3, 18, 40, 7), "second"),
    ],
)
def test_absolute_times_are_read_with_the_precision_they_show(text, expected, precision):
    found, found_precision = parse_board_time(text, TZ, NOW)
    assert found == expected
    assert found.tzinfo is TZ
    assert found_precision == precision


@pytest.mark.parametrize(
    "text",
    [
        "发表于 2019-5-3 18:40",
        "發表於 2019-5-3 18:40",
        "时间: 2019-5-3 18:40",
        "時間: 2019-5-3 18:40",
        "发表于&nbsp;2019-5-3&nbsp;18:40",
        "\xa0发表于\xa02019-5-3\xa0\xa018:40 ",
        "  2019-5-3   18:40\n",
    ],
)
def test_absolute_time_ignores_leading_word_nbsp_and_stray_spaces(text):
    assert parse_board_time(text, TZ, NOW) == (at(2019, 5, 3, 18, 40), "minute")


def test_absolute_time_is_in_the_boards_timezone():
    taipei = ZoneInfo("Asia/Taipei")
    found, _ = parse_board_time("2019-5-3 18:40", taipei, NOW)
    assert found == datetime(2019, 5, 3, 18, 40, tzinfo=taipei)
    assert found.utcoffset() == timedelta(hours=8)
    new_york = ZoneInfo("America/New_York")
    found, _ = parse_board_time("2019-5-3 18:40", new_york, NOW)
    assert found.utcoffset() == timedelta(hours=-4)


def test_relative_time_prefers_exact_title():
    found = parse_board_time("5&nbsp;小时前", TZ, NOW, title="2019-5-12 16:58:01")
    assert found == (at(2019, 5, 12, 16, 58, 1), "second")


def test_title_without_seconds_gives_minute_precision():
    found = parse_board_time("刚才", TZ, NOW, title="2019-5-12 21:58")
    assert found == (at(2019, 5, 12, 21, 58), "minute")


def test_unreadable_title_falls_back_to_the_visible_text():
    found = parse_board_time("昨天&nbsp;21:55", TZ, NOW, title="查看详细资料")
    assert found == (at(2019, 5, 11, 21, 55), "minute")


@pytest.mark.parametrize(
    ("text", "expected", "precision"),
    [
        ("刚刚", at(2019, 5, 12, 22, 0, 12), "second"),
        ("剛剛", at(2019, 5, 12, 22, 0, 12), "second"),
        ("刚才", at(2019, 5, 12, 22, 0, 12), "second"),
        ("剛才", at(2019, 5, 12, 22, 0, 12), "second"),
        ("42&nbsp;秒前", at(2019, 5, 12, 21, 59, 30), "second"),
        ("42 秒前", at(2019, 5, 12, 21, 59, 30), "second"),
        # dgmdate's spans: "12 分钟前" is 720–779 s old, "半小时前" 1,801–3,600 s, "5 小时前"
        # 18,000–21,599 s, a bare "7 天前" the whole day six days before yesterday.
        ("12&nbsp;分钟前", at(2019, 5, 12, 21, 47, 13), "minute"),
        ("12\xa0分鐘前", at(2019, 5, 12, 21, 47, 13), "minute"),
        ("半小时前", at(2019, 5, 12, 21, 0, 12), "hour"),
        ("半小時前", at(2019, 5, 12, 21, 0, 12), "hour"),
        ("5&nbsp;小时前", at(2019, 5, 12, 16, 0, 13), "hour"),
        ("5 小時前", at(2019, 5, 12, 16, 0, 13), "hour"),
        ("昨天&nbsp;21:55", at(2019, 5, 11, 21, 55), "minute"),
        ("前天&nbsp;21:55", at(2019, 5, 10, 21, 55), "minute"),
        ("昨天 21:55:30", at(2019, 5, 11, 21, 55, 30), "second"),
        ("7&nbsp;天前", at(2019, 5, 5, 0, 0, 0), "day"),
        ("7&nbsp;天前&nbsp;03:24", at(2019, 5, 5, 3, 24), "minute"),
        ("发表于 5&nbsp;小时前", at(2019, 5, 12, 16, 0, 13), "hour"),
        ("發表於 12&nbsp;分鐘前", at(2019, 5, 12, 21, 47, 13), "minute"),
    ],
)
def test_relative_times_resolve_against_fetch_time(text, expected, precision):
    found, found_precision = parse_board_time(text, TZ, NOW)
    assert found == expected
    assert found.tzinfo is TZ
    assert found.microsecond == 0
    assert found_precision == precision


def test_days_ago_with_clock_keeps_the_calendar_day_just_after_midnight():
    just_after_midnight = at(2019, 5, 12, 0, 10, 5)
    found = parse_board_time("3&nbsp;天前&nbsp;23:50", TZ, just_after_midnight)
    assert found == (at(2019, 5, 9, 23, 50), "minute")


def test_fetch_time_in_another_timezone_is_seen_on_the_boards_clock():
    # 17:00 UTC is already 01:00 on 2019-05-13 in Shanghai: 昨天 is the 12th there.
    fetched_utc = datetime(2019, 5, 12, 17, 0, tzinfo=UTC)
    found, _ = parse_board_time("昨天 21:55", TZ, fetched_utc)
    assert found == at(2019, 5, 12, 21, 55)
    assert found.tzinfo is TZ


def test_each_fetch_time_gets_its_own_resolution():
    later = NOW + timedelta(hours=1)
    assert parse_board_time("5 分钟前", TZ, NOW)[0] == at(2019, 5, 12, 21, 54, 13)
    assert parse_board_time("5 分钟前", TZ, later)[0] == at(2019, 5, 12, 22, 54, 13)
    assert parse_board_time("5 分钟前", TZ, NOW)[0] == at(2019, 5, 12, 21, 54, 13)


def test_a_post_of_a_minute_ago_may_be_just_before_the_deadline():
    # Seen at 22:01:58, "1 分钟前" is 60–119 s old: written between 21:59:59 and 22:00:58.
    seen = at(2019, 5, 12, 22, 1, 58)
    assert parse_board_time("1 分钟前", TZ, seen) == (at(2019, 5, 12, 21, 59, 59), "minute")


@pytest.mark.parametrize(
    ("text", "exact", "footer"),
    [
        ("刚刚", "second", "minute"),
        ("42 秒前", "second", "minute"),
        ("12 分钟前", "minute", "hour"),
        ("5 小时前", "hour", "hour"),
        ("昨天 21:55", "minute", "minute"),  # a clock time does not count from the clock
        ("昨天 21:55:30", "second", "second"),
    ],
)
def test_a_clock_known_to_the_minute_never_gives_second_precision(text, exact, footer):
    assert parse_board_time(text, TZ, NOW)[1] == exact
    assert parse_board_time(text, TZ, NOW, slack=59)[1] == footer


@pytest.mark.parametrize(
    "text",
    [
        "",
        "abc",
        "5",
        "2019",
        "星期一",
        "昨天",
        "-5 分钟前",
        "5 分钟前 了",
        "昨天 25:00",
        "2019-13-45 18:40",
        "2019-5-3 24:10",
        "2019-5-3",
    ],
)
def test_unreadable_time_is_bad_input_quoting_the_text(text):
    with pytest.raises(BadInput) as caught:
        parse_board_time(text, TZ, NOW)
    assert caught.value.message == f"无法识别的发帖时间：「{text}」"
    assert caught.value.exit_code == 2


def test_absolute_times_never_import_dateparser():
    code = (
        "import sys; from datetime import datetime; from zoneinfo import ZoneInfo\n"
        "from killmod.core.times import parse_board_time\n"
        "tz = ZoneInfo('Asia/Shanghai')\n"
        "parse_board_time('发表于 2019-5-3 18:40:49', tz, datetime.now(tz))\n"
        "print('dateparser' in sys.modules)\n"
    )
    repo = Path(__file__).resolve().parents[1]
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, capture_output=True, text=True, check=True
    )
    assert ran.stdout.strip() == "False"


@pytest.mark.parametrize(
    "text",
    [
        "本帖最后由 阿狸 于 2019-5-4 02:55 编辑",
        " 本帖最後由 阿狸 於 2019-5-4 02:55 編輯 ",
        "本帖最后由&nbsp;阿狸&nbsp;于&nbsp;2019-5-4&nbsp;02:55&nbsp;编辑",
        "我投3号\n本帖最后由 于小于 于 2019-5-4 02:55 编辑\n",
    ],
)
def test_edit_notice_gives_the_edit_time(text):
    assert parse_edit_notice(text, TZ) == at(2019, 5, 4, 2, 55)


def test_text_without_edit_notice_has_no_edit_time():
    assert parse_edit_notice("投 5 号。本帖最后说一句：2019-5-4 02:55", TZ) is None


def test_edit_notice_with_impossible_date_is_no_edit_notice():
    # A player may type one: it must never stop a tally.
    assert parse_edit_notice("本帖最后由 阿狸 于 2019-2-30 02:55 编辑", TZ) is None
    assert parse_edit_notice("本帖最后由 阿狸 于 2019-5-4 25:61 编辑", TZ) is None


def test_iso_format_has_offset_and_seconds_but_no_microseconds():
    assert format_iso(at(2019, 5, 12, 22, 0, 0, 123456)) == "2019-05-12T22:00:00+08:00"
    assert format_iso(datetime(2019, 5, 12, 14, 0, 7, tzinfo=UTC)) == "2019-05-12T14:00:07+00:00"


def test_iso_format_refuses_a_naive_time():
    with pytest.raises(ValueError):
        format_iso(datetime(2019, 5, 12, 22, 0))


@pytest.mark.parametrize(
    ("utc", "shown"),
    [
        (datetime(2019, 11, 3, 4, 30, tzinfo=UTC), "2019-11-03 00:30:00"),
        (datetime(2019, 11, 3, 5, 30, tzinfo=UTC), "2019-11-03 01:30:00 -04:00"),
        (datetime(2019, 11, 3, 6, 30, tzinfo=UTC), "2019-11-03 01:30:00 -05:00"),
        (datetime(2019, 11, 3, 7, 30, tzinfo=UTC), "2019-11-03 02:30:00"),
        (datetime(2019, 3, 10, 7, 30, tzinfo=UTC), "2019-03-10 03:30:00"),  # after the skip
    ],
)
def test_a_local_time_the_clock_shows_twice_is_written_with_its_offset(utc, shown):
    new_york = ZoneInfo("America/New_York")
    assert format_local(utc, new_york) == shown
    assert parse_deadline(shown, new_york, None) == utc  # what the judge copies is taken again
