"""The old import paths re-export the package's own functions (same objects, same behaviour)."""

from __future__ import annotations

import proevent.agents.timecalc as timecalc
import proevent.generate.timeexpr as gen
import proevent.timeexpr as te


def test_agents_timecalc_is_the_package():
    for name in ("add_duration", "find_dates", "find_times", "resolve_date", "weekday_name", "WEEKDAYS"):
        assert getattr(timecalc, name) is getattr(te, name), name


def test_generate_timeexpr_is_the_package():
    for name in ("MONTHS", "WEEKDAYS", "date_mentions", "date_phrases", "extract_dates", "extract_times", "ordinal",
                 "range_phrases", "time_mentions", "time_phrases"):
        assert getattr(gen, name) is getattr(te, name), name


def test_the_public_api_is_listed():
    assert sorted(te.__all__) == sorted(set(te.__all__))
    for name in te.__all__:
        assert hasattr(te, name), name
