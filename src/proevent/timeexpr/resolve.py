"""Which day a day word means, counted from the message's own send time.

The rules (``gold-conventions.md``, "Values"): relative days count from the send time ("tmrw"
sent at 23:50 is the next calendar day); a bare or "this" weekday is the coming one (one to seven
days ahead: said on a Friday, "Friday" is a week away); "next Friday" is the Friday of the
following calendar week, weeks starting on Monday (said on a Tuesday it is ten days away, said on
a Sunday it is five). Anything these rules do not cover goes to dateparser in English, relative to
the send time, preferring the future (:func:`dateparser_date`;
:func:`proevent.timeexpr.resolve_date` tries the package's own phrases first).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache

from proevent.timeexpr.vocabulary import vocabulary


def relative_day(word: str, ref: datetime | date) -> date:
    """The day a relative-day word ("today", "tonight", "tmrw", "day after tomorrow") names."""
    day = ref.date() if isinstance(ref, datetime) else ref
    key = re.sub(r"\s+", " ", word.strip().lower())
    key = key[4:] if key.startswith("the ") else key
    try:
        return day + timedelta(days=vocabulary().day_offset(key))
    except KeyError:
        raise ValueError(f"not a relative-day word: {word!r}") from None


def coming_weekday(weekday: int, ref: datetime | date) -> date:
    """The coming ``weekday`` (0 = Monday): one to seven days after ``ref`` ("Friday", "this Friday")."""
    day = ref.date() if isinstance(ref, datetime) else ref
    return day + timedelta(days=(weekday - day.weekday()) % 7 or 7)


def next_week_weekday(weekday: int, ref: datetime | date) -> date:
    """``weekday`` of the Monday-to-Sunday week after ``ref``'s week ("next Friday"): 1 to 13 days ahead."""
    day = ref.date() if isinstance(ref, datetime) else ref
    return day - timedelta(days=day.weekday()) + timedelta(days=7 + weekday)


def weekday_date(name: str, ref: datetime | date, modifier: str | None = None) -> date:
    """The day a weekday phrase names: ``modifier`` is ``None``, ``"this"`` or ``"next"``."""
    wd = vocabulary().weekday_number(name)
    if modifier is not None and modifier.strip().lower() == "next":
        return next_week_weekday(wd, ref)
    return coming_weekday(wd, ref)


def month_day_dates(month: int, day: int, ref: date) -> set[date]:
    """The next occurrence of a month and day, and the last one when it is recent (a past event)."""
    out: set[date] = set()
    for year in (ref.year - 1, ref.year, ref.year + 1):
        try:
            d = date(year, month, day)
        except ValueError:
            continue
        if ref - timedelta(days=180) <= d:
            out.add(d)
            if d >= ref - timedelta(days=1):
                break
    return out


def ordinal_date(n: int, ref: date) -> date | None:
    """"The 14th": the first day numbered ``n`` on or after ``ref``, this month or the next."""
    for k in range(0, 2):
        y, mo = ref.year + (ref.month - 1 + k) // 12, (ref.month - 1 + k) % 12 + 1
        try:
            d = date(y, mo, n)
        except ValueError:
            continue
        if d >= ref:
            return d
    return None


def weekend(ref: datetime | date, modifier: str | None = None) -> tuple[date, date]:
    """"This weekend" (the coming Saturday and Sunday; said on a Sunday, that Sunday is included
    as the last day) and "next weekend" (the following week's)."""
    day = ref.date() if isinstance(ref, datetime) else ref
    first, last = vocabulary().weekend
    if modifier is not None and modifier.strip().lower() == "next":
        start = next_week_weekday(first, day)
    elif day.weekday() == last:
        return day, day
    elif day.weekday() == first:
        start = day
    else:
        start = coming_weekday(first, day)
    return start, start + timedelta(days=(last - first) % 7)


@lru_cache(maxsize=1)
def _dateparser():
    import dateparser  # imported lazily: it takes a moment

    return dateparser


def dateparser_date(expression: str, ref: datetime) -> date | None:
    """dateparser, in English, relative to the message's time, preferring the future."""
    parsed = _dateparser().parse(
        expression, languages=["en"],
        settings={"RELATIVE_BASE": ref, "PREFER_DATES_FROM": "future", "RETURN_AS_TIMEZONE_AWARE": False},
    )
    return parsed.date() if parsed else None

