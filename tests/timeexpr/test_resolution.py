"""The day rules against the send time (gold conventions, "Values"), as properties and by hand."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.timeexpr import (
    WEEKDAYS,
    coming_weekday,
    next_week_weekday,
    read,
    relative_day,
    resolve_date,
    weekday_date,
    weekend,
)

refs = st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2031, 12, 31))
weekdays = st.integers(min_value=0, max_value=6)


@settings(max_examples=300, deadline=None)
@given(ref=refs, wd=weekdays)
def test_a_bare_or_this_weekday_is_one_to_seven_days_away(ref, wd):
    d = coming_weekday(wd, ref)
    assert d.weekday() == wd and 1 <= (d - ref.date()).days <= 7
    for phrase in (WEEKDAYS[wd], f"this {WEEKDAYS[wd]}", WEEKDAYS[wd][:3]):
        assert read(phrase, ref).day() == d, phrase


@settings(max_examples=300, deadline=None)
@given(ref=refs, wd=weekdays)
def test_next_weekday_is_in_the_following_monday_week(ref, wd):
    d = next_week_weekday(wd, ref)
    monday = ref.date() - timedelta(days=ref.weekday())
    assert d.weekday() == wd and d - monday == timedelta(days=7 + wd)
    ahead = (d - ref.date()).days
    assert 1 <= ahead <= 13
    # 7-13 days away unless the weekday is earlier in the week than the send day ("next monday"
    # said on a Sunday is tomorrow: the following calendar week starts then)
    assert (7 <= ahead) == (wd >= ref.weekday())
    assert read(f"next {WEEKDAYS[wd]}", ref).day() == d


@settings(max_examples=200, deadline=None)
@given(ref=refs)
def test_relative_days_count_from_the_send_time_whatever_the_hour(ref):
    assert relative_day("tmrw", ref) == ref.date() + timedelta(days=1)
    assert relative_day("the day after tomorrow", ref) == ref.date() + timedelta(days=2)
    assert relative_day("tonight", ref) == ref.date()
    assert read("tmrw works", ref).day() == ref.date() + timedelta(days=1)


def test_weekday_date_by_hand():
    tue = datetime(2026, 3, 10, 9)
    assert weekday_date("fri", tue) == date(2026, 3, 13)
    assert weekday_date("Friday", tue, "this") == date(2026, 3, 13)
    assert weekday_date("Friday", tue, "next") == date(2026, 3, 20)
    assert weekday_date("tues", tue) == date(2026, 3, 17)


def test_weekend_by_hand():
    assert weekend(date(2026, 3, 10)) == (date(2026, 3, 14), date(2026, 3, 15))
    assert weekend(date(2026, 3, 14)) == (date(2026, 3, 14), date(2026, 3, 15))  # said on the Saturday
    assert weekend(date(2026, 3, 15)) == (date(2026, 3, 15), date(2026, 3, 15))  # said on the Sunday
    assert weekend(date(2026, 3, 10), "next") == (date(2026, 3, 21), date(2026, 3, 22))


def test_relative_day_refuses_other_words():
    with pytest.raises(ValueError, match="not a relative-day word"):
        relative_day("someday", date(2026, 3, 10))


def test_resolve_date_follows_the_rules_where_dateparser_differs():
    wed = datetime(2026, 3, 4, 9)
    assert resolve_date("next friday", wed) == date(2026, 3, 13)  # dateparser alone: March 6
    assert resolve_date("in two weeks", wed) == date(2026, 3, 18)  # dateparser
    assert resolve_date("no date here", wed) is None
