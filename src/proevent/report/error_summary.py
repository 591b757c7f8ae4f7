"""A run's error analysis: counts and shares per category, and a few examples with their messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from proevent.evaluate import EvaluationResult, comparator_for
from proevent.evaluate.equivalence import Comparator
from proevent.evaluate.errors import ErrorItem, categories, categorize, render_op
from proevent.evaluate.judges import LocationJudge, get_judge
from proevent.io import Dataset

MAX_MESSAGES = 12
"""Messages shown per example; a step with more shows the first ones and how many were left out."""


@dataclass
class ShownMessage:
    time: str
    chat: str
    sender: str
    text: str


@dataclass
class ErrorExample:
    item: ErrorItem
    predicted: str | None
    gold: str | None
    messages: list[ShownMessage]
    more_messages: int = 0
    user: str = ""


@dataclass
class ErrorSummary:
    """Per category (every key of :func:`categories`, in order): count, and up to ``per_category`` examples."""

    counts: dict[str, int]
    examples: dict[str, list[ErrorExample]] = field(default_factory=dict)
    items: list[ErrorItem] = field(default_factory=list)
    rendered: list[tuple[str | None, str | None]] = field(default_factory=list)
    """Per item: the predicted and gold operations it concerns, as text."""

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def share(self, key: str) -> float | None:
        return None if self.total == 0 else self.counts[key] / self.total

    def as_json(self) -> dict:
        return {
            "total": self.total,
            "counts": dict(self.counts),
            "items": [
                {
                    "category": i.category,
                    "case_id": i.case_id,
                    "t": i.t,
                    "pred": i.pred,
                    "gold": i.gold,
                    "detail": i.detail,
                    "predicted_op": p,
                    "gold_op": g,
                }
                for i, (p, g) in zip(self.items, self.rendered)
            ],
        }


def summarize_errors(
    dataset: Dataset,
    result: EvaluationResult,
    *,
    judge: str | LocationJudge | None = None,
    per_category: int = 3,
    comparators: dict[tuple[int, int, str], Comparator] | None = None,
) -> ErrorSummary:
    """Categorize every single-step question of ``result`` (repeat 0) and pick examples.

    Examples are taken in dataset order, preferring distinct cases, so the same inputs give the
    same page. ``judge`` defaults to the one the result was scored with. ``comparators`` (a dict
    kept by the caller) shares each case's comparator among the runs of a report on one dataset.
    """
    the_judge = get_judge(judge if judge is not None else result.summary.judge)
    counts = {c.key: 0 for c in categories()}
    items: list[ErrorItem] = []
    rendered: list[tuple[str | None, str | None]] = []
    comps = comparators if comparators is not None else {}
    examples: dict[str, list[ErrorExample]] = {c.key: [] for c in categories()}
    seen_cases: dict[str, set[str]] = {c.key: set() for c in categories()}
    deferred: dict[str, list[tuple[ErrorItem, object]]] = {c.key: [] for c in categories()}
    for q in result.questions:
        if len(q.matches) == len(q.pred) == len(q.gold):
            continue  # every operation matched (a matching pairs each at most once): categorize finds no error
        case = dataset.case(q.case_id)
        key = (id(dataset), id(the_judge), q.case_id)
        comp = comps.get(key)
        if comp is None:
            comp = comps[key] = comparator_for(case, the_judge)
        before: dict[str, Any] | None = None
        for item in categorize(case, q, comparator=comp):
            counts[item.category] += 1
            items.append(item)
            if before is None:
                before = {ev.id: ev for ev in case.timetable_before(item.t)}
            rendered.append(_rendered(q, item, before))
            bucket = examples[item.category]
            if len(bucket) < per_category:
                if q.case_id in seen_cases[item.category]:
                    deferred[item.category].append((item, q))
                else:
                    seen_cases[item.category].add(q.case_id)
                    bucket.append(_example(dataset, item, q))
    return ErrorSummary(
        counts=counts, examples=_fill(examples, deferred, dataset, per_category), items=items, rendered=rendered
    )


def _fill(examples, deferred, dataset: Dataset, per_category: int) -> dict[str, list[ErrorExample]]:
    for key, rest in deferred.items():  # fill up with repeated cases when distinct ones ran out
        for item, q in rest:
            if len(examples[key]) >= per_category:
                break
            examples[key].append(_example(dataset, item, q))
    return examples


def _rendered(q, item: ErrorItem, before: dict[str, Any]) -> tuple[str | None, str | None]:
    """The operations of ``item`` as text; ``before``: the timetable before its step, by event id."""
    return (
        render_op(q.pred[item.pred], before) if item.pred is not None else None,
        render_op(q.gold[item.gold], before) if item.gold is not None else None,
    )


def _example(dataset: Dataset, item: ErrorItem, q) -> ErrorExample:
    case = dataset.case(item.case_id)
    step = case.steps[item.t - 1]
    before = {ev.id: ev for ev in case.timetable_before(item.t)}
    chats = {c.chat_id: c.name for c in case.chats}
    msgs = [
        ShownMessage(
            time=m.time[11:16] if len(m.time) >= 16 else m.time,
            chat=chats.get(m.chat_id, m.chat_id),
            sender=m.sender,
            text=m.text,
        )
        for m in step.messages
    ]
    return ErrorExample(
        item=item,
        predicted=render_op(q.pred[item.pred], before) if item.pred is not None else None,
        gold=render_op(q.gold[item.gold], before) if item.gold is not None else None,
        messages=msgs[:MAX_MESSAGES],
        more_messages=max(0, len(msgs) - MAX_MESSAGES),
        user=case.user,
    )
