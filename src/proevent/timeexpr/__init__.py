"""Reading dates and clock times in chat text: shared by the generator's validator and the
``rules`` agent.

:func:`date_spans` and :func:`time_spans` find every date or clock-time phrase with its place in
the text, the set of values it may denote (a bare "at 7" is 07:00 or 19:00; "next Friday" said on
a Wednesday is the Friday of the following week, or loosely the nearest one) and the one reading
a careful reader would pick (``best``). :func:`date_mentions`, :func:`extract_dates`,
:func:`time_mentions` and :func:`extract_times` are the candidate-set views the generator's
validator uses: a gold value counts as expressed when it is among the candidates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WD_ABBR = {
    "mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3,
    "fri": 4, "sat": 5, "sun": 6,
}
_WD_CASUAL = ("Mon", "Tues", "Wed", "Thurs", "Fri", "Sat", "Sun")
MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
)
_MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {"sept": 9}


_WD_NAMES = "|".join(sorted([*WEEKDAYS, *_WD_ABBR], key=len, reverse=True))
_MONTH_NAMES = "|".join(sorted([*MONTHS, *_MONTH_ABBR], key=len, reverse=True))
_DATE_FOLLOWS = (  # "Tuesday the 22nd" / "Tuesday, September 22": the date, not the nearest Tuesday
    rf"(?!,?\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)\b|,?\s+(?:{_MONTH_NAMES})\b"
    rf"|,?\s+\d{{1,2}}\s+(?:{_MONTH_NAMES}))"
)
_RE_WEEKDAY = re.compile(rf"\b(next\s+|this\s+)?({_WD_NAMES})\b\.?(\s+next\s+week)?{_DATE_FOLLOWS}", re.I)
_RE_ORDINAL = re.compile(
    r"\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:floor|of\s+(?!" + _MONTH_NAMES + r")))", re.I
)
_RE_MONTH_DAY = re.compile(
    rf"\b({_MONTH_NAMES})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*(?:am|pm|a\.m|p\.m|[:.]\d|ish))", re.I
)
_RE_DAY_MONTH = re.compile(
    rf"(?<![:.\d])\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_NAMES})\b(?!\s+\d{{1,2}}(?:st|nd|rd|th)\b)", re.I
)
_RE_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_RE_RELATIVE = re.compile(
    r"\b(day after tomorrow|today|tonight|this (?:morning|afternoon|evening)|tomorrow|tmrw|tmr|tmrow|2moro)\b",
    re.I,
)


def _month_day(month: int, day: int, ref: date) -> set[date]:
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


@dataclass(frozen=True)
class DateSpan:
    """A date phrase: where it stands, every day it may denote, and the reading to pick."""

    start: int
    end: int
    days: frozenset[date]
    best: date


@dataclass(frozen=True)
class TimeSpan:
    """A clock-time phrase; ``role`` is ``"end"`` for the end of a range ("7-9pm", "until 9pm")."""

    start: int
    end: int
    times: frozenset[tuple[int, int]]
    best: tuple[int, int]
    role: str = "start"


def _date_spans(text: str, ref: datetime) -> list[DateSpan]:
    """Date phrases in the order the patterns find them (earlier patterns win overlaps)."""
    today = ref.date()
    out: list[DateSpan] = []

    def add(m: re.Match[str], days: set[date], best: date | None = None) -> None:
        if days and not any(o.start <= m.start() < o.end for o in out):
            future = sorted(d for d in days if d >= today)
            pick = best or (future[0] if future else max(days))
            out.append(DateSpan(m.start(), m.end(), frozenset(days), pick))

    for m in _RE_ISO_DATE.finditer(text):
        try:
            add(m, {date(int(m.group(1)), int(m.group(2)), int(m.group(3)))})
        except ValueError:
            pass
    for m in _RE_RELATIVE.finditer(text):
        word = m.group(1).lower()
        if word == "day after tomorrow":
            add(m, {today + timedelta(days=2)})
        elif word.startswith(("today", "tonight", "this")):
            add(m, {today})
        else:
            add(m, {today + timedelta(days=1)})
    for m in _RE_MONTH_DAY.finditer(text):
        add(m, _month_day(_month_number(m.group(1)), int(m.group(2)), today))
    for m in _RE_DAY_MONTH.finditer(text):
        add(m, _month_day(_month_number(m.group(2)), int(m.group(1)), today))
    for m in _RE_WEEKDAY.finditer(text):
        name = m.group(2).lower()
        wd = WEEKDAYS.index(name) if name in WEEKDAYS else _WD_ABBR[name]
        ahead = (wd - today.weekday()) % 7 or 7
        nearest = today + timedelta(days=ahead)
        if m.group(1) and m.group(1).strip().lower() == "next" or m.group(3):
            following = today - timedelta(days=today.weekday()) + timedelta(days=7 + wd)
            add(m, {following, nearest}, following)  # "next Friday": the following week's
        else:
            add(m, {nearest})
    for m in _RE_ORDINAL.finditer(text):
        n = int(m.group(1))
        for k in range(0, 2):
            y, mo = today.year + (today.month - 1 + k) // 12, (today.month - 1 + k) % 12 + 1
            try:
                d = date(y, mo, n)
            except ValueError:
                continue
            if d >= today:
                add(m, {d})
                break
    return out


def date_spans(text: str, ref: datetime) -> list[DateSpan]:
    """The date phrases of ``text`` said at ``ref``, in text order; where two overlap ("the 11th"
    inside "the 11th of April") the longer one is the phrase."""
    spans = _date_spans(text, ref)
    kept = [s for s in spans if not any(o is not s and o.start < s.end and s.start < o.end
                                        and o.end - o.start > s.end - s.start for o in spans)]
    return sorted(kept, key=lambda s: s.start)


def date_mentions(text: str, ref: datetime) -> list[set[date]]:
    """One candidate set per date phrase of ``text`` said at ``ref``."""
    return [set(s.days) for s in _date_spans(text, ref)]


def extract_dates(text: str, ref: datetime) -> set[date]:
    """Every day that a phrase of ``text``, said at ``ref``, may denote."""
    return set().union(*date_mentions(text, ref))


def _month_number(name: str) -> int:
    name = name.lower().rstrip(".")
    return MONTHS.index(name) + 1 if name in MONTHS else _MONTH_ABBR[name[:4] if name == "sept" else name[:3]]


_AMPM = r"(a\.?m\.?|p\.?m\.?)"
_RE_RANGE = re.compile(
    rf"\b(\d{{1,2}})(?:[:.](\d{{2}}))?\s*(?:-|–|to|until|till|til)\s*(\d{{1,2}})(?:[:.](\d{{2}}))?\s*{_AMPM}(?![a-z])",
    re.I,
)
_RE_CLOCK = re.compile(rf"\b(\d{{1,2}}):(\d{{2}})(?:\s*{_AMPM}(?![a-z]))?", re.I)
_RE_DOT_AMPM = re.compile(rf"\b(\d{{1,2}})\.(\d{{2}})\s*{_AMPM}(?![a-z])", re.I)
_RE_H_AMPM = re.compile(rf"\b(\d{{1,2}})\s*{_AMPM}(?![a-z])", re.I)
_RE_ISH = re.compile(r"\b(\d{1,2})\s*-?ish\b", re.I)
_RE_HALF = re.compile(r"\bhalf(?:\s+past)?\s+(\d{1,2})\b", re.I)
_RE_QUARTER = re.compile(r"\bquarter\s+(past|to)\s+(\d{1,2})\b", re.I)
_RE_BARE = re.compile(
    r"\b(?:at|around|by|until|till|from|@)\s+(\d{1,2})\b(?![:.]\d|\s*(?:am|pm|a\.m|p\.m|%|st|nd|rd|th))"
    rf"(?!\s+(?:of\s+)?(?:{_MONTH_NAMES})\b)",
    re.I,
)
_RE_OCLOCK = re.compile(r"\b(\d{1,2})\s*o'?clock\b", re.I)
_RE_WORDS = re.compile(r"\b(noon|midday|midnight)\b", re.I)


def _with_suffix(h: int, suffix: str) -> int | None:
    if not 1 <= h <= 12:
        return None
    pm = suffix.lower().startswith("p")
    return (h % 12) + (12 if pm else 0)


def _both(h: int, minute: int) -> set[tuple[int, int]]:
    if not 0 <= h <= 23 or not 0 <= minute <= 59:
        return set()
    out = {(h, minute)}
    if 1 <= h <= 11:
        out.add((h + 12, minute))
    return out


def _pick(cands: set[tuple[int, int]]) -> tuple[int, int]:
    """The likelier reading of an hour without am/pm: 1-7 in the afternoon or evening, 8-11 morning."""
    if len(cands) == 1:
        return next(iter(cands))
    low = min(cands)
    return (low[0] + 12, low[1]) if 1 <= low[0] <= 7 else low


_RE_END_MARK = re.compile(r"(?:-|–|\bto|\buntil|\btill|\btil)\s*$", re.I)


def _time_spans(text: str) -> list[TimeSpan]:
    out: list[TimeSpan] = []

    def add(m: re.Match[str], cands: set[tuple[int, int]], best: tuple[int, int] | None = None) -> None:
        if cands and not any(o.start <= m.start() < o.end for o in out):
            role = "end" if _RE_END_MARK.search(text[max(0, m.start() - 8): m.start()]) else "start"
            out.append(TimeSpan(m.start(), m.end(), frozenset(cands), best or _pick(cands), role))

    for m in _RE_RANGE.finditer(text):
        h1, h2 = int(m.group(1)), int(m.group(3))
        m1, m2 = int(m.group(2) or 0), int(m.group(4) or 0)
        e = _with_suffix(h2, m.group(5))
        if e is not None:
            s = _with_suffix(h1, m.group(5))
            starts = _both(h1, m1) | ({(s, m1)} if s is not None and (s, m1) < (e, m2) else set())
            below = [c for c in starts if c < (e, m2)]
            add(m, starts, max(below) if below else None)
            if out and out[-1].start == m.start():
                out.append(TimeSpan(m.start(), m.end(), frozenset({(e, m2)}), (e, m2), "end"))
    for m in _RE_CLOCK.finditer(text):
        h, mi = int(m.group(1)), int(m.group(2))
        if mi >= 60:
            continue
        if m.group(3):
            h2 = _with_suffix(h, m.group(3))
            add(m, {(h2, mi)} if h2 is not None else set())
        elif h == 0 or 13 <= h <= 23:
            add(m, {(h, mi)})
        else:
            add(m, _both(h, mi))
    for m in _RE_DOT_AMPM.finditer(text):
        h = _with_suffix(int(m.group(1)), m.group(3))
        if h is not None and int(m.group(2)) < 60:
            add(m, {(h, int(m.group(2)))})
    for m in _RE_H_AMPM.finditer(text):
        h = _with_suffix(int(m.group(1)), m.group(2))
        if h is not None:
            add(m, {(h, 0)})
    for rx in (_RE_ISH, _RE_BARE, _RE_OCLOCK):
        for m in rx.finditer(text):
            add(m, _both(int(m.group(1)), 0))
    for m in _RE_HALF.finditer(text):
        add(m, _both(int(m.group(1)), 30))
    for m in _RE_QUARTER.finditer(text):
        h = int(m.group(2))
        add(m, _both(h, 15) if m.group(1).lower() == "past" else _both((h - 1) % 12 or 12, 45))
    for m in _RE_WORDS.finditer(text):
        add(m, {(0, 0)} if m.group(1).lower() == "midnight" else {(12, 0)})
    return out


def time_spans(text: str) -> list[TimeSpan]:
    """The clock-time phrases of ``text`` in text order (a range gives a start and an end span)."""
    return sorted(_time_spans(text), key=lambda s: (s.start, s.role != "start"))


def time_mentions(text: str) -> list[set[tuple[int, int]]]:
    """One candidate set per clock-time phrase of ``text`` (a range gives two)."""
    return [set(s.times) for s in _time_spans(text)]


def extract_times(text: str) -> set[tuple[int, int]]:
    """Every clock time ``(hour, minute)`` that a phrase of ``text`` may denote."""
    return set().union(*time_mentions(text))
