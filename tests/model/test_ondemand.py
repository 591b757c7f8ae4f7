"""A step whose messages are built on the first read behaves as the step pydantic builds, on every path."""

from __future__ import annotations

import copy
import json
import pickle

from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.io.fastcase import _Message
from proevent.model import Case, Message, Step
from proevent.model.case import step_with_message_records

EVENT = {"start": "2026-03-13T19:30", "end": None, "location": "Luca", "participants": ["Ann"],
         "description": None, "id": "e1"}


def _data(messages: list[dict]) -> dict:
    return {"t": 1, "start": "2026-03-09T08:00", "end": "2026-03-09T20:00", "messages": messages,
            "gold_ops": [{"op": "delete", "id": "e1"}], "gold_timetable": [EVENT]}


MESSAGES = [{"chat_id": "c1", "time": "2026-03-09T09:00", "sender": "Ann", "text": "dinner at Luca?"},
            {"chat_id": "c2", "time": "2026-03-09T09:05", "sender": "Bob", "text": "ok \u00e9\u00e8 \"quoted\""}]


def pair(messages: list[dict] = MESSAGES) -> tuple[Step, Step]:
    """(the step pydantic builds, the same step with its messages pending)."""
    careful = Step.model_validate(_data(messages))
    fields = {k: v for k, v in careful.__dict__.items() if k != "messages"}
    lazy = step_with_message_records(fields, [_Message(**m) for m in messages])
    assert "messages" not in lazy.__dict__
    return careful, lazy


def pending(step: Step) -> bool:
    return "messages" not in step.__dict__


def test_reading_messages_builds_them_once_in_the_declared_place() -> None:
    careful, lazy = pair()
    assert [(r.chat_id, r.sender) for r in lazy.message_records()] == [("c1", "Ann"), ("c2", "Bob")]
    assert pending(lazy)  # reading the records builds nothing
    first = lazy.messages
    assert not pending(lazy) and lazy.messages is first and lazy.message_records() is first
    assert all(type(m) is Message for m in first)
    assert list(lazy.__dict__) == list(careful.__dict__)
    assert lazy.__pydantic_private__ is None and lazy.model_fields_set == careful.model_fields_set


def test_every_pydantic_path_sees_the_messages() -> None:
    careful, _ = pair()
    checks = {
        "eq": lambda s: s == careful and careful == s,
        "dump": lambda s: s.model_dump() == careful.model_dump()
        and list(s.model_dump()) == list(careful.model_dump()),
        "json": lambda s: s.model_dump_json() == careful.model_dump_json(),
        "case json": lambda s: Case(case_id="x", user="Ann", start="2026-03-09T08:00", initial_timetable=[EVENT],
                                    chats=[], steps=[s]).model_dump_json()
        == Case(case_id="x", user="Ann", start="2026-03-09T08:00", initial_timetable=[EVENT], chats=[],
                steps=[careful]).model_dump_json(),
        "repr": lambda s: repr(s) == repr(careful),
        "dict": lambda s: dict(s) == dict(careful),
        "copy": lambda s: copy.copy(s) == careful and copy.copy(s).messages == careful.messages,
        "deepcopy": lambda s: copy.deepcopy(s).model_dump() == careful.model_dump(),
        "pickle": lambda s: pickle.loads(pickle.dumps(s)) == careful,
        "model_copy": lambda s: s.model_copy(update={"t": 2}).model_dump() == {**careful.model_dump(), "t": 2},
        "json.dumps": lambda s: json.dumps(s.model_dump(mode="json")) == json.dumps(careful.model_dump(mode="json")),
    }
    for name, check in checks.items():
        _, lazy = pair()
        assert check(lazy), name


def test_assignment_wins_over_the_pending_messages() -> None:
    careful, lazy = pair()
    lazy.messages = []
    assert lazy.messages == [] and list(lazy.__dict__) == list(careful.__dict__)
    assert lazy.model_dump()["messages"] == [] and lazy.model_fields_set == careful.model_fields_set
    _, lazy = pair()
    lazy.t = 3
    assert lazy.messages == careful.messages and lazy.t == 3
    _, lazy = pair()
    other = lazy.model_copy(update={"messages": []})
    assert other.messages == [] and lazy.messages == careful.messages


def test_a_plain_step_has_no_pending_messages() -> None:
    careful, _ = pair()
    assert careful.message_records() is careful.messages
    assert careful.__pydantic_private__ is None


names = st.text(max_size=12)
times = st.builds(lambda d, h, m: f"2026-03-{d:02d}T{h:02d}:{m:02d}", st.integers(1, 31), st.integers(0, 23),
                  st.integers(0, 59))
message = st.fixed_dictionaries({"chat_id": names, "time": times, "sender": names, "text": st.text(max_size=40)})


@settings(max_examples=200)
@given(st.lists(message, max_size=6))
def test_any_messages_are_built_as_pydantic_builds_them(messages: list[dict]) -> None:
    careful, lazy = pair(messages)
    assert [tuple(r.__struct_fields__) for r in lazy.message_records()] == [
        ("chat_id", "time", "sender", "text")] * len(messages)
    assert lazy == careful
    assert lazy.model_dump_json() == careful.model_dump_json()
    for built, expected in zip(lazy.messages, careful.messages, strict=True):
        assert list(built.__dict__.items()) == list(expected.__dict__.items())
        assert built.model_fields_set == expected.model_fields_set


def test_the_json_schemas_stay_the_models_own() -> None:
    """The dump hook changes no schema: a step's serialized form is described field by field."""
    for mode in ("validation", "serialization"):
        schema = Step.model_json_schema(mode=mode)
        assert list(schema["properties"]) == list(Step.model_fields), mode
        assert "description" not in schema


def test_a_subclass_of_step_still_requires_its_messages():
    import pydantic
    import pytest

    from proevent.model import Step

    class MyStep(Step):
        pass

    assert MyStep.model_fields["messages"].is_required()
    with pytest.raises(pydantic.ValidationError):
        MyStep(t=1, start="2026-03-09T08:00", end="2026-03-09T12:00", gold_ops=[], gold_timetable=[])
