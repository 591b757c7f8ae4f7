"""Render → read: every phrase the renderer writes reads back to exactly its value, relative to
the message's send time (and, for an hour without am/pm, the event's usual hours)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.timeexpr import (
    WEEKDAYS,
    bare_range_phrases,
    bare_time_phrases,
    correction_phrases,
    date_phrases,
    date_range_phrases,
    duration_phrases,
    end_phrases,
    part_of_day_phrases,
    range_phrases,
    read,
    relative_phrases,
    time_phrases,
    vocabulary,
    weekday_date,
)

refs = st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2030, 12, 31))
clocks = st.tuples(st.integers(0, 23), st.sampled_from([0, 10, 15, 30, 45]))
hints = st.sampled_from([None, (17, 24), (6, 12), (8, 19), (11, 15), (12, 18)])
_AMPM_OR_24H = ("am", "pm", "AM", "PM", "a.m.", "p.m.", ":")


@settings(max_examples=300, deadline=None)
@given(ref=refs, ahead=st.integers(0, 40), formal=st.booleans())
def test_dates(ref, ahead, formal):
    d = ref.date() + timedelta(days=ahead)
    for phrase in date_phrases(d, ref, formal):
        assert read(phrase, ref).day() == d, phrase


@settings(max_examples=300, deadline=None)
@given(t=clocks, formal=st.booleans())
def test_times(t, formal):
    ref = datetime(2026, 3, 10, 9)
    for phrase in time_phrases(*t, formal):
        r = read(phrase, ref)
        assert t in r.times(), phrase  # "7 o'clock", "9ish": the value among the readings
        if any(mark in phrase for mark in _AMPM_OR_24H) or phrase in ("noon", "midday"):
            assert r.start_time() == t, phrase  # explicit forms: exactly
        # the forms without am/pm read exactly once the event's half of the day is known
        half = (12, 24) if t[0] >= 12 else (0, 12)
        assert read(phrase, ref, half).start_time() == t, phrase


@settings(max_examples=300, deadline=None)
@given(t=clocks, hint=hints, ref=refs)
def test_bare_hours_with_the_event_hours(t, hint, ref):
    for phrase in bare_time_phrases(*t, hint):
        for text in (phrase, f"tmrw {phrase}?"):
            assert read(text, ref, hint).start_time() == t, text


def test_bare_hours_by_hand():
    assert bare_time_phrases(20, 0, (17, 24)) == ["8", "8ish", "around 8", "about 8"]
    assert bare_time_phrases(20, 0) == []  # without the event hours a bare 8 reads 08:00
    assert bare_time_phrases(19, 30)[:2] == ["half 7", "7.30"]
    assert bare_time_phrases(0, 0) == []


@settings(max_examples=300, deadline=None)
@given(t=clocks, hint=hints, minutes=st.sampled_from([30, 60, 90, 120, 180, 240]))
def test_ranges_without_am_pm(t, hint, minutes):
    total = t[0] * 60 + t[1] + minutes
    if total >= 24 * 60:
        return
    end = (total // 60, total % 60)
    for phrase in bare_range_phrases(t, end, hint):
        r = read(phrase, datetime(2026, 3, 10, 9), hint)
        assert (r.start_time(), r.end_time()) == (t, end), phrase
    for phrase in end_phrases(t, end):
        text = f"{time_phrases(*t, False)[1]} {phrase}"
        r = read(text, datetime(2026, 3, 10, 9))
        assert (r.start_time(), r.end_time()) == (t, end), text
    for formal in (True, False):
        for phrase in range_phrases(t, end, formal):
            r = read(phrase, datetime(2026, 3, 10, 9))
            assert {t, end} <= r.times(), phrase


@settings(max_examples=300, deadline=None)
@given(ref=refs, ahead=st.integers(0, 13), part=st.sampled_from(sorted(vocabulary().parts_of_day)))
def test_parts_of_day(ref, ahead, part):
    d = ref.date() + timedelta(days=ahead)
    for phrase in part_of_day_phrases(d, part, ref):
        r = read(phrase, ref)
        assert r.clocks == (), phrase
        assert [(p.day, p.part) for p in r.parts] == [(d, part)], phrase


def test_parts_of_day_by_hand():
    tue = datetime(2026, 3, 10, 9)
    assert "tonight" in part_of_day_phrases(date(2026, 3, 10), "night", tue)
    assert "Saturday morning" in part_of_day_phrases(date(2026, 3, 14), "morning", tue)
    assert "next friday afternoon" in part_of_day_phrases(date(2026, 3, 20), "afternoon", tue)
    with pytest.raises(ValueError, match="unknown part"):
        part_of_day_phrases(date(2026, 3, 14), "brunchtime", tue)


@settings(max_examples=200, deadline=None)
@given(minutes=st.integers(1, 600))
def test_durations(minutes):
    for phrase in duration_phrases(minutes):
        r = read(phrase, datetime(2026, 3, 10, 9))
        assert [d.minutes for d in r.durations] == [minutes], phrase
        assert r.clocks == (), phrase


def test_durations_by_hand():
    assert duration_phrases(120) == ["for 2 hours", "for 2h", "for 2 hrs", "for two hours"]
    assert "for an hour and a half" in duration_phrases(90)


@settings(max_examples=200, deadline=None)
@given(anchor=st.sampled_from(["the gym", "my dentist", "work", "the match", "our run", "Tom's party", "class"]),
       relation=st.sampled_from(["after", "before"]), offset=st.sampled_from([0, 15, 30, 60, 90, 120]))
def test_relative_times(anchor, relation, offset):
    signed = offset if relation == "after" else -offset
    for phrase in relative_phrases(anchor, relation, signed):
        r = read(phrase, datetime(2026, 3, 10, 9))
        assert [(x.anchor, x.relation, x.offset_minutes) for x in r.relatives] == [(anchor, relation, signed)], phrase
        assert r.clocks == () and r.durations == (), phrase


def test_relative_phrases_refuse_what_does_not_read_back():
    with pytest.raises(ValueError, match="sign"):
        relative_phrases("the gym", "before", 30)
    with pytest.raises(ValueError, match="does not read back"):
        relative_phrases("dentist", "after")  # no determiner, not a bare anchor like "work"


@settings(max_examples=300, deadline=None)
@given(ref=refs, ahead=st.integers(0, 20), span=st.integers(1, 5))
def test_date_ranges(ref, ahead, span):
    first = ref.date() + timedelta(days=ahead)
    last = first + timedelta(days=span)
    for phrase in date_range_phrases(first, last, ref):
        r = read(phrase, ref)
        assert [(g.first, g.last) for g in r.ranges] == [(first, last)], phrase


def test_date_ranges_by_hand():
    tue = datetime(2026, 3, 10, 9)
    assert date_range_phrases(date(2026, 3, 13), date(2026, 3, 15), tue)[:2] == ["fri to sun", "fri-sun"]
    assert "this weekend" in date_range_phrases(date(2026, 3, 14), date(2026, 3, 15), tue)
    assert "the 12th-14th" in date_range_phrases(date(2026, 3, 12), date(2026, 3, 14), tue)


@settings(max_examples=200, deadline=None)
@given(meant=st.integers(1, 11), said=st.integers(1, 11), ref=refs)
def test_corrections_of_a_time(meant, said, ref):
    if meant == said:
        return
    hint = (13, 24)  # both read in the afternoon or evening
    for phrase in correction_phrases(str(meant), str(said)):
        r = read(phrase, ref, hint)
        assert r.start_time() == (meant + 12, 0), phrase
        assert r.retracted_times() == {(said + 12, 0)}, phrase
    for phrase in correction_phrases(str(meant), str(said), follow_up=True):
        r = read(phrase, ref, hint)
        assert r.start_time() == (meant + 12, 0) and r.clocks[0].corrects, phrase


@settings(max_examples=200, deadline=None)
@given(pair=st.lists(st.sampled_from(WEEKDAYS), min_size=2, max_size=2, unique=True), ref=refs)
def test_corrections_of_a_day(pair, ref):
    meant, said = pair
    for phrase in correction_phrases(meant, said):
        r = read(phrase, ref)
        assert r.day() == weekday_date(meant, ref), phrase
        assert r.retracted_dates() == {weekday_date(said, ref)}, phrase
