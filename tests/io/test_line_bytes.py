"""A prediction line encoded from its fields by msgspec (``line_bytes``) has the bytes of the general
path (``dumps_line`` of its JSON dump): what runs wrote before and resume compares."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.io.jsonl import dumps_line
from proevent.io.run import line_bytes
from proevent.model import PredictionLine

_scalars = st.none() | st.booleans() | st.integers(min_value=-(2**80), max_value=2**80) | st.text() \
    | st.floats(allow_nan=True, allow_infinity=True)
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)


def _general(line: PredictionLine) -> bytes:
    return dumps_line(line.model_dump(mode="json")).encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(ops=st.lists(_json, max_size=4), error=st.none() | st.text(), raw=st.none() | st.text(),
       latency=st.none() | st.floats(min_value=0, allow_infinity=True), mode=st.sampled_from(["single", "multi"]),
       t=st.integers(1, 2**40), case_id=st.text())
def test_line_bytes_are_the_general_paths(ops, error, raw, latency, mode, t, case_id) -> None:
    line = PredictionLine(case_id=case_id, mode=mode, t=t, ops=ops, error=error, raw=raw, latency_s=latency)
    try:
        expected = _general(line)
    except UnicodeEncodeError:  # a lone surrogate: neither path writes it
        try:
            line_bytes(line)
        except UnicodeEncodeError:
            return
        raise AssertionError("line_bytes wrote a lone surrogate") from None
    assert line_bytes(line) == expected


def test_exponent_floats_tuples_and_extras_take_the_general_path() -> None:
    for value in (1e16, 5e-05, -1.5e-7, math.inf):
        line = PredictionLine(case_id="c", mode="single", t=1, ops=[{"v": value}], latency_s=value)
        assert line_bytes(line) == _general(line)
    line = PredictionLine(case_id="c", mode="multi", t=2, ops=[(1, 2)], skipped="no new messages")
    assert line_bytes(line) == _general(line) == (
        b'{"case_id":"c","mode":"multi","t":2,"repeat":0,"ops":[[1,2]],"error":null,"raw":null,"usage":null,'
        b'"latency_s":null,"skipped":"no new messages"}\n'
    )


def test_other_models_through_the_writer_take_the_general_path() -> None:
    """The writer also appends models that are not prediction lines (the annotation tool's gold
    lines, the human mode's drafts): they have no ``usage`` and are dumped as they are."""
    from pydantic import BaseModel

    class Draft(BaseModel):
        case_id: str
        t: int
        ops: list[dict]

    draft = Draft(case_id="c1", t=2, ops=[{"op": "delete", "id": "e3"}])
    assert line_bytes(draft) == b'{"case_id":"c1","t":2,"ops":[{"op":"delete","id":"e3"}]}\n'
