"""Automatic validation of cases (the paper's section 4.3): structural and semantic checks.

Structural: windows are consecutive and of equal length from ``case.start``; messages lie in
their window, in time order, in an existing chat, sent by a member (the user is a member of
every chat); replaying the gold operations from the initial timetable reproduces every gold
timetable (same ids, same attributes) with no invalid operation; the user attends every event
of the timetables (leaving an event is a delete); gold never updates
``description`` (a warning). Semantic: every value a gold operation sets is expressed in the
chats up to the end of its step, or is taken from an event already in the timetable (timetable
linking). The generator rejects the cases that fail; ``proevent validate`` runs the same checks.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from proevent.generate.timeexpr import extract_dates, extract_times
from proevent.model import Case, Event, InsertOp, Timetable, UpdateOp
from proevent.model.times import parse_time

_TITLES = {"dr", "prof", "mrs", "mr", "ms", "the", "and"}


@dataclass(frozen=True)
class Issue:
    severity: Literal["error", "warning"]
    code: str
    """A short reason key, used to count rejections (e.g. ``value_not_expressed``)."""
    case_id: str
    step: int | None
    field: str
    message: str

    def __str__(self) -> str:
        where = f"step {self.step}" if self.step is not None else "case"
        return f"{self.case_id}: {where}: {self.field}: {self.message}"


@dataclass
class ValidationReport:
    cases: int = 0
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def by_reason(self) -> dict[str, int]:
        return dict(sorted(Counter(i.code for i in self.errors).items()))

    def add(self, issues: Iterable[Issue]) -> None:
        for issue in issues:
            (self.errors if issue.severity == "error" else self.warnings).append(issue)

    def to_json(self) -> dict[str, Any]:
        return {
            "cases": self.cases, "ok": self.ok, "errors_by_reason": self.by_reason(),
            "errors": [i.__dict__ for i in self.errors], "warnings": [i.__dict__ for i in self.warnings],
        }


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w&@]+", " ", text.lower()).split())


class _Evidence:
    """What the chats have said so far, plus what the timetable already holds."""

    def __init__(self, user: str) -> None:
        self.user = user
        self.dates: set[date] = set()
        self.times: set[tuple[int, int]] = set()
        self.text = " "
        self.words: set[str] = set()

    def add(self, text: str, at: str) -> None:
        ref = parse_time(at)
        self.dates |= extract_dates(text, ref)
        self.times |= extract_times(text)
        n = _norm(text)
        self.text += n + " "
        self.words |= set(n.split())

    def time_ok(self, value: str, anchors: list[Event]) -> str | None:
        d = date.fromisoformat(value[:10])
        anchor_vals = [v for ev in anchors for v in (ev.start, ev.end) if v]
        if d not in self.dates and d not in {date.fromisoformat(v[:10]) for v in anchor_vals}:
            return f"day {value[:10]} is not expressed in the chats"
        if len(value) == 16:
            hm = (int(value[11:13]), int(value[14:16]))
            anchor_hm = {(int(v[11:13]), int(v[14:16])) for v in anchor_vals if len(v) == 16}
            if hm not in self.times and hm not in anchor_hm:
                return f"time {value[11:]} is not expressed in the chats"
        return None

    def location_ok(self, value: str, anchors: list[Event]) -> str | None:
        if f" {_norm(value)} " in self.text or value in {ev.location for ev in anchors}:
            return None
        return f"location {value!r} is not expressed in the chats"

    def person_ok(self, name: str, members: set[str], anchors: list[Event]) -> bool:
        if name == self.user or name in members or any(name in ev.participants for ev in anchors):
            return True
        tokens = [t for t in _norm(name).split() if len(t) >= 3 and t not in _TITLES]
        return any(t in self.words for t in tokens)


def _structure(case: Case) -> list[Issue]:
    out: list[Issue] = []

    def err(code: str, step: int | None, fld: str, msg: str) -> None:
        out.append(Issue("error", code, case.case_id, step, fld, msg))

    chats = {}
    for i, chat in enumerate(case.chats):
        if chat.chat_id in chats:
            err("duplicate_chat", None, f"chats[{i}].chat_id", f"duplicate chat id {chat.chat_id!r}")
        chats[chat.chat_id] = chat
        if chat.type == "direct" and (len(set(chat.members)) != 2 or case.user not in chat.members):
            err("direct_chat_members", None, f"chats[{i}].members", "a direct chat holds the user and one contact")
    length = None
    prev_end = case.start
    for i, step in enumerate(case.steps):
        t = step.t
        if t != i + 1:
            err("step_numbering", t, f"steps[{i}].t", f"expected t={i + 1}, got {t}")
        if step.start != prev_end:
            err("window", t, f"steps[{i}].start", f"expected {prev_end} (previous end / case start), got {step.start}")
        span = parse_time(step.end) - parse_time(step.start)
        if span.total_seconds() <= 0:
            err("window", t, f"steps[{i}].end", "window end is not after its start")
        elif length is None:
            length = span
        elif span != length:
            err("window", t, f"steps[{i}].end", f"window length {span} differs from {length}")
        prev_end = step.end
        if not step.messages and step.gold_ops:
            # the timetable changes only through what the chats settle; agents skip such steps
            err("change_without_message", t, f"steps[{i}].gold_ops", "a step without messages has gold operations")
        last = None
        for j, msg in enumerate(step.messages):
            fld = f"steps[{i}].messages[{j}]"
            if not step.start <= msg.time < step.end:
                err("message_outside_window", t, f"{fld}.time", f"{msg.time} is outside [{step.start}, {step.end})")
            if last is not None and msg.time < last:
                err("message_order", t, f"{fld}.time", f"{msg.time} is before the previous message ({last})")
            last = msg.time
            chat = chats.get(msg.chat_id)
            if chat is None:
                err("unknown_chat", t, f"{fld}.chat_id", f"no chat {msg.chat_id!r}")
            elif msg.sender != case.user and msg.sender not in chat.members:
                err("sender_not_member", t, f"{fld}.sender", f"{msg.sender!r} is not a member of {msg.chat_id}")
    return out


def _replay(case: Case) -> list[Issue]:
    out: list[Issue] = []
    try:
        table = Timetable(case.initial_timetable)
    except ValueError as exc:
        return [Issue("error", "initial_timetable", case.case_id, None, "initial_timetable", str(exc))]
    for k, ev in enumerate(case.initial_timetable):
        if case.user not in ev.participants:
            out.append(Issue("error", "user_not_participant", case.case_id, None,
                             f"initial_timetable[{k}].participants", f"the user is not a participant of {ev.id}"))
    for i, step in enumerate(case.steps):
        for k, ev in enumerate(step.gold_timetable):
            if case.user not in ev.participants:
                out.append(Issue("error", "user_not_participant", case.case_id, step.t,
                                 f"steps[{i}].gold_timetable[{k}].participants",
                                 f"the user does not attend {ev.id}: leaving an event is a delete"))
        for k, op in enumerate(step.gold_ops):
            if isinstance(op, UpdateOp) and op.attribute == "description":
                out.append(Issue("warning", "description_update", case.case_id, step.t,
                                 f"steps[{i}].gold_ops[{k}]", "gold updates description (never scored)"))
        result = table.apply(step.gold_ops)
        for e in result.errors:
            out.append(Issue("error", "invalid_gold_op", case.case_id, step.t, f"steps[{i}].gold_ops[{e.index}]",
                             e.reason))
        got = {ev.id: ev for ev in result.timetable}
        want = {ev.id: ev for ev in step.gold_timetable}
        if got != want:
            missing = sorted(set(want) - set(got))
            extra = sorted(set(got) - set(want))
            changed = sorted(k for k in set(got) & set(want) if got[k] != want[k])
            out.append(Issue("error", "gold_replay", case.case_id, step.t, f"steps[{i}].gold_timetable",
                             f"replaying gold_ops gives a different timetable (missing {missing}, "
                             f"unexpected {extra}, different {changed})"))
        try:
            table = Timetable(step.gold_timetable, max_id=result.timetable.max_id)
        except ValueError as exc:
            out.append(Issue("error", "gold_timetable", case.case_id, step.t, f"steps[{i}].gold_timetable", str(exc)))
            return out
    return out


def _semantics(case: Case) -> list[Issue]:
    out: list[Issue] = []
    ev = _Evidence(case.user)
    members = {m for c in case.chats for m in c.members}
    anchors: list[Event] = list(case.initial_timetable)
    for i, step in enumerate(case.steps):
        for msg in step.messages:
            ev.add(msg.text, msg.time)
        for k, op in enumerate(step.gold_ops):
            fld = f"steps[{i}].gold_ops[{k}]"
            if isinstance(op, InsertOp):
                pairs = [(a, getattr(op.event, a)) for a in ("start", "end", "location", "participants")]
                fld_of = {a: f"{fld}.event.{a}" for a, _ in pairs}
            elif isinstance(op, UpdateOp) and op.attribute != "description":
                pairs = [(op.attribute, op.value)]
                fld_of = {op.attribute: f"{fld}.value"}
            else:
                continue
            for attr, value in pairs:
                problem = None
                if value is None:
                    continue
                if attr in ("start", "end"):
                    problem = ev.time_ok(value, anchors)
                elif attr == "location":
                    problem = ev.location_ok(value, anchors)
                else:
                    unknown = [n for n in value if not ev.person_ok(n, members, anchors)]
                    if unknown:
                        problem = f"participants {unknown} are not named in the chats"
                if problem:
                    out.append(Issue("error", "value_not_expressed", case.case_id, step.t, fld_of[attr], problem))
        anchors = list(case.initial_timetable) + list(step.gold_timetable)
    return out


def validate_case(case: Case, *, semantic: bool = True) -> list[Issue]:
    """All issues of one case (errors and warnings)."""
    issues = _structure(case) + _replay(case)
    if semantic:
        issues += _semantics(case)
    return issues


def validate_dataset(dataset: Any, *, semantic: bool = True) -> ValidationReport:
    """Validate a :class:`~proevent.io.Dataset` (or any iterable of cases)."""
    cases = dataset.cases if hasattr(dataset, "cases") else list(dataset)
    report = ValidationReport(cases=len(cases))
    for case in cases:
        report.add(validate_case(case, semantic=semantic))
    return report
