"""Attribute and operation equivalence under a location judge and a case's people."""

from __future__ import annotations

from typing import Any

from proevent.evaluate.judges import LocationJudge, get_judge
from proevent.evaluate.normalize import People
from proevent.model import AnyOp, Case, DeleteOp, EventData, InsertOp, InvalidOp, UpdateOp


def is_cosmetic(op: Any) -> bool:
    """An update of ``description``, valid or not (removed from both sides before counting)."""
    if isinstance(op, UpdateOp):
        return op.attribute == "description"
    if isinstance(op, InvalidOp):
        raw = op.raw
        return isinstance(raw, dict) and raw.get("op") == "update" and raw.get("attribute") == "description"
    return False


class Comparator:
    """Equality of attributes, events and operations within one case."""

    __slots__ = ("judge", "people")

    def __init__(self, people: People, judge: LocationJudge) -> None:
        self.people = people
        self.judge = judge

    def same_place(self, a: str | None, b: str | None, context: Any = None) -> bool:
        """The judge's answer, but a string and its very copy (``None`` and ``None`` too) are the
        same place without asking: every judge accepts normalised-equal strings (the contract of
        :mod:`proevent.evaluate.judges`), and the scorer meets such pairs by the thousand (an
        event the agent carried over in a new object, the oracle's every event: 5,499 of the
        7,604 questions to the judge for a report of three runs of the default dataset), each of
        which the places judge would read its context's description for first."""
        return a == b or self.judge.same(a, b, context)

    def value_equal(self, attribute: str, a: Any, b: Any, context: Any = None) -> bool:
        if attribute == "location":
            return self.same_place(a, b, context)
        if attribute == "participants":
            return self.people.canonical_set(a) == self.people.canonical_set(b)
        return a == b

    def events_equal(self, a: EventData, b: EventData) -> bool:
        return (
            a.start == b.start
            and a.end == b.end
            and self.people.canonical_set(a.participants) == self.people.canonical_set(b.participants)
            and self.same_place(a.location, b.location, (a, b))
        )

    def ops_equivalent(self, p: AnyOp, g: AnyOp) -> bool:
        if isinstance(p, InvalidOp) or isinstance(g, InvalidOp) or p.op != g.op:
            return False
        if isinstance(p, DeleteOp):
            return p.id == g.id  # type: ignore[union-attr]
        if isinstance(p, InsertOp):
            return self.events_equal(p.event, g.event)  # type: ignore[union-attr]
        assert isinstance(p, UpdateOp) and isinstance(g, UpdateOp)
        return (
            p.id == g.id
            and p.attribute == g.attribute
            and self.value_equal(p.attribute, p.value, g.value, (p, g))
        )


def comparator_for(case: Case, judge: str | LocationJudge | None = None) -> Comparator:
    """The comparator :func:`~proevent.evaluate.score_question` and :func:`~proevent.evaluate.replay_case`
    take, for one case."""
    return Comparator(People(case.people()), get_judge(judge))
