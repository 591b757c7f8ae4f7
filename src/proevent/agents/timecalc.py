"""Calendar arithmetic shared by the ``rules`` agent and the ``tools`` strategy's tools.

Relative dates follow the common reading, fixed where dateparser differs: "Friday" is the next
Friday after today (2-6 days ahead, or 7 when today is Friday); "next Friday" is the Friday of the
following Monday-to-Sunday week (dateparser reads "next Friday" said on a Wednesday as *this*
Friday); "this Friday" is the Friday of the current week. Anything else goes to dateparser with
``languages=["en"]``, the message time as ``RELATIVE_BASE`` and a preference for future dates.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ABBR = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6}
_WD = "|".join(sorted([*WEEKDAYS, *_ABBR], key=len, reverse=True))
_RE_WEEKDAY = re.compile(rf"\b(next\s+|this\s+|on\s+)?({_WD})\b\.?(\s+next\s+week)?", re.I)
_RE_RELATIVE = re.compile(r"\b(day after tomorrow|tomorrow|tmrw|tmr|today|tonight)\b", re.I)
_RE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_MON = "|".join(sorted([*_MONTHS, *(m[:3] for m in _MONTHS), "sept"], key=len, reverse=True))
_RE_MONTH_DAY = re.compile(rf"\b({_MON})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b", re.I)
_RE_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MON})\b", re.I)
_RE_ORDINAL = re.compile(r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b", re.I)


def weekday_name(d: date) -> str:
    return WEEKDAYS[d.weekday()].capitalize()


def _weekday_index(name: str) -> int:
    name = name.lower().rstrip(".")
    return WEEKDAYS.index(name) if name in WEEKDAYS else _ABBR[name]


def _month_index(name: str) -> int:
    name = name.lower().rstrip(".")
    return next(i for i, m in enumerate(_MONTHS) if m.startswith(name[:3])) + 1


def _future_month_day(month: int, day: int, today: date) -> date | None:
    for year in (today.year, today.year + 1):
        try:
            d = date(year, month, day)
        except ValueError:
            continue
        if d >= today:
            return d
    return None


def find_dates(text: str, ref: datetime) -> list[tuple[int, date]]:
    """Dates mentioned in ``text`` said at ``ref``: ``(position, date)`` in text order."""
    today = ref.date()
    out: list[tuple[int, date]] = []
    for m in _RE_RELATIVE.finditer(text):
        word = m.group(1).lower()
        days = 2 if word.startswith("day after") else 0 if word in ("today", "tonight") else 1
        out.append((m.start(), today + timedelta(days=days)))
    for m in _RE_WEEKDAY.finditer(text):
        wd = _weekday_index(m.group(2))
        prefix = (m.group(1) or "").strip().lower()
        monday = today - timedelta(days=today.weekday())
        if prefix == "next" or m.group(3):
            d = monday + timedelta(days=7 + wd)
        elif prefix == "this":
            d = monday + timedelta(days=wd)
            if d < today:
                d += timedelta(days=7)
        else:
            d = today + timedelta(days=(wd - today.weekday()) % 7 or 7)
        out.append((m.start(), d))
    for m in _RE_ISO.finditer(text):
        try:
            out.append((m.start(), date(int(m.group(1)), int(m.group(2)), int(m.group(3)))))
        except ValueError:
            pass
    for rx, mi, di in ((_RE_MONTH_DAY, 1, 2), (_RE_DAY_MONTH, 2, 1)):
        for m in rx.finditer(text):
            d = _future_month_day(_month_index(m.group(mi)), int(m.group(di)), today)
            if d:
                out.append((m.start(), d))
    for m in _RE_ORDINAL.finditer(text):
        n = int(m.group(1))
        for k in range(2):
            y, mo = today.year + (today.month - 1 + k) // 12, (today.month - 1 + k) % 12 + 1
            try:
                d = date(y, mo, n)
            except ValueError:
                continue
            if d >= today:
                out.append((m.start(), d))
                break
    out.sort(key=lambda p: p[0])
    return out


@lru_cache(maxsize=1)
def _dateparser():
    import dateparser  # imported lazily: it takes a moment

    return dateparser


def resolve_date(expression: str, ref: datetime) -> date | None:
    """The day an expression said at ``ref`` denotes ("next Friday", "the 14th", "in 3 days")."""
    found = find_dates(expression, ref)
    if found:
        return found[0][1]
    parsed = _dateparser().parse(
        expression, languages=["en"],
        settings={"RELATIVE_BASE": ref, "PREFER_DATES_FROM": "future", "RETURN_AS_TIMEZONE_AWARE": False},
    )
    return parsed.date() if parsed else None


_AMPM = r"(a\.?m\.?|p\.?m\.?)"
_RE_RANGE = re.compile(
    rf"\b(\d{{1,2}})(?:[:.](\d{{2}}))?\s*{_AMPM}?\s*(?:-|–|to|until|till|til)\s*"
    rf"(\d{{1,2}})(?:[:.](\d{{2}}))?\s*{_AMPM}?(?![\w:])",
    re.I)
_RE_CLOCK = re.compile(rf"\b(\d{{1,2}})[:.](\d{{2}})\s*{_AMPM}?(?![\w])", re.I)
_RE_H_AMPM = re.compile(rf"\b(\d{{1,2}})\s*{_AMPM}(?![a-z])", re.I)
_RE_AT = re.compile(r"\b(?:at|around|@|by)\s+(\d{1,2})(?:ish)?\b(?![:.]\d)", re.I)
_RE_ISH = re.compile(r"\b(\d{1,2})\s*-?ish\b", re.I)
_RE_HALF = re.compile(r"\bhalf(?:\s+past)?\s+(\d{1,2})\b", re.I)
_RE_WORDS = re.compile(r"\b(noon|midday)\b", re.I)


def _h(hour: int, suffix: str | None) -> int | None:
    if suffix:
        if not 1 <= hour <= 12:
            return None
        return hour % 12 + (12 if suffix.lower().startswith("p") else 0)
    if hour > 23:
        return None
    return hour + 12 if 1 <= hour <= 7 else hour  # "at 3" in a plan means 15:00; "at 9" 09:00


def find_times(text: str) -> list[tuple[int, tuple[int, int], tuple[int, int] | None]]:
    """Clock times in ``text``: ``(position, start, end or None)``, in text order."""
    out: list[tuple[int, tuple[int, int], tuple[int, int] | None]] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match[str]) -> bool:
        return all(m.end() <= a or m.start() >= b for a, b in taken)

    for m in _RE_RANGE.finditer(text):
        suffix = m.group(6)
        end = _h(int(m.group(4)), suffix)
        start = _h(int(m.group(1)), m.group(3) or suffix)
        if start is None or end is None:
            continue
        s, e = (start, int(m.group(2) or 0)), (end, int(m.group(5) or 0))
        if suffix and not m.group(3) and s > e and start >= 12:
            s = (start - 12, s[1])
        if not suffix and s > e and end < 12:
            e = (end + 12, e[1])
        if s < e:
            out.append((m.start(), s, e))
            taken.append((m.start(), m.end()))
    for rx in (_RE_CLOCK, _RE_H_AMPM, _RE_AT, _RE_ISH, _RE_HALF, _RE_WORDS):
        for m in rx.finditer(text):
            if not free(m):
                continue
            if rx is _RE_CLOCK:
                hour = int(m.group(1))
                h = _h(hour, m.group(3)) if m.group(3) or hour <= 12 else hour
                t = (h, int(m.group(2))) if h is not None and int(m.group(2)) < 60 else None
                if t and not m.group(3) and hour >= 13:
                    t = (hour, int(m.group(2)))
            elif rx is _RE_H_AMPM:
                h = _h(int(m.group(1)), m.group(2))
                t = (h, 0) if h is not None else None
            elif rx is _RE_HALF:
                h = _h(int(m.group(1)), None)
                t = (h, 30) if h is not None else None
            elif rx is _RE_WORDS:
                t = (12, 0)
            else:
                h = _h(int(m.group(1)), None)
                t = (h, 0) if h is not None else None
            if t is not None and 0 <= t[0] <= 23:
                out.append((m.start(), t, None))
                taken.append((m.start(), m.end()))
    out.sort(key=lambda p: p[0])
    return out


def add_duration(time: str, minutes: int = 0, hours: int = 0, days: int = 0) -> str:
    """``time`` ("YYYY-MM-DDTHH:MM") plus a duration, same format."""
    dt = datetime.strptime(time[:16], "%Y-%m-%dT%H:%M")
    return (dt + timedelta(minutes=minutes, hours=hours, days=days)).strftime("%Y-%m-%dT%H:%M")
