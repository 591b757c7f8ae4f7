"""The timetable engine: apply operations under the id rule, and diff two timetables.

The id rule (data format, "Operation"): an insert gets ``"e" + str(k)`` where k is one more than
the largest n such that ``"e<n>"`` has ever been an id in this timetable's own history.
:class:`Timetable` therefore carries ``max_id`` beside its events, so that ids are never reused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from proevent.model.events import (
    ATTRIBUTES,
    AnyOp,
    DeleteOp,
    Event,
    EventData,
    InsertOp,
    InvalidOp,
    UpdateOp,
)
from proevent.model.lean import build_full

_ID_RE = re.compile(r"^e(0|[1-9][0-9]*)$")


@lru_cache(maxsize=4096)
def id_number(event_id: str) -> int | None:
    """n for an id of the form ``e<n>`` (no leading zeros), else ``None``. Cached: a run builds a
    hundred thousand timetables from a few dozen distinct ids."""
    m = _ID_RE.match(event_id)
    return int(m.group(1)) if m else None


_make_event = build_full(Event)


@dataclass(frozen=True)
class OpError:
    """An operation that could not be applied: its index in the step's list and why."""

    index: int
    reason: str


@dataclass
class StepResult:
    timetable: Timetable
    errors: list[OpError] = field(default_factory=list)
    inserted_ids: list[str] = field(default_factory=list)

    def invalid_indices(self) -> set[int]:
        return {e.index for e in self.errors}


class Timetable:
    """An ordered set of events plus the id history needed by the id rule.

    Events keep the order in which they entered the timetable; an update keeps the position.
    """

    __slots__ = ("_events", "max_id")

    def __init__(self, events: Iterable[Event] = (), max_id: int | None = None) -> None:
        events = events if type(events) is list else list(events)
        self._events: dict[str, Event] = {ev.id: ev for ev in events}
        if len(self._events) != len(events):  # a duplicate: named as the first repeat met in order
            seen_ids: set[str] = set()
            for ev in events:
                if ev.id in seen_ids:
                    raise ValueError(f"duplicate event id {ev.id!r}")
                seen_ids.add(ev.id)
        numbers = [n for n in map(id_number, self._events) if n is not None]
        self.max_id = max([0 if max_id is None else max_id, *numbers])

    @property
    def events(self) -> list[Event]:
        return list(self._events.values())

    def __len__(self) -> int:
        return len(self._events)

    def __contains__(self, event_id: object) -> bool:
        return event_id in self._events

    def __getitem__(self, event_id: str) -> Event:
        return self._events[event_id]

    def __iter__(self):
        return iter(self._events.values())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Timetable):
            return NotImplemented
        return self._events == other._events

    def __repr__(self) -> str:
        return f"Timetable({self.events!r}, max_id={self.max_id})"

    def copy(self) -> Timetable:
        new = Timetable.__new__(Timetable)
        new._events = dict(self._events)
        new.max_id = self.max_id
        return new

    def next_id(self) -> str:
        return f"e{self.max_id + 1}"

    def apply(self, ops: Sequence[AnyOp]) -> StepResult:
        """Apply one step's operations; return the new timetable and the operations refused.

        ``update`` and ``delete`` may target only events of this timetable (as it was before the
        step) that were not deleted earlier in the step. Refused operations are not applied.
        """
        new = self.copy()
        result = StepResult(timetable=new)
        deleted: set[str] = set()
        for i, op in enumerate(ops):
            if isinstance(op, InvalidOp):
                result.errors.append(OpError(i, op.reason))
                continue
            if isinstance(op, InsertOp):
                new.max_id += 1
                eid = f"e{new.max_id}"
                d = op.event.__dict__  # validated as EventData: the same values, the id last (Event's field order)
                new._events[eid] = _make_event({"start": d["start"], "end": d["end"], "location": d["location"],
                                                "participants": d["participants"], "description": d["description"],
                                                "id": eid})
                result.inserted_ids.append(eid)
                continue
            if op.id not in self._events:
                result.errors.append(OpError(i, f"unknown id {op.id!r}"))
                continue
            if op.id in deleted:
                result.errors.append(OpError(i, f"id {op.id!r} was deleted earlier in this step"))
                continue
            if isinstance(op, DeleteOp):
                deleted.add(op.id)
                del new._events[op.id]
            else:
                new._events[op.id] = _make_event({**new._events[op.id].__dict__, op.attribute: op.value})  # validated
        return result


def diff_timetables(before: Timetable, after: Sequence[Event]) -> list[InsertOp | UpdateOp | DeleteOp]:
    """Canonical operations that turn ``before`` into ``after``.

    Walks ``before`` in order: a missing event gives a delete, a changed one an update per changed
    attribute (in the order start, end, location, participants, description); then one insert per
    new event, by increasing id. The new events' ids must be the ones the id rule assigns,
    otherwise no operations could reproduce ``after`` and ``ValueError`` is raised.
    """
    after_by_id = {ev.id: ev for ev in after}
    if len(after_by_id) != len(after):
        raise ValueError("duplicate event id in the target timetable")
    ops: list[InsertOp | UpdateOp | DeleteOp] = []
    for ev in before:
        new = after_by_id.get(ev.id)
        if new is None:
            ops.append(DeleteOp(id=ev.id))
            continue
        for attr in ATTRIBUTES:
            value = getattr(new, attr)
            if getattr(ev, attr) != value:
                ops.append(UpdateOp(id=ev.id, attribute=attr, value=value))
    added = [ev for ev in after if ev.id not in before]
    numbered = sorted(added, key=lambda e: (id_number(e.id) is None, id_number(e.id) or 0))
    for k, ev in enumerate(numbered, start=before.max_id + 1):
        if ev.id != f"e{k}":
            raise ValueError(f"new event id {ev.id!r} is not the id the id rule assigns (e{k})")
        ops.append(InsertOp(event=EventData(**ev.model_dump(exclude={"id"}))))
    return ops
