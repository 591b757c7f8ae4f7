"""Slot values as the words people use, relative to the time a message is sent."""

from __future__ import annotations

import random
import re
from datetime import date, datetime, timedelta

from proevent.generate.trajectory import EventState
from proevent.timeexpr import MONTHS, date_phrases, range_phrases, time_phrases, vocabulary


def _hm(t: str) -> tuple[int, int]:
    return int(t[11:13]), int(t[14:16])


def _abbreviations() -> dict[str, tuple[str, ...]]:
    """Weekday name -> the short forms people type (the vocabulary of :mod:`proevent.timeexpr`)."""
    vocab = vocabulary()
    return {day: tuple(a for a, k in vocab.weekday_abbreviations.items() if k == i and a not in ("weds", "thur"))
            for i, day in enumerate(vocab.weekdays)}


_ABBR = _abbreviations()
_MONTH_WORD = re.compile(r"\b(?:" + "|".join(vocabulary().month_abbreviations) + r")", re.IGNORECASE)


_WEEKDAY_FIRST = re.compile(r"^(?:mon|tue|wed|thu|fri|sat|sun)\w* (?:the )?\d", re.IGNORECASE)
_MONTH_FORM = re.compile(r"^(?:\d+(?:st|nd|rd|th)? [a-z]+|(?!the )[a-z]+ \d+(?:st|nd|rd|th)?)$", re.IGNORECASE)


_ORDINAL = re.compile(r"\d(?:st|nd|rd|th)\b")


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def day_words(day: str, at: datetime, formal: bool, rng: random.Random) -> str:
    forms = [f for f in date_phrases(date.fromisoformat(day[:10]), at, formal) if not f.startswith("on ")]
    if formal:
        return rng.choice(forms)
    if rng.random() < 0.92:
        # in chats a day is mostly one short lower-case word, its three letters more than the others:
        # "sat", "thu", "tmrw"; "saturday", "thurs" less often
        short = [f.lower() for f in forms if " " not in f]
        if short:
            pick = rng.choice(short)
            abbr = _ABBR.get(pick, ())
            roll = rng.random()
            if abbr and roll < 0.5:
                return abbr[0]
            if len(abbr) > 1 and roll < 0.55:
                return rng.choice(abbr[1:])
            return "tmrw" if pick == "tmr" and roll < 0.8 else pick
    # a day further off: mostly its weekday with the date ("sat 14th") or a day and a month
    # ("14 march"), in lower case; "the 14th" alone less often. The weekday is typed short and
    # without "the" ("sat 14th", not "saturday the 14th"): the weekday tells which 14th it is
    roll = rng.random()
    d = date.fromisoformat(day[:10])
    twin = d - timedelta(days=28)  # after a February, "sun 15th" is also the coming Sunday the 15th
    if roll < 0.15:
        # "sat 28 march", "thu 7 may": the weekday, the day number and the month, no ordinal
        abbr = _ABBR[vocabulary().weekdays[d.weekday()]]
        month = MONTHS[d.month - 1]
        return f"{abbr[0]} {d.day} {month if rng.random() < 0.6 else month[:3]}"
    if roll < 0.55 and (d - at.date()).days <= 60 and not (twin.day == d.day and twin >= at.date()):
        abbr = _ABBR[vocabulary().weekdays[d.weekday()]]
        return f"{abbr[0] if rng.random() < 0.75 else rng.choice(abbr)} {_ordinal(d.day)}"
    pool = ([f for f in forms if _MONTH_FORM.match(f) and not _ORDINAL.search(f)] if roll < 0.7 else
            [f for f in forms if not _MONTH_WORD.search(f)])
    text = rng.choice(pool or forms)
    return text.lower() if rng.random() < 0.85 else text


def part_of_day(hours: tuple[int, int] | None, rng: random.Random) -> str | None:
    """A part of the day that fits the activity's hours ("sat morning"), or None."""
    if hours is None:
        return None
    lo, hi = hours
    if hi < 12:
        return "morning"
    if lo >= 12 and hi < 17:
        return "afternoon"
    if lo >= 17:
        return rng.choice(("evening", "night")) if lo >= 18 else "evening"
    return None


def natural_half(hour: int, hours: tuple[int, int] | None) -> bool:
    """A bare "8" can stand for ``hour`` when the activity only happens in that half of the day.

    Dinner (18-20h) at "8" is 20:00 to anyone; a run (7-9h) at "8" is 08:00; a work meeting (9-16h)
    at "2" is 14:00. An hour whose other reading (+/- 12 h) is also among the activity's hours is
    never written as a bare number.
    """
    if hours is None or not hours[0] <= hour <= hours[1]:
        return False
    lo, hi = hours
    h12 = hour % 12 or 12
    readings = [h for h in ({h12 % 12, h12 % 12 + 12} if h12 != 12 else {12}) if lo <= h <= hi]
    return readings == [hour]


_DURATIONS = {30: ("half an hour", "30 min"), 45: ("45 min",), 60: ("an hour", "1h", "one hour"),
              90: ("an hour and a half", "90 min", "1.5h"), 120: ("two hours", "2 hours", "2h"),
              150: ("two and a half hours", "2.5h"), 180: ("three hours", "3h", "3 hours"),
              240: ("four hours", "4h")}


def shift_words(minutes: int, formal: bool, rng: random.Random) -> str:
    """A move of the whole event by ``minutes`` ("an hour later", "30 min earlier")."""
    way = "later" if minutes > 0 else "earlier"
    size = {30: ("half an hour", "30 min", "30 mins"), 60: ("an hour", "1 hour", "one hour"),
            90: ("an hour and a half", "90 min"), 120: ("two hours", "2 hours")}[abs(minutes)]
    return f"{size[0] if formal else rng.choice(size)} {way}"


_SAID_DURATION = 0.25
"""How often a known end is said as a duration ("7 for two hours") rather than as an end time ("7-9"):
chats give the end far more often than the length (half the casual messages said a duration before,
2.1% of messages against 0.1% of hand-written ones)."""


def duration_words(minutes: int, rng: random.Random) -> str | None:
    forms = _DURATIONS.get(minutes)
    return rng.choice(forms) if forms else None


_SPACED = re.compile(r"\d (?:am|pm)\b|\buntil\b|\bfrom\b.*\bto\b|^like ")
"""Forms chats rarely use: "7 pm" (people type "7pm"), "from 7 pm until 9 pm", "like 7ish"."""


def _casual(forms: list[str]) -> list[str]:
    return [f for f in forms if not _SPACED.search(f)] or forms


def _casual_clock(forms: list[str]) -> list[str]:
    """A clock time as a chat types it: "17:00" and "5pm" most, "o'clock" and "7.30pm" seldom."""
    casual = _casual(forms)
    rare = [f for f in casual if "o'clock" in f or "." in f]
    common = [f for f in casual if f not in rare]
    h24 = [f for f in common if f[:2].isdigit() and ":" in f]  # "17:00", "19:30"
    return (common + h24 * 2 + rare[:1]) if common else casual


def _formal_clock(forms: list[str]) -> list[str]:
    """A clock time in a polite message on a phone: "16:30", "4:30 PM", "4:30pm"; not "4:30 p.m."."""
    kept = [f for f in forms if "." not in f and "o'clock" not in f] or forms
    typed = [_typed(f) for f in kept if f.endswith(("PM", "AM"))]
    return kept + typed * 3


def _typed(form: str) -> str:
    """A time as typed on a phone, also in a polite message: "4:30pm", not "4:30 PM"."""
    return form.replace(" PM", "pm").replace(" AM", "am")


def _bare(h: int, m: int, rng: random.Random, spoken: bool = False) -> str:
    """The hour as a bare number ("7", "7:30"); ``spoken``: sometimes in words ("half 7", not in a range)."""
    h12 = h % 12 or 12
    said = {15: (f"quarter past {h12}",), 30: (f"half {h12}",),
            45: (f"quarter to {h12 % 12 + 1}",)}.get(m, ()) if spoken and rng.random() < 0.15 else ()
    return str(h12) if m == 0 else rng.choice(said or (f"{h12}:{m:02d}",) * 5 + (f"{h12}.{m:02d}",))


def time_words(start: str, end: str | None, formal: bool, rng: random.Random,
               hours: tuple[int, int] | None = None, used: set[str] | None = None) -> str:
    """A clock time (and its end), sometimes as people write it: "8", "8 for two hours", "7-9"."""
    used = used if used is not None else set()
    h, m = _hm(start)
    clock = rng.choice(_formal_clock(time_phrases(h, m, formal)) if formal else _casual_clock(
        time_phrases(h, m, formal)))
    bare = not formal and natural_half(h, hours) and rng.random() < 0.85
    if bare:
        clock = _bare(h, m, rng, spoken=end is None)
        used.add("bare_hour")
    if "ish" in clock:
        used.add("approximate_time")
    if end is not None and end[:10] == start[:10]:
        minutes = (int(end[11:13]) * 60 + int(end[14:16])) - (h * 60 + m)
        dur = duration_words(minutes, rng) if minutes > 0 else None
        if dur and rng.random() < _SAID_DURATION:
            used.add("duration")
            return f"{clock} for {dur}"
        if bare and 0 < minutes < 12 * 60:
            # the end read as the first of its readings after the start: "7-9", "11 till 1"
            until = _bare(*_hm(end), rng).replace(".", ":")  # "7 till 9.15" hides its end
            return rng.choice((f"{clock}-{until}", f"{clock}-{until}", f"{clock} till {until}",
                               f"{clock} to {until}"))
        ranges = range_phrases(_hm(start), _hm(end), formal)
        if formal:
            pick = rng.choice(ranges)
            return _typed(pick) if rng.random() < 0.75 else pick
        return rng.choice(_casual(ranges))
    return clock


def when_words(start: str, end: str | None, at: datetime, formal: bool, rng: random.Random,
               hours: tuple[int, int] | None = None, used: set[str] | None = None) -> str:
    """A day and a clock time (and the end time when known), in one of several orders.

    Dates without a clock time are a date range: "fri to sun", "Saturday until Monday".
    """
    day = day_words(start, at, formal, rng)
    if len(start) == 10:
        last = day_words(end or start, at, formal, rng)
        if used is not None:
            used.add("date_range")
        return rng.choice((f"{day} to {last}", f"{day} until {last}", f"{day} - {last}") if formal else (
            f"{day} to {last}", f"{day}-{last}", f"{day} till {last}", f"from {day} to {last}"))
    clock = time_words(start, end, formal, rng, hours, used)
    ranged = end is not None and end[:10] == start[:10]
    if formal:
        forms = [f"{day} at {clock}", f"{day}, {clock}"] if not ranged else [f"{day}, {clock}", f"{day} {clock}"]
    else:
        relative = day.lower().startswith(("today", "tomorrow", "tmr", "the day after", "this ", "next "))
        time_first = f"{clock} {day}" if (clock[-1].isalpha() or relative or " for " in clock) and not (
            day[0].isdigit()) else f"{clock} on {day}"  # "for 1h 2 april" reads as 1h2
        # "at" before a range hides its end ("sat at 7-9pm" reads as 7 only)
        forms = [f"{day} {clock}"] * 2 + [time_first] + (
            [] if clock.startswith("from") or ranged else [f"{day} at {clock}"])
        if end is not None and not ranged:
            forms = [f"{day} at {clock}"]
        if clock.isdigit():  # a bare hour reads best after the day: "fri 8", "sat at 9"
            forms = [f"{day} {clock}", f"{day} at {clock}"]
    text = rng.choice(forms)
    if text.startswith(f"{day} {clock}") and day.split()[-1].lower() in MONTHS and clock[0].isdigit() or (
            clock.isdigit() and day[-1].isdigit()):
        text = f"{clock} on {day}" if ranged and not formal else f"{day} at {clock}"  # "25 January 6 till 9pm"
    if end is not None and not ranged:
        until = "until" if formal else "till"
        text += f" {until} {day_words(end, at, formal, rng)} {rng.choice(time_phrases(*_hm(end), formal))}"
    return text


def ref_words(ref: EventState, historical: bool, shared: bool, at: datetime, formal: bool,
              rng: random.Random, precise: bool = False) -> str:
    """How a speaker points at an event of the user's timetable (``precise``: other events of the
    same kind lie in the same month, so only the date tells them apart)."""
    d0 = ref.description
    desc = d0[0].lower() + d0[1:] if len(d0) > 1 and d0[1].islower() else d0  # "PT session" stays
    start = ref.start or ""
    if historical:
        d = date.fromisoformat(start[:10])
        month = MONTHS[d.month - 1].capitalize()
        forms = [f"the {desc} on {month} {d.day}"] if precise else [f"our {desc} in {month}",
                                                                      f"the {desc} on {month} {d.day}"]
        if shared and not precise:
            forms += ["last time", "last time we met"] if formal else ["last time", "the last one"]
        return rng.choice(forms)
    return f"my {desc} {day_words(start, at, formal, rng)}"
