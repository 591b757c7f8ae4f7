"""Automatic validation of cases (the paper's section 4.3): structural errors and review flags.

Structural checks give **errors**: windows are consecutive and of equal length from
``case.start``; messages lie in their window, in time order, in an existing chat, sent by a member
(the user is a member of every chat); replaying the gold operations from the initial timetable
reproduces every gold timetable (same ids, same attributes) with no invalid operation; the user
attends every event of the timetables (leaving an event is a delete); a step without messages
has no gold operation. Gold updating ``description`` is a **warning**. They live in
:mod:`proevent.io.structure` (the gate of ``run`` and ``evaluate``, which need not import the
generator); this module re-exports them.

Semantic checks give review **flags**: a doubt a reader has about the gold, not a broken file.
Every value a gold operation sets should be expressed in the chats up to the end of its step, read
the way the gold conventions read real chats (:mod:`proevent.generate.evidence`), or be taken from
an event the timetable already holds (timetable linking); every participant should be a member of
one of the user's chats or of an earlier event. ``proevent validate`` passes with flags unless
``--strict``; the paper's quality control sends the flagged cases to human review (``proevent
serve --review`` shows them first). The generator validates with ``strict=True``, where a flag is
an error: generated text must always be readable.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from proevent.generate.evidence import Evidence, parse_time
from proevent.io.structure import (  # noqa: F401 (re-exported: the structural check's names)
    Issue,
    Severity,
    _replay,
    _structure,
    require_structure,
    structural_errors,
    structural_problems,
)
from proevent.model import Case, Event, InsertOp, UpdateOp


@dataclass
class ValidationReport:
    cases: int = 0
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    flags: list[Issue] = field(default_factory=list)
    """Semantic doubts, for human review; they fail only a strict validation."""

    @property
    def ok(self) -> bool:
        """No error (flags and warnings allowed)."""
        return not self.errors

    def passed(self, strict: bool = False) -> bool:
        """No error, and with ``strict`` no flag either."""
        return self.ok and not (strict and self.flags)

    def by_reason(self) -> dict[str, int]:
        return dict(sorted(Counter(i.code for i in self.errors).items()))

    def flags_by_reason(self) -> dict[str, int]:
        return dict(sorted(Counter(i.code for i in self.flags).items()))

    def flagged_cases(self) -> dict[str, int]:
        """case_id -> number of flags, for the cases that have any (in order of first flag)."""
        return dict(Counter(i.case_id for i in self.flags))

    def add(self, issues: Iterable[Issue]) -> None:
        for issue in issues:
            {"error": self.errors, "warning": self.warnings, "flag": self.flags}[issue.severity].append(issue)

    def to_json(self) -> dict[str, Any]:
        return {
            "cases": self.cases, "ok": self.ok, "strict_ok": self.passed(strict=True),
            "errors_by_reason": self.by_reason(), "flags_by_reason": self.flags_by_reason(),
            "flagged_cases": len(self.flagged_cases()),
            "errors": [i.__dict__ for i in self.errors], "flags": [i.__dict__ for i in self.flags],
            "warnings": [i.__dict__ for i in self.warnings],
        }


def _norm(text: str) -> str:
    """Lower-case words (the ``llm`` realiser's check compares texts with it)."""
    return " ".join(re.sub(r"[^\w&@]+", " ", text.lower()).split())


def _op_values(op: object, fld: str) -> list[tuple[str, Any, str]]:
    """(attribute, value, field path) of what a gold operation sets (nothing for a delete)."""
    if isinstance(op, InsertOp):
        return [(a, getattr(op.event, a), f"{fld}.event.{a}") for a in ("start", "end", "location", "participants")]
    if isinstance(op, UpdateOp) and op.attribute != "description":
        return [(op.attribute, op.value, f"{fld}.value")]
    return []


def _target(op: object, before: dict[str, Event], after: list[Event]) -> Event | None:
    """The event an operation leaves in the step's gold timetable (an insert: the new event equal to it)."""
    if isinstance(op, UpdateOp):
        return next((ev for ev in after if ev.id == op.id), None)
    if isinstance(op, InsertOp):
        data = op.event.model_dump()
        return next((ev for ev in after if ev.id not in before
                     and ev.model_dump(exclude={"id"}) == data), None)
    return None


def _keeps_duration(op: UpdateOp, ops: list[Any], old: Event | None, new: Event | None) -> bool:
    """An ``end`` moved with its ``start`` in the same step, the duration kept ("push it to 8")."""
    if old is None or new is None or not (old.start and old.end and new.start and isinstance(op.value, str)):
        return False
    if not any(isinstance(o, UpdateOp) and o.id == op.id and o.attribute == "start" for o in ops):
        return False
    if len({len(old.start), len(old.end), len(new.start), len(op.value)}) != 1:
        return False
    return _span(new.start, op.value) == _span(old.start, old.end)


def _span(start: str, end: str) -> timedelta:
    if len(start) == 16:
        return parse_time(end) - parse_time(start)
    return date.fromisoformat(end) - date.fromisoformat(start)


def _semantics(case: Case, strict: Collection[str] = ()) -> list[Issue]:
    out: list[Issue] = []
    ev = Evidence(case.user)
    members = {m for c in case.chats for m in c.members}
    partner = {c.chat_id: next((m for m in c.members if m != case.user), "") for c in case.chats
               if c.type == "direct"}
    earlier: list[Event] = list(case.initial_timetable)  # every version of every event held before this step
    before: dict[str, Event] = {e.id: e for e in case.initial_timetable}

    def flag(code: str, step: int, fld: str, problem: str) -> None:
        out.append(Issue("error" if code in strict else "flag", code, case.case_id, step, fld, problem))

    for i, step in enumerate(case.steps):
        for msg in step.messages:
            ev.add(msg)
        for k, op in enumerate(step.gold_ops):
            target = _target(op, before, step.gold_timetable)
            # what a value may come from: earlier events, and the other events as this step leaves them
            known = earlier + [e for e in step.gold_timetable if e is not target and before.get(e.id) != e]
            for attr, value, fld in _op_values(op, f"steps[{i}].gold_ops[{k}]"):
                if value is None:
                    continue
                if attr in ("start", "end"):
                    if attr == "end" and target is not None and ev.duration_gives(target.start, value):
                        continue
                    if (attr == "end" and isinstance(op, UpdateOp)
                            and _keeps_duration(op, step.gold_ops, before.get(op.id), target)):
                        continue
                    problem = ev.time_problem(value, known)
                    if problem:
                        flag("value_not_expressed", step.t, fld, problem)
                elif attr == "location":
                    problem = ev.location_problem(value, known)
                    if problem:
                        flag("value_not_expressed", step.t, fld, problem)
                else:
                    _participants(value, case.user, members, {p for e in earlier for p in e.participants},
                                  ev, partner, lambda code, msg, t=step.t, f=fld: flag(code, t, f, msg))
        for e in step.gold_timetable:
            if before.get(e.id) != e:
                earlier.append(e)
        before = {e.id: e for e in step.gold_timetable}
    return out


def _participants(names: list[str], user: str, members: set[str], in_events: set[str], ev: Evidence,
                  partner: dict[str, str], flag: Any) -> None:
    """The gold conventions' participant rule: the user and the chat members who attend; people
    in no chat of the user are left out (unless an earlier event already lists them)."""
    rest = [n for n in names if n != user and n not in in_events]
    outside = [n for n in rest if n not in members]
    never_said = [n for n in outside if not ev.named(n)]
    if never_said:
        flag("value_not_expressed", f"participants {never_said} are not named in the chats "
             "(and in no chat of the user)")
    if len(never_said) < len(outside):
        flag("participant_not_member", f"{[n for n in outside if n not in never_said]} are in no chat of the user "
             "and in no earlier event (people outside the chats are left out)")
    unseen = [n for n in rest if n in members and not ev.seen(n, partner)]
    if unseen:
        flag("participant_not_seen", f"{unseen} have neither written nor been named in the chats "
             "(silent group members are left out)")


READABILITY_FLAGS: frozenset[str] = frozenset({"value_not_expressed"})
"""The flags that reject a generated case (``pipeline.checked``): its text must say every value.
The participant flags (``participant_not_member``, ``participant_not_seen``) check the gold
conventions' participant rule, which the template generator does not follow yet (it lists silent
group members and people the chats only mention); they go to review."""


def validate_case(case: Case, *, semantic: bool = True, strict: bool | Collection[str] = False) -> list[Issue]:
    """All issues of one case: errors, warnings and (with ``semantic``) review flags.

    Args:
        strict: which semantic doubts are errors instead of flags: ``True`` all of them, a
            collection those codes (the generator passes :data:`READABILITY_FLAGS`: a generated
            case whose values a reader cannot find is rejected, not reviewed).
    """
    issues = _structure(case) + _replay(case)
    if semantic:
        codes = _FLAG_CODES if strict is True else frozenset(strict or ())
        issues += _semantics(case, codes)
    return issues


_FLAG_CODES = frozenset({"value_not_expressed", "participant_not_member", "participant_not_seen"})


def validate_dataset(dataset: Any, *, semantic: bool = True, strict: bool | Collection[str] = False
                     ) -> ValidationReport:
    """Validate a :class:`~proevent.io.Dataset` (or any iterable of cases); see :func:`validate_case`."""
    cases = dataset.cases if hasattr(dataset, "cases") else list(dataset)
    report = ValidationReport(cases=len(cases))
    for case in cases:
        report.add(validate_case(case, semantic=semantic, strict=strict))
    return report
