"""The judge's ``--deadline``: a vote's closing time in the forms judges write.

"2014-12-09 22:00", "12-09 22:00", "22:00", "22点", "今晚22点", "晚上10点半",
"2014年12月9日22点"…  A time without a date is the first such time after the
thread's opening post; a date without a year, the first such date after it.

The time is the game's zone's wall clock.  Where a summer-time change makes it name two
moments or none, it is refused (``killmod.core.times.local_moment``), and the judge adds
the UTC offset that picks one: "2019-11-03 01:30 -04:00" (also "-0400", "UTC-4",
"GMT-04:00").  An offset the game's zone does not have at that time is refused too.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from killmod.core.errors import BadInput
from killmod.core.times import local_moment, zone_label

_DATE = (
    r"(?:(?:(?P<y>\d{4})[-/])?(?P<mo>\d{1,2})[-/](?P<d>\d{1,2})"
    r"|(?:(?P<cy>\d{4})年)?(?P<cmo>\d{1,2})月(?P<cd>\d{1,2})[日号])"
)
_PERIOD = r"(?P<period>今晚|晚上|傍晚|下午|中午|凌晨|上午|早上)?"
_CLOCK = (
    r"(?:(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2}))?"
    r"|(?P<ch>\d{1,2})[点點](?:(?P<cmi>\d{1,2})分?|(?P<half>半)|整)?)"
)
_OFFSET = r"(?:\s*(?:UTC|GMT)?\s*(?P<sign>[+-])(?P<oh>\d{1,2})(?::?(?P<om>\d{2}))?)?"
_DEADLINE = re.compile(rf"(?:{_DATE}\s*)?{_PERIOD}\s*{_CLOCK}{_OFFSET}", re.IGNORECASE)

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
    clock = _Clock(_time_of_day(match, text), _offset(match, text), text)
    month = match["mo"] or match["cmo"]
    if month is None:
        return _next_time(clock, tz, after)
    day = int(match["d"] or match["cd"])
    year = match["y"] or match["cy"]
    if year is None:
        return _next_month_day(int(month), day, clock, tz, after)
    return _at(int(year), int(month), day, clock, tz)


class _Clock:
    """The time of day a deadline names (since midnight, 24:00 allowed), the UTC offset
    written after it (None: the zone's own), and the text, for messages."""

    def __init__(self, since_midnight: timedelta, offset: timezone | None, text: str) -> None:
        self.since_midnight, self.offset, self.text = since_midnight, offset, text


def _offset(match: re.Match[str], text: str) -> timezone | None:
    """The UTC offset written after the time ("-04:00", "UTC+8"), if any."""
    if match["sign"] is None:
        return None
    hours, minutes = int(match["oh"]), int(match["om"] or 0)
    if hours > 14 or minutes > 59:
        raise BadInput(f"截止时间「{text}」里的 UTC 偏移不存在（应在 -12:00 到 +14:00 之间）")
    span = timedelta(hours=hours, minutes=minutes)
    return timezone(-span if match["sign"] == "-" else span)


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


def _at(year: int, month: int, day: int, clock: _Clock, tz: ZoneInfo) -> datetime:
    """The wall-clock time ``clock`` after midnight of the given day, in ``tz``."""
    try:
        found = date(year, month, day)
    except ValueError:
        raise BadInput(f"截止时间「{clock.text}」里的日期不存在") from None
    return _on(found, clock, tz)


def _next_time(clock: _Clock, tz: ZoneInfo, after: datetime | None) -> datetime:
    """The first time ``clock`` strictly after ``after``."""
    if after is None:
        raise BadInput(
            f"截止时间「{clock.text}」没有日期，又不知道开帖时间：请写上日期，如 2014-12-09 22:00"
        )
    start = after.astimezone(UTC)
    day = after.astimezone(tz).date()
    while True:
        wall = datetime.combine(day, time()) + clock.since_midnight
        readings = [wall.replace(tzinfo=tz, fold=fold).astimezone(UTC) for fold in (0, 1)]
        if max(readings) > start and (found := _on(day, clock, tz)).astimezone(UTC) > start:
            return found
        day += timedelta(days=1)


def _on(day: date, clock: _Clock, tz: ZoneInfo) -> datetime:
    """The wall-clock time ``clock`` after midnight of ``day``, in ``tz``: the one moment it
    names there (``local_moment``), or the one its written offset picks, which must be an
    offset the zone has at that time (kept at that offset: a time in the hour a summer-time
    change repeats, in the zone itself, never equals the same moment in another zone)."""
    wall = datetime.combine(day, time()) + clock.since_midnight
    if clock.offset is None:
        return local_moment(wall, tz, clock.text)
    moment = wall.replace(tzinfo=clock.offset)
    readings = {wall.replace(tzinfo=tz, fold=fold).utcoffset() for fold in (0, 1)}
    if moment.utcoffset() not in readings:
        shown = "或".join(sorted(zone_label(timezone(offset)) for offset in readings))
        raise BadInput(
            f"截止时间「{clock.text}」写的 {zone_label(clock.offset)} 不是 {tz.key} 在"
            f" {wall:%Y-%m-%d %H:%M} 的时差（那时是 {shown}）：请按本局的时区写时间"
        )
    return moment


def _next_month_day(
    month: int, day: int, clock: _Clock, tz: ZoneInfo, after: datetime | None
) -> datetime:
    """The first month-day-time after ``after``, or this year's when ``after`` is None."""
    if after is None:
        return _at(datetime.now(tz).year, month, day, clock, tz)
    start = after.astimezone(tz)
    for year in range(start.year, start.year + 9):
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if found >= start.date() and (moment := _on(found, clock, tz)).astimezone(UTC) > after:
            return moment
    raise BadInput(f"截止时间「{clock.text}」里的日期不存在")
