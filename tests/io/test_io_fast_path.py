"""The fast reading path (pydantic over the line's bytes) gives exactly what the careful path gives.

A line is read by ``model_validate_json`` only when :func:`proevent.io.jsonl._plain` says it holds
nothing the careful decoder marks; every other line, and every line pydantic refuses, goes the
careful way. These tests hold the two paths equal: on hand-made hostile lines and on generated ones.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.io.jsonl import _careful_line, _Decoder, _plain, _validate_line, iter_jsonl
from proevent.model import Case, Message, PredictionLine
from proevent.model.times import _normalize_slow, _normalize_str

TINY = Path(__file__).resolve().parents[2] / "examples" / "tiny" / "cases.jsonl"


def both(raw: bytes, model, strict: bool):
    fast = _validate_line(raw, model, _Decoder(strict), "f:1")
    slow = _careful_line(raw, model, _Decoder(strict), "f:1")
    assert (repr(fast[0]), fast[1]) == (repr(slow[0]), slow[1]), raw  # repr: NaN is not equal to itself
    return fast


CASE = json.loads(TINY.read_bytes().splitlines()[0])


def case_line(**changes) -> bytes:
    data = json.loads(json.dumps(CASE))
    data.update(changes)
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def test_plain_lines_take_the_fast_path_and_read_the_same():
    for raw in TINY.read_bytes().splitlines():
        assert _plain(raw, strict=True)
        item, bad = both(raw, Case, strict=True)
        assert not bad and item == Case.model_validate(json.loads(raw))


def test_what_strict_files_refuse_is_refused_with_the_same_words_anywhere_in_the_line():
    message = dict(CASE["steps"][0]["messages"][0])
    cases = {
        "NaN in meta": case_line(meta={"x": float("nan")}).replace(b"NaN", b"NaN"),
        "Infinity in an ignored field of a message": case_line(
            steps=[{**CASE["steps"][0], "messages": [{**message, "extra": 1}]}, *CASE["steps"][1:]]
        ).replace(b'"extra": 1', b'"extra": -Infinity'),
        "a 20-digit integer in an ignored field": case_line(junk=12345678901234567890),
        "an overflowing float with a signed exponent": case_line(meta={"x": 1}).replace(b'"x": 1', b'"x": 1e+999'),
        "an overflowing float": case_line(meta={"x": 1}).replace(b'"x": 1', b'"x": 2E400'),
        "a lone surrogate": case_line(meta={"x": "a"}).replace(b'"x": "a"', b'"x": "\\ud800"'),
    }
    for what, raw in cases.items():
        item, bad = both(raw, Case, strict=True)
        assert item is None and bad, what


def test_text_that_looks_like_a_bad_number_is_read_all_the_same():
    raw = case_line(meta={"note": "Infinity pool, Suite e1000, call 12345678901234567890"})
    assert not _plain(raw, strict=True)
    item, bad = both(raw, Case, strict=True)
    assert not bad and item.meta["note"].startswith("Infinity pool")


def test_prediction_lines_allow_what_the_format_allows_and_refuse_numbers_too_long_to_read():
    ok = b'{"case_id":"c","mode":"single","t":1,"ops":[],"x":NaN,"big":123456789012345678901234567890}'
    item, bad = both(ok, PredictionLine, strict=False)
    assert not bad and item.big == 123456789012345678901234567890  # type: ignore[attr-defined]
    huge = b'{"case_id":"c","mode":"single","t":1,"ops":[],"n":' + b"9" * 4100 + b"}"
    item, bad = both(huge, PredictionLine, strict=False)
    assert item is None and "too large" in bad[0]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from(["meta", "junk"]))
def test_any_value_anywhere_reads_the_same_both_ways(value, where):
    raw = case_line(**{where: value})  # json.dumps writes NaN, Infinity and big integers as they are
    both(raw, Case, strict=True)
    both(raw, Case, strict=False)


@settings(max_examples=500, deadline=None)
@given(st.from_regex(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?)?\Z") | st.text(max_size=20))
def test_times_read_the_same_on_the_fast_path(text):
    def read(f):
        try:
            return f(text)
        except ValueError as exc:
            return str(exc)

    assert read(_normalize_str) == read(_normalize_slow)


def test_a_file_with_mixed_lines_reports_every_bad_line(tmp_path):
    good = TINY.read_bytes().splitlines()[0]
    path = tmp_path / "cases.jsonl"
    path.write_bytes(b"\n".join([good, case_line(meta={"x": 1}).replace(b'"x": 1', b'"x": NaN'), b"[1]", good]) + b"\n")
    problems: list[str] = []
    lines = [n for n, _ in iter_jsonl(path, Case, problems, strict=True)]
    assert lines == [1, 4]
    assert problems == ["cases.jsonl:2: meta.x: NaN is not a JSON number",
                        "cases.jsonl:3: (line): expected a JSON object, got list"]


def test_lean_models_share_their_field_sets_until_one_is_assigned():
    raw = TINY.read_bytes().splitlines()[0]
    a, b = Case.model_validate_json(raw), Case.model_validate_json(raw)
    ma, mb = a.steps[0].messages[0], b.steps[0].messages[0]
    assert ma.model_fields_set is mb.model_fields_set == set(Message.model_fields)
    ma.text = "changed"
    assert ma.model_fields_set is not mb.model_fields_set and mb.text != "changed"
    partial = Message.model_validate({"chat_id": "c", "time": "2026-01-01T10:00", "sender": "s", "text": "t"})
    assert partial.model_fields_set == set(Message.model_fields)
    line = PredictionLine(case_id="c", mode="single", t=1, ops=[])
    assert line.model_fields_set == {"case_id", "mode", "t", "ops"}  # not every field: its own set
    assert line.model_dump(exclude_unset=True) == {"case_id": "c", "mode": "single", "t": 1, "ops": []}


def test_identical_events_of_a_case_are_held_once():
    case = Case.model_validate_json(TINY.read_bytes().splitlines()[0])
    by_key: dict = {}
    for ev in [*case.initial_timetable, *(e for s in case.steps for e in s.gold_timetable)]:
        assert by_key.setdefault(ev.model_dump_json(), ev) is ev
    assert case == Case.model_validate(json.loads(TINY.read_bytes().splitlines()[0]))
