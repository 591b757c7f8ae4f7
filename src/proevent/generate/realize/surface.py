"""Slot values as the words people use, relative to the time a message is sent."""

from __future__ import annotations

import random
from datetime import date, datetime

from proevent.generate.timeexpr import MONTHS, date_phrases, range_phrases, time_phrases
from proevent.generate.trajectory import EventState


def _hm(t: str) -> tuple[int, int]:
    return int(t[11:13]), int(t[14:16])


def day_words(day: str, at: datetime, formal: bool, rng: random.Random) -> str:
    forms = [f for f in date_phrases(date.fromisoformat(day[:10]), at, formal) if not f.startswith("on ")]
    return rng.choice(forms)


def time_words(start: str, end: str | None, formal: bool, rng: random.Random) -> str:
    if end is not None and end[:10] == start[:10]:
        return rng.choice(range_phrases(_hm(start), _hm(end), formal))
    return rng.choice(time_phrases(*_hm(start), formal))


def when_words(start: str, end: str | None, at: datetime, formal: bool, rng: random.Random) -> str:
    """A day and a clock time (and the end time when known), in one of several orders."""
    day = day_words(start, at, formal, rng)
    clock = time_words(start, end, formal, rng)
    ranged = end is not None and end[:10] == start[:10]
    if formal:
        forms = [f"{day} at {clock}", f"{day}, {clock}"] if not ranged else [f"{day}, {clock}", f"{day} {clock}"]
    else:
        relative = day.lower().startswith(("today", "tomorrow", "tmr", "the day after", "this ", "next "))
        time_first = f"{clock} {day}" if clock[-1].isalpha() or relative else f"{clock} on {day}"
        forms = [f"{day} {clock}", time_first] + ([] if clock.startswith("from") else [f"{day} at {clock}"])
        if not ranged:
            forms.append(f"{day} @ {clock}")
        if end is not None and not ranged:
            forms = [f"{day} at {clock}"]
    text = rng.choice(forms)
    if text.startswith(f"{day} {clock}") and day.split()[-1].lower() in MONTHS and clock[0].isdigit():
        text = f"{day} at {clock}"  # "25 January 6 till 9pm" reads as January 6
    if end is not None and not ranged:
        text += f" until {day_words(end, at, formal, rng)} {rng.choice(time_phrases(*_hm(end), formal))}"
    return text


def ref_words(ref: EventState, historical: bool, shared: bool, at: datetime, formal: bool,
              rng: random.Random) -> str:
    """How a speaker points at an event of the user's timetable."""
    d0 = ref.description
    desc = d0[0].lower() + d0[1:] if len(d0) > 1 and d0[1].islower() else d0  # "PT session" stays
    start = ref.start or ""
    if historical:
        d = date.fromisoformat(start[:10])
        month = MONTHS[d.month - 1].capitalize()
        forms = [f"our {desc} in {month}", f"the {desc} on {month} {d.day}"]
        if shared:
            forms += ["last time", "last time we met"] if formal else ["last time", "last time lol", "the last one"]
        return rng.choice(forms)
    return f"my {desc} {day_words(start, at, formal, rng)}"
