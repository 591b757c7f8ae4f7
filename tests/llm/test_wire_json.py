"""The client's fast JSON paths give what the standard ones give: a reply decoded by msgspec equals
``json.loads`` of its text (or both refuse it), and a request body encoded by msgspec holds the
values pydantic-core's encoder wrote."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import PydanticSerializationError, to_json

from proevent.llm.client import _encode_payload, decode_reply
from proevent.llm.text import clean_strings

texts = st.text(st.characters(codec=None, exclude_categories=()), max_size=12) | st.sampled_from(
    ["\ud800", "a\udfffb", "\U0001f600", "é", "\x00", "\x7f", "<think>x</think>", '"', "\\"])
leaves = (st.none() | st.booleans() | st.integers(-(2**70), 2**70) | texts
          | st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e16, 1e-7, -0.0, 1e308]))
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
                      max_leaves=20)


def _same(a: Any, b: Any) -> bool:
    """Equal, NaN equal to NaN and -0.0 told from 0.0 (``==`` says neither)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


def _standard(raw: bytes) -> tuple[str, Any]:
    try:
        return "ok", json.loads(raw.decode("utf-8", "replace"))
    except ValueError:
        return "error", None


def _fast(raw: bytes) -> tuple[str, Any]:
    try:
        return "ok", decode_reply(raw)
    except ValueError:
        return "error", None


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    value = draw(values)
    text = json.dumps(value, ensure_ascii=draw(st.booleans()), separators=draw(st.sampled_from([None, (",", ":")])))
    raw = text.encode("utf-8", "surrogatepass")  # a lone surrogate unescaped: invalid UTF-8
    if draw(st.booleans()):  # damaged: a byte changed, cut, or something appended
        i = draw(st.integers(0, len(raw)))
        raw = raw[:i] + draw(st.binary(max_size=3)) + raw[i + draw(st.integers(0, 2)):]
    return raw


@settings(max_examples=600, deadline=None)
@given(raw=bodies())
def test_decode_reply_equals_json_loads_of_the_text(raw: bytes) -> None:
    standard, fast = _standard(raw), _fast(raw)
    assert standard[0] == fast[0] and _same(standard[1], fast[1])


def test_decode_reply_reads_a_bytearray_and_what_msgspec_refuses() -> None:
    assert decode_reply(bytearray(b'{"a": [1, 2.5]}')) == {"a": [1, 2.5]}
    assert math.isnan(decode_reply(b'{"a": NaN}')["a"]) and decode_reply(b"1e400") == math.inf
    assert decode_reply(b'"\\ud800"') == "\ud800" and decode_reply(b'"\xff"') == "\ufffd"


def _old_payload(body: dict[str, Any]) -> bytes:
    try:
        return to_json(body)
    except PydanticSerializationError:
        return to_json(clean_strings(body))


@settings(max_examples=300, deadline=None)
@given(messages=st.lists(st.fixed_dictionaries({"role": st.sampled_from(["system", "user"]), "content": texts}),
                         max_size=3),
       extra=st.dictionaries(st.sampled_from(["temperature", "seed", "top_p", "stop", "x"]), values, max_size=3))
def test_payload_holds_the_values_pydantic_core_wrote(messages: list[dict[str, Any]], extra: dict[str, Any]) -> None:
    body = {"model": "m", "messages": messages, **extra}
    new, old = _encode_payload(body), _old_payload(body)
    assert _same(json.loads(new), json.loads(old))
    new.decode("utf-8")  # well-formed: a lone surrogate went as U+FFFD


def test_payload_of_a_value_msgspec_cannot_encode_goes_through_pydantic_core() -> None:
    import datetime

    body = {"model": "m", "messages": [], "when": datetime.date(2026, 1, 2), "n": {1, 2}}
    assert json.loads(_encode_payload(body)) == json.loads(to_json(body))


def test_a_body_msgspec_would_write_otherwise_goes_through_pydantic_core() -> None:
    for odd in (math.inf, math.nan, b"bytes", (1, 2)):
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "x": odd}
        assert _encode_payload(body) == to_json(body)
