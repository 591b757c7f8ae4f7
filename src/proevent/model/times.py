"""Times as the data format defines them: naive local ISO 8601 at minute precision, or a date.

A time is kept as its normalised string (``"2026-03-14T17:00"``), a date as ``"2026-03-14"``.
Because the two forms differ in length, string equality is exactly the format's equality rule:
a date never equals a time, seconds are truncated on reading, and ``None`` equals only ``None``.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Annotated

from pydantic import BeforeValidator, PlainSerializer

_TIME_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$")
_DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")


_PLAIN_TIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$")
"""A time whose clock part is valid as written; only its day is left to check (:func:`_day_exists`)."""


@lru_cache(maxsize=1 << 14)
def _day_exists(day: str) -> bool:
    """``YYYY-MM-DD`` (digits already checked) names a day of the calendar. Cached by day: a dataset
    holds hundreds of thousands of times but only a few thousand days."""
    try:
        date(int(day[:4]), int(day[5:7]), int(day[8:10]))
    except ValueError:
        return False
    return True


def normalize_time(value: object) -> str | None:
    """Return the canonical form of a time or date string, or raise ``ValueError`` (see
    :func:`_normalize_str`); ``None`` stays ``None``."""
    if type(value) is str and _PLAIN_TIME_RE.match(value) and _day_exists(value[:10]):
        return value[:16]  # the common case first, without further calls: a dataset holds a million times
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"expected a time string or null, got {type(value).__name__}")
    return _normalize_str(value)


def _normalize_str(value: str) -> str:
    """Return the canonical form of a time or date string, or raise ``ValueError``.

    Accepts ``YYYY-MM-DDTHH:MM``, ``YYYY-MM-DDTHH:MM:SS`` (seconds truncated) and ``YYYY-MM-DD``.
    Time zone offsets, fractions of a second and a space instead of ``T`` are errors.
    """
    if _PLAIN_TIME_RE.match(value) and _day_exists(value[:10]):
        return value[:16]
    return _normalize_slow(value)


def _normalize_slow(value: str) -> str:
    """:func:`_normalize_str` for dates and for whatever is not a plain valid time (the errors' words)."""
    m = _TIME_RE.match(value)
    if m:
        y, mo, d, h, mi = (int(g) for g in m.groups()[:5])
        sec = m.group(6)
        try:
            datetime(y, mo, d, h, mi, int(sec) if sec else 0)
        except ValueError as exc:
            raise ValueError(f"invalid time {value!r}: {exc}") from None
        return value[:16]
    m = _DATE_RE.match(value)
    if m:
        try:
            date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError as exc:
            raise ValueError(f"invalid date {value!r}: {exc}") from None
        return value
    raise ValueError(f"invalid time {value!r}: expected YYYY-MM-DDTHH:MM or YYYY-MM-DD")


def _strict_time(value: object) -> str:
    if type(value) is str and _PLAIN_TIME_RE.match(value) and _day_exists(value[:10]):
        return value[:16]
    out = normalize_time(value)
    if out is None or len(out) != 16:
        raise ValueError(f"expected a time YYYY-MM-DDTHH:MM, got {value!r}")
    return out


_YEAR = r"(?!0000)[0-9]{4}"
_MONTH_DAY = (r"(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])"  # every month has 1 to 28
              r"|(?:0[13-9]|1[0-2])-(?:29|30)"  # all but February have 29 and 30
              r"|(?:0[13578]|1[02])-31)")  # the long months 31
_LEAP_DAY = r"(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29"
DAY_PATTERN = rf"(?:{_YEAR}-{_MONTH_DAY}|(?!0000){_LEAP_DAY})"
"""``YYYY-MM-DD`` naming a day of the (proleptic Gregorian) calendar, leap days included, in ASCII digits."""
_CLOCK = r"T(?:[01][0-9]|2[0-3]):[0-5][0-9]"
TIME_PATTERN = rf"^{DAY_PATTERN}{_CLOCK}\Z"
"""A time already in normal form (``YYYY-MM-DDTHH:MM``, valid): what :data:`Time` keeps as it is."""
TIME_OR_DATE_PATTERN = rf"^{DAY_PATTERN}(?:{_CLOCK})?\Z"
"""A time or a date already in normal form: what :data:`TimeOrDate` keeps as it is (``None`` aside)."""
is_normal_time = re.compile(TIME_PATTERN).match
is_normal_time_or_date = re.compile(TIME_OR_DATE_PATTERN).match


def is_date(value: str | None) -> bool:
    """True when ``value`` is a date (day known, time of day unknown)."""
    return value is not None and len(value) == 10


_ISO_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2})?\Z")


def parse_time(value: str) -> datetime:
    """A normalised time or date as a naive ``datetime`` (a date at midnight)."""
    if _ISO_RE.match(value):  # exactly the two forms below: fromisoformat reads them as strptime does, 20x faster
        return datetime.fromisoformat(value)
    if len(value) == 10:
        return datetime.strptime(value, "%Y-%m-%d")
    return datetime.strptime(value, "%Y-%m-%dT%H:%M")


def format_time(value: datetime) -> str:
    """A ``datetime`` as a normalised time string (minute precision)."""
    return value.strftime("%Y-%m-%dT%H:%M")


def format_date(value: date) -> str:
    return value.strftime("%Y-%m-%d")


def add_minutes(value: str, minutes: int) -> str:
    return format_time(parse_time(value) + timedelta(minutes=minutes))


TimeOrDate = Annotated[str | None, BeforeValidator(normalize_time), PlainSerializer(lambda v: v)]
"""A time, a date or ``None``, normalised on validation."""

Time = Annotated[str, BeforeValidator(_strict_time)]
"""A time (never a date, never ``None``), normalised on validation."""
