"""The scorer's count helpers give what their plain definitions give: a question's count row, a
case's summed rows, the canonical participants of a case (remembered per list of names)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.evaluate.normalize import People
from proevent.evaluate.single import COUNT_KEYS, count_row
from proevent.model import OP_TYPES, DeleteOp, InvalidOp


def reference_row(pred, gold, matched, *, missing, error, invalid):
    """The count rule as first written: a list per side, then each type counted."""
    g, p, m = len(gold), len(pred), len(matched)
    row = [1, int(g == 0), int(g == 0 and p > 0), int(g > 0), int(g > 0 and p == 0), p, g, m]
    for t in OP_TYPES:
        row += ([op.op for op in pred].count(t), [op.op for op in gold].count(t), [op.op for op in matched].count(t))
    return row + [int(missing), int(error), invalid]


ops = st.lists(st.sampled_from([DeleteOp(id="e1"), InvalidOp(raw={}, reason="x", op=None),
                                InvalidOp(raw={}, reason="x", op="insert"), InvalidOp(raw={}, reason="x", op="update"),
                                InvalidOp(raw={}, reason="x", op="delete")]), max_size=5)


@settings(max_examples=300)
@given(ops, ops, ops, st.booleans(), st.booleans(), st.integers(0, 5))
def test_the_count_row_is_the_rule(pred, gold, matched, missing, error, invalid) -> None:
    row = count_row(pred, gold, matched, missing=missing, error=error, invalid=invalid)
    assert row == reference_row(pred, gold, matched, missing=missing, error=error, invalid=invalid)
    assert len(row) == len(COUNT_KEYS) and all(type(v) is int for v in row)


names = st.lists(st.sampled_from(["Ann", "ann", "Ann Lee", "Bob", "bob smith", "Zoë", "the Team", ""]), max_size=4)


@settings(max_examples=300)
@given(st.lists(st.sampled_from(["Ann Lee", "Bob Smith", "Bob Jones", "Zoë"]), max_size=4), names, names)
def test_canonical_sets_are_remembered_not_changed(people, a, b) -> None:
    ours, fresh = People(people), People(people)
    for listed in (a, b, a, tuple(a)):
        assert ours.canonical_set(listed) == frozenset(fresh.canonical(n) for n in listed)
    assert ours.canonical_set(n for n in b) == frozenset(fresh.canonical(n) for n in b)  # an iterator, once
