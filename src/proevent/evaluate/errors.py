"""Error categories (the paper's figure 5): every unmatched operation of a single-step question gets one.

:func:`categorize` looks at one scored question (:class:`proevent.evaluate.QuestionScore`). Operations
left out of the maximum matching are first paired up (a predicted with a gold operation) where they
plainly concern the same change -- the same event with a different value, the same event with another
kind of operation, the same change on another event -- and each pair is one error. What stays unpaired
is an error on its own: a prediction on an empty step is a false detection, an unpaired insert a
hallucinated event, an unpaired gold operation a missed need. Pairs are chosen greedily by how
closely they correspond (ties by index), so the result is deterministic.

The category names, labels and descriptions live in ``data/categories.json``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from importlib import resources
from typing import Any

from proevent.evaluate.equivalence import Comparator, comparator_for
from proevent.evaluate.judges import LocationJudge
from proevent.evaluate.single import QuestionScore
from proevent.model import AnyOp, Case, DeleteOp, Event, EventData, InsertOp, InvalidOp, UpdateOp
from proevent.model.times import parse_time

TEMPORAL = ("start", "end")


@dataclass(frozen=True)
class Category:
    key: str
    label: str
    description: str


@lru_cache(maxsize=1)
def _load_categories() -> tuple[Category, ...]:
    text = resources.files("proevent.evaluate").joinpath("data/categories.json").read_text(encoding="utf-8")
    return tuple(Category(**c) for c in json.loads(text)["categories"])


def categories() -> tuple[Category, ...]:
    """Every error category, in the order reports show them."""
    return _load_categories()


def category_label(key: str) -> str:
    for c in _load_categories():
        if c.key == key:
            return c.label
    raise KeyError(f"unknown error category {key!r}")


@dataclass(frozen=True)
class ErrorItem:
    """One error of a single-step question.

    ``pred`` and ``gold`` index :attr:`QuestionScore.pred` and :attr:`QuestionScore.gold`; a pair
    has both, an unpaired operation one of them. Every unmatched operation of the question is in
    exactly one item.
    """

    category: str
    case_id: str
    t: int
    pred: int | None
    gold: int | None
    detail: str


def categorize(
    case: Case,
    question: QuestionScore,
    *,
    judge: str | LocationJudge | None = None,
    comparator: Comparator | None = None,
) -> list[ErrorItem]:
    """The errors of one single-step question, each with a category key of :func:`categories`.

    Args:
        case: the case the question belongs to.
        question: its score, from ``evaluate(...).questions`` or ``score_question``.
        judge: the location judge used to compare values (ignored when ``comparator`` is given;
            ``None``: the current metrics version's).
        comparator: a ready :class:`~proevent.evaluate.Comparator` for the case (faster in loops).

    Returns:
        The errors in a stable order: pairs first (by predicted index), then unpaired predicted
        operations, then unpaired gold operations. Empty for a fully correct answer.
    """
    comp = comparator or comparator_for(case, judge)
    q = question
    up, ug = q.unmatched_pred, q.unmatched_gold
    items: list[ErrorItem] = []
    item = _item_factory(q)
    if not q.gold:  # an empty step: anything predicted is a false detection
        return [item("false_detection", i, None, "acted on a step that needed no operation") for i in up]
    after = {ev.id: ev for ev in case.steps[q.t - 1].gold_timetable}
    before = {ev.id: ev for ev in case.timetable_before(q.t)}
    invalid = set(q.invalid)
    candidates: list[tuple[int, int, int, str, str]] = []
    for i in up:
        for j in ug:
            reason = q.invalid_reasons.get(i, "cannot be applied") if i in invalid else None
            found = _diagnose(q.pred[i], q.gold[j], reason, comp, before, after, case.user)
            if found is not None:
                affinity, category, detail = found
                candidates.append((-affinity, i, j, category, detail))
    used_p: set[int] = set()
    used_g: set[int] = set()
    pairs: list[ErrorItem] = []
    for _, i, j, category, detail in sorted(candidates):
        if i not in used_p and j not in used_g:
            used_p.add(i)
            used_g.add(j)
            pairs.append(item(category, i, j, detail))
    items += sorted(pairs, key=lambda e: e.pred if e.pred is not None else -1)
    for i in up:
        if i in used_p:
            continue
        op = q.pred[i]
        if i in invalid:
            reason = q.invalid_reasons.get(i, getattr(op, "reason", "invalid"))
            items.append(item("invalid_operation", i, None, f"cannot be applied: {reason}"))
        elif isinstance(op, InsertOp):
            items.append(
                item("hallucinated_event", i, None, "inserted an event that no needed operation corresponds to")
            )
        else:
            items.append(item("spurious_change", i, None, f"{op.op} of {op.id} that the chats did not call for"))
    for j in ug:
        if j in used_g:
            continue
        if q.error is not None or q.missing:
            why = f"the line errored ({q.error})" if q.error is not None else "no prediction line"
            items.append(item("no_answer", None, j, why))
        elif not q.pred:
            items.append(item("missed_need", None, j, "nothing predicted at this step"))
        else:
            items.append(item("missed_need", None, j, "no predicted operation addresses it"))
    return items


def _item_factory(q: QuestionScore):
    def make(category: str, pred: int | None, gold: int | None, detail: str) -> ErrorItem:
        return ErrorItem(category=category, case_id=q.case_id, t=q.t, pred=pred, gold=gold, detail=detail)

    return make


def _diagnose(
    p: AnyOp,
    g: AnyOp,
    p_invalid: str | None,
    comp: Comparator,
    before: dict[str, Event],
    after: dict[str, Event],
    user: str,
) -> tuple[int, str, str] | None:
    """(affinity, category, detail) when ``p`` and ``g`` plainly concern the same change, else ``None``.

    ``p_invalid`` is why ``p`` cannot be applied, or ``None`` when it can."""
    if p_invalid is not None or isinstance(p, InvalidOp):
        if p.op != g.op:
            return None
        same_id = isinstance(p, InvalidOp) and isinstance(p.raw, dict) and p.raw.get("id") == getattr(g, "id", 0)
        same_id = same_id or (not isinstance(p, InvalidOp) and getattr(p, "id", None) == getattr(g, "id", 0))
        return 1 + same_id, "invalid_operation", f"cannot be applied: {p_invalid or getattr(p, 'reason', '')}"
    if isinstance(g, InvalidOp):  # gold is always valid; be defensive
        return None
    if isinstance(p, UpdateOp) and isinstance(g, UpdateOp):
        if p.id == g.id:
            if p.attribute == g.attribute:
                return (10, *_value_error(p.attribute, p.value, g.value, comp))
            if p.attribute in TEMPORAL and g.attribute in TEMPORAL:
                return 7, "temporal", f"changed {p.attribute} instead of {g.attribute} of {g.id}"
            return 5, _family(g.attribute), f"changed {p.attribute} of {g.id} instead of its {g.attribute}"
        if p.attribute == g.attribute:
            same_value = comp.value_equal(g.attribute, p.value, g.value, (p, g))
            what = "the right" if same_value else "a"
            return (
                (7 if same_value else 4),
                "update_mismatch",
                (f"{what} change of {g.attribute} applied to {p.id} instead of {g.id}"),
            )
        return None
    if isinstance(p, DeleteOp) and isinstance(g, DeleteOp):
        return 4, "update_mismatch", f"deleted {p.id} instead of {g.id}"
    if isinstance(p, DeleteOp) and isinstance(g, UpdateOp) and p.id == g.id:
        return 8, "wrong_op_type", f"deleted {p.id} instead of updating its {g.attribute}"
    if isinstance(p, UpdateOp) and isinstance(g, DeleteOp) and p.id == g.id:
        if p.attribute == "participants" and comp.people.canonical(user) not in comp.people.canonical_set(p.value):
            return 9, "third_person", f"removed {user} from the participants of {g.id} instead of deleting it"
        return 8, "wrong_op_type", f"updated {p.attribute} of {g.id} instead of deleting it"
    if isinstance(p, InsertOp) and isinstance(g, InsertOp):
        return _insert_pair(p.event, g.event, comp)
    if isinstance(p, InsertOp) and isinstance(g, UpdateOp) and g.id in after:
        target = after[g.id]
        if comp.value_equal(g.attribute, getattr(p.event, g.attribute), g.value) and (
            _equal_attributes(p.event, target, comp) >= 3
        ):
            return 6, "wrong_op_type", f"inserted a copy of {g.id} instead of updating its {g.attribute}"
        return None
    if isinstance(p, UpdateOp) and isinstance(g, InsertOp) and p.attribute != "description":
        if comp.value_equal(p.attribute, p.value, getattr(g.event, p.attribute)):
            return 2, "update_mismatch", f"changed {p.attribute} of existing {p.id} where a new event was needed"
    return None


def _family(attribute: str) -> str:
    return "temporal" if attribute in TEMPORAL else attribute


def _value_error(attribute: str, pred: Any, gold: Any, comp: Comparator) -> tuple[str, str]:
    if attribute in TEMPORAL:
        days = whole_day_shift(pred, gold)
        if days:
            return "weekday_arithmetic", f"{attribute} {_show(pred)} instead of {_show(gold)} ({days:+d} days)"
        return "temporal", f"{attribute} {_show(pred)} instead of {_show(gold)}"
    return _family(attribute), f"{attribute} {_show(pred)} instead of {_show(gold)}"


def _insert_pair(p: EventData, g: EventData, comp: Comparator) -> tuple[int, str, str] | None:
    differing = [a for a in ("start", "end", "location", "participants") if not _attr_equal(a, p, g, comp)]
    equal = 4 - len(differing)
    shifts = {a: whole_day_shift(getattr(p, a), getattr(g, a)) for a in TEMPORAL if a in differing}
    if equal < 2 and not (shifts.get("start") and equal >= 1):
        return None
    parts = [f"{a} {_show(getattr(p, a))} instead of {_show(getattr(g, a))}" for a in differing]
    detail = "inserted with " + "; ".join(parts)
    if shifts:
        if all(shifts.values()):
            return 3 + equal, "weekday_arithmetic", detail + f" ({shifts.get('start') or shifts.get('end'):+d} days)"
        return 3 + equal, "temporal", detail
    return 3 + equal, _family(differing[0]), detail


def _attr_equal(attribute: str, a: EventData, b: EventData, comp: Comparator) -> bool:
    return comp.value_equal(attribute, getattr(a, attribute), getattr(b, attribute), (a, b))


def _equal_attributes(a: EventData, b: EventData, comp: Comparator) -> int:
    return sum(_attr_equal(x, a, b, comp) for x in ("start", "end", "location", "participants"))


def whole_day_shift(pred: str | None, gold: str | None) -> int:
    """The shift in days from ``gold`` to ``pred`` when it is a non-zero whole number of days, else 0.

    Two times must have the same time of day; two dates always differ by whole days; a date and a
    time, or ``None``, never do.
    """
    if not isinstance(pred, str) or not isinstance(gold, str) or len(pred) != len(gold):
        return 0
    try:
        delta = parse_time(pred) - parse_time(gold)
    except ValueError:
        return 0
    seconds = int(delta.total_seconds())
    return seconds // 86400 if seconds and seconds % 86400 == 0 else 0


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return repr(value) if isinstance(value, str) and not _looks_like_time(value) else str(value)


_ISO_FORM = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2})?\Z")


def _looks_like_time(value: str) -> bool:
    if _ISO_FORM.match(value):  # the usual case: fromisoformat reads these forms as strptime does, 20x faster
        try:
            datetime.fromisoformat(value)
            return True
        except ValueError:
            return False
    if not value[:1].isdigit():
        return False  # both formats start with the year (places and titles end here)
    for fmt in ("%Y-%m-%dT%H:%M", "%Y-%m-%d"):
        try:
            datetime.strptime(value, fmt)
            return True
        except ValueError:
            pass
    return False


def render_op(op: AnyOp, timetable: dict[str, Event] | None = None) -> str:
    """A one-line human reading of an operation (with the event's description when ``timetable`` knows the id)."""
    if isinstance(op, InvalidOp):
        return f"invalid {json.dumps(op.raw, ensure_ascii=False)}"
    if isinstance(op, InsertOp):
        ev = op.event
        desc = f"{ev.description!r} " if ev.description else ""
        who = ", ".join(ev.participants) or "nobody"
        return f"insert {desc}{_show(ev.start)}–{_show(ev.end)} at {_show(ev.location)} with {who}"
    name = op.id
    if timetable is not None and op.id in timetable and timetable[op.id].description:
        name = f"{op.id} ({timetable[op.id].description})"
    if isinstance(op, UpdateOp):
        return f"update {name} {op.attribute} → {_show(op.value)}"
    return f"delete {name}"
