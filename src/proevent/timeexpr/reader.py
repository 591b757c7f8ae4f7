""":func:`read`: every date and time of one message, read as people mean them."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache

from proevent.timeexpr.clock import Hours, hours_matter, read_clocks
from proevent.timeexpr.corrections import correct
from proevent.timeexpr.days import read_days
from proevent.timeexpr.durations import read_durations
from proevent.timeexpr.mentions import DateRange, DayMention, Duration, PartOfDay, Reading, RelativeTime
from proevent.timeexpr.vocabulary import _RE_DIGIT, fold, tokens, vocabulary

_V = vocabulary()
_RE_RUN = re.compile(r"[a-z]+")


def _needed(phrases: list[str]) -> frozenset[str]:
    """For each phrase, its longest letter run (the last of equal ones): where a phrase matches on
    word boundaries, each of its letter runs is a letter run of the text, which must hold this one."""
    return frozenset(max(reversed(_RE_RUN.findall(str(p).lower())), key=len) for p in phrases)


NEEDED = _needed([
    *_V.relative_days, *_V.more_relative_days, *_V.day_part_words,  # "today", "tonite", "this arvo"
    *_V.weekdays, *_V.weekday_abbreviations, *_V.weekend_words,  # "fri", "fri to sun", "this weekend"
    *(w for w in _V.part_words if w != "am"),  # "in the morning"; "am" alone only after a day
    *(u for u in _V.duration_units if len(u) >= 2),  # "half an hour", "two hours", "in a week", "all day"
    *_V.relation_words,  # "after work"
    "noon", "midday", "midnight", *(w for w, n in _V.number_words.items() if 1 <= n <= 12),  # "at seven"
])
"""The words of which a message without a digit must hold one for :func:`read` to find anything
(the readers' own gates, see :mod:`days`, :mod:`durations`, :mod:`clock`, :mod:`spans`: every
pattern needs a digit or one of these; corrections only mark what the others found)."""


def read(text: str, ref: datetime, usual_hours: Hours | None = None) -> Reading:
    """The days, clock times, parts of the day, durations, relative times and date ranges of
    ``text`` sent at ``ref``, with self-corrections applied.

    Args:
        text: one message.
        ref: the message's send time; relative days and weekdays count from it.
        usual_hours: the usual hours of the event being discussed, ``(first, end)`` with ``end``
            exclusive (:func:`proevent.timeexpr.usual_hours` gives them for a description); they
            decide an hour without am/pm when the message itself does not ("8?" for dinner: 20:00).

    Returns:
        A :class:`~proevent.timeexpr.Reading` (cached: validators and agents read a message often).
    """
    return _read(text, ref, usual_hours)


def nothing_to_read(text: str) -> bool:
    """True when ``text`` (folded) holds no digit and no word of :data:`NEEDED`: :func:`read` finds
    nothing in it (two thirds of chat messages: "lol", "sounds good"), so it is not read at all."""
    return not _RE_DIGIT.search(text) and tokens(text).isdisjoint(NEEDED)


@lru_cache(maxsize=65536)
def _read(original: str, ref: datetime, usual_hours: Hours | None) -> Reading:
    text = fold(original)
    if nothing_to_read(text):
        return Reading(text=original, ref=ref)
    if usual_hours is not None:
        plain = _read(original, ref, None)
        if not hours_matter(text, plain.clocks):
            return plain  # no clock time open to usual hours: the reading without them (callers read both)
    return read_all(original, text, ref, usual_hours)


def read_all(original: str, text: str, ref: datetime, usual_hours: Hours | None) -> Reading:
    """:func:`read` without the :func:`nothing_to_read` gate (``text`` is ``original`` folded)."""
    stage = _without_clocks(text, ref)
    clocks = read_clocks(text, list(stage.days), list(stage.parts), list(stage.taken), usual_hours, stage.durations)
    return Reading(
        text=original, ref=ref, days=stage.corrected_days, clocks=tuple(correct(text, clocks)),
        parts=stage.corrected_parts, durations=stage.durations, relatives=stage.relatives, ranges=stage.ranges,
    )


@dataclass(frozen=True, slots=True)
class _Stage:
    """What a reading holds besides its clock times: the same whatever the usual hours (a caller
    reads one message with several), so read once per text and send time."""

    days: tuple[DayMention, ...]
    parts: tuple[PartOfDay, ...]
    taken: tuple[tuple[int, int], ...]
    durations: tuple[Duration, ...]
    relatives: tuple[RelativeTime, ...]
    corrected_days: tuple[DayMention, ...]
    corrected_parts: tuple[PartOfDay, ...]
    ranges: tuple[DateRange, ...]


@lru_cache(maxsize=4096)
def _without_clocks(text: str, ref: datetime) -> _Stage:
    days, parts, ranges = read_days(text, ref)
    durations, relatives = read_durations(text)
    taken = [(d.start, d.end) for d in days] + [(r.start, r.end) for r in ranges]
    taken += [(d.start, d.end) for d in durations] + [(r.start, r.end) for r in relatives]
    taken += [(p.start, p.end) for p in parts]
    corrected = correct(text, list(days))
    retracted_days = {(d.start, d.end) for d in corrected if d.retracted}
    ranges = [r if not any(r.start <= a and b <= r.end for a, b in retracted_days) else replace(r, retracted=True)
              for r in ranges]
    return _Stage(tuple(days), tuple(parts), tuple(taken), tuple(durations), tuple(relatives), tuple(corrected),
                  tuple(correct(text, list(parts))), tuple(ranges))
