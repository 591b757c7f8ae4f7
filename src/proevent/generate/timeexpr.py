"""Dates and times for the generator: now in :mod:`proevent.timeexpr` (rendering and reading).

Kept so that existing imports work; the names are the package's, unchanged.
"""

from __future__ import annotations

from proevent.timeexpr import (
    MONTHS,
    WEEKDAYS,
    date_mentions,
    date_phrases,
    extract_dates,
    extract_times,
    ordinal,
    range_phrases,
    time_mentions,
    time_phrases,
)

__all__ = [
    "MONTHS", "WEEKDAYS", "date_mentions", "date_phrases", "extract_dates", "extract_times", "ordinal",
    "range_phrases", "time_mentions", "time_phrases",
]
