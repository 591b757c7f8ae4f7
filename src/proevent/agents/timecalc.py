"""Calendar arithmetic for the ``rules`` agent and the ``tools`` strategy: now in :mod:`proevent.timeexpr`.

Kept so that existing imports work; the functions are the package's, unchanged.
"""

from __future__ import annotations

from proevent.timeexpr import WEEKDAYS, add_duration, find_dates, find_times, resolve_date, weekday_name

__all__ = ["WEEKDAYS", "add_duration", "find_dates", "find_times", "resolve_date", "weekday_name"]
