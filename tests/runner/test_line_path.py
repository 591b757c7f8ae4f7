"""A model agent's answer on its way to ``predictions.jsonl`` the short way gives what the long way
gives: the line built without validation equals the validated one (fields, extra fields, field
sets, usage), and its bytes, redaction and usage equal those of the writer, :func:`redact_line`
and :func:`line_usage`."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.agents.protocol import Action
from proevent.io.run import line_bytes, line_usage
from proevent.model import PredictionLine, Usage
from proevent.runner.core import _typed_action, action_to_line, validated_line
from proevent.runner.lines import line_json, prepared
from proevent.runner.secrets import redact_line

SECRETS = ["sk-test-0123456789", 'we"ird\\key-42', "k\u00e9y-\u00fcnicode", "short"]
PIECES = ["http://", "HTTPS://", "u:pw@host.example", "/v1?api_key=abc&x=1", "Bearer ", "bAsIc\t",
          "abcdefghij0123", "\n", '"', "\\", "\u00e9", "'", " ", "ok", "://", ":\\/\\/", "\u212a", "\u0130",
          "\x00", "\ud800", "{\"ops\": []}", *SECRETS]
text = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
numbers = st.integers(0, 10**6) | st.sampled_from([-1, True, 2.0])
floats = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([0.0, 1e-5, 0.00012, 3.14159265358, 1e17])
plain = st.none() | st.booleans() | st.integers(-5, 10**9) | text | floats
extra_values = st.recursive(plain, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                            max_leaves=6)
extra_keys = st.sampled_from(["requests", "cached", "reasoning", "repaired", "skipped", "cost_usd", "usage",
                              "_private", "note"])
ops = st.lists(st.fixed_dictionaries({"op": st.sampled_from(["insert", "delete"]), "id": text}), max_size=3)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    return Action(
        ops=draw(ops | st.sampled_from([(), None])),
        raw=draw(st.none() | text),
        error=draw(st.none() | text),
        prompt_tokens=draw(numbers), completion_tokens=draw(numbers), cached_prompt_tokens=draw(numbers),
        cost_usd=draw(st.none() | floats | st.integers(0, 3)),
        latency_s=draw(st.none() | floats),
        extra=draw(st.dictionaries(extra_keys, extra_values, max_size=4)),
    )


def _state(line: PredictionLine) -> tuple:
    usage = line.usage
    # field sets sorted: two equal sets built in another order may print in another order
    return (line.model_dump(), line.__dict__.keys(), sorted(line.__pydantic_fields_set__), line.__pydantic_extra__,
            [type(v) for v in line.__dict__.values()],
            None if usage is None else (usage.__dict__, sorted(usage.__pydantic_fields_set__),
                                        usage.__pydantic_extra__))


def _same(a: object, b: object) -> bool:
    return repr(a) == repr(b)  # NaN equal to NaN


@settings(max_examples=700, deadline=None)
@given(action=actions(), t=st.sampled_from([1, 3, 0]), repeat=st.sampled_from([0, 2, -1]),
       mode=st.sampled_from(["single", "multi", "other"]))
def test_a_typed_answers_line_equals_the_validated_one(action: Action, t: int, repeat: int, mode: str) -> None:
    try:
        slow = validated_line("case-1", mode, t, repeat, action)
    except Exception as exc:  # the long way refuses it (an extra field named 'usage'): so must the short way
        try:
            action_to_line("case-1", mode, t, repeat, action)
        except Exception:
            return
        raise AssertionError(f"the long way raised {exc!r}, the short way did not") from None
    fast = action_to_line("case-1", mode, t, repeat, action)
    assert _same(_state(fast), _state(slow))
    assert _written(fast) == _written(slow)


def _written(line: PredictionLine) -> bytes | str:
    try:
        return line_bytes(line)
    except UnicodeError as exc:  # a lone surrogate: both ways refuse to write it
        return type(exc).__name__


def test_a_model_agents_usual_answer_takes_the_short_way() -> None:
    action = Action(ops=[{"op": "delete", "id": "e1"}], raw='{"ops": []}', prompt_tokens=812, completion_tokens=4,
                    cached_prompt_tokens=100, cost_usd=0.00012345678, latency_s=0.1234567,
                    extra={"requests": 1, "cached": 0})
    assert _typed_action(action)
    fast, slow = action_to_line("c", "single", 2, 0, action), validated_line("c", "single", 2, 0, action)
    assert _same(_state(fast), _state(slow))


@st.composite
def lines(draw: st.DrawFn) -> PredictionLine:
    usage = None
    if draw(st.booleans()):
        more = draw(st.dictionaries(st.sampled_from(["cached_prompt_tokens", "odd"]), plain, max_size=2))
        usage = Usage(prompt_tokens=draw(st.integers(0, 999)), completion_tokens=draw(st.integers(0, 99)), **more)
    extra = draw(st.dictionaries(extra_keys.filter(lambda k: k not in ("usage", "_private")), extra_values,
                                 max_size=3))
    return PredictionLine(case_id="case-" + draw(st.sampled_from(["1", "u:pw@h", "x://y", "\u00e9"])),
                          mode="single", t=1, ops=draw(ops), error=draw(st.none() | text), raw=draw(st.none() | text),
                          usage=usage, latency_s=draw(st.none() | floats), **extra)


@settings(max_examples=700, deadline=None)
@given(line=lines(), secrets=st.lists(st.sampled_from(SECRETS), max_size=3))
def test_prepared_equals_redaction_the_writers_bytes_and_line_usage(line: PredictionLine, secrets: list[str]) -> None:
    try:
        clean = redact_line(line, secrets)
        expected = line_bytes(clean)
    except (ValueError, UnicodeError):  # a lone surrogate the writer cannot write: the short way may not either
        return
    kept, data, part = prepared(line, secrets)
    assert data == expected
    assert _same(kept.model_dump(), clean.model_dump())
    assert _same(part, line_usage(line))
    dumped = line_json(line)
    if dumped is not None:
        assert _same(dumped, line.model_dump(mode="json"))


def test_the_short_way_is_taken_for_a_clean_line_and_not_for_a_key() -> None:
    line = PredictionLine(case_id="c1", mode="single", t=2, ops=[], raw='{"ops": []}',
                          usage=Usage(prompt_tokens=9, completion_tokens=3), requests=1, cached=0)
    kept, data, part = prepared(line, SECRETS)
    assert kept is line and part["prompt_tokens"] == 9 and math.isclose(part["cost_usd"] or 0, 0)
    leaky = line.model_copy(update={"raw": f"echo {SECRETS[0]}"})
    kept, data, _ = prepared(leaky, SECRETS)
    assert SECRETS[0].encode() not in data and kept.raw == "echo [redacted]"
