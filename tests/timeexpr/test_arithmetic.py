"""Duration and offset arithmetic on the data format's times."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.timeexpr import add_duration, apply_offset, end_after, minutes_between, move_keeping_duration

clock = st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2030, 12, 31)).map(
    lambda d: d.strftime("%Y-%m-%dT%H:%M"))


def test_by_hand():
    assert add_duration("2026-03-14T23:30", minutes=45) == "2026-03-15T00:15"
    assert end_after("2026-03-14T19:00", 90) == "2026-03-14T20:30"
    assert apply_offset("2026-03-14T15:00", -60) == "2026-03-14T14:00"  # an hour before the match
    assert minutes_between("2026-03-14T19:00", "2026-03-14T21:30") == 150
    assert move_keeping_duration("2026-03-14T19:00", "2026-03-14T21:00", "2026-03-14T20:00") == (
        "2026-03-14T20:00", "2026-03-14T22:00")
    assert move_keeping_duration("2026-03-14T19:00", None, "2026-03-16") == ("2026-03-16T19:00", None)
    assert move_keeping_duration("2026-03-14", "2026-03-15", "2026-03-21") == ("2026-03-21", "2026-03-22")
    assert move_keeping_duration("2026-03-14", None, "2026-03-20T18:00") == ("2026-03-20T18:00", None)


def test_errors_name_the_value():
    with pytest.raises(ValueError, match="2026-03-14"):
        end_after("2026-03-14", 60)  # a date has no clock time to add to
    with pytest.raises(ValueError, match="positive"):
        end_after("2026-03-14T19:00", 0)


@settings(max_examples=300, deadline=None)
@given(start=clock, minutes=st.integers(1, 24 * 60))
def test_end_after_is_the_duration_later(start, minutes):
    end = end_after(start, minutes)
    assert minutes_between(start, end) == minutes
    assert add_duration(start, minutes=minutes) == end


@settings(max_examples=300, deadline=None)
@given(start=clock, dur=st.integers(1, 600), shift=st.integers(-3 * 24 * 60, 3 * 24 * 60))
def test_a_moved_event_keeps_its_duration(start, dur, shift):
    end = end_after(start, dur)
    new_start = add_duration(start, minutes=shift)
    moved, moved_end = move_keeping_duration(start, end, new_start)
    assert moved == new_start
    assert minutes_between(moved, moved_end) == dur


@settings(max_examples=200, deadline=None)
@given(start=clock, offset=st.integers(-600, 600))
def test_an_offset_and_back(start, offset):
    assert apply_offset(apply_offset(start, offset), -offset) == start
    dt = datetime.strptime(start, "%Y-%m-%dT%H:%M") + timedelta(minutes=offset)
    assert apply_offset(start, offset) == dt.strftime("%Y-%m-%dT%H:%M")
