"""Compile the hand-written development set: ``src/*.txt`` -> ``cases.jsonl`` + ``dataset.json``.

Run ``python examples/handwritten/build.py``. The source format is one text file per group of
cases (see README.md in this folder): a header (category, user, chats, the initial timetable),
then ``---``, then the messages in time order, each followed by the gold operations it settles
(``> insert | ...``, ``> update ID ATTRIBUTE VALUE``, ``> delete ID``). The builder derives the
windows, the steps, the gold operations per step and the gold timetable per step, applying the
operations with :class:`proevent.model.Timetable` (which assigns insert ids by the id rule).

Every problem is reported as ``src/FILE:LINE: what is wrong``; the script then exits with 1.
The output is deterministic: the same sources give the same bytes (``created`` is pinned).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import ValidationError

from proevent.generate.contacts import contact_pool
from proevent.generate.phenomena import PHENOMENA
from proevent.io import write_dataset
from proevent.model import (
    AnyOp,
    Case,
    Chat,
    DeleteOp,
    Event,
    EventData,
    InsertOp,
    Message,
    Step,
    Timetable,
    UpdateOp,
    normalize_time,
    parse_time,
)

HERE = Path(__file__).resolve().parent
NAME = "proevent-handwritten"
VERSION = "1.0.0"
CREATED = "2026-03-01T00:00"
"""Pinned, so that a rebuild gives the same ``dataset.json``."""

HEADER_KEYS: tuple[str, ...] = ("category", "subcategory", "phenomena", "user", "timezone", "start", "window")

_CASE_RE = re.compile(r"^#\s*case\s+(\S+)\s*$")
_KEY_RE = re.compile(r"^([a-z_]+):\s*(.*)$")
_CHAT_RE = re.compile(r"^chat\s+(\S+)\s+(direct|group)\s+(.+?)\s*\|\s*(.+?)\s*$")
_MSG_RE = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})\s+(\S+)\s+([^:]+?):\s(.*)$")
_WINDOW_RE = re.compile(r"^(?:(\d+)h)?(?:(\d+)m)?$")
_CASE_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class BuildError(Exception):
    """The sources hold problems; ``problems`` lists every ``FILE:LINE: message``."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass
class _Op:
    line: int
    op: AnyOp


@dataclass
class _Msg:
    line: int
    message: Message
    ops: list[_Op] = field(default_factory=list)


@dataclass
class _Draft:
    """One case as read from its source lines, before the steps are derived."""

    where: str
    case_id: str
    line: int
    keys: dict[str, tuple[int, str]] = field(default_factory=dict)
    chats: list[tuple[int, Chat]] = field(default_factory=list)
    events: list[tuple[int, Event]] = field(default_factory=list)
    messages: list[_Msg] = field(default_factory=list)
    body: bool = False


def _null(text: str) -> str | None:
    text = text.strip()
    return None if text == "-" else text


def _names(text: str) -> list[str]:
    text = text.strip()
    if text == "-":
        return []
    return [n.strip() for n in text.split(",") if n.strip()]


def _time(text: str) -> str | None:
    value = _null(text)
    if value is not None and not re.fullmatch(r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?", value):
        raise ValueError(f"invalid time {value!r}: expected YYYY-MM-DDTHH:MM, YYYY-MM-DD or -")
    return normalize_time(value)


def _window(text: str) -> timedelta:
    m = _WINDOW_RE.match(text.strip())
    if not text.strip() or not m or not (m.group(1) or m.group(2)):
        raise ValueError(f"invalid window {text.strip()!r}: expected e.g. 4h, 90m or 1h30m")
    span = timedelta(hours=int(m.group(1) or 0), minutes=int(m.group(2) or 0))
    if span <= timedelta(0):
        raise ValueError("the window must be longer than zero")
    return span


def _event_fields(text: str) -> EventData:
    """``start | end | location | participants | description`` as an event's data."""
    parts = [p.strip() for p in text.split("|")]
    if len(parts) != 5:
        raise ValueError(f"expected 5 fields 'start | end | location | participants | description', got {len(parts)}")
    start, end, location, people, description = parts
    return EventData(start=_time(start), end=_time(end), location=_null(location), participants=_names(people),
                     description=_null(description))


def _parse_op(text: str) -> AnyOp:
    body = text[1:].strip()
    verb, _, rest = body.partition(" ")
    if verb == "insert":
        if not rest.strip().startswith("|"):
            raise ValueError("insert: expected '> insert | start | end | location | participants | description'")
        return InsertOp(event=_event_fields(rest.strip()[1:]))
    if verb == "delete":
        ids = rest.split()
        if len(ids) != 1:
            raise ValueError("delete: expected '> delete ID'")
        return DeleteOp(id=ids[0])
    if verb == "update":
        parts = rest.strip().split(None, 2)
        if len(parts) < 3:
            raise ValueError("update: expected '> update ID ATTRIBUTE VALUE'")
        eid, attribute, raw = parts
        if attribute == "description":
            raise ValueError("update: gold never updates description")
        if attribute in ("start", "end"):
            value: object = _time(raw)
        elif attribute == "participants":
            value = _names(raw)
        elif attribute == "location":
            value = _null(raw)
        else:
            raise ValueError(f"update: unknown attribute {attribute!r} (start, end, location, participants)")
        return UpdateOp(id=eid, attribute=attribute, value=value)
    raise ValueError(f"unknown operation {verb!r} (expected insert, update or delete)")


def _first_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"] if p not in ("insert", "update", "delete"))
        msg = err["msg"].removeprefix("Value error, ")
        return f"{loc}: {msg}" if loc else msg
    return str(exc)


class _Reader:
    """Reads the lines of one source file into drafts, collecting problems."""

    def __init__(self, where: str, problems: list[str]) -> None:
        self.where = where
        self.problems = problems
        self.drafts: list[_Draft] = []

    def error(self, line: int, message: str) -> None:
        self.problems.append(f"{self.where}:{line}: {message}")

    def read(self, text: str) -> list[_Draft]:
        draft: _Draft | None = None
        for lineno, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            m = _CASE_RE.match(line)
            if m:
                draft = _Draft(self.where, m.group(1), lineno)
                if not _CASE_ID_RE.match(draft.case_id):
                    self.error(lineno, f"case: invalid case id {draft.case_id!r}")
                self.drafts.append(draft)
                continue
            if not line or line.startswith("#"):
                continue
            if draft is None:
                self.error(lineno, "line before the first '# case ID' header")
                continue
            try:
                if draft.body:
                    self._body(draft, lineno, line)
                else:
                    self._header(draft, lineno, line)
            except (ValueError, ValidationError) as exc:
                self.error(lineno, _first_error(exc))
        return self.drafts

    def _header(self, draft: _Draft, lineno: int, line: str) -> None:
        if line == "---":
            draft.body = True
            return
        if line.startswith("chat "):
            m = _CHAT_RE.match(line)
            if not m:
                raise ValueError("chat: expected 'chat ID direct NAME | DISPLAY-NAME' or 'chat ID group NAME | A, B'")
            return self._chat(draft, lineno, *m.groups())
        if line.startswith("event "):
            eid, sep, rest = line[len("event "):].partition("|")
            if not sep or not eid.strip():
                raise ValueError("event: expected 'event ID | start | end | location | participants | description'")
            try:
                data = _event_fields(rest)
            except (ValueError, ValidationError) as exc:
                raise ValueError(f"event {eid.strip()}: {_first_error(exc)}") from None
            draft.events.append((lineno, Event(id=eid.strip(), **dict(data))))
            return
        m = _KEY_RE.match(line)
        if not m or m.group(1) not in HEADER_KEYS:
            raise ValueError(f"unknown header line {line!r} (expected {', '.join(HEADER_KEYS)}, chat, event or ---)")
        if m.group(1) in draft.keys:
            raise ValueError(f"{m.group(1)}: given twice (first on line {draft.keys[m.group(1)][0]})")
        draft.keys[m.group(1)] = (lineno, m.group(2).strip())

    def _chat(self, draft: _Draft, lineno: int, cid: str, kind: str, left: str, right: str) -> None:
        user = draft.keys.get("user", (0, ""))[1]
        if not user:
            raise ValueError("chat: the 'user:' line must come before the chats")
        if kind == "direct":
            members, name = [user, left.strip()], right.strip()
        else:
            members, name = [user, *_names(right)], left.strip()
        if len(set(members)) != len(members):
            raise ValueError(f"chat {cid}: a member is listed twice (or is the user)")
        if any(c.chat_id == cid for _, c in draft.chats):
            raise ValueError(f"chat {cid}: duplicate chat id")
        draft.chats.append((lineno, Chat(chat_id=cid, name=name, type=kind, members=members)))

    def _body(self, draft: _Draft, lineno: int, line: str) -> None:
        if line.startswith(">"):
            words = line[1:].split(None, 1)
            verb = words[0] if words and words[0] in ("insert", "update", "delete") else "operation"
            try:
                op = _parse_op(line)
            except (ValueError, ValidationError) as exc:
                msg = _first_error(exc)
                raise ValueError(msg if msg.startswith(f"{verb}:") else f"{verb}: {msg}") from None
            if not draft.messages:
                raise ValueError(f"{verb}: gold operation before any message "
                                 "(an operation follows the message that settles it)")
            draft.messages[-1].ops.append(_Op(lineno, op))
            return
        m = _MSG_RE.match(line)
        if not m:
            raise ValueError(f"expected a message 'TIME CHAT SENDER: TEXT' or a gold line '> ...', got {line!r}")
        time, cid, sender, text = m.groups()
        if not text.strip():
            raise ValueError("message: empty text")
        draft.messages.append(_Msg(lineno, Message(chat_id=cid, time=time, sender=sender.strip(), text=text)))


def _compile(draft: _Draft, subcategories: dict[str, list[str]], problems: list[str]) -> Case | None:
    """Check one draft and derive its steps; ``None`` when it has problems (appended)."""
    before = len(problems)

    def error(line: int, message: str) -> None:
        problems.append(f"{draft.where}:{line}: {message}")

    if not draft.body:
        error(draft.line, f"case {draft.case_id}: no '---' line before the messages")
    for key in HEADER_KEYS:
        if key not in draft.keys:
            error(draft.line, f"case {draft.case_id}: missing header '{key}:'")
    if len(problems) > before:
        return None
    keys = {k: v for k, (_, v) in draft.keys.items()}
    line_of = {k: n for k, (n, _) in draft.keys.items()}
    category, subcategory, user = keys["category"], keys["subcategory"], keys["user"]
    if category not in subcategories:
        error(line_of["category"], f"category: unknown {category!r} (one of {', '.join(subcategories)})")
    elif subcategory not in subcategories[category]:
        error(line_of["subcategory"], f"subcategory: {subcategory!r} is not a subcategory of {category}")
    phenomena = _names(keys["phenomena"])
    for tag in phenomena:
        if tag not in PHENOMENA:
            error(line_of["phenomena"], f"phenomena: unknown tag {tag!r}")
    if len(set(phenomena)) != len(phenomena):
        error(line_of["phenomena"], "phenomena: a tag is listed twice")
    try:
        ZoneInfo(keys["timezone"])
    except (ZoneInfoNotFoundError, ValueError):
        error(line_of["timezone"], f"timezone: unknown IANA time zone {keys['timezone']!r}")
    try:
        start = _time(keys["start"])
        if start is None or len(start) != 16:
            raise ValueError(f"expected a time YYYY-MM-DDTHH:MM, got {keys['start']!r}")
    except ValueError as exc:
        error(line_of["start"], f"start: {exc}")
        start = None
    try:
        window = _window(keys["window"])
    except ValueError as exc:
        error(line_of["window"], f"window: {exc}")
        window = None
    if not draft.chats:
        error(draft.line, f"case {draft.case_id}: no chat")
    if not draft.messages:
        error(draft.line, f"case {draft.case_id}: no message")
    chats = {c.chat_id: c for _, c in draft.chats}
    people = {user} | {m for c in chats.values() for m in c.members}

    def check_people(line: int, names: list[str], what: str) -> None:
        for name in names:
            if name not in people:
                error(line, f"{what}: participant {name!r} is not the user or a member of a chat")
        if user not in names:
            error(line, f"{what}: the user {user!r} is not a participant (the timetable holds only the user's events)")

    for lineno, ev in draft.events:
        check_people(lineno, ev.participants, f"event {ev.id}")
    try:
        table = Timetable([ev for _, ev in draft.events])
    except ValueError as exc:
        error(draft.line, f"initial timetable: {exc}")
        table = Timetable()
    last: str | None = None
    ordered = True
    for msg in draft.messages:
        m = msg.message
        chat = chats.get(m.chat_id)
        if chat is None:
            error(msg.line, f"message: unknown chat {m.chat_id!r}")
        elif m.sender not in chat.members:
            error(msg.line, f"message: sender {m.sender!r} is not a member of {m.chat_id} ({', '.join(chat.members)})")
        if start is not None and m.time < start:
            error(msg.line, f"message: {m.time} is before the case start {start}")
        if last is not None and m.time < last:
            error(msg.line, f"message: {m.time} is before the previous message ({last}): not in time order")
            ordered = False
        last = m.time
        for op in msg.ops:
            if isinstance(op.op, InsertOp):
                check_people(op.line, op.op.event.participants, "insert")
            elif isinstance(op.op, UpdateOp) and op.op.attribute == "participants":
                check_people(op.line, op.op.value, "update")
    if start is None or window is None or not draft.messages or not ordered:
        return None
    if start > draft.messages[0].message.time:
        return None
    steps = _steps(draft, table, start, window, error)
    if len(problems) > before:
        return None
    meta = {"category": category, "subcategory": subcategory, "phenomena": sorted(phenomena),
            "concurrent_chats": len(chats), "realizer": "handwritten"}
    return Case(case_id=draft.case_id, user=user, timezone=keys["timezone"], start=start,
                initial_timetable=[ev for _, ev in draft.events], chats=list(chats.values()), steps=steps, meta=meta)


def _steps(draft: _Draft, table: Timetable, start: str, window: timedelta, error) -> list[Step]:
    """Consecutive windows from ``start`` up to the one holding the last message, with their gold."""
    t0 = parse_time(start)
    count = int((parse_time(draft.messages[-1].message.time) - t0) / window) + 1
    steps: list[Step] = []
    pending = list(draft.messages)
    for t in range(1, count + 1):
        lo, hi = t0 + (t - 1) * window, t0 + t * window
        mine = [m for m in pending if parse_time(m.message.time) < hi]
        pending = pending[len(mine):]
        ops = [op for m in mine for op in m.ops]
        result = table.apply([op.op for op in ops])
        for e in result.errors:
            hint = " (not in the timetable before this step)" if e.reason.startswith("unknown id") else ""
            error(ops[e.index].line, f"{ops[e.index].op.op}: {e.reason}{hint}")
        new = result.timetable
        touched: dict[str, int] = {}
        for k, op in enumerate(ops):
            if isinstance(op.op, InsertOp):
                touched[result.inserted_ids[sum(isinstance(o.op, InsertOp) for o in ops[:k])]] = op.line
            elif isinstance(op.op, UpdateOp) and k not in result.invalid_indices():
                if getattr(table[op.op.id], op.op.attribute) == op.op.value:
                    error(op.line, f"update: {op.op.id} {op.op.attribute} is already {op.op.value!r}")
                touched[op.op.id] = op.line
        for eid, line in touched.items():
            ev = new[eid] if eid in new else None
            if ev is not None and ev.start and ev.end and parse_time(ev.end) < parse_time(ev.start):
                error(line, f"{eid}: end {ev.end} is before start {ev.start}")
        steps.append(Step(t=t, start=lo.strftime("%Y-%m-%dT%H:%M"), end=hi.strftime("%Y-%m-%dT%H:%M"),
                          messages=[m.message for m in mine], gold_ops=[op.op for op in ops],
                          gold_timetable=new.events))
        table = new
    return steps


def build(src_dir: str | Path = HERE / "src") -> list[Case]:
    """Every case of ``src_dir/*.txt`` (files sorted by name, cases in file order).

    Raises:
        BuildError: with one ``src/FILE:LINE: message`` per problem, for all files.
    """
    src = Path(src_dir)
    files = sorted(src.glob("*.txt"))
    problems: list[str] = []
    if not files:
        raise BuildError([f"{src}: no *.txt source file"])
    subcategories = contact_pool().subcategories()
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for path in files:
        where = f"{src.name}/{path.name}"
        drafts = _Reader(where, problems).read(path.read_text(encoding="utf-8"))
        for draft in drafts:
            if draft.case_id in seen:
                problems.append(f"{where}:{draft.line}: case: duplicate case id {draft.case_id!r} "
                                f"(first in {seen[draft.case_id]})")
            seen.setdefault(draft.case_id, f"{where}:{draft.line}")
            case = _compile(draft, subcategories, problems)
            if case is not None:
                cases.append(case)
    if problems:
        raise BuildError(problems)
    return cases


def write(cases: list[Case], out_dir: str | Path = HERE, name: str = NAME) -> None:
    """``cases.jsonl`` and ``dataset.json`` in ``out_dir`` (replacing what is there)."""
    write_dataset(out_dir, cases, name=name, version=VERSION, created=CREATED,
                  generator={"builder": "examples/handwritten/build.py", "source": "hand-written"}, overwrite=True)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=HERE / "src", help="folder of the *.txt sources")
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write cases.jsonl and dataset.json to")
    parser.add_argument("--name", default=NAME, help="the dataset's name (another set of sources in this format)")
    args = parser.parse_args(argv)
    try:
        cases = build(args.src)
    except BuildError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"{len(exc.problems)} problem(s); nothing written", file=sys.stderr)
        return 1
    write(cases, args.out, args.name)
    steps = sum(len(c.steps) for c in cases)
    print(f"{len(cases)} cases, {steps} steps -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
