"""A clock time after "moved to" / "push it to" is the event's new start, not the end of a range."""

from datetime import datetime

import pytest

from proevent.timeexpr import read

REF = datetime(2026, 3, 9, 9, 0)


@pytest.mark.parametrize("text, hour", [("the lecture is moved to 3pm", 15), ("standup moves to 10am", 10),
                                        ("can we push it to 4pm?", 16), ("rescheduled to 11am", 11),
                                        ("they asked to move tomorrow's call to 4pm", 16)])
def test_a_time_after_a_move_verb_and_to_starts_the_event(text, hour):
    clocks = [c for c in read(text, REF).clocks if not c.retracted]
    assert [(c.best, c.role) for c in clocks] == [((hour, 0), "start")]


def test_a_range_keeps_its_end():
    clocks = read("2pm to 3pm", REF).clocks
    assert [(c.best, c.role) for c in clocks] == [((14, 0), "start"), ((15, 0), "end")]
    clocks = read("the talk is from 2pm to 4pm", REF).clocks
    assert [c.role for c in clocks] == ["start", "end"]
