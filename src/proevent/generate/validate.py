"""Automatic validation of cases (the paper's section 4.3): structural errors and review flags.

Structural checks give **errors**: windows are consecutive and of equal length from
``case.start``; messages lie in their window, in time order, in an existing chat, sent by a member
(the user is a member of every chat); replaying the gold operations from the initial timetable
reproduces every gold timetable (same ids, same attributes) with no invalid operation; the user
attends every event of the timetables (leaving an event is a delete); a step without messages
has no gold operation. Gold updating ``description`` is a **warning**.

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
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from operator import attrgetter
from typing import Any, Literal

from proevent.generate.evidence import Evidence, parse_time
from proevent.model import Case, Event, InsertOp, Timetable, UpdateOp

Severity = Literal["error", "warning", "flag"]


@dataclass(frozen=True)
class Issue:
    severity: Severity
    code: str
    """A short reason key, used to count rejections and flags (e.g. ``value_not_expressed``)."""
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
    # who may write in each chat: its members and the user. A step's messages are checked at once:
    # times in order (sorted already) and inside the window, every (chat, sender) pair allowed; a
    # step that fails goes through the message-by-message check, which words each problem
    senders = {(chat_id, name) for chat_id, chat in chats.items() for name in (case.user, *chat.members)}
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
        messages = step.message_records()  # their fields are read only: no Message is built
        if not messages and step.gold_ops:
            # the timetable changes only through what the chats settle; agents skip such steps
            err("change_without_message", t, f"steps[{i}].gold_ops", "a step without messages has gold operations")
        times = list(map(_TIME_OF, messages))
        if times and (times[0] < step.start or times[-1] >= step.end or times != sorted(times)
                      or not set(map(_CHAT_AND_SENDER, messages)) <= senders):
            _message_errors(messages, step.start, step.end, t, i, chats, case.user, err)
    return out


_TIME_OF = attrgetter("time")
_CHAT_AND_SENDER = attrgetter("chat_id", "sender")


def _message_errors(messages: Sequence[Any], start: str, end: str, t: int, i: int, chats: dict[str, Any], user: str,
                    err: Callable[[str, int | None, str, str], None]) -> None:
    """The message errors of step ``t`` (index ``i``), one by one, in message order."""
    last = None
    for j, msg in enumerate(messages):
        fld = f"steps[{i}].messages[{j}]"
        if not start <= msg.time < end:
            err("message_outside_window", t, f"{fld}.time", f"{msg.time} is outside [{start}, {end})")
        if last is not None and msg.time < last:
            err("message_order", t, f"{fld}.time", f"{msg.time} is before the previous message ({last})")
        last = msg.time
        chat = chats.get(msg.chat_id)
        if chat is None:
            err("unknown_chat", t, f"{fld}.chat_id", f"no chat {msg.chat_id!r}")
        elif msg.sender != user and msg.sender not in chat.members:
            err("sender_not_member", t, f"{fld}.sender", f"{msg.sender!r} is not a member of {msg.chat_id}")


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
    attends: set[int] = set()  # the events (by object: a case shares them from step to step) the user attends
    for i, step in enumerate(case.steps):
        for k, ev in enumerate(step.gold_timetable):
            if id(ev) in attends:
                continue
            if case.user in ev.participants:
                attends.add(id(ev))
                continue
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
        try:
            gold: Timetable | None = Timetable(step.gold_timetable, max_id=result.timetable.max_id)
        except ValueError as exc:
            gold, duplicate = None, exc
        # no duplicate id: the gold table holds ``want`` below, in order, and tables compare as those dicts
        if gold is None or result.timetable != gold:
            got = {ev.id: ev for ev in result.timetable}
            want = {ev.id: ev for ev in step.gold_timetable}
            if got != want:
                missing = sorted(set(want) - set(got))
                extra = sorted(set(got) - set(want))
                changed = sorted(k for k in set(got) & set(want) if got[k] != want[k])
                out.append(Issue("error", "gold_replay", case.case_id, step.t, f"steps[{i}].gold_timetable",
                                 f"replaying gold_ops gives a different timetable (missing {missing}, "
                                 f"unexpected {extra}, different {changed})"))
        if gold is None:
            out.append(Issue("error", "gold_timetable", case.case_id, step.t, f"steps[{i}].gold_timetable",
                             str(duplicate)))
            return out
        table = gold
    return out


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


def structural_errors(dataset: Any) -> list[Issue]:
    """The structural errors of a dataset: what ``proevent run`` and ``proevent evaluate`` refuse
    (gold that does not replay, windows out of order, unknown chats, ...). Review flags and
    warnings never block; they are not computed."""
    return validate_dataset(dataset, semantic=False).errors


def structural_problems(dataset: Any, *, limit: int = 20) -> list[str]:
    """:func:`structural_errors` as ``cases.jsonl:LINE: field: message (case, reason)`` lines
    (at most ``limit``, then a count of the rest); empty when the dataset has none.

    The line is known for a dataset from :func:`proevent.io.load_dataset` (``dataset.lines``)."""
    errors = structural_errors(dataset)
    lines: dict[str, int] = getattr(dataset, "lines", {}) or {}
    out = []
    for issue in errors[:limit]:
        where = f"cases.jsonl:{lines[issue.case_id]}" if issue.case_id in lines else "cases.jsonl"
        out.append(f"{where}: {issue.field}: {issue.message} ({issue.case_id}, {issue.code})")
    if len(errors) > limit:
        out.append(f"... and {len(errors) - limit} more structural errors (`proevent validate` lists them all)")
    return out


def require_structure(dataset: Any, source: object, *, override: str = "--no-validate") -> None:
    """The gate of ``proevent run`` and ``proevent evaluate``: raise when the dataset has structural
    errors (flags and warnings never block).

    Raises:
        FormatError: one ``cases.jsonl:LINE: field: message`` line per error (at most 20), then
            ``SOURCE: the dataset has structural errors; refused (... OVERRIDE ...)``.
    """
    from proevent.io.errors import FormatError

    problems = structural_problems(dataset)
    if problems:
        raise FormatError([*problems, f"{source}: the dataset has structural errors; refused "
                           f"(`proevent validate` shows them all; {override} skips this check)"])
