"""The phrases the generator writes for dates, times, ranges, durations and corrections.

Every form offered resolves back to the exact value from the message's own send time (the
property tests in ``tests/timeexpr`` read each one back with :func:`proevent.timeexpr.read`):
"tomorrow" only for the next day, "Friday" for the next two to six days, "next Friday" only
inside the following Monday-to-Sunday week, "the 14th" only within the coming weeks.
:func:`date_phrases`, :func:`time_phrases` and :func:`range_phrases` are the template realiser's
forms of the start of this issue (their clock forms without am/pm, "7 o'clock", read back with
the value among their candidates); the functions after them write the forms of real chats (bare
hours, parts of the day, durations, relative times, date ranges, self-corrections), each only
where the reading is exact.
"""

from __future__ import annotations

from datetime import date, datetime

from proevent.timeexpr.vocabulary import vocabulary

_V = vocabulary()
WEEKDAYS = _V.weekdays
MONTHS = _V.months
_WD_CASUAL = _V.weekday_casual


def ordinal(n: int) -> str:
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _week_index(d: date) -> int:
    """Monday-based week number counted from a fixed Monday (works across years)."""
    return (d - date(2000, 1, 3)).days // 7


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


# ----------------------------------------------------------------------------- forms of real chats


def _h12(hour: int) -> int:
    return hour % 12 or 12


def _bare_forms(hour: int, minute: int) -> list[str]:
    """An hour without am/pm, written every way people do ("8", "half 8", "8.30")."""
    h = _h12(hour)
    if minute == 0:
        return [f"{h}", f"{h}ish", f"around {h}", f"about {h}"]
    if minute == 30:
        return [f"half {h}", f"{h}.30", f"{h}:30"]
    if minute == 15:
        return [f"quarter past {h}", f"{h}.15", f"{h}:15"]
    if minute == 45:
        return [f"quarter to {h % 12 + 1}", f"{h}.45", f"{h}:45"]
    return [f"{h}:{minute:02d}"]


def bare_time_phrases(hour: int, minute: int, usual_hours: tuple[int, int] | None = None) -> list[str]:
    """Forms without am/pm ("8", "8ish", "half 8") that read as exactly ``(hour, minute)`` when the
    event's usual hours are ``usual_hours`` (see :func:`proevent.timeexpr.prefer`); none when the
    hour is the other half of the day than the reading would pick (a bare "8" for 08:00 at dinner)."""
    from proevent.timeexpr.clock import prefer
    from proevent.timeexpr.spans import both_halves

    if hour == 0 or prefer(both_halves(_h12(hour), minute), usual_hours) != (hour, minute):
        return []
    return _bare_forms(hour, minute)


def bare_range_phrases(start: tuple[int, int], end: tuple[int, int],
                       usual_hours: tuple[int, int] | None = None) -> list[str]:
    """A range without am/pm ("7-9", "7 till 9", "from 7 to 9:30") that reads as exactly ``start``-``end``."""
    from proevent.timeexpr.clock import prefer
    from proevent.timeexpr.spans import both_halves

    if start[0] == 0 or prefer(both_halves(_h12(start[0]), start[1]), usual_hours) != start:
        return []
    later = sorted(e for e in both_halves(_h12(end[0]), end[1])
                   if 0 < (e[0] - start[0]) * 60 + e[1] - start[1] <= 12 * 60)
    if not later or later[0] != end:
        return []
    s = f"{_h12(start[0])}" + (f":{start[1]:02d}" if start[1] else "")
    e = f"{_h12(end[0])}" + (f":{end[1]:02d}" if end[1] else "")
    return [f"{s}-{e}", f"{s} till {e}", f"from {s} to {e}", f"{s} to {e}", f"between {s} and {e}"]


def end_phrases(start: tuple[int, int], end: tuple[int, int]) -> list[str]:
    """An end said after the start ("till 10", "until half 9", "until 10pm") that reads as exactly
    ``end`` once ``start`` is known: a bare hour is the first of its readings after the start."""
    from proevent.timeexpr.spans import both_halves

    later = sorted(t for t in both_halves(_h12(end[0]), end[1]) if t > start)
    out = [f"until {p}" for p in time_phrases(*end, formal=False)[:2]]
    if end[0] != 0 and later and later[0] == end:
        h = _h12(end[0])
        if end[1] == 0:
            out += [f"till {h}", f"until {h}", f"til {h}"]
        elif end[1] == 30:
            out += [f"until half {h}", f"till half {h}"]
    return out


def part_of_day_phrases(day: date, part: str, ref: datetime) -> list[str]:
    """A day and a part of it without a clock time ("sat morning", "friday afternoon", "tonight")."""
    if part not in _V.parts_of_day:
        raise ValueError(f"unknown part of the day {part!r}; known: {sorted(_V.parts_of_day)}")
    delta = (day - ref.date()).days
    if delta < 0:
        raise ValueError(f"{day} is before the message time {ref}")
    words = [w for w, p in _V.part_words.items() if p == part and " " not in w]
    out: list[str] = []
    if delta == 0:
        out += [w for w, p in _V.day_part_words.items() if p == part]
    days: list[str] = []
    if delta == 1:
        days += ["tomorrow", "tmrw"]
    if 2 <= delta <= 6:  # as date_phrases: a weekday for the next two to six days
        wd = WEEKDAYS[day.weekday()]
        days += [wd.capitalize(), wd, _WD_CASUAL[day.weekday()].lower()]
    if 7 <= delta <= 13 and _week_index(day) == _week_index(ref.date()) + 1:
        days.append(f"next {WEEKDAYS[day.weekday()]}")
    for d in days:
        out += [f"{d} {w}" for w in words]
        out.append(f"{d} in the {part}")
    return out


def _number_word(n: int) -> str | None:
    return next((w for w, v in _V.number_words.items() if v == n and "-" not in w and " " not in w), None)


def duration_phrases(minutes: int) -> list[str]:
    """How long, said the ways people do ("for two hours", "for 90 min", "for an hour and a half")."""
    if minutes <= 0:
        raise ValueError(f"a duration must be positive, got {minutes}")
    h, m = divmod(minutes, 60)
    out: list[str] = []
    if m == 0:
        if h == 1:
            out += ["an hour", "1 hour", "one hour", "60 min"]
        else:
            out += [f"{h} hours", f"{h}h", f"{h} hrs"] + ([f"{w} hours"] if (w := _number_word(h)) else [])
    elif m == 30:
        out += ["half an hour", "30 min", "30 mins"] if h == 0 else [
            f"{'an hour' if h == 1 else f'{h}'} and a half" + ("" if h == 1 else " hours"), f"{h}.5 hours"]
        if h == 1:
            out.append("90 min")
    else:
        out += [f"{minutes} min", f"{minutes} minutes"]
        if h:
            out.append(f"{h}h{m:02d}")
    return [f"for {p}" for p in out]


def relative_phrases(anchor: str, relation: str, offset_minutes: int = 0) -> list[str]:
    """A time said relative to another event ("straight after the gym", "an hour before the match").

    ``anchor`` names the event as a determiner and words ("the gym", "my dentist") or one of the
    vocabulary's bare anchors ("work"); ``offset_minutes`` is signed (before: zero or negative).
    """
    from proevent.timeexpr.durations import _anchor

    if relation not in _V.relation_words:
        raise ValueError(f"relation must be one of {sorted(_V.relation_words)}, got {relation!r}")
    if offset_minutes * _V.relation_words[relation] < 0:
        raise ValueError(f"{relation!r} with offset {offset_minutes}: the sign does not fit")
    read_back = _anchor(anchor + " ", 0)
    if read_back is None or read_back[0] != anchor:
        raise ValueError(f"{anchor!r} does not read back as an event; use a determiner ('the gym') or a bare anchor")
    if offset_minutes == 0:
        return [f"{w} {relation} {anchor}" for w in ("straight", "right", "just")] + [f"{relation} {anchor}"]
    return [f"{d[4:]} {relation} {anchor}" for d in duration_phrases(abs(offset_minutes))]


def date_range_phrases(first: date, last: date, ref: datetime) -> list[str]:
    """Several days ("fri to sun", "the 12th-14th", "12-14 March", "this weekend") that read as
    exactly ``first`` to ``last`` from ``ref``."""
    from proevent.timeexpr.resolve import coming_weekday, month_day_dates, next_week_weekday, ordinal_date, weekend

    span = (last - first).days
    if span <= 0:
        raise ValueError(f"a range needs last > first, got {first} .. {last}")
    today = ref.date()
    out: list[str] = []
    w1, w2 = WEEKDAYS[first.weekday()], WEEKDAYS[last.weekday()]
    c1, c2 = _WD_CASUAL[first.weekday()].lower(), _WD_CASUAL[last.weekday()].lower()
    if span <= 6:
        if coming_weekday(first.weekday(), today) == first:
            out += [f"{c1} to {c2}", f"{c1}-{c2}", f"from {w1.capitalize()} to {w2.capitalize()}"]
        elif next_week_weekday(first.weekday(), today) == first:
            out += [f"next {c1} to {c2}"]
    if ordinal_date(first.day, today) == first and last.day > first.day and last.month == first.month:
        out += [f"the {ordinal(first.day)}-{ordinal(last.day)}", f"the {ordinal(first.day)} to the {ordinal(last.day)}"]
    month = MONTHS[first.month - 1].capitalize()
    nexts = sorted(d for d in month_day_dates(first.month, first.day, today) if d >= today)
    if nexts and nexts[0] == first and last.month == first.month and last.day > first.day:
        out += [f"{first.day}-{last.day} {month}", f"{month} {first.day}-{last.day}"]
    if (first, last) == weekend(today):
        out.append("this weekend")
    elif (first, last) == weekend(today, "next"):
        out.append("next weekend")
    return out


def correction_phrases(meant: str, said: str, follow_up: bool = False) -> list[str]:
    """A self-correction from ``said`` to ``meant`` (both already rendered: "8", "thursday").

    In one message ("wait no, 8 not 7"), or with ``follow_up`` a message sent after the one that
    said ``said`` ("sorry I meant thursday", "*8"): only ``meant`` appears, marked as a correction.
    """
    if follow_up:
        return [f"sorry I meant {meant}", f"*{meant}", f"make that {meant}", f"oops, I meant {meant}"]
    return [f"wait no, {meant} not {said}", f"{meant} not {said}, sorry", f"sorry, {meant} not {said}",
            f"{said}, wait no, {meant}", f"{said}... sorry I meant {meant}"]
