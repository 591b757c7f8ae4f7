from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from proevent.model import InsertOp, UpdateOp, parse_op
from proevent.web.opform import compose_time, op_from_form, people_from

PEOPLE = ["Jerry Chen", "Tom Baker", "Ana Ruiz"]


def test_insert_from_form() -> None:
    raw = op_from_form({"kind": "insert", "description": " Hike ", "start_date": "2026-03-14",
                        "start_time": "09:00", "end_date": "2026-03-14", "end_time": "",
                        "location": "", "participants": ["Jerry Chen", "Tom Baker"],
                        "others": "Zoe Park, Tom Baker"}, PEOPLE)
    assert raw == {"op": "insert", "event": {
        "start": "2026-03-14T09:00", "end": "2026-03-14", "location": None,
        "participants": ["Jerry Chen", "Tom Baker", "Zoe Park"], "description": "Hike"}}
    assert isinstance(parse_op(raw), InsertOp)


def test_update_values_by_attribute() -> None:
    base = {"kind": "update", "id": "e3"}
    assert op_from_form({**base, "attribute": "location", "value_text": "North Gate"}, PEOPLE)["value"] == "North Gate"
    assert op_from_form({**base, "attribute": "location", "value_text": "  "}, PEOPLE)["value"] is None
    assert op_from_form({**base, "attribute": "start", "value_date": "2026-03-15", "value_time": "10:30"},
                        PEOPLE)["value"] == "2026-03-15T10:30"
    assert op_from_form({**base, "attribute": "end", "value_date": ""}, PEOPLE)["value"] is None
    op = op_from_form({**base, "attribute": "participants", "participants": "Jerry Chen"}, PEOPLE)
    assert isinstance(parse_op(op), UpdateOp) and op["value"] == ["Jerry Chen"]
    assert op_from_form({"kind": "delete", "id": "e1"}, PEOPLE) == {"op": "delete", "id": "e1"}


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"kind": "rename"}, "unknown operation"),
        ({"kind": "delete", "id": ""}, "id: choose an event"),
        ({"kind": "update", "id": "e1", "attribute": "colour"}, "attribute: unknown attribute"),
        ({"kind": "update", "id": "e1", "attribute": "start", "value_time": "10:00"},
         "start: a time of day needs a date"),
        ({"kind": "update", "id": "e1", "attribute": "start", "value_date": "2026-02-30"}, "start: invalid date"),
        ({"kind": "insert", "participants": []}, "participants: tick at least one"),
        ({"kind": "update", "id": "e1", "attribute": "participants"}, "participants: tick at least one"),
        ({"kind": "insert", "participants": ["Tom Baker"], "description": "x" * 3000}, "description: too long"),
    ],
)
def test_form_errors_name_the_field(form: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        op_from_form(form, PEOPLE)


@given(st.dates(), st.times())
def test_compose_time_round_trip(day, clock) -> None:
    value = compose_time(day.isoformat(), clock.strftime("%H:%M"), "start")
    assert value == f"{day.isoformat()}T{clock.strftime('%H:%M')}"
    assert compose_time(day.isoformat(), "", "start") == day.isoformat()


@given(st.lists(st.sampled_from(PEOPLE + ["Zoe", " Zoe "])), st.lists(st.sampled_from(PEOPLE + ["Zoe", ""])))
def test_people_unique_and_ordered(checked, others) -> None:
    out = people_from(checked, ",".join(others))
    assert len(out) == len(set(out)) and all(n == n.strip() and n for n in out)
    expected = list(dict.fromkeys(n.strip() for n in [*checked, *others] if n.strip()))
    assert out == expected
