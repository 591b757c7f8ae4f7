"""The fast readers (msgspec) build exactly what pydantic builds, or decline; never accept what pydantic refuses."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from proevent.io.dataset import MAX_META_DEPTH, _depth
from proevent.io.fastcase import TIME_OR_DATE_PATTERN, TIME_PATTERN, FastCases, fast_line
from proevent.io.jsonl import _Decoder, _validate_line
from proevent.model import Case, PredictionLine
from proevent.model.times import normalize_time

ROOT = Path(__file__).resolve().parents[2]
CASE_FILES = sorted(p for p in (ROOT / "examples").glob("*/cases.jsonl"))
LINE_FILES = sorted((ROOT / "examples").glob("**/predictions.jsonl"))


def assert_same(a: object, b: object, path: str = "") -> None:
    """Same types, values, field order, field sets and extras, all the way down."""
    assert type(a) is type(b), path
    if isinstance(a, BaseModel):
        assert list(a.__dict__) == list(b.__dict__), path
        assert a.model_fields_set == b.model_fields_set, path
        assert a.__pydantic_extra__ == b.__pydantic_extra__, path
        assert a.__pydantic_private__ == b.__pydantic_private__, path
        for k in a.__dict__:
            assert_same(a.__dict__[k], b.__dict__[k], f"{path}.{k}")
    elif isinstance(a, list | dict):
        assert len(a) == len(b), path
        pairs = zip(a.items(), b.items()) if isinstance(a, dict) else zip(enumerate(a), enumerate(b))
        for (ka, va), (kb, vb) in pairs:
            assert ka == kb, path
            assert_same(va, vb, f"{path}.{ka}")
    else:
        assert a == b, path


def assert_pending_messages_match(fast: Case, slow: Case) -> None:
    """The fast case's steps have built no message yet; the records they hold give the very fields
    of the messages pydantic built, and reading ``messages`` builds them (then ``__dict__`` is in the
    declared order, as :func:`assert_same` checks)."""
    for fs, ss in zip(fast.steps, slow.steps, strict=True):
        assert "messages" not in fs.__dict__
        records = fs.message_records()
        assert [(r.chat_id, r.time, r.sender, r.text) for r in records] == [
            (m.chat_id, m.time, m.sender, m.text) for m in ss.messages]
        assert ss.message_records() is ss.messages
        assert fs.messages == ss.messages
        assert fs.message_records() is fs.messages


def sharing(case: Case) -> list[list[int]]:
    """Which timetable entries are the same object (the events a case shares)."""
    ids: dict[int, int] = {}
    tables = [case.initial_timetable, *(s.gold_timetable for s in case.steps)]
    return [[ids.setdefault(id(ev), len(ids)) for ev in table] for table in tables]


def check_case_line(raw: bytes) -> Case | None:
    """The fast reader agrees with the reader it stands in front of (pydantic, and the careful path
    for what pydantic refuses) on ``raw``: the same case, or it declines."""
    fast = FastCases().case(raw)
    slow, problems = _validate_line(raw, Case, _Decoder(strict=True), "cases.jsonl:1")
    if slow is None:
        assert problems and fast is None
        return None
    if fast is not None:
        assert_pending_messages_match(fast, slow)
        assert_same(fast, slow)
        assert sharing(fast) == sharing(slow)
        if _depth(slow.meta) <= MAX_META_DEPTH:  # deeper cannot be written back (the loader refuses it)
            assert fast.model_dump_json() == slow.model_dump_json()
    return fast


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.parent.name)
def test_every_example_case_is_read_fast_and_the_same(path: Path) -> None:
    lines = [raw for raw in path.read_bytes().splitlines() if raw.strip()]
    assert lines
    for raw in lines:
        assert check_case_line(raw) is not None


@pytest.mark.parametrize("path", LINE_FILES, ids=lambda p: p.parent.name)
def test_example_prediction_lines_are_read_the_same(path: Path) -> None:
    for raw in path.read_bytes().splitlines():
        if not raw.strip():
            continue
        slow = PredictionLine.model_validate_json(raw)
        fast = fast_line(raw)
        if fast is not None:
            assert_same(fast, slow)


def _tiny_case() -> dict:
    return json.loads((ROOT / "examples" / "tiny" / "cases.jsonl").read_bytes().splitlines()[0])


def _edit(case: dict, where: str, value: object) -> dict:
    """``case`` with the value at the dotted path ``where`` replaced (``...`` deletes it)."""
    *parents, last = where.split(".")
    node: object = case
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]  # type: ignore[index]
    key = int(last) if isinstance(node, list) else last
    if value is ...:
        del node[key]  # type: ignore[arg-type, union-attr]
    else:
        node[key] = value  # type: ignore[index]
    return case


EDITS = [
    ("timezone", ...), ("meta", ...), ("format", ...), ("steps.0.t", "1"), ("steps.0.t", 1.0), ("steps.0.t", 0),
    ("steps.0.t", True), ("start", "2026-03-14T09:00:30"), ("start", "2026-03-14"), ("start", "2026-02-30T09:00"),
    ("start", "2026-03-14T24:00"), ("start", "2026-03-14T09:00\n"), ("start", "２０２６-03-14T09:00"),
    ("steps.0.messages.0.time", "2024-02-29T10:00"), ("steps.0.messages.0.time", "2023-02-29T10:00"),
    ("steps.0.messages.0.text", 5), ("steps.0.messages.0.extra", "ignored"), ("chats.0.type", "channel"),
    ("initial_timetable", [{"id": "e1", "start": "2026-03-20", "end": None, "location": None,
                            "participants": ["x"], "description": ""}]),
    ("initial_timetable", [{"id": "e1", "start": "2026-03-20T10:00:59", "end": None, "location": None,
                            "participants": ["x"]}]),
    ("steps.0.gold_ops", [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-20T10:00:59"}]),
    ("steps.0.gold_ops", [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-20"}]),
    ("steps.0.gold_ops", [{"op": "update", "id": "e1", "attribute": "participants", "value": ["a", 1]}]),
    ("steps.0.gold_ops", [{"op": "update", "id": "e1", "attribute": "location", "value": None}]),
    ("steps.0.gold_ops", [{"id": "e1", "op": "delete", "note": "x"}]), ("steps.0.gold_ops", [{"op": "move"}]),
    ("steps.0.gold_ops", [{"op": "insert", "event": {"start": None, "end": None, "location": "Cafe",
                                                     "participants": [], "description": None, "id": "e9"}}]),
]


@pytest.mark.parametrize(("where", "value"), EDITS, ids=[f"{w}={v!r}"[:60] for w, v in EDITS])
def test_an_edited_case_is_read_the_same_or_declined(where: str, value: object) -> None:
    check_case_line(json.dumps(_edit(_tiny_case(), where, value), ensure_ascii=False).encode())


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def test_a_plain_complete_case_is_not_declined_and_odd_ones_are() -> None:
    """Odd lines (also those the strict reader refuses and pydantic alone would read) go the careful way."""
    assert FastCases().case(json.dumps(_tiny_case()).encode()) is not None
    assert FastCases().case(json.dumps(_edit(_tiny_case(), "meta", {"n": -(10**17)})).encode()) is not None
    for where, value in [("timezone", ...), ("start", "2026-03-14T09:00:30"), ("steps.0.t", "1"),
                         ("meta", {"n": [1, {"m": 2**63}]}), ("meta", {"n": -(2**63) - 1}), ("steps.0.t", 2**63)]:
        assert FastCases().case(json.dumps(_edit(_tiny_case(), where, value)).encode()) is None


@pytest.mark.parametrize("depth", [50, 900])
def test_deep_meta_is_read_the_same_or_declined(depth: int) -> None:
    check_case_line(json.dumps(_edit(_tiny_case(), "meta", {"deep": _nested(depth)})).encode())


def _valid(value: str, dates: bool) -> bool:
    try:
        out = normalize_time(value)
    except ValueError:
        return False
    return out == value and (dates or len(value) == 16)


@settings(max_examples=400)
@given(st.integers(0, 9999), st.integers(0, 13), st.integers(0, 32), st.integers(0, 24), st.integers(0, 60),
       st.booleans())
def test_the_time_patterns_accept_exactly_the_normal_valid_times(y: int, mo: int, d: int, h: int, mi: int,
                                                                 with_clock: bool) -> None:
    text = f"{y:04d}-{mo:02d}-{d:02d}" + (f"T{h:02d}:{mi:02d}" if with_clock else "")
    assert bool(re.match(TIME_OR_DATE_PATTERN, text)) == _valid(text, dates=True)
    assert bool(re.match(TIME_PATTERN, text)) == _valid(text, dates=False)


def test_leap_days_follow_the_gregorian_rule() -> None:
    for year in (4, 400, 1600, 2000, 2024, 1900, 2100, 2023, 1):
        leap = date(year, 3, 1).toordinal() - date(year, 2, 28).toordinal() == 2
        assert bool(re.match(TIME_PATTERN, f"{year:04d}-02-29T00:00")) == leap


@pytest.mark.parametrize(("struct", "model", "tag"), [
    ("_Case", "Case", None), ("_Chat", "Chat", None), ("_Step", "Step", None), ("_Message", "Message", None),
    ("_Event", "Event", None), ("_EventData", "EventData", None),
    ("_Insert", "InsertOp", "op"), ("_Update", "UpdateOp", "op"), ("_Delete", "DeleteOp", "op"),
    ("_Line", "PredictionLine", None),
])
def test_the_fast_structs_name_the_models_fields_in_their_order(struct: str, model: str, tag: str | None) -> None:
    """The structs repeat the models' fields by hand: a field added to a model and not here would
    make every line decline (slow, not wrong) or, worse, drop the field; this holds the two lists
    equal (an operation's ``op`` is the structs' tag)."""
    import msgspec

    from proevent import model as models
    from proevent.io import fastcase

    fields = list(msgspec.structs.fields(getattr(fastcase, struct)))
    names = [f.name for f in fields]
    expected = [name for name in getattr(models, model).model_fields if name != tag]
    assert names == expected


def _line_by_line(path: Path) -> list[PredictionLine]:
    from proevent.io.jsonl import iter_jsonl

    problems: list[str] = []
    out = [line for _, line in iter_jsonl(path, PredictionLine, problems, fast=fast_line)]
    assert not problems
    return out


@pytest.mark.parametrize("path", LINE_FILES, ids=lambda p: p.parent.name)
def test_a_whole_run_file_is_read_as_line_by_line(path: Path) -> None:
    from proevent.io.fastcase import fast_lines

    bulk = fast_lines(path.read_bytes())
    if bulk is not None:
        slow = _line_by_line(path)
        assert len(bulk) == len(slow)
        for a, b in zip(bulk, slow, strict=True):
            assert_same(a, b)


LINE = b'{"case_id":"c1","mode":"single","t":1,"repeat":0,"ops":[{"op":"delete","id":"e1"}],"error":null,' \
       b'"raw":null,"usage":null,"latency_s":0.5}'


@pytest.mark.parametrize(("text", "whole"), [
    (LINE + b"\n" + LINE.replace(b'"t":1', b'"t":2') + b"\n", True),
    (b"\n  \n" + LINE + b"\r\n\n" + LINE.replace(b'"t":1', b'"t":2') + b"\n" + LINE + b"\n", True),  # blank
    # lines, CRLF, a duplicate key (the later line counts, placed last)
    (LINE, True),  # no final newline
    (LINE + b" " + LINE + b"\n", False),  # two objects on one line: the line reader refuses it
    (LINE[:-1] + b"\n}\n", False),  # one object over two lines
    (LINE + b"\n" + LINE.replace(b"0.5", b"NaN") + b"\n", False),
    (LINE + b"\n" + LINE.replace(b'"usage":null', b'"usage":{"prompt_tokens":3}') + b"\n", False),
    (LINE + b"\n" + LINE[:40] + b"\n", False),  # a torn line
])
def test_the_whole_file_reader_reads_plain_files_and_declines_the_rest(tmp_path: Path, text: bytes,
                                                                       whole: bool) -> None:
    from proevent.io.fastcase import fast_lines
    from proevent.io.run import PREDICTIONS_FILE, load_run

    bulk = fast_lines(text)
    assert (bulk is not None) == whole
    (tmp_path / "run.json").write_text(json.dumps({
        "created": "2026-01-01T00:00", "proevent_version": "0", "agent": "x",
        "dataset": {"name": "d", "version": "1", "sha256": ""}}))
    (tmp_path / PREDICTIONS_FILE).write_bytes(text)
    if bulk is not None:
        slow = _line_by_line(tmp_path / PREDICTIONS_FILE)
        assert [a.model_dump_json() for a in bulk] == [b.model_dump_json() for b in slow]
        last: dict = {}
        for ln in slow:  # the last line of a key counts, in the place it was written
            last.pop(ln.key, None)
            last[ln.key] = ln
        run = load_run(tmp_path)
        assert run.all_lines == len(slow) and list(run.lines.items()) == list(last.items())


leaves = st.none() | st.booleans() | st.integers(-10, 10) | st.text(alphabet="[]{}ab\\\"", max_size=4)
json_values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=60)


@settings(max_examples=400)
@given(json_values, st.integers(0, 6))
def test_a_value_called_shallow_is_no_deeper_than_the_limit(value: object, limit: int) -> None:
    from proevent.io.dataset import _shallow

    if _shallow(value, limit):
        assert _depth(value, limit) <= limit
    assert _shallow(_nested(limit), limit) and not _shallow(_nested(limit + 1), limit)
