"""The timetable engine: the id rule, refused operations, and diff/apply round trips."""

from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.model import (
    DeleteOp,
    InsertOp,
    Timetable,
    UpdateOp,
    diff_timetables,
    id_number,
    make_event,
    parse_op,
    parse_ops,
)


def test_id_rule_uses_the_whole_history():
    t = Timetable([make_event("e3"), make_event("x7"), make_event("e01")])
    assert t.max_id == 3  # "e01" has a leading zero: not of the form e<n>
    ins = {"op": "insert", "event": _ev()}
    step = t.apply(parse_ops([{"op": "delete", "id": "e3"}, ins, ins]))
    assert step.inserted_ids == ["e4", "e5"]
    again = step.timetable.apply(parse_ops([{"op": "delete", "id": "e5"}])).timetable
    assert again.apply(parse_ops([{"op": "insert", "event": _ev()}])).inserted_ids == ["e6"]


def test_refused_operations_are_reported_not_applied():
    t = Timetable([make_event("e1", location="A")])
    ops = parse_ops([
        {"op": "insert", "event": _ev()},
        {"op": "update", "id": "e2", "attribute": "location", "value": "B"},  # inserted this step
        {"op": "delete", "id": "e1"},
        {"op": "update", "id": "e1", "attribute": "location", "value": "B"},  # deleted earlier
        {"op": "update", "id": "e1", "attribute": "colour", "value": "red"},
        {"op": "insert", "event": {"start": None}},  # missing fields
    ])
    res = t.apply(ops)
    assert [e.index for e in res.errors] == [1, 3, 4, 5]
    assert [ev.id for ev in res.timetable] == ["e2"]
    assert "unknown id 'e2'" in res.errors[0].reason
    assert "deleted earlier" in res.errors[1].reason


def test_parse_op_type_checks_update_values():
    assert parse_op({"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T09:00:59"}).value == (
        "2026-03-14T09:00"
    )
    for bad in ("2026-03-14 09:00", "2026-03-14T09:00+01:00", "2026-03-14T09:00:00.5", 5):
        assert parse_op({"op": "update", "id": "e1", "attribute": "start", "value": bad}).op == "update"
        assert type(parse_op({"op": "update", "id": "e1", "attribute": "start", "value": bad})).__name__ == "InvalidOp"
    assert type(parse_op({"op": "update", "id": "e1", "attribute": "participants", "value": "Tom"})).__name__ == (
        "InvalidOp"
    )


def _ev(**kw):
    base = {"start": "2026-03-14T09:00", "end": None, "location": None, "participants": ["A"], "description": ""}
    base.update(kw)
    return base


times = st.one_of(
    st.none(),
    st.dates().map(lambda d: d.isoformat()),
    st.builds(lambda d, h, m: f"{d.isoformat()}T{h:02d}:{m:02d}", st.dates(), st.integers(0, 23), st.integers(0, 59)),
)
names = st.lists(st.sampled_from(["Jerry Chen", "Tom Baker", "Ana Ruiz", "Li Wei"]), max_size=4, unique=True)
event_data = st.fixed_dictionaries({
    "start": times, "end": times, "location": st.one_of(st.none(), st.text(max_size=12)),
    "participants": names, "description": st.text(max_size=8),
})


@st.composite
def op_lists(draw, timetable: Timetable):
    ops, alive = [], [ev.id for ev in timetable]
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["insert", "update", "delete"]))
        if kind == "insert" or not alive:
            ops.append(InsertOp.model_validate({"event": draw(event_data)}))
        elif kind == "update":
            attr = draw(st.sampled_from(["start", "end", "location", "participants"]))
            value = draw(event_data)[attr]
            ops.append(UpdateOp(id=draw(st.sampled_from(alive)), attribute=attr, value=value))
        else:
            eid = draw(st.sampled_from(alive))
            alive.remove(eid)
            ops.append(DeleteOp(id=eid))
    return ops


@st.composite
def timetable_pairs(draw):
    ids = draw(st.lists(st.integers(1, 9), unique=True, max_size=5))
    initial = [make_event(f"e{i}", **draw(event_data)) for i in ids]
    before = Timetable(initial)
    for _ in range(draw(st.integers(0, 2))):
        before = before.apply(draw(op_lists(before))).timetable
    after = before.apply(draw(op_lists(before))).timetable
    return before, after


@settings(max_examples=200, deadline=None)
@given(timetable_pairs())
def test_applying_the_diff_reproduces_the_target(pair):
    before, after = pair
    ops = diff_timetables(before, after.events)
    result = before.apply(ops)
    assert not result.errors
    assert {e.id: e for e in result.timetable} == {e.id: e for e in after}
    assert diff_timetables(after, after.events) == []


@settings(max_examples=200, deadline=None)
@given(timetable_pairs(), st.data())
def test_ids_are_never_reused(pair, data):
    before, _ = pair
    history = {ev.id for ev in before}
    table = before
    for _ in range(3):
        res = table.apply(data.draw(op_lists(table)))
        assert not res.errors
        for eid in res.inserted_ids:
            assert eid not in history
            history.add(eid)
        assert all(id_number(e) is not None for e in res.inserted_ids)
        table = res.timetable


def _reference_table(events, max_id):
    """The constructor as first written: (events by id, max_id) or the duplicate's message."""
    table = {}
    for ev in events:
        if ev.id in table:
            return f"duplicate event id {ev.id!r}"
        table[ev.id] = ev
    seen = [n for n in (id_number(i) for i in table) if n is not None]
    return list(table.items()), max([0, *seen] if max_id is None else [max_id, *seen])


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["e1", "e2", "e10", "e0", "e01", "x", "E3", "e7"]), max_size=6),
       st.none() | st.integers(0, 20), st.booleans())
def test_the_constructor_keeps_its_first_definition(ids, max_id, as_generator) -> None:
    events = [make_event(i, start="2026-03-14T10:00") for i in ids]
    expected = _reference_table(events, max_id)
    try:
        table = Timetable((e for e in events) if as_generator else events, max_id=max_id)
    except ValueError as exc:
        assert str(exc) == expected
    else:
        assert (list(table._events.items()), table.max_id) == expected
