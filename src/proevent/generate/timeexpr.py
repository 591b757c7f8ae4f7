"""Dates and times in chat text: render the surface forms people use, and find them again.

Rendering (:func:`date_phrases`, :func:`time_phrases`) only offers forms that resolve to the
exact value from the message's own time: "tomorrow" only for the next day, "Friday" for the next
two to six days, "next Friday" only inside the following Monday-to-Sunday week, "the 14th" only
within the coming weeks. Extraction (:func:`extract_dates`, :func:`extract_times`) is the
validator's reading of any text: it returns *every* value a phrase may denote (a bare "at 7" is
07:00 or 19:00), so a gold value counts as expressed when it is among the candidates.
"""

from __future__ import annotations

import re
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


def ordinal(n: int) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _week_index(d: date) -> int:
    """Monday-based week number counted from a fixed Monday (works across years)."""
    return (d - date(2000, 1, 3)).days // 7


# ----------------------------------------------------------------------------- rendering


def date_phrases(d: date, ref: datetime, formal: bool) -> list[str]:
    """Surface forms for day ``d`` said at ``ref`` that resolve back to exactly ``d``."""
    delta = (d - ref.date()).days
    if delta < 0:
        raise ValueError(f"{d} is before the message time {ref}")
    wd = WEEKDAYS[d.weekday()].capitalize()
    month = MONTHS[d.month - 1].capitalize()
    out: list[str] = []
    if delta == 0:
        out += ["today"]
    elif delta == 1:
        out += ["tomorrow"] if formal else ["tomorrow", "tmrw", "tmr", "tomorrow"]
    elif delta == 2:
        out += ["the day after tomorrow"]
    if 2 <= delta <= 6:
        out += [f"on {wd}", wd] if formal else [wd, f"on {wd}", _WD_CASUAL[d.weekday()], wd.lower()]
        if _week_index(d) == _week_index(ref.date()):
            out.append(f"this {wd}")
    if 7 <= delta <= 13 and _week_index(d) == _week_index(ref.date()) + 1:
        out += [f"next {wd}", f"{wd} next week"] if formal else [f"next {wd}", f"next {_WD_CASUAL[d.weekday()]}"]
    if 2 <= delta <= 24:
        out += [f"{wd} the {ordinal(d.day)}", f"on the {ordinal(d.day)}"]
        if not formal:
            out += [f"the {ordinal(d.day)}", f"{_WD_CASUAL[d.weekday()]} {ordinal(d.day)}"]
    if delta >= 2:
        out += [f"on {month} {d.day}", f"{wd}, {month} {d.day}"] if formal else [
            f"{month[:3]} {d.day}", f"{d.day} {month}", f"{month} {ordinal(d.day)}"
        ]
        if formal:
            out += [f"on {wd} {d.day} {month}", f"on {d.isoformat()}"]
    return out


def time_phrases(hour: int, minute: int, formal: bool) -> list[str]:
    """Surface forms for a clock time; every one resolves to (hour, minute) among its candidates."""
    h12 = hour % 12 or 12
    ampm = "am" if hour < 12 else "pm"
    mm = f":{minute:02d}" if minute else ""
    out = [f"{hour:02d}:{minute:02d}", f"{h12}{mm} {ampm.upper() if formal else ampm}"]
    if formal:
        out += [f"{h12}{mm} {'a.m.' if hour < 12 else 'p.m.'}"]
    else:
        out += [f"{h12}{mm}{ampm}", f"{h12}{mm}{ampm}"]
        if minute == 0 and 9 <= hour <= 22 and hour != 12:
            out += [f"{h12}ish", f"like {h12}ish"]
        if minute == 30 and 13 <= hour <= 19:
            out += [f"half {h12}", f"half past {h12}"]
        if minute:
            out.append(f"{h12}.{minute:02d}{ampm}")
    if hour == 12 and minute == 0:
        out += ["noon", "midday"]
    return out


def range_phrases(start: tuple[int, int], end: tuple[int, int], formal: bool) -> list[str]:
    """A start and an end time together ("7-9pm", "from 17:00 until 19:00")."""
    out: list[str] = []
    s = time_phrases(*start, formal)
    e = time_phrases(*end, formal)
    out += [f"from {s[0]} to {e[0]}", f"{s[1]} to {e[1]}", f"from {s[1]} until {e[1]}"]
    same_half = (start[0] < 12) == (end[0] < 12) and start[0] < end[0]
    if same_half and not formal:
        h1, h2 = start[0] % 12 or 12, end[0] % 12 or 12
        m1 = f":{start[1]:02d}" if start[1] else ""
        m2 = f":{end[1]:02d}" if end[1] else ""
        suffix = "am" if end[0] < 12 else "pm"
        out += [f"{h1}{m1}-{h2}{m2}{suffix}", f"{h1}{m1} till {h2}{m2}{suffix}"]
    return out


# ---------------------------------------------------------------------------- extraction

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


def date_mentions(text: str, ref: datetime) -> list[set[date]]:
    """One candidate set per date phrase of ``text`` said at ``ref``."""
    today = ref.date()
    out: list[set[date]] = []
    spans: list[tuple[int, int]] = []

    def add(m: re.Match[str], days: set[date]) -> None:
        if days and not any(a <= m.start() < b for a, b in spans):
            out.append(days)
            spans.append(m.span())

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
            monday = today - timedelta(days=today.weekday()) + timedelta(days=7)
            add(m, {monday + timedelta(days=wd), nearest})
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


def time_mentions(text: str) -> list[set[tuple[int, int]]]:
    """One candidate set per clock-time phrase of ``text`` (a range gives two)."""
    out: list[set[tuple[int, int]]] = []
    spans: list[tuple[int, int]] = []

    def add(m: re.Match[str], cands: set[tuple[int, int]]) -> None:
        if cands and not any(a <= m.start() < b for a, b in spans):
            out.append(cands)
            spans.append(m.span())

    for m in _RE_RANGE.finditer(text):
        h1, h2 = int(m.group(1)), int(m.group(3))
        m1, m2 = int(m.group(2) or 0), int(m.group(4) or 0)
        e = _with_suffix(h2, m.group(5))
        if e is not None:
            s = _with_suffix(h1, m.group(5))
            starts = _both(h1, m1) | ({(s, m1)} if s is not None and (s, m1) < (e, m2) else set())
            add(m, starts)
            out.append({(e, m2)})
            spans.append(m.span())
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


def extract_times(text: str) -> set[tuple[int, int]]:
    """Every clock time ``(hour, minute)`` that a phrase of ``text`` may denote."""
    return set().union(*time_mentions(text))
