"""The candidate view of :func:`proevent.timeexpr.read` (the validator's): every reading a phrase may have.

Ported from the tests of the former ``proevent.timeexpr.context`` (bare hours, durations, shifts,
weekends, day ranges): same texts, same expectations, now through ``read``. ``Reading.times`` and
``Reading.dates`` with ``retracted=True`` include what a self-correction took back ("8 not 7"
still shows that 7 was said); the offsets are the nonzero ``RelativeTime.offset_minutes``
("straight after the gym" is the gym's end plus nothing: the caller's anchor).
"""

from __future__ import annotations

from datetime import date, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from proevent.timeexpr import read

WED = datetime(2026, 3, 11, 10)  # a Wednesday
HOUR_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def times(text: str, ref: datetime = WED) -> set[tuple[int, int]]:
    return read(text, ref).times(retracted=True)


def minutes(text: str) -> set[int]:
    return {d.minutes for d in read(text, WED).durations}


def offsets(text: str) -> set[int]:
    return {r.offset_minutes for r in read(text, WED).relatives if r.offset_minutes}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("fri 8?", {(8, 0), (20, 0)}),
        ("9 works", {(9, 0), (21, 0)}),
        ("7 or 8", {(7, 0), (19, 0), (8, 0), (20, 0)}),
        ("wait no, 8 not 7", {(7, 0), (19, 0), (8, 0), (20, 0)}),
        ("seven's good", {(7, 0), (19, 0)}),
        ("make it 9", {(9, 0), (21, 0)}),
        ("half seven", {(7, 30), (19, 30)}),
        ("8?", {(8, 0), (20, 0)}),
        ("9 👍", {(9, 0), (21, 0)}),
        ("time: 8", {(8, 0), (20, 0)}),
        ("mom says 11 at the lake house", {(11, 0), (23, 0)}),
        ("9-11 at the park", {(9, 0), (21, 0), (11, 0), (23, 0)}),
    ],
)
def test_bare_hours_read_from_context(text, expected):
    assert times(text) == expected
    assert all(c.bare for c in read(text, WED).clocks)


@pytest.mark.parametrize(
    "text",
    ["2 of us", "table for 4 people", "the 8th", "we have 3 kids", "3 days", "£8 each", "1.5 hours",
     "I have 2 tickets", "one more thing", "someone said", "5 stars", "room 210 on the 5th floor, 3 people"],
)
def test_numbers_that_are_not_bare_hours(text):
    assert read(text, WED).clocks == ()


@pytest.mark.parametrize(("text", "expected"), [("8pm", {(20, 0)}), ("7ish", {(7, 0), (19, 0)}),
                                                ("at 7", {(7, 0), (19, 0)})])
def test_an_explicit_phrase_is_one_mention(text, expected):
    """A number inside a phrase read as a clock time is not read a second time as a bare hour."""
    clocks = read(text, WED).clocks
    assert len(clocks) == 1 and set(clocks[0].times) == expected


@given(st.text(alphabet=st.characters(blacklist_categories=("Nd",)), max_size=60))
def test_no_digit_and_no_number_word_no_hour(text):
    if not any(w in text.lower() for w in HOUR_WORDS):
        assert not any(c.bare for c in read(text, WED).clocks)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("for two hours", 120), ("an hour and a half", 90), ("90 min", 90), ("2h30", 150),
        ("half an hour", 30), ("a couple of hours", 120), ("1.5 hours", 90), ("2 hrs 15 mins", 135),
        ("an extra hour on saturday", 60), ("for 3 days", 3 * 1440), ("all day", 1440),
    ],
)
def test_durations(text, expected):
    assert expected in minutes(text)


@given(st.integers(min_value=1, max_value=12), st.sampled_from(["hours", "hrs", "h"]))
def test_n_hours_is_60n_minutes(n, unit):
    assert minutes(f"for {n} {unit}") == {60 * n}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("an hour before the match", {-60}), ("30 min after", {30}), ("push it back an hour", {60}),
        ("bring it forward half an hour", {-30}), ("2 hours later", {120}), ("move it up by 15 mins", {-15}),
        ("straight after the gym", set()),  # a shift of 0 from the gym's end: the caller's anchor
    ],
)
def test_offsets(text, expected):
    assert offsets(text) == expected


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("this weekend", {date(2026, 3, 14), date(2026, 3, 15)}),
        ("next weekend", {date(2026, 3, 14), date(2026, 3, 15), date(2026, 3, 21), date(2026, 3, 22)}),
        ("in 3 days", {date(2026, 3, 14)}),
        ("fri-sun", {date(2026, 3, 13), date(2026, 3, 14), date(2026, 3, 15)}),
        ("14-16 march", {date(2026, 3, 14), date(2026, 3, 15), date(2026, 3, 16)}),
        ("the 14th to the 16th", {date(2026, 3, 14), date(2026, 3, 15), date(2026, 3, 16)}),
        ("sun 21st", {date(2026, 6, 21)}),  # March's and April's 21st are no Sunday; June's is
        ("7-9", set()),  # a time range, not days
    ],
)
def test_dates(text, days):
    assert read(text, WED).dates(retracted=True) == days


def test_next_weekend_reads_as_the_following_one():
    """Every candidate counts for the validator, but the reading meant is the following week's."""
    r = read("next weekend", WED)
    assert [(g.first, g.last) for g in r.ranges] == [(date(2026, 3, 21), date(2026, 3, 22))]


def test_weekend_said_on_a_sunday_is_that_day_or_the_next_one():
    sunday = datetime(2026, 3, 15, 9)
    assert read("this weekend", sunday).dates() == {date(2026, 3, 15), date(2026, 3, 21), date(2026, 3, 22)}


_CHAT_ALPHABET = st.sampled_from(
    list("0123456789 :.-,?!*@£/") + list("abcdefghijklmnopqrstuvwxyz")
    + ["\u017f", "\u212a", "\u0130", "\u0131", "é", "👍", "٣", "fri ", "sun ", "six ", "at ", "pm", "next ", "weekend",
       " not ", "wait no ", "for ", " hours", "tmrw", "the 14th", "-", " or ", "half "])


@given(st.lists(_CHAT_ALPHABET, max_size=30).map("".join))
def test_any_text_reads_without_an_error(text):
    """No message makes a reader fail: "ſun" (long s) or "tomorrow" with a Kelvin sign match
    case-insensitive patterns and are read as the words they look like."""
    from proevent.timeexpr import date_spans, find_dates, find_times, time_spans

    r = read(text, WED)
    assert all(0 <= m.start <= m.end <= len(text) for m in (*r.days, *r.clocks, *r.parts, *r.durations))
    date_spans(text, WED), time_spans(text), find_dates(text, WED), find_times(text)


def test_letters_that_fold_to_ascii_read_as_those_words():
    assert read("\u017fun at 7", WED).day() == date(2026, 3, 15)
    assert read("\u017fix hours", WED).durations[0].minutes == 360


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ah my shift got moved, 6 for 2.5h tue?", {(6, 0), (18, 0)}),  # a start with a duration
        ("got the time, 3 for 45 min", {(3, 0), (15, 0)}),
        ("any chance of 8 for 2.5h next thursday instead?", {(8, 0), (20, 0)}),
        ("5 at the tap fri, i booked a booth", {(5, 0), (17, 0)}),  # an hour opening a sentence, then a place
        ("always. 7 at goals", {(7, 0), (19, 0)}),
        ("hi, haircut with mira this week? after 5 ideally", {(5, 0), (17, 0)}),
        ("fri?? you have lou at 6 that day", {(6, 0), (18, 0)}),
        ("can we do tomorrow 7:30 instead of 7?", {(7, 30), (19, 30), (7, 0), (19, 0)}),
        ("sure, 2-3", {(2, 0), (14, 0), (3, 0), (15, 0)}),  # a range closing the message after a comma
        ("5 or like 4ish next wednesday?", {(5, 0), (17, 0), (4, 0), (16, 0)}),
        ("6 suit? 😍", {(6, 0), (18, 0)}),
        ("drinks 8 at the pub", {(8, 0), (20, 0)}),
    ],
)
def test_more_bare_hours(text, expected):
    assert times(text) == expected


@pytest.mark.parametrize(
    "text",
    ["can we make saturday's booking 2 people instead of 3?", "oakland airport, terminal 1!", "I have 2 at home",
     "we're 6 for dinner"],
)
def test_more_numbers_that_are_not_hours(text):
    assert times(text) == set()


def test_a_day_range_does_not_take_a_clock_time():
    """"the 22nd - 7:30 on sunday": a day, then a time, not the days from the 22nd to a 7th."""
    r = read("re saturday the 22nd - 7:30 on sunday the 23rd instead?", datetime(2026, 8, 14, 11))
    assert r.ranges == () and times(r.text, r.ref) == {(7, 30), (19, 30)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [("for 2 weeks", 2 * 7 * 1440), ("2 nights at the cabin", 2 * 1440), ("could we make it a full hour?", 60),
     ("two more hours", 120), ("in meetings all day", 1440)],
)
def test_more_durations(text, expected):
    assert minutes(text) == {expected}


@pytest.mark.parametrize("text", ["in a week", "a week ago", "one night only", "lasted a week"])
def test_weeks_and_nights_need_a_number_or_for(text):
    assert minutes(text) == set()


def test_all_weekend_is_this_weekend():
    assert read("im away all weekend", WED).dates() == {date(2026, 3, 14), date(2026, 3, 15)}


def test_a_day_in_a_range_keeps_its_own_reading():
    """"fri to sun" said on a Saturday: the Sunday after that Friday is meant, tomorrow is still a reading."""
    sat = datetime(2026, 3, 14, 11)
    r = read("fri to sun?", sat)
    sun = r.days[1]
    assert sun.best == date(2026, 3, 22) and sun.days == {date(2026, 3, 15), date(2026, 3, 22)}


def test_a_kiss_after_a_time_does_not_hide_it():
    from datetime import datetime

    from proevent.timeexpr import read

    at = datetime(2026, 10, 19, 16, 29)
    assert read("im busy until 12.45 x", at).times() == {(12, 45)}
    assert (19, 0) in read("see you at 7 x", at).times()
