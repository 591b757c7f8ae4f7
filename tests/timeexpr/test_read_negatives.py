"""Numbers that are not clock times: prices, counts, addresses, ordinals, durations, scores."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from proevent.timeexpr import read

REF = datetime(2026, 3, 10, 9, 0)  # a Tuesday


@pytest.mark.parametrize(
    "text",
    [
        "£8",
        "it's £7.30 each",
        "$12 per ticket",
        "8 of us",
        "we're 4 of us then",
        "8 people",
        "table for 8",
        "3 people on the 5th floor",
        "12 Mill Road",
        "meet at 12 Mill Road",
        "at 8 Mill Lane",
        "10 Downing Street",
        "flat 3, 12 mill rd",
        "room 210",
        "bus 8",
        "for 2 hours",
        "running 10 min late",
        "2-3 hours",
        "we lost 3-5",
        "it's 2.50 a pint",
        "8 quid each",
        "60 miles, 15k",
        "80%",
        "a long one sunday morning",
        "we're still 5 with liam",
        "the one works",
        "at one point",
        "Sunday 15 March, 1 double room for 2 guests",  # a count noun in the singular, a room's kind
        "2 adults, 1 child",
        "1 twin room, 1 night",
    ],
)
def test_no_clock_time(text):
    assert read(text, REF).clocks == ()


def test_an_ordinal_is_a_date_not_a_time():
    r = read("the 8th", REF)
    assert r.clocks == ()
    assert r.day() == date(2026, 4, 8)  # March 8th is past: the coming 8th


def test_a_date_with_a_month_is_not_a_time():
    r = read("8 April works", REF)
    assert r.clocks == () and r.day() == date(2026, 4, 8)


def test_a_duration_is_minutes_not_a_clock_time():
    r = read("for 90 min", REF)
    assert r.clocks == () and [d.minutes for d in r.durations] == [90]


def test_the_clock_time_next_to_a_count_is_still_read():
    r = read("table for 8 at 7:30pm", REF)
    assert [c.best for c in r.clocks] == [(19, 30)]
