"""The vocabulary file: loads, is consistent, and is what the readers use."""

from __future__ import annotations

from proevent.timeexpr import MONTHS, WEEKDAYS, vocabulary


def test_the_file_loads_and_names_the_calendar():
    v = vocabulary()
    assert WEEKDAYS == ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
    assert len(MONTHS) == 12 and MONTHS[8] == "september"
    assert v.weekday_number("thurs") == 3 and v.weekday_number("Sun.") == 6
    assert v.month_number("sept") == 9 and v.month_number("May") == 5
    assert v.weekend == (5, 6)


def test_parts_and_activities_have_hours_inside_the_day():
    v = vocabulary()
    for hours in [*v.parts_of_day.values(), *v.activity_hours.values()]:
        assert 0 <= hours[0] < hours[1] <= 24
    assert set(v.part_words.values()) == set(v.parts_of_day)
    assert set(v.day_part_words.values()) <= set(v.parts_of_day)
    assert v.parts_after_day_only <= set(v.part_words)


def test_relative_days_and_units():
    v = vocabulary()
    assert v.day_offset("tmrw") == 1 and v.day_offset("tonite") == 0
    assert not set(v.relative_days) & set(v.more_relative_days)
    assert v.duration_units["hrs"] == 60 and v.duration_units["mins"] == 1
    assert all(1 <= n for n in v.number_words.values())
