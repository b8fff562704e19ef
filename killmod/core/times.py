"""Post times as a forum board shows them.

Boards print old posts with an absolute time ("2019-5-3 18:40:49") and recent
ones with a relative text ("5 小时前", "昨天 21:55") that is resolved against
the board's clock when it rendered the page.  Absolute times take a
precompiled-regex fast path; relative ones go through ``dateparser`` after a
little normalisation of what it cannot read (traditional characters, 刚才).

A relative text names a span, not a moment: Discuz's ``dgmdate`` writes "5 分钟前"
for anything 300 to 359 seconds old, "5 小时前" for a whole hour of times.  A time
read from one is the span's first second, with the precision that covers the span
(``killmod.core.model.PRECISION_SPAN``), widened by how exactly the clock it counts from
is known: the HTTP ``Date`` of the response gives seconds, a footer clock minutes
(``BoardClock``).  A clock that cannot be believed (``BoardClock.doubt``: the ``Date`` and
the page's own clock, or ours, disagree) refuses any relative time counted from it.

A page says which zone its times are in where the board prints it (Discuz's footer:
``GMT+8, 2019-5-12 21:58``; ``declared_zone``): those are fixed offsets, never summer
time.  A wall-clock time the judge writes in the game's zone goes through
``local_moment``, which refuses one that a summer-time change makes ambiguous or skips.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple
from zoneinfo import ZoneInfo

from killmod.core.errors import BadInput, TallyFailed
from killmod.core.model import PRECISION_SPAN, Precision

if TYPE_CHECKING:
    from dateparser.date import DateDataParser

_GAP = r"(?:\s|&nbsp;)*"
_PREFIX = r"(?:(?:发表于|發表於|时间|時間)\s*[:：]?)?"
_DATE = (
    r"(?:(?P<y>\d{4}|\d{2})(?P<sep>[-/])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})"
    r"|(?P<cy>\d{4})年(?P<cm>\d{1,2})月(?P<cd>\d{1,2})日)"
)
_CLOCK = r"(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?"
_ABSOLUTE = re.compile(_GAP + _PREFIX + _GAP + _DATE + _GAP + _CLOCK + _GAP)

_EDIT_NOTICE = re.compile(
    r"本帖最[后後]由.+?[于於]" + _GAP + _DATE + _GAP + _CLOCK + _GAP + r"[编編][辑輯]",
    re.DOTALL,
)

_LEADING_WORD = re.compile(r"^(?:发表于|發表於|时间|時間)\s*[:：]?\s*")
_TO_SIMPLIFIED = str.maketrans({"剛": "刚", "鐘": "钟", "時": "时"})
_VALID_CLOCK = r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?"
_RELATIVE = re.compile(
    r"刚刚|\d+ ?秒前|\d+ ?分钟前|半小时前|\d+ ?小时前"
    rf"|[昨前]天 ?{_VALID_CLOCK}|\d+ ?天前(?: ?{_VALID_CLOCK})?"
)
# How far before the time dateparser reads a relative text's span starts and how long it
# is, in seconds (dgmdate: "N 分钟前" is 60·N to 60·N + 59 seconds old, "半小时前" 1,801 to
# 3,600, "N 小时前" a whole hour, a bare "N 天前" a whole day, from its midnight: None), and
# whether it counts back from the board's clock (a text with a clock time does not).
# The first form that matches wins.
_SPANS = (
    (re.compile(r"刚刚|秒前"), 0, 0, True),
    (re.compile(r"分钟前"), 59, 59, True),
    (re.compile(r"半小时前"), 1800, 1799, True),
    (re.compile(r"小时前"), 3599, 3599, True),
    (re.compile(r":\d{2}:\d{2}$"), 0, 0, False),
    (re.compile(r":\d{2}$"), 0, 59, False),
    (re.compile(r"天前$"), None, 86399, True),
)


class DoubtfulClock(TallyFailed):
    """A relative time counted from a board clock that cannot be believed; ``source`` is a
    page of the same board that shows its clock (to check it by), where one is known."""

    def __init__(self, message: str, source: str | None = None) -> None:
        super().__init__(message)
        self.source = source


class BoardClock(NamedTuple):
    """The board's clock when it rendered a page, which relative times count back from.

    ``now`` is aware; ``slack`` how many seconds later the board's clock may really have
    been (0: the HTTP ``Date``, believed; 59: a clock shown to the minute, or ours).
    ``doubt``, when set, says in Chinese why the clock cannot be believed, naming the
    clocks that disagree: a relative time counted from it is refused with it.
    """

    now: datetime
    slack: int = 59
    doubt: str | None = None


def parse_board_time(
    text: str,
    tz: tzinfo,
    now: datetime,
    title: str | None = None,
    *,
    slack: int = 0,
    doubt: str | None = None,
) -> tuple[datetime, Precision]:
    """Read a post time as the board shows it; return it (aware, in ``tz``) and its precision.

    ``text`` is the visible text, ``title`` the exact time a board puts in the
    ``title`` of a relative time's span (preferred when it can be read); ``tz`` is the
    zone the board shows its times in.  ``now`` is the board's clock when it rendered
    the page (aware); relative texts are resolved against it, ``slack`` is how many
    seconds later the board's clock may really have been (0 for the HTTP ``Date``, 59 for
    a clock shown to the minute), ``doubt`` why that clock cannot be believed (a relative
    text is then refused: ``TallyFailed``).  Raises ``BadInput`` when the text is no time a
    board shows.
    """
    if title is not None:
        exact = _parse_absolute(title, tz)
        if exact is not None:
            return exact
    absolute = _parse_absolute(text, tz)
    if absolute is not None:
        return absolute
    if doubt is not None and _RELATIVE.fullmatch(_normalise(text)):
        raise DoubtfulClock(f"{doubt}：无法据此推算相对时间「{_normalise(text)}」，已拒绝")
    return _parse_relative(text, tz, now, slack)


def clock_time(clock: BoardClock, text: str, tz: tzinfo, title: str | None = None):
    """``parse_board_time`` counting relative texts back from ``clock``."""
    return parse_board_time(text, tz, clock.now, title=title, slack=clock.slack, doubt=clock.doubt)


# Discuz's footer: "GMT+8", "GMT-3.5", "GMT+5.75" (timeoffset in hours), "GMT" for UTC.
_OFFSET = re.compile(r"GMT(?:([+-])(\d{1,2}(?:\.\d+)?))?")


def zone_from_gmt(label: str) -> timezone | None:
    """The fixed offset a board's ``GMT+8``-style label names, or None when it is none
    (the label as Discuz prints its ``timeoffset``: whole and fractional hours)."""
    found = _OFFSET.fullmatch(label.strip())
    if found is None:
        return None
    sign, hours = found.groups()
    if hours is None:
        return UTC
    minutes = round(float(hours) * 60)
    if minutes > 14 * 60:
        return None
    return timezone(timedelta(minutes=-minutes if sign == "-" else minutes))


def zone_label(zone: tzinfo, at: datetime | None = None) -> str:
    """A zone as the judge reads it: ``Asia/Shanghai`` for a named zone, ``UTC+07:00`` for
    a fixed offset (``at`` the moment whose offset a named zone shows, when it matters)."""
    if isinstance(zone, ZoneInfo):
        return zone.key
    offset = zone.utcoffset(at) or timedelta(0)
    return f"UTC{_offset_text(offset)}"


def _offset_text(offset: timedelta) -> str:
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def local_moment(wall: datetime, tz: ZoneInfo, text: str) -> datetime:
    """The moment the wall-clock time ``wall`` (naive) names in the zone ``tz``.

    A summer-time change makes some wall-clock times name two moments (the hour the clock
    is set back shows twice) and others none (the hour it skips): such a time is refused
    (``BadInput`` naming ``text``, both readings and how to write the UTC offset that
    picks one), never silently taken as one of them.
    """
    first, second = wall.replace(tzinfo=tz, fold=0), wall.replace(tzinfo=tz, fold=1)
    if first.utcoffset() == second.utcoffset():
        return first
    shown = f"{wall:%Y-%m-%d %H:%M}"
    exists = _exists(first, wall)
    moments = sorted((first, second), key=lambda m: m.astimezone(UTC))
    readings = []
    for moment in moments:
        reading = f"{shown} {_offset_text(moment.utcoffset())}（UTC {moment.astimezone(UTC):%H:%M}"
        if not exists:
            reading += f"，当地时钟 {format_local(moment.astimezone(UTC), tz)}"
        readings.append(reading + "）")
    offsets = "或".join(f"「{shown} {_offset_text(m.utcoffset())}」" for m in moments)
    if exists:
        why = f"这一天 {tz.key} 的夏令时结束，时钟拨回，{shown} 出现两次"
    else:
        why = f"这一天 {tz.key} 的夏令时开始，时钟拨快，跳过了 {shown}"
    raise BadInput(
        f"时间「{text}」说不清是哪一刻：{why}，可能是 {'，也可能是 '.join(readings)}。"
        f"请在时间后写上 UTC 偏移指明是哪一个：{offsets}"
    )


def _exists(moment: datetime, wall: datetime) -> bool:
    """Whether ``moment`` shows ``wall`` on its zone's clock (a skipped time does not)."""
    return moment.astimezone(UTC).astimezone(moment.tzinfo).replace(tzinfo=None) == wall


def parse_edit_notice(text: str, tz: tzinfo) -> datetime | None:
    """The time in a "本帖最后由 X 于 Y-n-j H:i 编辑" notice (aware), or None without one.

    Reads the traditional "本帖最後由 X 於 … 編輯" too.  A notice with an impossible date
    is no notice the board wrote (a player may type one): None, never an error.
    """
    match = _EDIT_NOTICE.search(text)
    found = _datetime_from(match, tz) if match else None
    return found[0] if found else None


def format_local(moment: datetime, tz: tzinfo) -> str:
    """A moment as the judge writes it, in the game's time zone: ``2019-05-12 22:00:00``;
    with its UTC offset, ``2019-11-03 01:30:00 -04:00``, where the wall time alone names two
    moments (the hour a summer-time change repeats) — as ``--deadline`` takes it back
    (``local_moment`` refuses the wall time alone there)."""
    local = moment.astimezone(tz)
    shown = local.strftime("%Y-%m-%d %H:%M:%S")
    if local.replace(fold=1 - local.fold).utcoffset() != local.utcoffset():
        shown += f" {_offset_text(local.utcoffset() or timedelta(0))}"
    return shown


def local_text(iso: str, timezone: str) -> str:
    """A stored ISO time (a step's ``recorded_at``) as :func:`format_local` writes it."""
    return format_local(datetime.fromisoformat(iso), ZoneInfo(timezone))


def format_iso(dt: datetime) -> str:
    """ISO-8601 with seconds and the UTC offset, e.g. "2019-05-12T22:00:00+08:00"."""
    if dt.utcoffset() is None:
        raise ValueError("format_iso needs a timezone-aware datetime")
    return dt.replace(microsecond=0).isoformat(timespec="seconds")


def _parse_absolute(text: str, tz: tzinfo) -> tuple[datetime, Precision] | None:
    """The fast path: an absolute board time, or None when ``text`` is not one."""
    match = _ABSOLUTE.fullmatch(text)
    if match is None:
        return None
    return _datetime_from(match, tz)


def _datetime_from(match: re.Match[str], tz: tzinfo) -> tuple[datetime, Precision] | None:
    """Build the time a ``_DATE`` + ``_CLOCK`` match names, or None if it is impossible."""
    if match["y"] is not None:
        year, month, day = int(match["y"]), int(match["m"]), int(match["d"])
        if len(match["y"]) == 2:
            year += 2000
    else:
        year, month, day = int(match["cy"]), int(match["cm"]), int(match["cd"])
    seconds = match["S"]
    try:
        found = datetime(
            year, month, day, int(match["H"]), int(match["M"]), int(seconds or 0), tzinfo=tz
        )
    except ValueError:
        return None
    return found, "minute" if seconds is None else "second"


def _parse_relative(text: str, tz: tzinfo, now: datetime, slack: int) -> tuple[datetime, Precision]:
    """Resolve a relative board time ("5 小时前", "昨天 21:55"…) against ``now``: the first
    second of the span it names, and the precision that covers the span."""
    normal = _normalise(text)
    if _RELATIVE.fullmatch(normal) is None:
        raise BadInput(f"无法识别的发帖时间：「{text}」")
    base = now.astimezone(tz).replace(tzinfo=None, microsecond=0)
    found = _relative_parser(base).get_date_data(normal).date_obj
    if found is None:
        raise BadInput(f"无法识别的发帖时间：「{text}」")
    found = found.replace(tzinfo=tz, microsecond=0)
    before, width, counted = next((b, w, c) for form, b, w, c in _SPANS if form.search(normal))
    if before is None:
        start = found.replace(hour=0, minute=0, second=0)
    else:
        start = found - timedelta(seconds=before)
    return start, _covering(width + (slack if counted else 0))


def _covering(seconds: int) -> Precision:
    """The finest precision whose span covers ``seconds``."""
    return next(p for p, span in PRECISION_SPAN.items() if span.total_seconds() >= seconds)


def _normalise(text: str) -> str:
    """Turn a relative board time into the simplified form dateparser 1.5 reads."""
    spaced = " ".join(text.replace("&nbsp;", " ").split())
    simplified = _LEADING_WORD.sub("", spaced).translate(_TO_SIMPLIFIED)
    return simplified.replace("刚才", "刚刚")


@lru_cache(maxsize=16)
def _relative_parser(base: datetime) -> DateDataParser:
    """A dateparser parser for Chinese relative times seen from ``base``: the board's wall
    clock (naive), which the found time is read on too (no zone is converted)."""
    from dateparser.date import DateDataParser

    settings = {
        "RELATIVE_BASE": base,
        "TIMEZONE": "UTC",
        "RETURN_AS_TIMEZONE_AWARE": False,
    }
    return DateDataParser(languages=["zh"], settings=settings)
