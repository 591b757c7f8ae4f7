"""The structural check of a loaded dataset: what ``proevent run`` and ``proevent evaluate`` refuse.

Windows are consecutive and of equal length from ``case.start``; messages lie in their window, in
time order, in an existing chat, sent by a member (the user is a member of every chat); replaying
the gold operations from the initial timetable reproduces every gold timetable (same ids, same
attributes) with no invalid operation; the user attends every event of the timetables (leaving an
event is a delete); a step without messages has no gold operation. Gold updating ``description``
is a warning.

It reads the loaded model only, and lives beside the loaders rather than in the generator (whose
:mod:`proevent.generate.validate` adds the semantic review flags and re-exports these names), so
that the commands that gate on it do not import the generator: 0.15 s of every ``run`` and
``evaluate``. A step's messages are read as records (:meth:`proevent.model.Step.message_records`):
the check builds no message object.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from operator import attrgetter, is_
from typing import Any, Literal

from proevent.io.errors import FormatError
from proevent.model import Case, Timetable, UpdateOp

Severity = Literal["error", "warning", "flag"]
_clock = datetime.fromisoformat  # a step's window bounds are times of the format (YYYY-MM-DDTHH:MM)


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
        span = _clock(step.end) - _clock(step.start)
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
    built_from = case.initial_timetable  # the events ``table`` holds, in its order (no id twice)
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
        if not step.gold_ops and len(step.gold_timetable) == len(built_from) \
                and all(map(is_, step.gold_timetable, built_from)):
            continue  # a step that changes nothing and keeps the very events: the table stays as it is
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
        table, built_from = gold, step.gold_timetable
    return out


def structural_errors(dataset: Any) -> list[Issue]:
    """The structural errors of a dataset: what ``proevent run`` and ``proevent evaluate`` refuse
    (gold that does not replay, windows out of order, unknown chats, ...). Review flags and
    warnings never block; they are not computed (the semantic checks are
    :func:`proevent.generate.validate.validate_dataset`'s)."""
    cases = dataset.cases if hasattr(dataset, "cases") else list(dataset)
    return [issue for case in cases for issue in (*_structure(case), *_replay(case)) if issue.severity == "error"]


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
    problems = structural_problems(dataset)
    if problems:
        raise FormatError([*problems, f"{source}: the dataset has structural errors; refused "
                           f"(`proevent validate` shows them all; {override} skips this check)"])


__all__ = ["Issue", "Severity", "require_structure", "structural_errors", "structural_problems"]
