"""Date and clock-time phrases with every value they may denote: the validator's and the agents' base reading.

:func:`date_spans` and :func:`time_spans` find every date or clock-time phrase with its place in
the text, the set of values it may denote (a bare "at 7" is 07:00 or 19:00; "next Friday" said on
a Wednesday is the Friday of the following week, or loosely the nearest one) and the one reading
a careful reader would pick (``best``). :func:`date_mentions`, :func:`extract_dates`,
:func:`time_mentions` and :func:`extract_times` are the candidate-set views the generator's
validator uses: a gold value counts as expressed when it is among the candidates.

These functions read only explicit phrases; :func:`proevent.timeexpr.read` adds the forms that
need context (bare hours, parts of the day, times relative to another event, corrections).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import NamedTuple

from proevent.timeexpr.resolve import (
    coming_weekday,
    month_day_dates,
    next_week_weekday,
    ordinal_date,
    relative_day,
)
from proevent.timeexpr.vocabulary import _RE_DIGIT, alternation, first_words, fold, h_clocks, tokens, vocabulary

_V = vocabulary()
WEEKDAYS = _V.weekdays
MONTHS = _V.months

_WD_NAMES = alternation([*WEEKDAYS, *_V.weekday_abbreviations])
_MONTH_NAMES = alternation([*MONTHS, *_V.month_abbreviations])
_DATE_FOLLOWS = (  # "Tuesday the 22nd" / "Tuesday, September 22" / "Friday 10/4": the date, not the nearest Tuesday
    rf"(?!,?\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)\b|,?\s+(?:{_MONTH_NAMES})\b"
    rf"|,?\s+\d{{1,2}}\s+(?:{_MONTH_NAMES})|,?\s+\d{{1,2}}/\d{{1,2}}(?![\d/]))"
)
_RE_WEEKDAY = re.compile(rf"(?<!\bafter a )(?<!\bany )(?<!\bevery )(?<!\beach )\b(next\s+|this\s+)?({_WD_NAMES})\b\.?"
                         rf"(\s+next\s+week)?{_DATE_FOLLOWS}", re.I)
"""A weekday, the coming one (or the following week's after "next"); not "any friday", "every
tuesday", "after a monday": a kind of day, not a date ("8 on a sunday 😭" still names the plan's)."""
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
_RE_NUMERIC_DATE = re.compile(
    rf"(?:\b({_WD_NAMES})\.?,?\s+)?(?<![\d/.:£$€#-])\b(\d{{1,2}})/(\d{{1,2}})(?:/(\d{{4}}|\d{{2}}))?"
    r"(?![\d/%]|\s*(?:of|hours?|hrs?|h|cups?|miles?|km|pm|am)\b)", re.I)
"""A date in figures, "30/4", "10/4/2026", "Fri 10/4": day/month or month/day, whichever is a date
near the message (a weekday said before it picks between the two; else the coming one)."""
_NUMERIC_REACH = (-7, 200)
"""Days around the message within which a date in figures is read (not "1/2", "24/7" or a score)."""
_RE_RELATIVE = re.compile(rf"\b({alternation(_V.relative_days)})\b", re.I)
_RELATIVE_FIRST = first_words(_V.relative_days)
_WEEKDAY_WORDS = frozenset([*WEEKDAYS, *_V.weekday_abbreviations])
_CLOCK_WORDS = frozenset({"noon", "midday", "midnight"})
_MONTH_WORDS = frozenset([*MONTHS, *_V.month_abbreviations])
_ORDINAL_SUFFIXES = frozenset({"st", "nd", "rd", "th"})
_AMPM_RUNS = frozenset({"am", "pm", "m"})
"""The letter runs "am", "pm", "a.m.", "p.m." leave: a pattern ending in am/pm needs one."""
_BARE_LEADS = frozenset({"at", "around", "by", "until", "till", "from"})


def _may(words: frozenset[str] | None, needed: frozenset[str]) -> bool:
    """Whether a pattern that needs one of ``needed`` as a letter run can match (``None``: not ASCII, try it)."""
    return words is None or not words.isdisjoint(needed)


def _gates(text: str) -> tuple[bool, frozenset[str] | None]:
    """Whether ``text`` holds a digit, and its letter runs (``None``: not ASCII, so every pattern
    is tried: case-insensitive matching knows letters such as "ſ" that the runs do not). A pattern
    that needs a digit or a word the text lacks cannot match: skipping it changes no output."""
    return bool(_RE_DIGIT.search(text)), tokens(text) if text.isascii() else None


@dataclass(frozen=True, slots=True)
class DateSpan:
    """A date phrase: where it stands, every day it may denote, and the reading to pick."""

    start: int
    end: int
    days: frozenset[date]
    best: date


@dataclass(frozen=True, slots=True)
class TimeSpan:
    """A clock-time phrase; ``role`` is ``"end"`` for the end of a range ("7-9pm", "until 9pm")."""

    start: int
    end: int
    times: frozenset[tuple[int, int]]
    best: tuple[int, int]
    role: str = "start"


def _date_spans(text: str, ref: datetime) -> list[DateSpan]:
    """Date phrases in the order the patterns find them (earlier patterns win overlaps)."""
    text = fold(text)
    today = ref.date()
    out: list[DateSpan] = []

    def add(m: re.Match[str], days: set[date], best: date | None = None) -> None:
        if days and not any(o.start <= m.start() < o.end for o in out):
            future = sorted(d for d in days if d >= today)
            pick = best or (future[0] if future else max(days))
            out.append(DateSpan(m.start(), m.end(), frozenset(days), pick))

    digits, words = _gates(text)
    for m in _RE_ISO_DATE.finditer(text) if digits and "-" in text else ():
        try:
            add(m, {date(int(m.group(1)), int(m.group(2)), int(m.group(3)))})
        except ValueError:
            pass
    for m in _RE_NUMERIC_DATE.finditer(text) if digits and "/" in text else ():
        found = _numeric_dates(m, today)
        if found:
            add(m, *found)
    for m in _RE_RELATIVE.finditer(text) if words is None or words & _RELATIVE_FIRST else ():
        add(m, {relative_day(m.group(1), today)})
    months = digits and _may(words, _MONTH_WORDS)
    for m in _RE_MONTH_DAY.finditer(text) if months else ():
        add(m, month_day_dates(_V.month_number(m.group(1)), int(m.group(2)), today))
    for m in _RE_DAY_MONTH.finditer(text) if months else ():
        add(m, month_day_dates(_V.month_number(m.group(2)), int(m.group(1)), today))
    for m in _RE_WEEKDAY.finditer(text) if words is None or words & _WEEKDAY_WORDS else ():
        wd = _V.weekday_number(m.group(2))
        nearest = coming_weekday(wd, today)
        if m.group(1) and m.group(1).strip().lower() == "next" or m.group(3):
            following = next_week_weekday(wd, today)
            add(m, {following, nearest}, following)  # "next Friday": the following week's
        else:
            add(m, {nearest})
    for m in _RE_ORDINAL.finditer(text) if digits and _may(words, _ORDINAL_SUFFIXES) else ():
        d = ordinal_date(int(m.group(1)), today)
        if d is not None:
            add(m, {d})
    return out


_RE_NUMERIC_LEAD = re.compile(r"(?:\b(?:on|for|from|to|till|until|by|dated?|is|the|due)|[:,(])\s*$", re.I)
_RE_NUMERIC_TAIL = re.compile(r"\s*(?:,\s*)?(?:at\s+|@\s*|from\s+)?\d{1,2}(?:[:.h]\d{2}|\s*[ap]\.?m\b)", re.I)


def _numeric_dates(m: re.Match[str], today: date) -> tuple[set[date], date] | None:
    """The days "30/4" may be (day/month and month/day) near ``today``, and the one to pick. Only a
    figure that reads as a date: with a weekday or a year, after "on"/"for"/":" and the like, or
    before a clock time ("30/4 at 14:30"); not "24/7", "rated it 4/5", "5/6 of us"."""
    a, b = int(m.group(2)), int(m.group(3))
    year = m.group(4)
    text = m.string
    if (a, b) == (24, 7) or not (m.group(1) or year or _RE_NUMERIC_LEAD.search(text, max(0, m.start() - 8), m.start())
                                 or _RE_NUMERIC_TAIL.match(text, m.end())):
        return None
    out: set[date] = set()
    for day, month in ((a, b), (b, a)):
        if not (1 <= month <= 12 and 1 <= day <= 31):
            continue
        if year:
            try:
                cands = {date(int(year) + (2000 if len(year) == 2 else 0), month, day)}
            except ValueError:
                continue
        else:
            cands = month_day_dates(month, day, today)
        out |= {d for d in cands if _NUMERIC_REACH[0] <= (d - today).days <= _NUMERIC_REACH[1]}
    if not out:
        return None
    if m.group(1):
        wd = _V.weekday_number(m.group(1))
        named = [d for d in out if d.weekday() == wd]
        if named:
            return out, min(named, key=lambda d: abs((d - today).days))
    future = sorted(d for d in out if d >= today)
    return out, future[0] if future else max(out)


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
_RE_WORDS = re.compile(r"\b(noon|midday|midnight)\b(?!\s+sun\b)", re.I)  # not "the midnight sun"
_ISH, _OCLOCK, _HALF, _QUARTER = frozenset({"ish"}), frozenset({"clock", "oclock"}), frozenset({"half"}), frozenset({
    "quarter"})


def with_suffix(h: int, suffix: str) -> int | None:
    """The hour of "``h`` am/pm" (``None`` when ``h`` is not 1-12)."""
    if not 1 <= h <= 12:
        return None
    pm = suffix.lower().startswith("p")
    return (h % 12) + (12 if pm else 0)


def both_halves(h: int, minute: int) -> set[tuple[int, int]]:
    """The clock times an hour without am/pm may be: 7 → 07:00 and 19:00; 0 and 12-23 only themselves."""
    if not 0 <= h <= 23 or not 0 <= minute <= 59:
        return set()
    out = {(h, minute)}
    if 1 <= h <= 11:
        out.add((h + 12, minute))
    return out


def default_pick(cands: set[tuple[int, int]] | frozenset[tuple[int, int]]) -> tuple[int, int]:
    """The likelier reading of an hour without am/pm: 1-7 in the afternoon or evening, 8-11 morning."""
    if len(cands) == 1:
        return next(iter(cands))
    low = min(cands)
    return (low[0] + 12, low[1]) if 1 <= low[0] <= 7 else low


_RE_END_MARK = re.compile(r"(?:-|–|\bto|\buntil|\btill|\btil)\s*$", re.I)
_RE_MOVED_TO = re.compile(r"\b(?:mov(?:e|es|ed|ing)|push(?:es|ed|ing)?|shift(?:s|ed|ing)?|chang(?:e|es|ed|ing)|"
                          r"switch(?:es|ed|ing)?|brought|bring(?:s|ing)?|reschedul(?:e|es|ed|ing)|"
                          r"postpon(?:e|es|ed|ing)|delay(?:s|ed|ing)?)(?:\s+[\w']+){0,3}\s+to\s*$",
                          re.I)
"""A time after "moved to" / "push it to" is where the event starts now, not the end of a range."""


def _time_spans(text: str) -> list[TimeSpan]:
    text = fold(text)
    out: list[TimeSpan] = []

    def add(m: re.Match[str], cands: set[tuple[int, int]], best: tuple[int, int] | None = None) -> None:
        if cands and not any(o.start <= m.start() < o.end for o in out):
            role = "end" if _RE_END_MARK.search(text[max(0, m.start() - 8): m.start()]) and not _RE_MOVED_TO.search(
                text[max(0, m.start() - 40): m.start()]) else "start"
            out.append(TimeSpan(m.start(), m.end(), frozenset(cands), best or default_pick(cands), role))

    digits, words = _gates(text)
    if not digits:  # every pattern but "noon", "midday", "midnight" needs a digit
        for m in _RE_WORDS.finditer(text) if words is None or words & _CLOCK_WORDS else ():
            add(m, {(0, 0)} if m.group(1).lower() == "midnight" else {(12, 0)})
        return out
    ampm = _may(words, _AMPM_RUNS)
    for m in _RE_RANGE.finditer(text) if ampm else ():
        h1, h2 = int(m.group(1)), int(m.group(3))
        m1, m2 = int(m.group(2) or 0), int(m.group(4) or 0)
        e = with_suffix(h2, m.group(5))
        if e is not None:
            s = with_suffix(h1, m.group(5))
            starts = both_halves(h1, m1) | ({(s, m1)} if s is not None and (s, m1) < (e, m2) else set())
            below = [c for c in starts if c < (e, m2)]
            add(m, starts, max(below) if below else None)
            if out and out[-1].start == m.start():
                out.append(TimeSpan(m.start(), m.end(), frozenset({(e, m2)}), (e, m2), "end"))
    for m in _RE_CLOCK.finditer(text) if ":" in text else ():
        h, mi = int(m.group(1)), int(m.group(2))
        if mi >= 60:
            continue
        if m.group(3):
            h2 = with_suffix(h, m.group(3))
            add(m, {(h2, mi)} if h2 is not None else set())
        elif h == 0 or 13 <= h <= 23:
            add(m, {(h, mi)})
        else:
            add(m, both_halves(h, mi))
    for a, b, hour in h_clocks(text):
        add(_Span(a, b), {(hour, 0)})
    for m in _RE_DOT_AMPM.finditer(text) if ampm and "." in text else ():
        h = with_suffix(int(m.group(1)), m.group(3))
        if h is not None and int(m.group(2)) < 60:
            add(m, {(h, int(m.group(2)))})
    for m in _RE_H_AMPM.finditer(text) if ampm else ():
        h = with_suffix(int(m.group(1)), m.group(2))
        if h is not None:
            add(m, {(h, 0)})
    for rx, needed in ((_RE_ISH, _ISH), (_RE_BARE, _BARE_LEADS), (_RE_OCLOCK, _OCLOCK)):
        for m in rx.finditer(text) if _may(words, needed) or rx is _RE_BARE and "@" in text else ():
            add(m, both_halves(int(m.group(1)), 0))
    for m in _RE_HALF.finditer(text) if _may(words, _HALF) else ():
        add(m, both_halves(int(m.group(1)), 30))
    for m in _RE_QUARTER.finditer(text) if _may(words, _QUARTER) else ():
        h = int(m.group(2))
        add(m, both_halves(h, 15) if m.group(1).lower() == "past" else both_halves((h - 1) % 12 or 12, 45))
    for m in _RE_WORDS.finditer(text) if _may(words, _CLOCK_WORDS) else ():
        add(m, {(0, 0)} if m.group(1).lower() == "midnight" else {(12, 0)})
    return out


class _Span(NamedTuple):
    """A found phrase's offsets, read like a match's (``start()``, ``end()``)."""

    first: int
    last: int

    def start(self) -> int:
        return self.first

    def end(self) -> int:
        return self.last


def time_spans(text: str) -> list[TimeSpan]:
    """The clock-time phrases of ``text`` in text order (a range gives a start and an end span)."""
    return sorted(_time_spans(text), key=lambda s: (s.start, s.role != "start"))


def time_mentions(text: str) -> list[set[tuple[int, int]]]:
    """One candidate set per clock-time phrase of ``text`` (a range gives two)."""
    return [set(s.times) for s in _time_spans(text)]


def extract_times(text: str) -> set[tuple[int, int]]:
    """Every clock time ``(hour, minute)`` that a phrase of ``text`` may denote."""
    return set().union(*time_mentions(text))

