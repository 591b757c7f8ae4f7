"""parse_op's shortcut for plain operations gives what the validating adapter gives, or steps aside."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from proevent.model import InvalidOp, parse_op
from proevent.model.events import OPERATION_ADAPTER, _plain_op

TIMES = st.sampled_from([None, "2026-03-14T17:00", "2026-03-14", "2026-03-14T17:00:30", "2026-02-30", "2024-02-29",
                         "2026-03-14T25:00", "", 5, "2026-03-14T17:00\n"])
TEXT = st.one_of(st.none(), st.text(max_size=5), st.integers(0, 3))
NAMES = st.one_of(st.lists(st.text(max_size=4), max_size=3), st.lists(st.integers(), max_size=2), st.none())
EVENT = st.fixed_dictionaries({}, optional={"start": TIMES, "end": TIMES, "location": TEXT, "participants": NAMES,
                                            "description": TEXT, "id": TEXT})
OPS = st.one_of(
    st.fixed_dictionaries({"op": st.just("insert")}, optional={"event": st.one_of(EVENT, TEXT)}),
    st.fixed_dictionaries({"op": st.just("delete")}, optional={"id": TEXT}),
    st.fixed_dictionaries({"op": st.just("update")}, optional={
        "id": TEXT, "value": st.one_of(TIMES, TEXT, NAMES),
        "attribute": st.sampled_from(["start", "end", "location", "participants", "description", "colour", 3])}),
    st.fixed_dictionaries({"op": st.sampled_from(["move", None, 1])}), TEXT,
)


def _adapter(raw: Any) -> Any:
    try:
        return OPERATION_ADAPTER.validate_python(raw)
    except ValidationError:
        return None


@given(OPS)
def test_the_shortcut_agrees_with_the_adapter(raw: Any) -> None:
    plain, slow = _plain_op(raw), _adapter(raw)
    if plain is not None:
        assert slow is not None
        assert type(plain) is type(slow) and plain == slow
        assert plain.model_dump() == slow.model_dump() and plain.model_fields_set == slow.model_fields_set
    parsed = parse_op(raw)
    assert (parsed == slow) if slow is not None else isinstance(parsed, InvalidOp)


@pytest.mark.parametrize("raw", [
    {"op": "delete", "id": "e1"},
    {"op": "update", "id": "e1", "attribute": "participants", "value": ["Ann"]},
    {"op": "insert", "event": {"start": "2026-03-14T17:00", "end": None, "location": "Cafe", "participants": ["Ann"],
                               "description": "x", "id": "e7"}, "extra": 1},
])
def test_plain_operations_take_the_shortcut(raw: Any) -> None:
    op = _plain_op(raw)
    assert op is not None and op == _adapter(raw)
    if "value" in raw:
        assert op.value is not raw["value"]  # a copy, as the adapter makes
