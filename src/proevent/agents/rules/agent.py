"""The ``rules`` agent: a reference baseline that reads chats with word lists and
:mod:`proevent.timeexpr`, no model, no gold, no ``meta``.

Each chat keeps a negotiation state (:class:`ChatState`): the event it is about (``focus``) and the
open proposal (``Draft``: a new event, or a change of an event of the timetable). Messages are read
into typed moves (:mod:`reading`) and played on that state: a proposal stays open until the side
that must agree says yes (the user, when someone else proposed; anyone else, when the user did); a
booking service's confirmation settles a request, its failure drops it; cancellations and the user
dropping out delete; someone else dropping out or joining changes the participants. A message is
linked to an event of the timetable by the words of its description or place, its day, its time
and the people of the chat, so a chat can move events of the initial timetable, settle several
events, and relay news about an event of another chat.

The state is kept across steps (per case, mode, repeat and chat): a step reads only its new
messages; the context is replayed only when the kept state does not end where the context does.
"""

from __future__ import annotations

import copy
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

from proevent.agents.protocol import Action, ChatUpdate, Observation
from proevent.agents.rules.cues import Cues, fold, load_cues
from proevent.agents.rules.moves import (
    CLEARED,
    LAST,
    USUAL,
    Acceptance,
    Booked,
    BookingFailed,
    Cancellation,
    Dropout,
    Hedge,
    Join,
    Move,
    Nothing,
    Proposal,
    Rejection,
    Request,
    Values,
)
from proevent.agents.rules.reading import MEMO, Context, Features, activity_of, features, in_reason, read_features
from proevent.model import Chat, Event, Message, parse_time
from proevent.timeexpr import usual_hours, vocabulary

_SCORED = ("start", "end", "location")
_KEEP_STATES = 4096
_RECENT = 3
"""A yes settles a proposal made or changed at most this many messages before it (in a direct chat)."""
_RECENT_GROUP = 6
"""The same in a group chat: a plan put to a group is answered by several members in turn."""
_CALL = 6
"""A roll-call ("parkrun sat?", "who's playing") is answered within this many messages."""
_RE_INVITE = re.compile(r"(?<![\w'])(?:come|join us|who|who's|whos|anyone|any takers)(?![\w'])")
"""Words that put a plan to a group ("come!", "who's in"): the answers are a roll-call."""
_RE_AFTER = re.compile(r"(?<![\w'])(?:straight|right|just|directly|immediately)\s+after"
                       r"(?:\s+(?:my|the|our|your|his|her))?(?:\s+([a-z][\w']+))?")
"""A start given by another event's end ("right after my dentist", "straight after the match")."""
_RE_FROM = re.compile(r"(?<![\w'])(?:from|after|free from|home from|back from)\s+\d")
_RE_ME = re.compile(r"^(?:me|me too|same|same here|yes me|me please|i am|i'm|im)\W*$")
"""A whole message that answers a roll-call by volunteering ("me")."""
_RE_IT = re.compile(r"(?<![\w'])(?:it|it's|its|we|we're|our|the plan|that)(?![\w'])")
_RE_WHERE = re.compile(r"(?<![\w'])(?:where|which place|what place|which spot|any ideas for a place)(?![\w'])")
_RE_WORD = re.compile(r"[a-z][a-z']{3,}")
_RE_YOUR_BOOKING = re.compile(r"(?<![\w'])(?:your|the)\s+(?:booking|reservation|appointment|table|room)")
_RE_W = re.compile(r"\w+")
_GENERIC = {"with", "the", "and", "for", "at", "our", "my", "night", "day", "time", "team", "group"}


@dataclass
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
    at: int = 0
    """The chat's message count when the proposal was last made or changed (a yes answers a recent one)."""


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


@dataclass
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


def _key(m: Message) -> tuple[str, str, str]:
    return (m.time, m.sender, m.text)


@lru_cache(maxsize=16384)
def _day(value: str | None) -> date | None:
    return date.fromisoformat(value[:10]) if value else None


@lru_cache(maxsize=16384)
def _clock(value: str | None) -> tuple[int, int] | None:
    return (int(value[11:13]), int(value[14:16])) if value and len(value) == 16 else None


def _at(d: date, c: tuple[int, int]) -> str:
    return f"{d.isoformat()}T{c[0]:02d}:{c[1]:02d}"


def _plus(start: str, minutes: int) -> str:
    return (parse_time(start) + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M")


@lru_cache(maxsize=MEMO)
def _words(text: str) -> frozenset[str]:
    """The content words of a text, cut to five letters (so "dinner" meets "dinners")."""
    return frozenset(w[:5] for w in _RE_WORD.findall(fold(text)) if w not in _GENERIC)


@lru_cache(maxsize=16384)
def _slot_reading(start: str | None, description: str, location: str | None) -> tuple[
        date | None, tuple[int, int] | None, frozenset[str]]:
    """An event's day, clock time and the content words of its description and place (``_link``
    asks them of every coming event at every message)."""
    return _day(start), _clock(start), _words(description) | _words(location or "")


_usual = lru_cache(maxsize=65536)(usual_hours)
"""``usual_hours`` of a message or a description, cached (both modes read every message)."""


@lru_cache(maxsize=65536)
def _sent(value: str) -> datetime:
    """A message's send time (as ``parse_time`` reads it; cached: both modes read each message)."""
    return datetime.fromisoformat(value)


class RulesAgent:
    name = "rules"

    def __init__(self, **_options: Any) -> None:
        self.cues: Cues = load_cues()
        self._states: OrderedDict[tuple[str, str, int, str], ChatState] = OrderedDict()
        self.replays = 0
        """How many times a chat's context had to be read again (the kept state did not fit)."""

    def describe(self) -> dict[str, Any]:
        return {"strategy": "rules", "role": "reference baseline", "cues_version": self.cues.version}

    async def act(self, obs: Observation) -> Action:
        work, _ = self.step(obs)
        return Action(ops=work.ops())

    def step(self, obs: Observation) -> tuple[Work, list[Played]]:
        """Play the step's new messages on each chat's kept state: the working timetable they
        leave and, per message, its move and whether it moved the negotiation."""
        work = Work(list(obs.timetable))
        played: list[Played] = []
        for upd in obs.chats:
            key = (obs.case_id, obs.mode, obs.repeat, upd.chat.chat_id)
            state = self._resume(key, obs, upd)
            state.last = None  # a step that fails half-way leaves a state nobody resumes
            for msg in upd.new:
                played.append(self._play(state, msg, upd.chat, obs, work))
            state.last = _key(upd.new[-1]) if upd.new else _key(upd.context[-1]) if upd.context else None
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > _KEEP_STATES:
                self._states.popitem(last=False)
        return work, played

    # -- state across steps ----------------------------------------------------------------------
    def _resume(self, key: tuple[str, str, int, str], obs: Observation, upd: ChatUpdate) -> ChatState:
        """The chat's kept state when it ends where this step's context does (played on in place,
        no copy), else the context read again from the start."""
        kept = self._states.get(key)
        end = _key(upd.context[-1]) if upd.context else None
        if kept is not None and kept.last == end:
            state = kept
        else:
            self.replays += bool(upd.context)
            state = ChatState()
            scratch = Work(list(obs.timetable))
            for msg in upd.context:
                self._play(state, msg, upd.chat, obs, scratch)
        ids = {e.id for e in obs.timetable}
        if state.focus is not None and state.focus not in ids:
            match = [e for e in obs.timetable if state.focus_start and e.start == state.focus_start]
            state.focus = match[-1].id if match else None
        state.focus_start = None
        if state.open is not None and state.open.key is not None and state.open.key not in ids:
            state.open = None
        if state.open is not None and state.open.key is None and state.open.values.day is not None and any(
                _day(e.start) == state.open.values.day and _clock(e.start) == state.open.values.clock
                for e in obs.timetable):
            state.open = None  # the plan is in the timetable now (settled in a step we read differently)
        return state

    # -- one message -----------------------------------------------------------------------------
    def _is_service(self, state: ChatState, chat: Chat, user: str, f: Features, sender: str) -> bool:
        if state.service is None:
            name = fold(" ".join([chat.name, *[m for m in chat.members if m != user]]))
            state.service = chat.type == "direct" and self.cues.has("service_names", name)
        if not state.service and chat.type == "direct" and sender != user and "confirmed" in f.hits and (
                _RE_YOUR_BOOKING.search(f.folded)):
            state.service = True
        return state.service

    def _play(self, state: ChatState, msg: Message, chat: Chat, obs: Observation, work: Work) -> Played:
        user, sender = obs.user, msg.sender
        state.seen += 1
        before = (state.open, state.open.values if state.open else None)
        asked = (state.cancel_asked, state.join_asked)
        f = features(msg.text, _sent(msg.time), self.cues)
        service = self._is_service(state, chat, user, f, sender)
        about, named = self._link(f, chat, user, work, state)
        after = _RE_AFTER.search(f.folded)
        before_it = _after_slot(after, f, work) if after else None
        if before_it is not None and about == before_it.id:
            about, named = None, False  # "straight after yoga": yoga is the reference, not the subject
        if about is not None:
            state.focus = about
        subject = work.slots.get(about or state.focus or "") if (about or state.focus) else None
        if subject is not None and subject.deleted:
            subject = None
        anchor = state.open.values.clock if state.open and state.open.values.clock else _clock(
            subject.start if subject else None)
        desc = (subject.description if subject else "") or (state.open.activity if state.open else "") or ""
        ctx = Context(user=user, sender=sender, members=tuple(chat.members), service=service, anchor=anchor,
                      usual=_usual(f.folded) or (_usual(desc) if desc else None),
                      discussing=state.open is not None or subject is not None,
                      open_by=state.open.by if state.open else None,
                      current_day=(state.open.values.day if state.open else None) or _day(
                          subject.start if subject else None), place_asked=state.where_asked)
        _, move = read_features(f, ctx, self.cues)
        move.about = about
        values = getattr(move, "values", None)
        if isinstance(values, Values):
            if values.place in (USUAL, LAST):
                values.place = _habit_place(values.place, chat, user, work, _sent(msg.time))
                if state.open is not None:
                    move.about = None  # "usual room" names the open plan's place, not the event it came from
            if after is not None and values.clock is None:
                _start_after(values, f, before_it)
        if isinstance(move, Nothing) and state.open is not None and chat.type == "group" and _RE_ME.match(f.folded):
            move = Acceptance(sender)  # "same": the yes of the one before
        if isinstance(move, Proposal):
            move.named = named
        if _RE_WHERE.search(f.folded):
            state.where_asked = True
        elif getattr(move, "values", None) is not None and move.values.place is not None:
            state.where_asked = False
        called = self._roll_call(state, move, f, chat, user, work)
        if not called:
            self._apply(state, move, chat, user, work, subject, service)
        now = (state.open, state.open.values if state.open else None)
        if state.open is not None and now != before:
            state.open.at = state.seen
        return Played(move, now != before or (state.cancel_asked, state.join_asked) != asked or called)

    def _roll_call(self, state: ChatState, move: Move, f: Features, chat: Chat, user: str, work: Work) -> bool:
        """An answer to the chat's open roll-call: a member who says yes ("me", "in", "yep") joins
        the event's participants, one who says no leaves them; the silent stay as they are. True
        when the participants changed (the move is then played no further)."""
        if state.call is None or state.open is not None:
            return False
        key, at = state.call
        slot = work.slots.get(key)
        sender = move.sender
        if slot is None or slot.deleted or state.seen - at > _CALL or sender == user or sender not in chat.members:
            return False
        yes = isinstance(move, Acceptance) or _RE_ME.match(f.folded) is not None or (
            isinstance(move, Join) and move.person == sender and not move.asks) or (
            isinstance(move, Proposal) and move.agrees and not _differs(move.values, slot))
        no = isinstance(move, Rejection) or isinstance(move, Dropout) and move.person in (sender, "")
        if yes and sender not in slot.participants:
            slot.participants.append(sender)
            return True
        if no and sender in slot.participants:
            slot.participants.remove(sender)
            return True
        return False

    def _other_side(self, draft: Draft, sender: str, user: str) -> bool:
        return sender != draft.by and (draft.by == user or sender == user)

    def _apply(self, state: ChatState, move: Move, chat: Chat, user: str, work: Work, subject: Slot | None,
               service: bool) -> None:
        sender = move.sender
        if isinstance(move, Request) or (service and isinstance(move, Proposal)):
            values = move.values
            if isinstance(move, Request) and move.cancel:
                day = move.values.day
                fits = subject is not None and (day is None or _day(subject.start) == day)
                state.cancel_asked = subject.id if fits else None
                return
            if state.open is not None:
                state.open.values = state.open.values.merged(values)
            elif values.any() or isinstance(move, Request):
                key = subject.id if subject is not None and (move.about or state.cancel_asked) else None
                state.open = Draft(key, values, sender, [], getattr(move, "activity", None))
            state.cancel_asked = None
            return
        if service and isinstance(move, Cancellation) and sender != user:
            target = work.slots.get(state.cancel_asked or "")
            if target is not None:
                target.deleted = True
            state.open, state.cancel_asked = None, None
            return
        if isinstance(move, Booked):
            draft = state.open or Draft(None, Values(), sender)
            draft.values = draft.values.merged(move.values)
            if service or draft.key is None and subject is None:
                self._settle(state, draft, chat, user, work, service=True)
            elif subject is not None:
                self._settle(state, Draft(subject.id, move.values, sender), chat, user, work, service=False)
            return
        if isinstance(move, BookingFailed):
            if service and state.open is not None:
                state.open = None if not state.open.values.any() else state.open
                state.open = None
            return
        if isinstance(move, Proposal):
            self._proposal(state, move, chat, user, work, subject)
            return
        if isinstance(move, Acceptance):
            draft = state.open
            if service:
                return
            if draft is not None and move.about is not None and draft.key is not None and move.about != draft.key:
                draft = None  # a yes about another event of the chat
            if draft is not None and state.seen - draft.at > _recent(chat):
                draft = None  # a yes long after the proposal answers something else
            if draft is not None:
                if self._other_side(draft, sender, user):
                    draft.values = draft.values.merged(move.values) if move.values.any() else draft.values
                    if sender not in draft.backers:
                        draft.backers.append(sender)
                    self._settle(state, draft, chat, user, work, service=False)
                elif sender not in draft.backers:
                    draft.backers.append(sender)
            elif state.join_asked and subject is not None and sender != state.join_asked:
                if state.join_asked not in subject.participants:
                    subject.participants.append(state.join_asked)
                state.join_asked = None
            return
        if isinstance(move, Rejection):
            draft = state.open
            if draft is not None:
                if sender in draft.backers:
                    draft.backers.remove(sender)
                state.declined.add(sender)
                if self._other_side(draft, sender, user) and (chat.type == "direct" or sender == user):
                    state.open = None
            return
        if isinstance(move, Hedge):
            return
        if isinstance(move, Cancellation):
            if state.open is not None and (state.open.key is None or subject is None):
                state.open = None
            elif subject is not None and (sender == user or chat.type == "direct" or service or
                                          sender in subject.participants):
                subject.deleted = True
                state.open = None
            return
        if isinstance(move, Dropout):
            person = move.person or sender
            if state.open is not None and state.open.key is None:
                if person in state.open.backers:
                    state.open.backers.remove(person)
                state.declined.add(person)
                if person == user:
                    state.open = None
                return
            if subject is None:
                return
            if person == user:
                subject.deleted = True
            elif person in subject.participants:
                subject.participants.remove(person)
                if subject.participants == [user] and chat.type == "direct":
                    subject.deleted = True
            return
        if isinstance(move, Join):
            if state.open is not None and state.open.key is None:
                if move.person not in state.open.backers:
                    state.open.backers.append(move.person)
                if not move.asks and self._other_side(state.open, sender, user) and (
                        state.seen - state.open.at <= _recent(chat)):
                    self._settle(state, state.open, chat, user, work, service=False)  # "I'm in"
                return
            if subject is None or move.person in subject.participants or move.person == user:
                return
            if move.asks:
                state.join_asked = move.person
            elif move.person in chat.members:
                subject.participants.append(move.person)

    def _proposal(self, state: ChatState, move: Proposal, chat: Chat, user: str, work: Work,
                  subject: Slot | None) -> None:
        sender, values = move.sender, move.values
        if state.join_asked and move.agrees and subject is not None:
            if state.join_asked not in subject.participants:
                subject.participants.append(state.join_asked)  # "of course, come at 12!"
            state.join_asked = None
            return
        draft = state.open
        if draft is not None and (move.about is None or move.about == draft.key):
            if move.agrees and values.clock is not None and draft.values.clock is not None and (
                    values.clock < draft.values.clock and _RE_FROM.search(fold(move.text))):
                values = values.copy()
                values.clock = None  # "👍 I'm home from 5" for a 6 o'clock plan: free from then, the plan stands
            repeats = not move.asks and draft.values.merged(values) == draft.values
            draft.values = draft.values.merged(values)
            if repeats and self._other_side(draft, sender, user) and state.seen - draft.at <= _recent(chat):
                if sender not in draft.backers:
                    draft.backers.append(sender)
                self._settle(state, draft, chat, user, work, service=False)  # "7:30 grand": the time said back
                return
            if move.agrees and self._other_side(draft, sender, user):
                if sender not in draft.backers:
                    draft.backers.append(sender)
                self._settle(state, draft, chat, user, work, service=False)
                return
            if sender != draft.by and (sender == user or draft.by == user):
                draft.by = sender  # a counter-proposal: now the other side must agree
            if sender not in draft.backers:
                draft.backers.append(sender)
            return
        new_activity = move.activity is not None and subject is not None and move.activity[:4] not in fold(
            subject.description) and not move.named
        fits = subject is not None and (move.change or move.named or (
            (values.day is None or move.about == subject.id) and _same_kind(values, subject)))
        if subject is not None and not new_activity and fits:
            changed = _differs(values, subject)
            if not changed:
                if chat.type == "group" and (move.asks or _RE_INVITE.search(fold(move.text))):
                    state.call = (subject.id, state.seen)  # "parkrun sat?": a roll-call on the event
                return  # "yep 8:30": what the timetable holds already
            draft = Draft(subject.id, values, sender, [sender])
            if move.fact and (move.named or _RE_IT.search(fold(move.text))):
                self._settle(state, draft, chat, user, work, service=False)
                return
            state.open = draft
            return
        if values.day is None and values.clock is None:
            return  # a place alone, with nothing to attach it to
        if values.clock is None and move.activity is None and values.place is None and not move.asks:
            return  # "rain on saturday, bring a coat": a day alone, said in passing, plans nothing
        state.open = Draft(None, values, sender, [sender], move.activity)

    def _settle(self, state: ChatState, draft: Draft, chat: Chat, user: str, work: Work, *, service: bool) -> None:
        v = draft.values
        state.open = None
        if draft.key is not None and draft.key in work.slots:
            slot = work.slots[draft.key]
            _apply_values(slot, v)
            state.focus = slot.id
            return
        if service:
            same_day = [s for s in work.live() if v.day is not None and _day(s.start) == v.day and (
                _clock(s.start) is None or _clock(s.start) == v.clock) and user in s.participants]
            if same_day:
                _apply_values(same_day[0], v)
                state.focus = same_day[0].id
                return
        if v.day is None:
            return
        start = v.day.isoformat() if v.clock is None else _at(v.day, v.clock)
        if service:
            people = [user]
        elif chat.type == "direct":
            people = list(chat.members)
        else:
            backers = set(draft.backers) - state.declined
            people = [m for m in chat.members if m == user or m in backers]
        slot = Slot("", start, None, None if v.place in (None, CLEARED) else v.place, people,
                    (draft.activity or chat.name).capitalize() if draft.activity else chat.name)
        if v.clock is None and v.end_day is not None:
            slot.end = v.end_day.isoformat()
        if v.clock is not None and v.end is not None:
            slot.end = _at(v.day, v.end)
        elif v.clock is not None and v.minutes:
            slot.end = _plus(start, v.minutes)
        work.insert(slot)
        state.focus, state.focus_start = slot.id, slot.start

    def _link(self, f: Features, chat: Chat, user: str, work: Work, state: ChatState) -> tuple[str | None, bool]:
        """The event of the working timetable the message names: by the words of its description or
        place, its day, its time; the chat's people and the chat's own focus break ties."""
        others = set(chat.members) - {user}
        words, days, times, parts, today = _link_keys(f)
        best: tuple[float, str, bool] | None = None
        for s in work.live():
            d, clock, slot_words = _slot_reading(s.start, s.description, s.location)
            if d is not None and d < today:
                continue
            hit = 3 * min(2, len(words & slot_words)) if words else 0
            when = 2 * (d in days) + (clock in times) + any(a <= clock[0] < b for a, b in parts if clock) if (
                days or times or parts) else 0
            if not hit and not when:
                continue
            overlap = not others.isdisjoint(s.participants)
            if not (hit or overlap):
                continue
            score = hit + when + overlap + (s.id == state.focus)
            if best is None or score > best[0]:
                best = (score, s.id, bool(hit))
        if best is not None:
            return best[1], best[2]
        if state.focus in work.slots and not work.slots[state.focus].deleted:
            return None, False
        shared = [s for s in work.live() if others & set(s.participants) and (
            _day(s.start) is None or _day(s.start) >= today)]
        if len(shared) == 1:
            state.focus = shared[0].id
        return None, False


@lru_cache(maxsize=MEMO)
def _link_keys(f: Features) -> tuple[frozenset[str], frozenset[date], frozenset[tuple[int, int]],
                                      tuple[tuple[int, int], ...], date]:
    """What :meth:`RulesAgent._link` matches events against, read once per message (both modes
    link every message): its content words, days, clock times and parts of the day outside a
    reason, and its send day."""
    days = frozenset(d.best for d in f.reading.days if not in_reason(f, d.start))
    times = frozenset(t for c in f.reading.clocks if not in_reason(f, c.start) for t in c.times)
    parts = [p.hours for p in f.reading.parts if not in_reason(f, p.start)] or _part_words(f.folded)
    return _words(f.text), days, times, tuple(parts), f.reading.ref.date()


@lru_cache(maxsize=1)
def _part_pattern() -> tuple[re.Pattern[str], dict[str, tuple[int, int]]]:
    vocab = vocabulary()
    hours = {w: vocab.parts_of_day[name] for w, name in vocab.part_words.items()
             if name in vocab.parts_of_day and len(w) > 2}  # not "pm": "pm me"
    alts = "|".join(re.escape(w) for w in sorted(hours, key=len, reverse=True))
    return re.compile(rf"(?<![\w'])(?:{alts})(?![\w'])"), hours


def _part_words(folded: str) -> list[tuple[int, int]]:
    """The hours of the parts of the day a message names without a day ("the afternoon one")."""
    pattern, hours = _part_pattern()
    return [hours[m.group(0)] for m in pattern.finditer(folded)]


def _habit_place(kind: str, chat: Chat, user: str, work: Work, now: datetime) -> str | None:
    """ "the usual spot" (``USUAL``): the location most of the timetable's events with the chat's
    people share (the latest on a tie); "same place as last time" (``LAST``): the location of the
    latest earlier event with them. ``None`` when no event with them has a place."""
    others = set(chat.members) - {user}
    need = 1 if len(others) < 2 else 2
    slots = [s for s in work.slots.values() if not s.deleted and s.location and s.start
             and len(others & set(s.participants)) >= need]
    slots.sort(key=lambda s: s.start or "")
    if kind == LAST:
        past = [s for s in slots if (s.start or "") < now.strftime("%Y-%m-%dT%H:%M")] or slots
        return past[-1].location if past else None
    counts: dict[str, int] = {}
    for s in slots:
        counts[s.location or ""] = counts.get(s.location or "", 0) + 1
    best = max(counts.values(), default=0)
    latest = [s.location for s in slots if counts[s.location or ""] == best]
    return latest[-1] if latest else None


def _after_slot(after: re.Match[str], f: Features, work: Work) -> Slot | None:
    """The event "straight after X" names by the word X of its description, on a day the message names
    (or any coming day): the latest-ending one on that day."""
    word = after.group(1)
    if not word:
        return None
    key = _words(word)
    if not key:
        return None
    days = {d.best for d in f.reading.days}
    today = f.reading.ref.date()
    hits = [s for s in work.live() if s.end and len(s.end) == 16 and key & _words(s.description)
            and ((_day(s.start) in days) if days else (_day(s.start) or today) >= today)]
    return min(hits, key=lambda s: s.start or "") if hits else None


def _start_after(values: Values, f: Features, before_it: Slot | None) -> None:
    """ "till 12, could meet straight after": the message's own end time; else the named event's end."""
    ends = [c for c in f.reading.clocks if c.role == "end" and not c.retracted]
    if ends:
        values.clock = ends[-1].best
    elif before_it is not None and before_it.end:
        values.day = values.day or _day(before_it.end)
        values.clock = _clock(before_it.end)
    else:
        return
    values.date_only = False


def _recent(chat: Chat) -> int:
    return _RECENT_GROUP if chat.type == "group" else _RECENT


def _same_kind(values: Values, slot: Slot) -> bool:
    """Values that fit the event under discussion (no day, or its day): a change rather than a new plan."""
    return values.day is None or _day(slot.start) == values.day


def _differs(values: Values, slot: Slot) -> bool:
    probe = copy.copy(slot)
    probe.participants = list(slot.participants)
    _apply_values(probe, values)
    return (probe.start, probe.end, probe.location) != (slot.start, slot.end, slot.location)


def _apply_values(slot: Slot, v: Values) -> None:
    old_start, old_end = slot.start, slot.end
    day = v.day or _day(old_start)
    if day is not None and (v.day is not None or v.clock is not None):
        if v.clock is not None:
            start = _at(day, v.clock)
        elif v.date_only or _clock(old_start) is None:
            start = day.isoformat()
        else:
            start = _at(day, _clock(old_start))  # another day, the same time
        if start != old_start:
            slot.start = start
            if v.start_only and old_end and old_end > start:
                pass  # "start at 8 instead": the end stays
            elif old_end and len(old_start or "") == 16 and len(start) == 16 and v.end is None and not v.minutes:
                slot.end = _plus(start, int((parse_time(old_end) - parse_time(old_start)).total_seconds() // 60))
            elif len(start) == 10:
                slot.end = None
    if v.end is not None and slot.start and len(slot.start) == 16:
        slot.end = _at(_day(slot.start), v.end)
    elif v.minutes and slot.start and len(slot.start) == 16:
        slot.end = _plus(slot.start, v.minutes)
    if v.place is not None and not (slot.location and v.place != CLEARED and _same_place(v.place, slot.location)):
        slot.location = None if v.place == CLEARED else v.place


def _same_place(said: str, held: str) -> bool:
    """ "einstein" for "Café Einstein": a short mention of the place the event already has."""
    a, b = set(_RE_W.findall(fold(said))) - {"the"}, set(_RE_W.findall(fold(held))) - {"the"}
    return bool(a) and (a <= b or b <= a)


__all__ = ["ChatState", "Draft", "Played", "RulesAgent", "Work", "activity_of"]
