"""Reading the judge's --deadline in the forms judges write."""

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from killmod.ballots.deadline import parse_deadline
from killmod.core.errors import BadInput

TZ = ZoneInfo("Asia/Shanghai")
# The thread was opened at 20:00 on 2014-12-09.
OPENED = datetime(2014, 12, 9, 20, 0, tzinfo=TZ)


def at(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=TZ)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2014-12-09 22:00", at(2014, 12, 9, 22, 0)),
        ("2014-12-09 22:00:30", at(2014, 12, 9, 22, 0, 30)),
        ("2014/12/09 22:00", at(2014, 12, 9, 22, 0)),
        ("2014-12-9 22:00", at(2014, 12, 9, 22, 0)),
        ("2014年12月9日22点", at(2014, 12, 9, 22, 0)),
        ("2014年12月9日 22:00", at(2014, 12, 9, 22, 0)),
        ("  2014-12-09 22:00 ", at(2014, 12, 9, 22, 0)),
    ],
)
def test_deadline_with_full_date_is_that_moment(text, expected):
    found = parse_deadline(text, TZ, OPENED)
    assert found == expected
    assert found.tzinfo is TZ


def test_deadline_with_full_date_needs_no_opening_post():
    assert parse_deadline("2014-12-09 22:00", TZ, None) == at(2014, 12, 9, 22, 0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12-09 22:00", at(2014, 12, 9, 22, 0)),
        ("12-09 22:00:30", at(2014, 12, 9, 22, 0, 30)),
        ("12/10 22:00", at(2014, 12, 10, 22, 0)),
        ("12月9日22:00", at(2014, 12, 9, 22, 0)),
        ("12月10号晚上10点", at(2014, 12, 10, 22, 0)),
    ],
)
def test_deadline_without_year_is_in_the_opening_posts_year(text, expected):
    assert parse_deadline(text, TZ, OPENED) == expected


def test_deadline_without_year_already_past_is_next_year():
    assert parse_deadline("12-08 22:00", TZ, OPENED) == at(2015, 12, 8, 22, 0)
    assert parse_deadline("12-09 19:00", TZ, OPENED) == at(2015, 12, 9, 19, 0)


def test_deadline_without_year_crosses_new_year():
    opened_new_years_eve = at(2014, 12, 31, 21, 0)
    assert parse_deadline("01-01 22:00", TZ, opened_new_years_eve) == at(2015, 1, 1, 22, 0)


def test_deadline_on_february_29_without_year_is_the_next_leap_year():
    assert parse_deadline("02-29 22:00", TZ, OPENED) == at(2016, 2, 29, 22, 0)


def test_deadline_without_year_and_opening_post_is_this_year():
    this_year = datetime.now(TZ).year
    assert parse_deadline("12-09 22:00", TZ, None) == at(this_year, 12, 9, 22, 0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("22:00", at(2014, 12, 9, 22, 0)),
        ("22:00:59", at(2014, 12, 9, 22, 0, 59)),
        ("22点", at(2014, 12, 9, 22, 0)),
        ("22点30分", at(2014, 12, 9, 22, 30)),
        ("22点30", at(2014, 12, 9, 22, 30)),
        ("22点整", at(2014, 12, 9, 22, 0)),
        ("22點", at(2014, 12, 9, 22, 0)),
        ("今晚22点", at(2014, 12, 9, 22, 0)),
        ("今晚10点", at(2014, 12, 9, 22, 0)),
        ("晚上10点", at(2014, 12, 9, 22, 0)),
        ("晚上10点半", at(2014, 12, 9, 22, 30)),
        ("晚上 10:30", at(2014, 12, 9, 22, 30)),
        ("下午3点", at(2014, 12, 10, 15, 0)),
        ("中午12点", at(2014, 12, 10, 12, 0)),
        ("中午1点", at(2014, 12, 10, 13, 0)),
        ("凌晨1点", at(2014, 12, 10, 1, 0)),
        ("凌晨12点", at(2014, 12, 10, 0, 0)),
        ("上午10点", at(2014, 12, 10, 10, 0)),
    ],
)
def test_deadline_without_date_is_first_such_time_after_opening_post(text, expected):
    found = parse_deadline(text, TZ, OPENED)
    assert found == expected
    assert found.tzinfo is TZ


def test_deadline_without_date_is_strictly_after_opening_post():
    assert parse_deadline("20:00", TZ, OPENED) == at(2014, 12, 10, 20, 0)
    assert parse_deadline("20:00:01", TZ, OPENED) == at(2014, 12, 9, 20, 0, 1)


def test_deadline_without_date_after_a_late_opening_post_is_the_next_day():
    opened_late = at(2014, 12, 9, 23, 0)
    assert parse_deadline("22:00", TZ, opened_late) == at(2014, 12, 10, 22, 0)


def test_opening_post_in_another_timezone_is_seen_on_the_boards_clock():
    # 15:00 UTC is 23:00 in Shanghai: the next 22:00 there is on the 10th.
    opened_utc = datetime(2014, 12, 9, 15, 0, tzinfo=UTC)
    found = parse_deadline("22:00", TZ, opened_utc)
    assert found == at(2014, 12, 10, 22, 0)
    assert found.tzinfo is TZ


def test_deadline_has_second_resolution_even_after_a_precise_opening_post():
    opened_precisely = at(2014, 12, 9, 20, 0, 5, 999999)
    found = parse_deadline("22:00", TZ, opened_precisely)
    assert found == at(2014, 12, 9, 22, 0)
    assert found.microsecond == 0


@pytest.mark.parametrize("text", ["24点", "24:00", "今晚24点", "晚上12点", "今晚12点"])
def test_midnight_at_the_end_of_the_day_is_the_next_days_start(text):
    assert parse_deadline(text, TZ, OPENED) == at(2014, 12, 10, 0, 0)


def test_end_of_day_with_a_date_is_the_following_midnight():
    assert parse_deadline("2014-12-09 24:00", TZ, None) == at(2014, 12, 10, 0, 0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("２２：００", at(2014, 12, 9, 22, 0)),
        ("２０１４－１２－０９　２２：３０", at(2014, 12, 9, 22, 30)),
        ("晚上１０点", at(2014, 12, 9, 22, 0)),
    ],
)
def test_full_width_digits_and_colon_are_read(text, expected):
    assert parse_deadline(text, TZ, OPENED) == expected


def test_deadline_without_date_needs_the_opening_post():
    with pytest.raises(BadInput) as caught:
        parse_deadline("22:00", TZ, None)
    assert "没有日期" in caught.value.message
    assert "「22:00」" in caught.value.message
    assert caught.value.exit_code == 2


@pytest.mark.parametrize(
    "text", ["", "明天", "22", "下周一22点", "22:00 截止", "2014-12-09", "22：0"]
)
def test_unreadable_deadline_lists_the_forms(text):
    with pytest.raises(BadInput) as caught:
        parse_deadline(text, TZ, OPENED)
    assert caught.value.message == (
        f"无法识别的截止时间：「{text}」。可用格式："
        "2014-12-09 22:00、12-09 22:00、22:00、22点、今晚22点、晚上10点"
    )


@pytest.mark.parametrize("text", ["25点", "22:60", "22:00:60", "24:30", "24点半", "晚上25点"])
def test_deadline_with_impossible_clock_is_bad_input(text):
    with pytest.raises(BadInput, match=f"截止时间「{text}」里的时刻不存在"):
        parse_deadline(text, TZ, OPENED)


@pytest.mark.parametrize("text", ["2014-02-30 22:00", "2014-13-01 22:00", "02-30 22:00"])
def test_deadline_with_impossible_date_is_bad_input(text):
    with pytest.raises(BadInput, match=f"截止时间「{text}」里的日期不存在"):
        parse_deadline(text, TZ, OPENED)


# --- summer time: a wall-clock time that names two moments, or none ----------------------------

NEW_YORK = ZoneInfo("America/New_York")
NY_OPENED = datetime(2019, 11, 2, 20, 0, tzinfo=NEW_YORK)


@pytest.mark.parametrize("text", ["2019-11-03 01:30", "11-03 01:30", "01:30", "凌晨1点半"])
def test_a_time_the_fall_back_shows_twice_is_refused_naming_both_readings(text):
    with pytest.raises(BadInput) as caught:
        parse_deadline(text, NEW_YORK, NY_OPENED)
    message = caught.value.message
    assert caught.value.exit_code == 2
    assert f"时间「{text}」说不清是哪一刻" in message and "出现两次" in message
    # both readings, in order, each with its offset and its moment in UTC, and how to write it
    assert "2019-11-03 01:30 -04:00（UTC 05:30）" in message
    assert "2019-11-03 01:30 -05:00（UTC 06:30）" in message
    assert "「2019-11-03 01:30 -04:00」或「2019-11-03 01:30 -05:00」" in message


def test_a_time_the_spring_forward_skips_is_refused_naming_both_readings():
    with pytest.raises(BadInput) as caught:
        parse_deadline("2019-03-10 02:30", NEW_YORK, None)
    message = caught.value.message
    assert "跳过了 2019-03-10 02:30" in message
    assert "2019-03-10 02:30 -04:00（UTC 06:30，当地时钟 2019-03-10 01:30:00）" in message
    assert "2019-03-10 02:30 -05:00（UTC 07:30，当地时钟 2019-03-10 03:30:00）" in message


@pytest.mark.parametrize(
    ("text", "utc"),
    [
        ("2019-11-03 01:30 -04:00", datetime(2019, 11, 3, 5, 30, tzinfo=UTC)),
        ("2019-11-03 01:30-0500", datetime(2019, 11, 3, 6, 30, tzinfo=UTC)),
        ("2019-11-03 01:30 UTC-4", datetime(2019, 11, 3, 5, 30, tzinfo=UTC)),
        ("11-03 01:30 GMT-05:00", datetime(2019, 11, 3, 6, 30, tzinfo=UTC)),
        ("2019-03-10 03:30 -04:00", datetime(2019, 3, 10, 7, 30, tzinfo=UTC)),
    ],
)
def test_the_written_offset_picks_the_reading(text, utc):
    found = parse_deadline(text, NEW_YORK, NY_OPENED)
    assert found == utc
    assert found.astimezone(NEW_YORK).utcoffset() == found.utcoffset()


def test_an_offset_the_zone_does_not_have_then_is_refused():
    with pytest.raises(BadInput) as caught:
        parse_deadline("2019-11-03 01:30 +08:00", NEW_YORK, NY_OPENED)
    assert "UTC+08:00 不是 America/New_York" in caught.value.message
    assert "UTC-04:00或UTC-05:00" in caught.value.message
    assert parse_deadline("22:00 +08:00", TZ, OPENED) == at(2014, 12, 9, 22, 0)


def test_a_dateless_time_passes_over_a_summer_time_day_already_behind_the_opening():
    after_fall_back = datetime(2019, 11, 3, 12, 0, tzinfo=NEW_YORK)
    assert parse_deadline("01:30", NEW_YORK, after_fall_back) == datetime(
        2019, 11, 4, 1, 30, tzinfo=NEW_YORK
    )
