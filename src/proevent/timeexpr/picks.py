"""One value per date or time phrase: the readings the ``rules`` agent and the ``tools`` strategy use.

Where :mod:`proevent.timeexpr.spans` keeps every value a phrase may denote, these functions pick
one: "next Friday" is the following week's Friday, "Tuesday the 22nd" the 22nd, a month and day
its next occurrence, "at 3" 15:00 and "at 9" 09:00; ranges without am/pm ("9 till 1") are read
here too. Their output is part of the ``rules`` agent's behaviour: change it only with the agent.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import lru_cache

from proevent.timeexpr.resolve import dateparser_date
from proevent.timeexpr.spans import DateSpan, date_spans, time_spans
from proevent.timeexpr.vocabulary import alternation, fold, vocabulary

_V = vocabulary()


def weekday_name(d: date) -> str:
    """"Monday" ... "Sunday"."""
    return _V.weekdays[d.weekday()].capitalize()


def find_dates(text: str, ref: datetime) -> list[tuple[int, date]]:
    """Dates mentioned in ``text`` said at ``ref``: ``(position, date)`` in text order (see
    :func:`_find_dates`; cached, since an agent reads a chat's earlier messages at every step)."""
    return list(_find_dates(text, ref))


@lru_cache(maxsize=65536)
def _find_dates(text: str, ref: datetime) -> tuple[tuple[int, date], ...]:
    """Dates mentioned in ``text`` said at ``ref``: ``(position, date)`` in text order.

    The phrases are those of :func:`proevent.timeexpr.date_spans` (shared with the generator's
    validator), each read once: "next Friday" as the following week's Friday, "Tuesday the 22nd"
    as the 22nd, a month and day as its next occurrence.
    """
    text = fold(text)
    out = [(span.start, span.best) for span in date_spans(text, ref) if not _street_number(text, span)]
    for m in _RE_IN_N.finditer(text):  # "in 3 days", "in two weeks": dateparser reads these
        if not any(pos == m.start() for pos, _ in out):
            parsed = dateparser_date(m.group(0), ref)
            if parsed is not None:
                out.append((m.start(), parsed))
    return tuple(sorted(out))


_RE_IN_N = re.compile(
    r"\bin (?:\d{1,2}|a|one|two|three|four|five|six) (?:days?|weeks?)\b", re.I)


_RE_BARE_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)", re.I)
_RE_DATE_WORD_BEFORE = re.compile(
    rf"(?:{alternation(sorted({w[:3] for w in (*_V.weekdays, *_V.months)}))})[a-z]*\.?,?\s*$", re.I)


def _street_number(text: str, span: DateSpan) -> bool:
    """"Blue Bottle on 5th", "3rd Ave": a bare ordinal with no weekday or month before it names a
    street, not a day ("the 5th", "Fri 5th" and "March 5th" stay dates)."""
    if not _RE_BARE_ORDINAL.fullmatch(text[span.start:span.end]):
        return False
    return not _RE_DATE_WORD_BEFORE.search(text[max(0, span.start - 12):span.start])


def resolve_date(expression: str, ref: datetime) -> date | None:
    """The day an expression said at ``ref`` denotes ("next Friday", "the 14th", "in 3 days").

    The package's own phrases come first (they follow the gold rules, where dateparser reads
    "next Friday" said on a Wednesday as *this* Friday); dateparser reads the rest.
    """
    found = find_dates(expression, ref)
    if found:
        return found[0][1]
    return dateparser_date(expression, ref)


_AMPM = r"(a\.?m\.?|p\.?m\.?)"
_RE_RANGE = re.compile(
    rf"\b(\d{{1,2}})(?:[:.](\d{{2}}))?\s*{_AMPM}?\s*(?:-|–|to|until|till|til)\s*"
    rf"(\d{{1,2}})(?:[:.](\d{{2}}))?\s*{_AMPM}?(?![\w:])",
    re.I)


def _h(hour: int, suffix: str | None, padded: bool = False) -> int | None:
    """The hour of a clock phrase; ``padded`` ("07:00") is a 24-hour clock."""
    if padded and not suffix:
        return hour if hour <= 23 else None
    if suffix:
        if not 1 <= hour <= 12:
            return None
        return hour % 12 + (12 if suffix.lower().startswith("p") else 0)
    if hour > 23:
        return None
    return hour + 12 if 1 <= hour <= 7 else hour  # "at 3" in a plan means 15:00; "at 9" 09:00


def find_times(text: str) -> list[tuple[int, tuple[int, int], tuple[int, int] | None]]:
    """Clock times in ``text``: ``(position, start, end or None)``, in text order (cached)."""
    return list(_find_times(text))


@lru_cache(maxsize=65536)
def _find_times(text: str) -> tuple[tuple[int, tuple[int, int], tuple[int, int] | None], ...]:
    """Clock times in ``text``: ``(position, start, end or None)``, in text order.

    Ranges without am/pm ("9 till 1", "12:30 to 13:30") are read here; every other phrase comes
    from :func:`proevent.timeexpr.time_spans`, an end ("until 9pm") joining the start before it.
    """
    out: list[tuple[int, tuple[int, int], tuple[int, int] | None]] = []
    taken: list[tuple[int, int]] = []
    for m in _RE_RANGE.finditer(text):
        suffix = m.group(6)
        end = _h(int(m.group(4)), suffix, m.group(4).startswith("0"))
        start = _h(int(m.group(1)), m.group(3) or suffix, m.group(1).startswith("0"))
        if start is None or end is None:
            continue
        s, e = (start, int(m.group(2) or 0)), (end, int(m.group(5) or 0))
        if suffix and not m.group(3) and s > e and start >= 12:
            s = (start - 12, s[1])
        if not suffix and s > e and end < 12:
            e = (end + 12, e[1])
        if s < e and s[1] < 60 and e[1] < 60:
            out.append((m.start(), s, e))
            taken.append((m.start(), m.end()))
    for span in time_spans(text):
        if any(span.start < b and a < span.end for a, b in taken):
            continue
        if span.role == "end" and out and out[-1][2] is None and out[-1][1] < span.best:
            out[-1] = (out[-1][0], out[-1][1], span.best)
            continue
        if span.role == "end" and out and out[-1][2] is not None and out[-1][0] == span.start:
            continue
        out.append((span.start, span.best, None))
    out.sort(key=lambda p: p[0])
    return tuple(out)
