"""Multi-step (free-running) scoring of one case: the agent's own timetable against the gold.

Implements the metrics spec's M_t, the per-event correctness with the stays-failed rule, the
target events of ESR and the per-case TSR.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import is_
from typing import Any

from proevent.evaluate.equivalence import Comparator, is_cosmetic
from proevent.evaluate.matching import event_matching
from proevent.model import AnyOp, Case, Event, StepResult, Timetable


@dataclass
class StepTrace:
    t: int
    predicted: list[Event]
    """Ŝ_t, the agent's own timetable after step t."""
    gold: list[Event]
    """S_t."""
    pairs: list[tuple[str, str]]
    """M_t as (gold id, predicted id)."""
    event_ok: dict[str, bool]
    """Every gold event known so far: correct at t (before the stays-failed rule)."""
    timetable_ok: bool
    refused: list[str] = field(default_factory=list)
    """Why operations of this step were not applied."""
    missing: bool = False
    error: str | None = None


@dataclass
class CaseTrace:
    case_id: str
    steps: list[StepTrace]
    targets: list[str]
    """Gold ids of the target events (inserted, updated or deleted by a non-cosmetic gold op)."""
    event_success: dict[str, bool]
    """Per target event: correct at every step."""
    timetable_success: bool
    failed_at: dict[str, int] = field(default_factory=dict)
    """Per gold event that failed: the first step at which it was incorrect."""

    @property
    def missing_steps(self) -> int:
        return sum(1 for s in self.steps if s.missing)

    @property
    def errors(self) -> int:
        return sum(1 for s in self.steps if s.error is not None)


def target_events(case: Case) -> list[str]:
    """Gold ids that some non-cosmetic gold operation inserts, updates or deletes, in first-touched order."""
    targets: dict[str, None] = {}
    before = {ev.id for ev in case.initial_timetable}
    for step in case.steps:
        for op in step.gold_ops:
            if op.op != "insert" and not is_cosmetic(op):
                targets.setdefault(op.id, None)
        now = [ev.id for ev in step.gold_timetable]
        for eid in now:
            if eid not in before:
                targets.setdefault(eid, None)
        before = set(now)
    return list(targets)


def replay_case(
    case: Case,
    preds: Mapping[int, Sequence[AnyOp]],
    comparator: Comparator,
    *,
    missing: Sequence[int] = (),
    errors: Mapping[int, str] | None = None,
    keep_steps: bool = True,
) -> CaseTrace:
    """Replay the agent's operations of each step on its own timetable and score the case.

    ``preds`` maps step t to the operations the agent emitted; a step absent from it counts as an
    empty prediction (``missing`` and ``errors`` only label the trace). Without ``keep_steps`` the
    trace has no steps (``steps == []``): the case's targets, successes and timetable success only,
    what a scoring that keeps count vectors reads (:func:`proevent.evaluate.counts.multi_counts`).
    """
    errors = errors or {}
    own = Timetable(case.initial_timetable)
    partner: dict[str, str] = {ev.id: ev.id for ev in case.initial_timetable}  # M_0
    matched_partner: dict[str, str] = dict(partner)  # partner at the last step present and matched
    failed: dict[str, int] = {}
    table_ok = True
    traces: list[StepTrace] = []
    seen_gold: set[str] = {ev.id for ev in case.initial_timetable}
    missing_set = set(missing)
    match_key = _match_keys(comparator)
    last_gold: Sequence[Event] | None = None
    last_pred: Sequence[Event] | None = None
    pairs: list[tuple[str, str]] = []
    event_ok: dict[str, bool] = {}

    for step in case.steps:
        ops = [op for op in preds.get(step.t, ()) if not is_cosmetic(op)]
        result = own.apply(ops) if ops else _UNCHANGED  # no operation: the same timetable, nothing refused
        if ops:
            own = result.timetable
        gold_events = step.gold_timetable
        pred_events = own.events
        if _same_objects(gold_events, last_gold) and _same_objects(pred_events, last_pred):
            # nothing changed on either side: M_t = M_{t-1} (see _same_objects), and so is every
            # event's state (its failures are already recorded)
            pairs, event_ok = list(pairs), dict(event_ok)
        else:
            pairs = _match_events(gold_events, pred_events, comparator, partner, match_key)
            partner = {g: p for g, p in pairs}
            pred_to_gold = {p: g for g, p in pairs}
            present = {ev.id for ev in gold_events}
            event_ok = {}
            for gid in present:
                event_ok[gid] = gid in partner
                if gid in partner:
                    matched_partner[gid] = partner[gid]
            for gid in seen_gold - present:  # deleted at or before t
                last = matched_partner.get(gid)
                event_ok[gid] = last is not None and (last not in own or pred_to_gold.get(last, gid) != gid)
            seen_gold |= present
            for gid, ok in event_ok.items():
                if not ok and gid not in failed:
                    failed[gid] = step.t
        last_gold, last_pred = gold_events, pred_events
        step_ok = len(pairs) == len(gold_events) == len(pred_events)
        table_ok = table_ok and step_ok
        if keep_steps:
            traces.append(
                StepTrace(
                    t=step.t,
                    predicted=pred_events,
                    gold=list(gold_events),
                    pairs=pairs,
                    event_ok=event_ok,
                    timetable_ok=step_ok,
                    refused=[e.reason for e in result.errors],
                    missing=step.t in missing_set,
                    error=errors.get(step.t),
                )
            )
    targets = target_events(case)
    return CaseTrace(
        case_id=case.case_id,
        steps=traces,
        targets=targets,
        event_success={gid: gid not in failed for gid in targets},
        timetable_success=table_ok,
        failed_at=failed,
    )


_UNCHANGED = StepResult(Timetable())
"""A step without operations: nothing refused (only its ``errors`` is read; the timetable stays the agent's)."""


def _same_objects(now: Sequence[Event], before: Sequence[Event] | None) -> bool:
    """The very events of the previous step, in the same order. Then the compatible pairs are those
    of the previous step and M_{t-1}, a maximum matching of them that keeps all its own pairs, is
    the one matching that the tie rule of :func:`event_matching` picks again: M_t = M_{t-1}, and the
    judge is not asked the same pairs twice. (A case's gold events are shared from step to step, and
    a step without operations keeps the agent's timetable, so a quiet step is such a step.)"""
    return before is not None and len(now) == len(before) and all(map(is_, now, before))


def _match_keys(comparator: Comparator) -> Callable[[Sequence[Event]], list[tuple[Any, ...]]]:
    """What an event must share with another to be compared at all (start, end, the canonical
    participants), remembered per event object for one case: its events stay the same objects
    from step to step (the gold's are shared, the agent's carried over), so each is read once.
    The function returned gives the keys of a list of events (one call a list, not an event)."""
    canonical_set = comparator.people.canonical_set
    known: dict[int, tuple[Any, ...]] = {}
    held: list[Event] = []  # every event keyed stays alive meanwhile, so no id is reused

    def keys(events: Sequence[Event]) -> list[tuple[Any, ...]]:
        out = []
        for ev in events:
            value = known.get(id(ev))
            if value is None:
                value = known[id(ev)] = (ev.start, ev.end, canonical_set(ev.participants))
                held.append(ev)
            out.append(value)
        return out

    return keys


def _match_events(
    gold: Sequence[Event], pred: Sequence[Event], comparator: Comparator, previous: Mapping[str, str],
    keys: Callable[[Sequence[Event]], list[tuple[Any, ...]]],
) -> list[tuple[str, str]]:
    buckets: dict[tuple, list[int]] = {}
    for j, k in enumerate(keys(pred)):
        buckets.setdefault(k, []).append(j)
    compatible: list[tuple[int, int]] = []
    same = comparator.judge.same
    for i, (g, k) in enumerate(zip(gold, keys(gold))):
        for j in buckets.get(k, ()):
            p = pred[j]
            # the very event (never changed), or the very string (Comparator.same_place): the same place
            if p is g or g.location == p.location or same(g.location, p.location, (g, p)):
                compatible.append((i, j))
    if len({i for i, _ in compatible}) == len(compatible) == len({j for _, j in compatible}):
        matching = dict(compatible)  # every pair alone in its component: the one maximum matching
    else:
        matching = event_matching(
            len(gold), len(pred), compatible, lambda i, j: previous.get(gold[i].id) == pred[j].id
        )
    return [(gold[i].id, pred[j].id) for i, j in sorted(matching.items())]
