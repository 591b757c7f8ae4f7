"""Dates and times in chat text: render the surface forms people use, and find them again.

Rendering (:func:`date_phrases`, :func:`time_phrases`) only offers forms that resolve to the
exact value from the message's own time: "tomorrow" only for the next day, "Friday" for the next
two to six days, "next Friday" only inside the following Monday-to-Sunday week, "the 14th" only
within the coming weeks. Extraction (:func:`extract_dates`, :func:`extract_times`, now in the neutral
:mod:`proevent.timeexpr`, shared with the ``rules`` agent, and re-exported here) is the
validator's reading of any text: it returns *every* value a phrase may denote (a bare "at 7" is
07:00 or 19:00), so a gold value counts as expressed when it is among the candidates.
"""

from __future__ import annotations

from datetime import date, datetime

from proevent.timeexpr import (  # noqa: F401  (re-exported: the extraction lives in the neutral module)
    MONTHS,
    WEEKDAYS,
    date_mentions,
    extract_dates,
    extract_times,
    time_mentions,
)

_WD_CASUAL = ("Mon", "Tues", "Wed", "Thurs", "Fri", "Sat", "Sun")


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
        out.append(f"this coming {wd}")
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
            out += [f"on {wd} {d.day} {month}", f"on {d.isoformat()}", f"the {ordinal(d.day)} of {month}"]
        else:
            out += [f"{ordinal(d.day)} {month}", f"{ordinal(d.day)} {month[:3]}"]
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
    elif 8 <= hour <= 21:  # "7 o'clock", "quarter past 7": 07:xx or 19:xx, both read back
        if minute == 0:
            out.append(f"{h12} o'clock")
        elif minute == 15:
            out.append(f"quarter past {h12}")
        elif minute == 45:
            out.append(f"quarter to {(hour + 1) % 12 or 12}")
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
