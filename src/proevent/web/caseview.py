"""What a case page shows: the chats on one time axis, and per step the timetables and operations."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from proevent.model import Case, DeleteOp, Event, EventData, InsertOp, InvalidOp, UpdateOp, parse_ops
from proevent.web.render import format_when


@dataclass
class ChatColumn:
    chat_id: str
    name: str
    type: str
    members: list[str]


@dataclass
class MessageCell:
    time: str
    column: int
    sender: str
    text: str
    from_user: bool


@dataclass
class Window:
    t: int
    start: str
    end: str
    messages: list[MessageCell]
    n_gold: int


@dataclass
class Timeline:
    columns: list[ChatColumn]
    windows: list[Window]


def build_timeline(case: Case) -> Timeline:
    """Chats as columns and messages as rows in time order, grouped by window."""
    columns = [ChatColumn(c.chat_id, c.name, c.type, list(c.members)) for c in case.chats]
    index = {c.chat_id: i for i, c in enumerate(case.chats)}
    windows = []
    for step in case.steps:
        cells = [
            MessageCell(m.time, index.get(m.chat_id, -1), m.sender, m.text, m.sender == case.user)
            for m in sorted(step.messages, key=lambda m: m.time)
        ]
        if any(c.column < 0 for c in cells):
            # A message in a chat the case does not declare still shows, in a column of its own.
            columns.append(ChatColumn("?", "(undeclared chat)", "group", []))
            cells = [MessageCell(c.time, c.column if c.column >= 0 else len(columns) - 1, c.sender,
                                 c.text, c.from_user) for c in cells]
        windows.append(Window(step.t, step.start, step.end, cells, len(step.gold_ops)))
    return Timeline(columns, windows)


@dataclass
class EventRow:
    """One event of a timetable, with what changed (attribute names) and a colour class."""

    id: str
    start: str
    end: str
    location: str
    participants: str
    description: str
    changed: set[str] = field(default_factory=set)
    status: str = ""
    when: str = ""


def event_row(ev: Event, status: str = "", changed: set[str] | None = None) -> EventRow:
    return EventRow(
        id=ev.id,
        start=format_when(ev.start),
        end=format_when(ev.end),
        location=ev.location if ev.location is not None else "?",
        participants=", ".join(ev.participants),
        description=ev.description or "",
        changed=changed or set(),
        status=status,
        when=format_span(ev.start, ev.end),
    )


def format_span(start: str | None, end: str | None) -> str:
    """``2026-03-14 09:00–13:00`` on one day, else both ends in full; ``?`` for an unknown end."""
    if start is not None and end is not None and len(start) == len(end) == 16 and start[:10] == end[:10]:
        return f"{format_when(start)}–{end[11:]}"
    if start is not None and start == end:
        return format_when(start)
    return f"{format_when(start)} → {format_when(end)}"


def timetable_rows(before: list[Event], after: list[Event]) -> tuple[list[EventRow], list[EventRow]]:
    """Both timetables of a step, the deleted events marked in ``before``, new and changed in ``after``."""
    after_ids = {e.id: e for e in after}
    before_ids = {e.id: e for e in before}
    rows_before = [event_row(e, "" if e.id in after_ids else "deleted") for e in before]
    rows_after = []
    for e in after:
        old = before_ids.get(e.id)
        if old is None:
            rows_after.append(event_row(e, "inserted"))
        else:
            changed = {a for a in ("start", "end", "location", "participants", "description")
                       if getattr(old, a) != getattr(e, a)}
            rows_after.append(event_row(e, "updated" if changed else "", changed))
    return rows_before, rows_after


@dataclass
class OpView:
    kind: str
    text: str
    status: str = ""
    note: str = ""


def describe_op(op: Any, events: dict[str, Event] | None = None) -> OpView:
    """A one-line, plain-text description of an operation (parsed or raw)."""
    if not isinstance(op, InsertOp | UpdateOp | DeleteOp | InvalidOp):
        op = parse_ops([op])[0]
    events = events or {}
    if isinstance(op, InsertOp):
        return OpView("insert", describe_event(op.event))
    if isinstance(op, DeleteOp):
        target = events.get(op.id)
        return OpView("delete", op.id + (f" ({target.description})" if target and target.description else ""))
    if isinstance(op, UpdateOp):
        value = ", ".join(op.value) if isinstance(op.value, list) else format_value(op.value)
        return OpView("update", f"{op.id}.{op.attribute} → {value}")
    raw = json.dumps(op.raw, ensure_ascii=False)
    return OpView("invalid", raw if len(raw) <= 300 else raw[:299] + "…", "invalid", op.reason)


def describe_event(ev: EventData) -> str:
    parts = [ev.description or "(no description)", f"{format_when(ev.start)} – {format_when(ev.end)}",
             ev.location if ev.location is not None else "?", ", ".join(ev.participants) or "nobody"]
    return " · ".join(parts)


def format_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, str) and len(value) in (10, 16) and value[4:5] == "-":
        return format_when(value)
    return str(value)


@dataclass
class RunStepView:
    """What one run did at one step, coloured against the gold."""

    run_index: int
    label: str
    problems: list[str] = field(default_factory=list)
    single: dict[str, Any] | None = None
    multi: dict[str, Any] | None = None


def single_view(q: Any, before: list[Event], errors: list[Any] = (), labels: dict[str, str] | None = None
                ) -> dict[str, Any]:
    """Predicted ops (matched / spurious / invalid) and gold ops (matched / missed) of a question.

    ``errors`` are the reports module's error items of the question (category, pred and gold
    indices, detail); each unmatched operation shows its category when there is one.
    """
    labels = labels or {}
    why_pred: dict[int, str] = {}
    why_gold: dict[int, str] = {}
    for item in errors:
        category = str(getattr(item, "category", ""))
        text = labels.get(category, category.replace("_", " "))
        detail = getattr(item, "detail", "")
        note = f"{text}: {detail}" if detail else text
        if getattr(item, "pred", None) is not None:
            why_pred[item.pred] = note
        elif getattr(item, "gold", None) is not None:
            why_gold[item.gold] = note
    events = {e.id: e for e in before}
    matched_pred = {p for p, _ in q.matches}
    matched_gold = {g for _, g in q.matches}
    invalid = set(q.invalid)
    reasons = getattr(q, "invalid_reasons", {})
    pred = []
    for i, op in enumerate(q.pred):
        view = describe_op(op, events)
        view.status = "invalid" if i in invalid else "matched" if i in matched_pred else "spurious"
        if i in invalid and not view.note:
            view.note = reasons.get(i, "")
        if i in why_pred:
            view.note = why_pred[i] + (f" ({view.note})" if view.note else "")
        pred.append(view)
    gold = []
    for j, op in enumerate(q.gold):
        view = describe_op(op, events)
        view.status = "matched" if j in matched_gold else "missed"
        view.note = why_gold.get(j, "")
        gold.append(view)
    return {"pred": pred, "gold": gold, "missing": q.missing, "error": q.error,
            "exact": q.exact}


def multi_view(trace: Any, t: int, raw_ops: list[Any] | None) -> dict[str, Any] | None:
    """The agent's own timetable after step ``t``: events matched, spurious, and gold events missed."""
    step = next((s for s in trace.steps if s.t == t), None)
    if step is None:
        return None
    pred_partner = {p: g for g, p in step.pairs}
    gold_partner = {g: p for g, p in step.pairs}
    own = [event_row(e, "matched" if e.id in pred_partner else "spurious") for e in step.predicted]
    for row in own:
        if row.id in pred_partner:
            row.description += f"  = gold {pred_partner[row.id]}"
    missed = [event_row(e, "missed") for e in step.gold if e.id not in gold_partner]
    ops = [describe_op(op) for op in (raw_ops or [])]
    failed = sorted(g for g, ok in step.event_ok.items() if not ok)
    return {"own": own, "missed": missed, "ops": ops, "timetable_ok": step.timetable_ok,
            "failed_events": failed, "missing": step.missing, "error": step.error,
            "refused": list(step.refused)}
