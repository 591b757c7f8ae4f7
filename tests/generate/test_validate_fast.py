"""The structural check's fast paths (a step's messages checked at once, an event the user attends
checked once, gold tables compared as tables) find exactly what the message-by-message,
event-by-event check finds, in the same order, with the same words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proevent.generate.evidence import parse_time
from proevent.io.fastcase import FastCases
from proevent.io.structure import Issue, _replay, _structure
from proevent.model import Case, Timetable, UpdateOp

ROOT = Path(__file__).resolve().parents[2]
LINES = [raw for name in ("tiny", "handwritten", "booking")
         for raw in (ROOT / "examples" / name / "cases.jsonl").read_bytes().splitlines() if raw.strip()]


def reference_structure(case: Case) -> list[Issue]:
    """The check as it was written before the fast paths (every message on its own)."""
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


def reference_replay(case: Case) -> list[Issue]:
    """The gold replay as it was written before the fast paths."""
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


def both_ways(data: dict) -> None:
    """The fast check on the case as the fast reader loads it (messages pending) and as pydantic
    builds it, against the reference on the same case."""
    careful = Case.model_validate(data)
    expected = reference_structure(careful) + reference_replay(careful)
    assert _structure(careful) + _replay(careful) == expected
    fast = FastCases().case(json.dumps(data).encode())
    if fast is not None:
        assert _structure(fast) + _replay(fast) == expected
        assert all("messages" not in s.__dict__ for s in fast.steps)  # the check built no message


@pytest.mark.parametrize("raw", LINES[:40], ids=lambda r: json.loads(r)["case_id"])
def test_example_cases_are_checked_alike(raw: bytes) -> None:
    both_ways(json.loads(raw))


NAMES = ["c1", "c2", "c9", "Ann", "Bob", "Zed"]


def _mutate(data: dict, draw: st.DrawFn) -> dict:
    steps = data["steps"]
    for _ in range(draw(st.integers(1, 4))):
        step = steps[draw(st.integers(0, len(steps) - 1))]
        kind = draw(st.sampled_from(["time", "swap", "chat", "sender", "drop_user", "dup_event", "end", "op"]))
        msgs = step["messages"]
        if kind in ("time", "swap", "chat", "sender") and not msgs:
            continue
        if kind == "time":
            msgs[draw(st.integers(0, len(msgs) - 1))]["time"] = draw(st.sampled_from(
                [step["start"], step["end"], "2000-01-01T00:00", "2999-01-01T00:00"]))
        elif kind == "swap" and len(msgs) > 1:
            a, b = draw(st.integers(0, len(msgs) - 1)), draw(st.integers(0, len(msgs) - 1))
            msgs[a], msgs[b] = msgs[b], msgs[a]
        elif kind == "chat":
            msgs[draw(st.integers(0, len(msgs) - 1))]["chat_id"] = draw(st.sampled_from(NAMES))
        elif kind == "sender":
            msgs[draw(st.integers(0, len(msgs) - 1))]["sender"] = draw(st.sampled_from([*NAMES, data["user"]]))
        elif kind == "drop_user" and step["gold_timetable"]:
            ev = step["gold_timetable"][draw(st.integers(0, len(step["gold_timetable"]) - 1))]
            ev["participants"] = [p for p in ev["participants"] if p != data["user"]]
        elif kind == "dup_event" and step["gold_timetable"]:
            step["gold_timetable"].append(dict(step["gold_timetable"][0]))
        elif kind == "end":
            step["end"] = draw(st.sampled_from([step["start"], "2999-01-01T00:00"]))
        elif kind == "op":
            step["gold_ops"].append(draw(st.sampled_from([
                {"op": "delete", "id": "e1"}, {"op": "delete", "id": "e99"},
                {"op": "update", "id": "e1", "attribute": "description", "value": "x"},
                {"op": "update", "id": "e1", "attribute": "location", "value": "Elsewhere"}])))
    return data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_cases_are_checked_alike(data: st.DataObject) -> None:
    case = json.loads(data.draw(st.sampled_from(LINES)))
    both_ways(_mutate(case, data.draw))
