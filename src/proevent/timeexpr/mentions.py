"""What :func:`proevent.timeexpr.read` finds in a message: typed mentions and the :class:`Reading`.

Every mention knows where it stands in the text (``start``, ``end``: character offsets) and
whether a self-correction in the same message took it back (``retracted``: "8 not 7" retracts
the 7) or it is itself the correction (``corrects``: the 8; "sorry I meant thursday" corrects a
value said earlier, possibly in an earlier message, which only the caller can see).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

Clock = tuple[int, int]
"""A clock time as ``(hour, minute)``."""


@dataclass(frozen=True, slots=True)
class DayMention:
    """A day ("fri", "tmrw", "the 14th", "next Friday"): every day it may denote and the one meant."""

    start: int
    end: int
    days: frozenset[date]
    best: date
    retracted: bool = False
    corrects: bool = False


@dataclass(frozen=True, slots=True)
class ClockMention:
    """A clock time. ``bare``: an hour without am/pm or a 24-hour form, read from context
    ("fri 8?", "9 works"): ``times`` holds both halves of the day and ``best`` the one context
    prefers. ``role`` is ``"end"`` for the end of a range ("7-9", "till 10")."""

    start: int
    end: int
    times: frozenset[Clock]
    best: Clock
    role: str = "start"
    bare: bool = False
    approximate: bool = False
    retracted: bool = False
    corrects: bool = False


@dataclass(frozen=True, slots=True)
class PartOfDay:
    """A part of the day without a clock time ("sat morning", "tonight"): ``hours`` is
    ``(first, end)``, end exclusive; ``day`` is ``None`` when no day is said with it."""

    start: int
    end: int
    part: str
    hours: tuple[int, int]
    day: date | None
    retracted: bool = False
    corrects: bool = False


@dataclass(frozen=True, slots=True)
class Duration:
    """How long something lasts ("for two hours", "90 min", "an hour and a half")."""

    start: int
    end: int
    minutes: int
    approximate: bool = False


@dataclass(frozen=True, slots=True)
class RelativeTime:
    """A time said relative to another event ("straight after the gym", "an hour before the match").

    ``anchor`` is the words naming the other event as written ("the gym", "my dentist"; ``"now"``
    for "in 20 min"); the time is the anchor's start plus ``offset_minutes`` when ``relation`` is
    ``"before"`` (the offset is then negative or zero) and the anchor's end plus the offset when
    it is ``"after"`` (:func:`proevent.timeexpr.apply_offset`). ``"now"`` is the send time.
    """

    start: int
    end: int
    anchor: str
    relation: str
    offset_minutes: int


@dataclass(frozen=True, slots=True)
class DateRange:
    """Several days ("fri to sun", "the 12th-14th", "this weekend"): ``first`` to ``last``, inclusive,
    the reading meant. ``also``: the days of another reading the words allow ("next weekend" is
    loosely the coming one too; "this weekend" said on a Sunday is that day or the next weekend)."""

    start: int
    end: int
    first: date
    last: date
    retracted: bool = False
    also: frozenset[date] = frozenset()

    @property
    def days(self) -> frozenset[date]:
        """Every day the range may denote: ``first`` to ``last`` and ``also``."""
        return frozenset(self.first + timedelta(days=k) for k in range((self.last - self.first).days + 1)) | self.also


@dataclass(frozen=True, slots=True)
class Reading:
    """Everything :func:`proevent.timeexpr.read` found in one message, each list in text order."""

    text: str
    ref: datetime
    days: tuple[DayMention, ...] = ()
    clocks: tuple[ClockMention, ...] = ()
    parts: tuple[PartOfDay, ...] = ()
    durations: tuple[Duration, ...] = ()
    relatives: tuple[RelativeTime, ...] = ()
    ranges: tuple[DateRange, ...] = ()

    def dates(self, retracted: bool = False) -> set[date]:
        """Every day a mention that still stands may denote (days, days of ranges and parts of day);
        with ``retracted``, also those of the mentions a self-correction took back (the validator's
        view: "thursday, sorry I meant friday" still says Thursday)."""
        out = {d for m in self.days if retracted or not m.retracted for d in m.days}
        for r in self.ranges:
            if retracted or not r.retracted:
                out |= r.days
        return out | {p.day for p in self.parts if p.day is not None and (retracted or not p.retracted)}

    def times(self, retracted: bool = False) -> set[Clock]:
        """Every clock time a mention that still stands may denote (starts and ends); with
        ``retracted``, also those a self-correction took back ("8 not 7": the 7 too)."""
        return {t for m in self.clocks if retracted or not m.retracted for t in m.times}

    def retracted_dates(self) -> set[date]:
        """The days a self-correction took back ("thursday, sorry I meant friday": Thursday)."""
        return {m.best for m in self.days if m.retracted} - {m.best for m in self.days if not m.retracted}

    def retracted_times(self) -> set[Clock]:
        """The clock times a self-correction took back ("8 not 7": 07:00/19:00 as read)."""
        return {m.best for m in self.clocks if m.retracted} - {m.best for m in self.clocks if not m.retracted}

    def day(self) -> date | None:
        """The day meant: a correction first, else the first day that stands."""
        standing = [m for m in self.days if not m.retracted]
        corrected = [m for m in standing if m.corrects]
        pick = (corrected or standing or [None])[0]
        return pick.best if pick is not None else None

    def _start(self) -> ClockMention | None:
        standing = [m for m in self.clocks if not m.retracted and m.role == "start"]
        corrected = [m for m in standing if m.corrects]
        return (corrected or standing or [None])[0]

    def start_time(self) -> Clock | None:
        """The start meant: a correction first, else the first start that stands."""
        start = self._start()
        return start.best if start is not None else None

    def end_time(self) -> Clock | None:
        """The end: an end time said after the start and later than it ("7-9", "8 till 10"),
        else the start plus a duration said ("7pm for two hours")."""
        start = self._start()
        ends = [m for m in self.clocks if not m.retracted and m.role == "end"
                and (start is None or m.start >= start.start and m.best > start.best)]
        if ends:
            return ends[0].best
        if start is None or not self.durations:
            return None
        total = start.best[0] * 60 + start.best[1] + self.durations[0].minutes
        return (total // 60, total % 60) if total < 24 * 60 else None
