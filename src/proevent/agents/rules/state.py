"""The rules agent's working state: the events a step's moves change (:class:`Work`, :class:`Slot`),
an open proposal (:class:`Draft`) and a chat's negotiation state (:class:`ChatState`), with the
small time helpers they share."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

from proevent.agents.rules.cues import fold
from proevent.agents.rules.moves import Move, Values
from proevent.agents.rules.reading import MEMO
from proevent.model import Event, Message, parse_time
from proevent.timeexpr import usual_hours

_GENERIC = {"with", "the", "and", "for", "at", "our", "my", "night", "day", "time", "team", "group"}
_RE_WORD = re.compile(r"[a-z][a-z']{3,}")
_SCORED = ("start", "end", "location")
@dataclass(slots=True)
class Slot:
    """An event of the working timetable (a copy the step's moves change)."""

    id: str
    start: str | None
    end: str | None
    location: str | None
    participants: list[str]
    description: str
    new: bool = False
    deleted: bool = False


@dataclass
class Draft:
    """An open proposal: ``key`` is the event it changes, ``None`` for a new event."""

    key: str | None
    values: Values
    by: str
    backers: list[str] = field(default_factory=list)
    activity: str | None = None
    favour: bool = False
    """Asked of the other side as a task ("can you pick up lily from school wed?"): the asker is not there."""
    at: int = 0
    """The chat's message count when the proposal was last made or changed (a yes answers a recent one)."""
    out: list[str] = field(default_factory=list)
    """Members who cannot come on the day a change proposes ("sat I'm at a wedding"): they leave the
    event if the change is settled, and stay in it if it is not."""
    when: datetime | None = None
    """When it was last made, changed or answered (a bare yes a day later answers something else)."""


@dataclass
class ChatState:
    focus: str | None = None
    focus_start: str | None = None
    """The start of the focus event when it was inserted this step (its id is known next step)."""
    open: Draft | None = None
    declined: set[str] = field(default_factory=set)
    join_asked: str | None = None
    where_asked: bool = False
    cancel_asked: str | None = None
    """The user asked a service to cancel this event: deleted when the service confirms."""
    service: bool | None = None
    call: tuple[str, int] | None = None
    """A roll-call on this event, asked at this message count: who says yes joins, who says no leaves."""
    last: tuple[str, str, str] | None = None
    seen: int = 0
    """Messages of the chat played so far."""
    fell: int | None = None
    """The message count when a proposal of a new event was last turned down (a "let's drop it" soon
    after gives up that plan, not an event of the timetable)."""
    members: tuple[str, ...] | None = None
    """The chat's members as a tuple (kept: every message's reading context names them)."""
    others: frozenset[str] | None = None
    """The chat's members but the user (kept: every message is linked by them)."""
    alone: tuple[str, int] | None = None
    """A two-person event the other one dropped out of (at this message count): off unless the user goes anyway."""
    moving: tuple[str, str, int] | None = None
    """A change of this event was asked (by this sender, at this message count), or a question put about it."""
    quiet_before: bool = False
    """The chat was quiet for hours before the message being played: a new conversation."""
    last_at: datetime | None = None
    """When the chat's last message played was sent."""
    recent: list[str] = field(default_factory=list)
    """The last few messages of the chat, folded (a place said back is one of theirs: "zeret yes")."""
    cancel_offer: tuple[str, str, int] | None = None
    """A cancellation of this event was asked (by this sender, at this message count): a yes from the
    other side deletes it."""
    moved: tuple[str, int] | None = None
    """This event's day, time or place was last settled in this chat at this message count (a "no" to
    its day soon after is a member who cannot come then)."""
    failed: Draft | None = None
    """A request the service could not book: a retry ("how about 19:00 then?") keeps what it does not change."""
    cancelled: tuple[str, str, int] | None = None
    """This event was cancelled in this chat (by this sender, at this message count): the same sender's
    replacement right after ("we will do it thursday 5pm instead") moves it rather than planning anew."""
    venue: str | None = None
    """Where the service the chat is with holds its events: the place of a timetable event held there
    ("Dentist check-up" at "Brightsmile Dental" in the chat with Brightsmile Dental), kept across steps."""


@dataclass(slots=True)
class Played:
    """One message played on its chat's state."""

    move: Move
    changed: bool
    """It opened, changed, settled or dropped a proposal, or asked a service to cancel or to let
    someone join: the negotiation moved, whether or not the timetable did yet."""


class Work:
    """The step's working timetable: the observation's events plus inserts, with deletes marked."""

    def __init__(self, events: list[Event]) -> None:
        self.slots: dict[str, Slot] = {
            e.id: Slot(e.id, e.start, e.end, e.location, list(e.participants), e.description or "") for e in events}
        self.original = {e.id: e for e in events}
        self.count = 0

    def live(self) -> list[Slot]:
        return [s for s in self.slots.values() if not s.deleted]

    def insert(self, slot: Slot) -> Slot:
        self.count += 1
        slot.id, slot.new = f"new{self.count}", True
        self.slots[slot.id] = slot
        return slot

    def ops(self) -> list[dict[str, Any]]:
        ops: list[dict[str, Any]] = []
        for s in self.slots.values():
            if s.new:
                if not s.deleted and s.start is not None:
                    event = {"start": s.start, "end": s.end, "location": s.location,
                             "participants": s.participants, "description": s.description}
                    ops.append({"op": "insert", "event": event})
                continue
            ev = self.original[s.id]
            if s.deleted:
                ops.append({"op": "delete", "id": s.id})
                continue
            for attr in _SCORED:
                if getattr(s, attr) != getattr(ev, attr):
                    ops.append({"op": "update", "id": s.id, "attribute": attr, "value": getattr(s, attr)})
            if set(s.participants) != set(ev.participants):
                ops.append({"op": "update", "id": s.id, "attribute": "participants", "value": s.participants})
        return ops


def message_key(m: Message) -> tuple[str, str, str]:
    return (m.time, m.sender, m.text)


@lru_cache(maxsize=16384)
def day_of(value: str | None) -> date | None:
    return date.fromisoformat(value[:10]) if value else None


@lru_cache(maxsize=16384)
def clock_of(value: str | None) -> tuple[int, int] | None:
    return (int(value[11:13]), int(value[14:16])) if value and len(value) == 16 else None


def at_time(d: date, c: tuple[int, int]) -> str:
    return f"{d.isoformat()}T{c[0]:02d}:{c[1]:02d}"


def plus_minutes(start: str, minutes: int) -> str:
    return (parse_time(start) + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M")


@lru_cache(maxsize=MEMO)
def content_words(text: str) -> frozenset[str]:
    """The content words of a text, cut to five letters (so "dinner" meets "dinners")."""
    return frozenset(w[:5] for w in _RE_WORD.findall(fold(text)) if w not in _GENERIC)


@lru_cache(maxsize=MEMO)
def slot_reading(start: str | None, description: str, location: str | None) -> tuple[
        date | None, tuple[int, int] | None, frozenset[str]]:
    """An event's day, clock time and the content words of its description and place (``_link``
    asks them of every coming event at every message; a case's events recur within its own steps,
    so a window of :data:`MEMO` keeps them, and no more objects stay alive for the collector)."""
    return day_of(start), clock_of(start), content_words(description) | content_words(location or "")


usual = lru_cache(maxsize=65536)(usual_hours)
"""``usual_hours`` of a message or a description, cached (both modes read every message)."""


@lru_cache(maxsize=65536)
def sent_at(value: str) -> datetime:
    """A message's send time (as ``parse_time`` reads it; cached: both modes read each message)."""
    return datetime.fromisoformat(value)
