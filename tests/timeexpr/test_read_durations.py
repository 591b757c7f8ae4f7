"""Durations in minutes, and times relative to another event."""

from __future__ import annotations

from datetime import datetime

import pytest

from proevent.timeexpr import read

REF = datetime(2026, 3, 10, 9, 0)


@pytest.mark.parametrize(
    ("text", "minutes", "approximate"),
    [
        ("for two hours", 120, False),
        ("for 90 min", 90, False),
        ("an hour and a half", 90, False),
        ("half an hour", 30, False),
        ("for an hour", 60, False),
        ("1h30", 90, False),
        ("for 2.5 hours", 150, False),
        ("2 and a half hours", 150, False),
        ("for 45 mins?", 45, False),
        ("a quarter of an hour", 15, False),
        ("a couple of hours", 120, True),
        ("for an hour or so", 60, True),
        ("about 2 hours", 120, True),
        ("for 2 hrs", 120, False),
        ("for 3 days", 3 * 24 * 60, False),
    ],
)
def test_durations(text, minutes, approximate):
    r = read(text, REF)
    assert [(d.minutes, d.approximate) for d in r.durations] == [(minutes, approximate)]
    assert r.clocks == ()


@pytest.mark.parametrize(
    "text", ["running 10 min late", "I am here", "5 min away", "I'm in", "£10m", "one day we should go", "in 3 days"])
def test_not_durations(text):
    assert read(text, REF).durations == ()


@pytest.mark.parametrize(
    ("text", "anchor", "relation", "offset"),
    [
        ("straight after the gym", "the gym", "after", 0),
        ("an hour before the match", "the match", "before", -60),
        ("after my dentist", "my dentist", "after", 0),
        ("right after work?", "work", "after", 0),
        ("30 mins after the game", "the game", "after", 30),
        ("half an hour before our run", "our run", "before", -30),
        ("after Tom's party on sat", "Tom's party", "after", 0),
        ("straight after that", "that", "after", 0),
        ("in 20 min", "now", "after", 20),
    ],
)
def test_relative_times(text, anchor, relation, offset):
    r = read(text, REF)
    assert [(x.anchor, x.relation, x.offset_minutes) for x in r.relatives] == [(anchor, relation, offset)]
    assert r.durations == () and r.clocks == ()


@pytest.mark.parametrize("text", ["after 7", "before friday", "the day after tomorrow", "after tmrw", "before noon"])
def test_not_relative_to_an_event(text):
    assert read(text, REF).relatives == ()


@pytest.mark.parametrize(
    ("text", "offset"),
    [
        ("push it back an hour", 60),
        ("can we move it back 30 min?", 30),
        ("bring it forward 30 min", -30),
        ("2 hours later?", 120),
        ("30 min earlier works", -30),
        ("an hour before", -60),
    ],
)
def test_shifts_of_the_event_under_discussion(text, offset):
    r = read(text, REF)
    assert [(x.anchor, x.offset_minutes) for x in r.relatives] == [("it", offset)]
    assert r.durations == () and r.clocks == ()
