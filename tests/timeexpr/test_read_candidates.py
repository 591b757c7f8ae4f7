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
