""":func:`read`: every date and time of one message, read as people mean them."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from functools import lru_cache

from proevent.timeexpr.clock import Hours, read_clocks
from proevent.timeexpr.corrections import correct
from proevent.timeexpr.days import read_days
from proevent.timeexpr.durations import read_durations
from proevent.timeexpr.mentions import Reading
from proevent.timeexpr.vocabulary import fold


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


@lru_cache(maxsize=65536)
def _read(original: str, ref: datetime, usual_hours: Hours | None) -> Reading:
    text = fold(original)
    days, parts, ranges = read_days(text, ref)
    durations, relatives = read_durations(text)
    taken = [(d.start, d.end) for d in days] + [(r.start, r.end) for r in ranges]
    taken += [(d.start, d.end) for d in durations] + [(r.start, r.end) for r in relatives]
    taken += [(p.start, p.end) for p in parts]
    clocks = read_clocks(text, days, parts, taken, usual_hours, durations)
    days = correct(text, days)
    retracted_days = {(d.start, d.end) for d in days if d.retracted}
    ranges = [r if not any(r.start <= a and b <= r.end for a, b in retracted_days) else replace(r, retracted=True)
              for r in ranges]
    return Reading(
        text=original, ref=ref, days=tuple(days), clocks=tuple(correct(text, clocks)),
        parts=tuple(correct(text, parts)), durations=tuple(durations), relatives=tuple(relatives),
        ranges=tuple(ranges),
    )

