"""Dates and times in chat text: the one reader shared by the generator, its validator and the agents.

Reading, as people mean it (:func:`read`): days, clock times (bare hours read from context,
approximate times, ranges and end times), parts of the day, durations, times relative to another
event, date ranges and self-corrections, each with its place in the text; relative days and
weekdays count from the message's send time (``gold-conventions.md``, "Values"). The candidate
readers (:func:`date_spans`, :func:`time_spans`, :func:`extract_dates`, :func:`extract_times`)
keep every value an explicit phrase may denote; :func:`find_dates` and :func:`find_times` pick one
per phrase, the way the ``rules`` agent reads. Rendering (:func:`date_phrases` and the other
``*_phrases``) writes only forms that read back to the exact value. Resolution
(:func:`coming_weekday`, :func:`next_week_weekday`, :func:`resolve_date`) and arithmetic
(:func:`add_duration`, :func:`end_after`, :func:`apply_offset`, :func:`move_keeping_duration`)
complete the package. The words themselves are data: ``timeexpr/data/vocabulary.json``.

See ``docs/timeexpr.md``.
"""

from __future__ import annotations

from proevent.timeexpr.arithmetic import (
    add_duration,
    apply_offset,
    end_after,
    minutes_between,
    move_keeping_duration,
)
from proevent.timeexpr.clock import prefer, usual_hours
from proevent.timeexpr.mentions import (
    Clock,
    ClockMention,
    DateRange,
    DayMention,
    Duration,
    PartOfDay,
    Reading,
    RelativeTime,
)
from proevent.timeexpr.picks import find_dates, find_times, resolve_date, weekday_name
from proevent.timeexpr.reader import read
from proevent.timeexpr.render import (
    bare_range_phrases,
    bare_time_phrases,
    correction_phrases,
    date_phrases,
    date_range_phrases,
    duration_phrases,
    end_phrases,
    ordinal,
    part_of_day_phrases,
    range_phrases,
    relative_phrases,
    time_phrases,
)
from proevent.timeexpr.resolve import coming_weekday, next_week_weekday, relative_day, weekday_date, weekend
from proevent.timeexpr.spans import (
    MONTHS,
    WEEKDAYS,
    DateSpan,
    TimeSpan,
    date_mentions,
    date_spans,
    extract_dates,
    extract_times,
    time_mentions,
    time_spans,
)
from proevent.timeexpr.vocabulary import Vocabulary, vocabulary

__all__ = [
    "MONTHS", "WEEKDAYS", "Clock", "ClockMention", "DateRange", "DateSpan", "DayMention", "Duration", "PartOfDay",
    "Reading", "RelativeTime", "TimeSpan", "Vocabulary", "add_duration", "apply_offset", "bare_range_phrases",
    "bare_time_phrases", "coming_weekday", "correction_phrases", "date_mentions", "date_phrases",
    "date_range_phrases", "date_spans", "duration_phrases", "end_after", "end_phrases", "extract_dates",
    "extract_times", "find_dates", "find_times", "minutes_between", "move_keeping_duration", "next_week_weekday",
    "ordinal", "part_of_day_phrases", "prefer", "range_phrases", "read", "relative_day", "relative_phrases",
    "resolve_date", "time_mentions", "time_phrases", "time_spans", "usual_hours", "vocabulary", "weekday_date",
    "weekday_name", "weekend"
]
