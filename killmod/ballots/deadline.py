"""The judge's ``--deadline``: a vote's closing time in the forms judges write.

"2014-12-09 22:00", "12-09 22:00", "22:00", "22点", "今晚22点", "晚上10点半",
"2014年12月9日22点"…  A time without a date is the first such time after the
thread's opening post; a date without a year, the first such date after it.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from killmod.core.errors import BadInput

_DATE = (
    r"(?:(?:(?P<y>\d{4})[-/])?(?P<mo>\d{1,2})[-/](?P<d>\d{1,2})"
    r"|(?:(?P<cy>\d{4})年)?(?P<cmo>\d{1,2})月(?P<cd>\d{1,2})[日号])"
)
_PERIOD = r"(?P<period>今晚|晚上|傍晚|下午|中午|凌晨|上午|早上)?"
_CLOCK = (
    r"(?:(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2}))?"
    r"|(?P<ch>\d{1,2})[点點](?:(?P<cmi>\d{1,2})分?|(?P<half>半)|整)?)"
)
_DEADLINE = re.compile(rf"(?:{_DATE}\s*)?{_PERIOD}\s*{_CLOCK}")

_EVENING = frozenset({"今晚", "晚上", "傍晚", "下午"})
_FORMS = "2014-12-09 22:00、12-09 22:00、22:00、22点、今晚22点、晚上10点"


def parse_deadline(text: str, tz: ZoneInfo, after: datetime | None) -> datetime:
    """The deadline ``text`` names, aware in ``tz``, to the second.

    ``after`` is the thread's opening post time: a deadline without a date is
    the first such time strictly after it, one without a year the first such
    month-day-time after it (this year when ``after`` is None).  "24点" and
    "晚上12点" are the midnight that ends the day.  Raises ``BadInput``.
    """
    match = _DEADLINE.fullmatch(unicodedata.normalize("NFKC", text).strip())
    if match is None:
        raise BadInput(f"无法识别的截止时间：「{text}」。可用格式：{_FORMS}")
    clock = _time_of_day(match, text)
    month = match["mo"] or match["cmo"]
    if month is None:
        return _next_time(clock, tz, after, text)
    day = int(match["d"] or match["cd"])
    year = match["y"] or match["cy"]
    if year is None:
        return _next_month_day(int(month), day, clock, tz, after, text)
    return _at(int(year), int(month), day, clock, tz, text)


def _time_of_day(match: re.Match[str], text: str) -> timedelta:
    """The clock time a match names, as time since midnight (24:00 allowed)."""
    if match["h"] is not None:
        hour, minute, second = int(match["h"]), int(match["mi"]), int(match["s"] or 0)
    else:
        hour = int(match["ch"])
        minute = 30 if match["half"] else int(match["cmi"] or 0)
        second = 0
    hour = _apply_period(match["period"], hour)
    if minute > 59 or second > 59 or hour > 24 or (hour == 24 and minute + second > 0):
        raise BadInput(f"截止时间「{text}」里的时刻不存在：小时应为 0–24，分、秒应为 0–59")
    return timedelta(hours=hour, minutes=minute, seconds=second)


def _apply_period(period: str | None, hour: int) -> int:
    """Turn a 12-hour clock with a word like 晚上/下午/凌晨 into a 24-hour one."""
    if period is None:
        return hour
    if period in _EVENING and 1 <= hour <= 11:
        return hour + 12
    if period in _EVENING and hour == 12 and period != "下午":
        return 24
    if period == "中午" and hour < 11:
        return hour + 12
    if period == "凌晨" and hour == 12:
        return 0
    return hour


def _at(year: int, month: int, day: int, clock: timedelta, tz: ZoneInfo, text: str) -> datetime:
    """The wall-clock time ``clock`` after midnight of the given day, in ``tz``."""
    try:
        return _on(date(year, month, day), clock, tz)
    except ValueError:
        raise BadInput(f"截止时间「{text}」里的日期不存在") from None


def _next_time(clock: timedelta, tz: ZoneInfo, after: datetime | None, text: str) -> datetime:
    """The first time ``clock`` strictly after ``after``."""
    if after is None:
        raise BadInput(
            f"截止时间「{text}」没有日期，又不知道开帖时间：请写上日期，如 2014-12-09 22:00"
        )
    start = after.astimezone(tz)
    day = start.date()
    while (found := _on(day, clock, tz)) <= start:
        day += timedelta(days=1)
    return found


def _on(day: date, clock: timedelta, tz: ZoneInfo) -> datetime:
    """The wall-clock time ``clock`` after midnight of ``day``, in ``tz``."""
    return (datetime.combine(day, time()) + clock).replace(tzinfo=tz)


def _next_month_day(
    month: int, day: int, clock: timedelta, tz: ZoneInfo, after: datetime | None, text: str
) -> datetime:
    """The first month-day-time after ``after``, or this year's when ``after`` is None."""
    if after is None:
        return _at(datetime.now(tz).year, month, day, clock, tz, text)
    start = after.astimezone(tz)
    for year in range(start.year, start.year + 9):
        try:
            found = _on(date(year, month, day), clock, tz)
        except ValueError:
            continue
        if found > start:
            return found
    raise BadInput(f"截止时间「{text}」里的日期不存在")
