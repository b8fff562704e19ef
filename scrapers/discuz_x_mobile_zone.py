"""The zone a Discuz! X mobile API answer shows its board-clock texts in.

The answer declares no zone, and needs none for its posts' times (``dbdateline``: unix
seconds).  Its edit notices ("本帖最后由 X 于 2026-12-2 09:47 编辑", kept by version 1) are on
the reader's board clock, though, as ``dgmdate`` writes them (the member's ``timeoffset``,
else the board's).  The answer shows that clock beside absolute times in two places:

- a post's ``dateline`` with a clock in it ("2026-11-20 13:05", "昨天&nbsp;22:30",
  "前天&nbsp;22:31") against its ``dbdateline``;
- the thread's ``lastpost`` ("2026-12-2 09:52", ``dgmdate`` of its newest post) against the
  newest post's ``dbdateline``, when the answer holds that post: its last floor is the
  thread's last (``replies`` + 1) and its author the thread's ``lastposter`` (an answer of
  the thread's earlier posts holds none of them, though one may be by the same author).

A reading is taken only where it is a whole quarter of an hour (every ``timeoffset`` Discuz
offers is) and every reading agrees; otherwise the answer shows no zone (None) and its
notices are read in the zone the board's pages declare.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone

_QUARTER = 15 * 60  # seconds: every Discuz timeoffset is a whole number of quarter hours
_FURTHEST = 14 * 3600
_ABSOLUTE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{2})(?::(\d{2}))?")
_EPOCH_DAY = date(1970, 1, 1).toordinal()
_DAY_CLOCK = re.compile(r"(昨天|前天) (\d{1,2}):(\d{2})")


def shown_zone(thread: dict, postlist: list) -> timezone | None:
    """The fixed offset the answer's board-clock texts are in, or None where it does not
    show one (or its readings disagree)."""
    readings: set[int] = set()
    last: dict | None = None
    for raw in postlist:
        if not isinstance(raw, dict):
            continue
        last = raw if "dbdateline" in raw else last
        shown = raw.get("dateline")
        if not isinstance(shown, str) or ":" not in shown:  # "9&nbsp;分钟前": no clock in it
            continue
        seconds = _seconds(raw.get("dbdateline"))
        reading = _post_reading(shown, seconds) if seconds is not None else None
        if reading is not None:
            readings.add(reading)
    if last is not None and _is_newest(last, thread):
        reading = _absolute_reading(str(thread.get("lastpost") or ""), _seconds(last["dbdateline"]))
        if reading is not None:
            readings.add(reading)
    if len(readings) != 1:
        return None
    return timezone(timedelta(seconds=readings.pop()))


def _is_newest(post: dict, thread: dict) -> bool:
    """Whether ``post`` (an answer's last) is the thread's newest, which ``lastpost`` shows:
    the thread's last floor, by the thread's ``lastposter``."""
    replies = _seconds(thread.get("replies"))
    floor = _seconds(post.get("number"))
    return (
        replies is not None
        and floor == replies + 1
        and post.get("author") == thread.get("lastposter")
    )


def _seconds(value: object) -> int | None:
    text = str(value).strip() if value is not None else ""
    return int(text) if text.isdigit() else None


def _post_reading(shown: str, seconds: int) -> int | None:
    """The offset a post's ``dateline`` shows against its unix time, if it shows a clock."""
    absolute = _absolute_reading(shown, seconds)  # most: "2019-5-11 23:36:14" as it is
    if absolute is not None:
        return absolute
    text = " ".join(shown.replace("&nbsp;", " ").split())
    absolute = _absolute_reading(text, seconds)
    if absolute is not None:
        return absolute
    found = _DAY_CLOCK.fullmatch(text)
    if found is None:
        return None
    hour, minute = int(found.group(2)), int(found.group(3))
    utc = datetime.fromtimestamp(seconds, UTC)
    # The clock's time of day against the post's, in UTC: the offset is this, a day apart.
    shown_minutes = hour * 60 + minute
    difference = (shown_minutes - (utc.hour * 60 + utc.minute)) * 60
    candidates = [difference + day for day in (-86400, 0, 86400)]
    return _whole(next((c for c in candidates if abs(c) <= _FURTHEST), None))


def _absolute_reading(shown: str, seconds: int | None) -> int | None:
    """The offset a written-out time ("Y-n-j H:i[:s]") shows against the unix time."""
    found = _ABSOLUTE.fullmatch(shown.strip())
    if found is None or seconds is None:
        return None
    year, month, day, hour, minute, _ = found.groups()
    hour, minute = int(hour), int(minute)
    if hour > 23 or minute > 59:
        return None
    try:  # in whole seconds, without a datetime: a game thread shows thousands of these
        days = date(int(year), int(month), int(day)).toordinal() - _EPOCH_DAY
    except ValueError:
        return None
    wall = days * 86400 + hour * 3600 + minute * 60
    return _whole(wall - (seconds - seconds % 60))


def _whole(offset: int | None) -> int | None:
    """An offset Discuz could have shown: a whole quarter hour within ±14 h."""
    if offset is None or offset % _QUARTER or abs(offset) > _FURTHEST:
        return None
    return offset
