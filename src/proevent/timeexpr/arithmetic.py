"""Duration and offset arithmetic on the data format's times (``"YYYY-MM-DDTHH:MM"``).

A moved event keeps its duration (:func:`move_keeping_duration`: "push it to 8" moves the end
too when it was set); a duration said in the chat gives the end (:func:`end_after`); a time said
relative to another event ("an hour before the match") is the anchor's start plus the offset
(:func:`apply_offset`). Nothing here guesses: a date without a clock time has no minutes to add.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

_FMT = "%Y-%m-%dT%H:%M"


def _clock(value: str) -> datetime:
    if len(value) < 16 or value[10] != "T":
        raise ValueError(f"not a clock time (YYYY-MM-DDTHH:MM): {value!r}")
    return datetime.strptime(value[:16], _FMT)


def add_duration(time: str, minutes: int = 0, hours: int = 0, days: int = 0) -> str:
    """``time`` ("YYYY-MM-DDTHH:MM") plus a duration, same format."""
    dt = datetime.strptime(time[:16], _FMT)
    return (dt + timedelta(minutes=minutes, hours=hours, days=days)).strftime(_FMT)


def minutes_between(start: str, end: str) -> int:
    """Minutes from ``start`` to ``end`` (negative when ``end`` is earlier)."""
    return int((_clock(end) - _clock(start)).total_seconds() // 60)


def end_after(start: str, minutes: int) -> str:
    """The end of an event starting at ``start`` that lasts ``minutes`` ("for two hours")."""
    if minutes <= 0:
        raise ValueError(f"a duration must be positive, got {minutes} minutes")
    return add_duration(_clock(start).strftime(_FMT), minutes=minutes)


def apply_offset(anchor: str, offset_minutes: int) -> str:
    """A time said relative to an event: its start ``anchor`` plus ``offset_minutes`` (negative: before)."""
    return add_duration(_clock(anchor).strftime(_FMT), minutes=offset_minutes)


def move_keeping_duration(start: str, end: str | None, new_start: str) -> tuple[str, str | None]:
    """The new ``(start, end)`` of an event moved to ``new_start``: the end, when set, keeps the duration.

    ``new_start`` may be a date (``"2026-03-14"``: the event keeps its clock time) or a clock time.
    An end that is a date moves by the same number of days as the start.
    """
    if len(new_start) == 10:  # a new day, same clock time
        moved = new_start + start[10:16]
    else:
        moved = _clock(new_start).strftime(_FMT)
    if end is None:
        return moved, None
    day_shift = date.fromisoformat(moved[:10]) - date.fromisoformat(start[:10])
    if len(end) == 10:
        return moved, (date.fromisoformat(end) + day_shift).isoformat()
    if len(start) == 10 or len(moved) == 10:  # no clock time on one side: only the day moves
        return moved, (_clock(end) + day_shift).strftime(_FMT)
    return moved, (_clock(end) + (_clock(moved) - _clock(start))).strftime(_FMT)
