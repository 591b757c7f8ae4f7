from __future__ import annotations

from datetime import date, datetime, timedelta

import dateparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.timeexpr import (
    date_phrases,
    extract_dates,
    extract_times,
    ordinal,
    range_phrases,
    time_phrases,
)


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "31st"]


@pytest.mark.parametrize(
    ("text", "ref", "expected"),
    [
        # Tuesday 2026-12-29: Friday is New Year's Day 2027 and crosses a year end
        ("see you Friday", datetime(2026, 12, 29, 10), date(2027, 1, 1)),
        ("tmrw works", datetime(2026, 12, 31, 22), date(2027, 1, 1)),
        ("next Monday?", datetime(2026, 12, 29, 10), date(2027, 1, 4)),
        ("Monday next week", datetime(2026, 12, 29, 10), date(2027, 1, 4)),
        ("on the 2nd", datetime(2026, 12, 29, 10), date(2027, 1, 2)),
        ("Jan 5", datetime(2026, 12, 29, 10), date(2027, 1, 5)),
        # Saturday 2026-01-31 -> Tuesday is February 3rd (month end)
        ("Tues", datetime(2026, 1, 31, 9), date(2026, 2, 3)),
        ("the day after tomorrow", datetime(2026, 1, 31, 9), date(2026, 2, 2)),
        ("Thursday the 5th", datetime(2026, 1, 31, 9), date(2026, 2, 5)),
        # leap year: 2028-02-28 (Monday) + 1 = Feb 29
        ("tomorrow", datetime(2028, 2, 28, 9), date(2028, 2, 29)),
        ("on 2026-03-14", datetime(2026, 3, 1, 9), date(2026, 3, 14)),
        ("14 March", datetime(2026, 3, 1, 9), date(2026, 3, 14)),
    ],
)
def test_extract_dates_across_month_and_year_ends(text, ref, expected):
    assert expected in extract_dates(text, ref)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7-9pm", {(19, 0), (21, 0)}),
        ("at 17:00", {(17, 0)}),
        ("5:30pm", {(17, 30)}),
        ("5.30pm", {(17, 30)}),
        ("tmrw 7ish", {(7, 0), (19, 0)}),
        ("noon", {(12, 0)}),
        ("half past 6", {(6, 30), (18, 30)}),
        ("10 a.m.", {(10, 0)}),
        ("quarter to 8", {(7, 45), (19, 45)}),
    ],
)
def test_extract_times(text, expected):
    assert expected <= extract_times(text)


def test_no_false_times_in_plain_text():
    assert extract_times("room 210 on the 5th floor, 3 people") == set()


def test_date_phrases_refuse_the_past():
    with pytest.raises(ValueError):
        date_phrases(date(2026, 1, 1), datetime(2026, 1, 2, 9), formal=False)


def test_forms_are_offered_only_where_exact():
    ref = datetime(2026, 3, 2, 9)  # a Monday
    assert "tomorrow" in date_phrases(date(2026, 3, 3), ref, formal=True)
    assert not any(p.startswith("next") for p in date_phrases(date(2026, 3, 6), ref, formal=False))
    assert "next Fri" in date_phrases(date(2026, 3, 13), ref, formal=False)
    assert "12ish" not in time_phrases(12, 0, formal=False)
    assert not any("ish" in p for p in time_phrases(19, 30, formal=False))


@settings(max_examples=300, deadline=None)
@given(
    ref=st.datetimes(min_value=datetime(2025, 1, 1), max_value=datetime(2030, 12, 31)),
    ahead=st.integers(min_value=0, max_value=40),
    formal=st.booleans(),
)
def test_every_rendered_date_resolves_to_the_gold_day(ref, ahead, formal):
    d = ref.date() + timedelta(days=ahead)
    for phrase in date_phrases(d, ref, formal):
        assert d in extract_dates(phrase, ref), phrase


@settings(max_examples=200, deadline=None)
@given(h=st.integers(0, 23), m=st.sampled_from([0, 15, 30, 45]), dur=st.sampled_from([30, 60, 90, 150]),
       formal=st.booleans())
def test_every_rendered_time_resolves(h, m, dur, formal):
    for phrase in time_phrases(h, m, formal):
        assert (h, m) in extract_times(phrase), phrase
    end = datetime(2026, 1, 1, h, m) + timedelta(minutes=dur)
    if end.day == 1:
        for phrase in range_phrases((h, m), (end.hour, end.minute), formal):
            got = extract_times(phrase)
            assert (h, m) in got and (end.hour, end.minute) in got, phrase


@pytest.mark.parametrize("ahead", range(2, 7))
def test_weekday_names_agree_with_dateparser(ahead):
    ref = datetime(2026, 12, 29, 10)
    d = ref.date() + timedelta(days=ahead)
    name = d.strftime("%A")
    parsed = dateparser.parse(name, settings={"RELATIVE_BASE": ref, "PREFER_DATES_FROM": "future"})
    assert parsed is not None and parsed.date() == d
    assert d in extract_dates(name, ref)
