"""Days, parts of the day and date ranges; relative days from the send time.

Reference: Tuesday 2026-03-10 09:00. March 2026: Mon 9 .. Sun 15, Mon 16 .. Sun 22.
"""

from __future__ import annotations

from datetime import date, datetime

import pytest

from proevent.timeexpr import read

REF = datetime(2026, 3, 10, 9, 0)
SAT = datetime(2026, 3, 14, 11, 0)


@pytest.mark.parametrize(
    ("text", "day", "part", "hours"),
    [
        ("sat morning", date(2026, 3, 14), "morning", (6, 12)),
        ("friday afternoon?", date(2026, 3, 13), "afternoon", (12, 18)),
        ("tonight", date(2026, 3, 10), "night", (18, 24)),
        ("this evening", date(2026, 3, 10), "evening", (17, 23)),
        ("tmrw night", date(2026, 3, 11), "night", (18, 24)),
        ("fri eve", date(2026, 3, 13), "evening", (17, 23)),
        ("sun am", date(2026, 3, 15), "morning", (6, 12)),
        ("this arvo", date(2026, 3, 10), "afternoon", (12, 18)),
        ("thursday in the evening", date(2026, 3, 12), "evening", (17, 23)),
    ],
)
def test_part_of_day_only(text, day, part, hours):
    r = read(text, REF)
    assert r.clocks == ()
    assert [(p.day, p.part, p.hours) for p in r.parts] == [(day, part, hours)]
    assert r.day() == day


def test_a_part_of_day_without_a_day_takes_the_message_day():
    r = read("in the morning on thursday", REF)
    assert [(p.day, p.part) for p in r.parts] == [(date(2026, 3, 12), "morning")]
    assert [(p.day, p.part) for p in read("in the morning", REF).parts] == [(None, "morning")]


def test_tmrw_counts_from_the_send_time():
    assert read("tmrw?", datetime(2026, 3, 10, 23, 50)).day() == date(2026, 3, 11)
    assert read("tmrw?", datetime(2026, 3, 11, 0, 10)).day() == date(2026, 3, 12)
    assert read("tonight", datetime(2026, 3, 10, 23, 50)).day() == date(2026, 3, 10)


@pytest.mark.parametrize(
    ("text", "ref", "day"),
    [
        ("friday", REF, date(2026, 3, 13)),
        ("this friday", REF, date(2026, 3, 13)),
        ("next friday", REF, date(2026, 3, 20)),  # the following week's: ten days from a Tuesday
        ("tuesday", REF, date(2026, 3, 17)),  # said on a Tuesday: a week away
        ("next monday", datetime(2026, 3, 15, 10), date(2026, 3, 16)),  # said on a Sunday: tomorrow
        ("next thu, the 19th", REF, date(2026, 3, 19)),
        ("sun 21st?", REF, date(2026, 6, 21)),  # March's and April's 21st are no Sundays
        ("Tuesday the 22nd", REF, date(2026, 9, 22)),
        ("sat 14th", REF, date(2026, 3, 14)),
        ("in 3 days", REF, date(2026, 3, 13)),
        ("in a week", REF, date(2026, 3, 17)),
        ("in two weeks", REF, date(2026, 3, 24)),
    ],
)
def test_weekday_rules(text, ref, day):
    assert read(text, ref).day() == day


@pytest.mark.parametrize("text", ["10 in the morning after a monday? 😂", "every tuesday at 7", "any friday works",
                                  "each sunday"])
def test_a_kind_of_day_is_no_date(text):
    assert read(text, REF).days == ()


def test_a_weekday_after_on_a_still_names_the_day():
    assert read("8 on a sunday 😭", REF).day() == date(2026, 3, 15)


@pytest.mark.parametrize(
    ("text", "ref", "first", "last"),
    [
        ("fri to sun", REF, date(2026, 3, 13), date(2026, 3, 15)),
        ("mon-wed", REF, date(2026, 3, 16), date(2026, 3, 18)),
        ("from Friday till Sunday", REF, date(2026, 3, 13), date(2026, 3, 15)),
        ("between fri and sun", REF, date(2026, 3, 13), date(2026, 3, 15)),
        ("next fri to sun", REF, date(2026, 3, 20), date(2026, 3, 22)),
        ("the 12th-14th", REF, date(2026, 3, 12), date(2026, 3, 14)),
        ("the 12th to the 14th", REF, date(2026, 3, 12), date(2026, 3, 14)),
        ("12-14 March", REF, date(2026, 3, 12), date(2026, 3, 14)),
        ("March 12-14", REF, date(2026, 3, 12), date(2026, 3, 14)),
        ("9-11 june in göteborg", REF, date(2026, 6, 9), date(2026, 6, 11)),
        ("this weekend", REF, date(2026, 3, 14), date(2026, 3, 15)),
        ("next weekend", REF, date(2026, 3, 21), date(2026, 3, 22)),
        ("this weekend", SAT, date(2026, 3, 14), date(2026, 3, 15)),
        # said on a Saturday: the coming Friday, and the Sunday after it (not tomorrow)
        ("fri to sun", SAT, date(2026, 3, 20), date(2026, 3, 22)),
        # two dates joined by "to", or a check-in's and a check-out's: one stay
        ("from Friday 13 March to Monday 16 March", REF, date(2026, 3, 13), date(2026, 3, 16)),
        ("check-in Friday 13 March, check-out Sunday 15 March", REF, date(2026, 3, 13), date(2026, 3, 15)),
        ("arriving 13 March, departing 15 March", REF, date(2026, 3, 13), date(2026, 3, 15)),
        ("Check-in is on March 14th and check-out on March 16th.", REF, date(2026, 3, 14), date(2026, 3, 16)),
        ("a room from Saturday, 14 March for 2 nights, checking out on Monday, 16 March", REF, date(2026, 3, 14),
         date(2026, 3, 16)),
    ],
)
def test_date_ranges(text, ref, first, last):
    r = read(text, ref)
    assert [(g.first, g.last) for g in r.ranges] == [(first, last)]
    assert r.clocks == ()


@pytest.mark.parametrize("text", ["sat 14 March or sun 15 March?", "14 March, 15 March and 16 March",
                                  "check out 15 March", "13 March to 20 April"])
def test_two_dates_not_said_as_one_stay_are_no_range(text):
    assert read(text, REF).ranges == ()


def test_days_inside_a_range_take_the_range_reading():
    r = read("fri to sun", SAT)
    assert [d.best for d in r.days] == [date(2026, 3, 20), date(2026, 3, 22)]
    assert {date(2026, 3, 20), date(2026, 3, 21), date(2026, 3, 22)} <= r.dates()


def test_a_street_ordinal_is_not_a_day():
    assert read("Blue Bottle on 5th", REF).days == ()
