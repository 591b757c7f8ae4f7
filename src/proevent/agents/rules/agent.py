"""The ``rules`` baseline: an honest offline extractor (no model, no gold, no ``meta``).

Each chat with news is read as a negotiation, message by message
(:func:`proevent.agents.rules.reading.read_message`): a proposal or a change stays *open* until
the other side agrees — the user, when someone else proposed; anyone else, when the user did —
and a rejection closes it. Cancellations delete the chat's event at once; the user dropping out
deletes it too (first person: the timetable holds only what the user attends), while someone else
dropping out only leaves the participants. Details can be cleared ("place tbd" -> null) and
linked to the timetable ("same place as last time", "right after my dentist appointment").

The earlier messages of the chat (the observation's context) are played first, to learn the
open proposal and which timetable event is the chat's own; the new messages then give the
operations: an insert for a newly agreed event, updates for settled changes, a delete.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from proevent.agents.protocol import DEFAULT_CONTEXT_MESSAGES, Action, ChatUpdate, Observation
from proevent.agents.rules.cues import Cues, load_cues
from proevent.agents.rules.places import place_after_preposition as _place  # noqa: F401  (tests)
from proevent.agents.rules.reading import Move, read_message
from proevent.model import Event, Message, parse_time
from proevent.timeexpr import find_dates

_SCORED = ("start", "end", "location")


@dataclass
class Plan:
    """The chat's event as the agent believes it stands."""

    start: str | None
    end: str | None
    location: str | None
    participants: list[str]
    description: str


@dataclass
class Pending:
    by: str
    changes: dict[str, Any]


@dataclass
class ChatState:
    plan: Plan | None = None
    pending: Pending | None = None
    deleted: bool = False
    log: list[str] = field(default_factory=list)


def _apply(plan: Plan, changes: dict[str, Any]) -> Plan:
    out = replace(plan, participants=list(plan.participants))
    if "start" in changes:
        keep = changes.get("keep_end") and changes.get("end") is None and out.end is not None and (
            changes["start"] is not None and len(changes["start"]) == 16 and changes["start"] < out.end)
        out.start, out.end = changes["start"], out.end if keep else changes.get("end")
    elif "end" in changes:
        out.end = changes["end"]
    if "location" in changes:
        out.location = changes["location"]
    for person in changes.get("add_people", []):
        if person not in out.participants:
            out.participants.append(person)
    if changes.get("remove") in out.participants:
        out.participants.remove(changes["remove"])
    return out


class RulesAgent:
    name = "rules"

    def __init__(self, **_options: Any) -> None:
        self.cues: Cues = load_cues()

    def describe(self) -> dict[str, Any]:
        return {"strategy": "rules", "cues_version": self.cues.version}

    async def act(self, obs: Observation) -> Action:
        ops: list[dict[str, Any]] = []
        touched: set[str] = set()
        for upd in obs.chats:
            for op in self._chat_ops(obs, upd, touched):
                if op.get("id") is not None:
                    touched.add(op["id"])
                ops.append(op)
        return Action(ops=ops)

    # -- one chat --------------------------------------------------------------------------------
    def _play(self, state: ChatState, msgs: list[Message], obs: Observation, upd: ChatUpdate) -> None:
        members = list(upd.chat.members)
        for m in msgs:
            if m.sender not in members:
                members.append(m.sender)
        events = list(obs.timetable)
        for msg in msgs:
            day = _day_of(state.plan.start if state.plan else None) or _day_of(
                state.pending.changes.get("start") if state.pending else None)
            move = read_message(msg, self.cues, user=obs.user, members=members, timetable=events,
                                plan_day=day, has_plan=state.plan is not None or state.pending is not None,
                                now=obs.now)
            self._step(state, move, obs.user, upd, members)

    def _step(self, state: ChatState, move: Move, user: str, upd: ChatUpdate, members: list[str]) -> None:
        kind, sender = move.kind, move.sender
        if kind == "cancel":
            if state.plan is not None and (not move.changes.get("abandon") or state.pending is None):
                state.plan, state.deleted = None, True  # "guess it's not happening": off
            state.pending = None
        elif kind == "dropout":
            if state.plan is not None:
                if sender == user or upd.chat.type == "direct":
                    state.plan, state.deleted = None, True
                elif sender in state.plan.participants:
                    state.plan = _apply(state.plan, {"remove": sender})
            if sender == user:
                state.pending = None
        elif kind == "remove":
            if state.plan is not None:
                state.plan = _apply(state.plan, move.changes)
        elif kind in ("propose", "modify"):
            changes = move.changes
            if state.plan is None and state.pending is not None:
                changes = {**state.pending.changes, **changes}  # a counter to an open proposal
            state.pending = Pending(sender, changes)
        elif kind == "accept" and state.pending is not None:
            by = state.pending.by
            if sender != by and (by == user or sender == user):
                changes = state.pending.changes
                people = list(members)
                if upd.chat.type == "direct" and changes.get("with"):
                    people = [user, changes["with"]]  # booked through the contact, with someone else
                base = state.plan or Plan(None, None, None, people, _description(upd, self.cues))
                echoed = move.changes.get("echo_location")
                old = changes.get("location")
                if echoed and old is not None and echoed.lower() not in old.lower():
                    changes = {**changes, "location": echoed}  # the answer repeats the place: trust it
                said = move.changes.get("echo_start")
                old_start = changes.get("start")
                if said and old_start and len(old_start) == 16 and old_start[:10] == said[:10] and said != old_start:
                    changes = {**changes, "start": said}  # ... or the time ("9pm then")
                    if move.changes.get("echo_end"):
                        changes["end"] = move.changes["echo_end"]
                state.plan = _apply(base, changes)
                state.pending = None
        elif kind == "reject" and state.pending is not None:
            by = state.pending.by
            if sender != by and (by == user or sender == user):  # the side that had to agree said no
                state.pending = None

    def _chat_ops(self, obs: Observation, upd: ChatUpdate, touched: set[str]) -> list[dict[str, Any]]:
        state = ChatState()
        self._play(state, upd.context, obs, upd)
        target = self._target(obs, upd, state.plan, touched)
        state.plan = _plan_of(target) if target is not None else None
        state.deleted = False
        self._play(state, upd.new, obs, upd)
        if target is not None:
            if state.plan is None:
                return [{"op": "delete", "id": target.id}] if state.deleted else []
            ops: list[dict[str, Any]] = []
            for attr in _SCORED:
                value = getattr(state.plan, attr)
                if value != getattr(target, attr):
                    ops.append({"op": "update", "id": target.id, "attribute": attr, "value": value})
            if set(state.plan.participants) != set(target.participants):
                ops.append({"op": "update", "id": target.id, "attribute": "participants",
                            "value": state.plan.participants})
            return ops
        if state.plan is not None and obs.user in state.plan.participants and state.plan.start is not None:
            p = state.plan
            return [{"op": "insert", "event": {"start": p.start, "end": p.end, "location": p.location,
                                               "participants": p.participants, "description": p.description}}]
        return []

    @staticmethod
    def _target(obs: Observation, upd: ChatUpdate, plan: Plan | None, touched: set[str]) -> Event | None:
        """The timetable event that is this chat's own: the one matching what the earlier messages
        settled (same start or place, shared people); else a coming event shared with the chat that
        the new messages name (words of its description, its day); else, when the chat's beginning
        is out of view, the coming event sharing the most people with the chat."""
        others = set(upd.chat.members) - {obs.user}
        since = obs.window_start
        text = " ".join(m.text.lower() for m in upd.new)
        days = {d.isoformat() for m in upd.new for _, d in find_dates(m.text, parse_time(m.time))}
        matched: tuple[tuple[Any, ...], Event] | None = None
        named: tuple[tuple[Any, ...], Event] | None = None
        crowd: tuple[tuple[Any, ...], Event] | None = None
        for ev in obs.timetable:
            if ev.id in touched:
                continue
            last = ev.end or ev.start
            if last is not None and last < since[: len(last)]:
                continue  # past events are history: plans in the chat are about coming ones
            overlap = len(set(ev.participants) & others)
            if plan is not None:
                same = (ev.start == plan.start) * 2 + (ev.location == plan.location) * 2 + (
                    set(ev.participants) == set(plan.participants)) + (
                    _day_of(ev.start) is not None and _day_of(ev.start) == _day_of(plan.start))
                if same >= (2 if overlap else 4) and (matched is None or (same, overlap) > matched[0]):
                    matched = ((same, overlap), ev)
            if overlap == 0:
                continue
            words = [w for w in re.findall(r"[a-z]{4,}", (ev.description or "").lower())]
            hits = sum(1 for w in words if re.search(rf"\b{re.escape(w)}", text)) + 2 * ((ev.start or "")[:10] in days)
            if hits and (named is None or (hits, overlap) > named[0]):
                named = ((hits, overlap), ev)
            key = (overlap, -abs(len(ev.participants) - len(upd.chat.members)))
            if crowd is None or key > crowd[0]:
                crowd = (key, ev)
        for found in (matched, named, crowd if _context_cut(upd) else None):
            if found is not None:
                return found[1]
        return None


def _context_cut(upd: ChatUpdate) -> bool:
    """Is the chat's beginning out of view (the context holds only the last K messages)? The
    observation does not say K; a context of the default size is taken as cut."""
    return len(upd.context) >= DEFAULT_CONTEXT_MESSAGES


def _plan_of(ev: Event) -> Plan:
    return Plan(ev.start, ev.end, ev.location, list(ev.participants), ev.description or "")


def _day_of(value: str | None) -> date | None:
    return date.fromisoformat(value[:10]) if value else None


def _description(upd: ChatUpdate, cues: Cues) -> str:
    text = " ".join(m.text.lower() for m in (*upd.context, *upd.new))
    activity = next((a for a in cues.activities if re.search(rf"\b{re.escape(a)}\b", text)), None)
    return activity.capitalize() if activity else upd.chat.name
