"""Scheduling trajectories: how one event is negotiated, turn by turn, with its true state.

A trajectory starts from an opening proposal and runs a number of negotiation turns. Each turn
picks an atomic operation (simple modification, timetable linking, detail removal) and a target
attribute (time, location, participants) and succeeds or fails (a rejected proposal changes
nothing). It may end in a cancellation (explicit or implicit, by the user or the contact), the
user dropping out of a group event, or failed planning (nothing is ever inserted). The true
event state after each turn is recorded; ``state is None`` means "not in the user's timetable".
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta

from proevent.generate.config import GeneratorConfig
from proevent.generate.contacts import Profile, contact_pool, names
from proevent.model.times import format_time

OP_ABBR = {"simple_modification": "SM", "timetable_linking": "TL", "detail_removal": "DR"}


@dataclass(frozen=True)
class EventState:
    """The event's five attributes (start/end are normalised time or date strings)."""

    start: str | None
    end: str | None
    location: str | None
    participants: tuple[str, ...]
    description: str


@dataclass(frozen=True)
class RefEvent:
    """An event the trajectory needs in the initial timetable (timetable linking refers to it)."""

    state: EventState
    historical: bool
    shared_with_contact: bool


@dataclass
class Turn:
    kind: str
    """``existing`` (already in the initial timetable), ``propose``, ``modify``, ``cancel``, ``dropout``
    or ``abandon``."""
    by: str
    intent: str
    success: bool = True
    op: str | None = None
    attribute: str | None = None
    values: dict[str, object] = field(default_factory=dict)
    ref: int | None = None
    state: EventState | None = None
    """The true state after this turn."""

    @property
    def token(self) -> str:
        if self.kind == "existing":
            return "E"
        if self.kind == "propose":
            tbd = {"propose_time_tbd": "~time", "propose_place_tbd": "~location"}.get(self.intent, "")
            return "P" + tbd + ("" if self.success else "-")
        if self.kind == "modify":
            return f"{OP_ABBR[self.op or '']}:{self.attribute}{'+' if self.success else '-'}"
        return {"cancel": "XC", "cancel_implicit": "XI", "dropout": "DROP", "abandon": "FAIL"}[
            "cancel_implicit" if self.intent == "cancel_implicit" else self.kind
        ] + ("" if self.kind in ("abandon", "dropout") else f":{'user' if self.by == 'USER' else 'contact'}")


@dataclass
class Trajectory:
    profile: Profile
    user: str
    members: list[str]
    """Chat members, the user first."""
    turns: list[Turn]
    refs: list[RefEvent]
    horizon_days: int
    """Messages happen on days 0..horizon_days of the case; the event lies after them."""
    attending: list[str] = field(default_factory=list)
    """Group members besides the user and the contact who attend (they say so in the chat)."""
    decliners: list[str] = field(default_factory=list)
    """Group members who say they cannot come; the others stay silent (and do not attend)."""
    day0: date | None = None
    """The case's first day (messages run from it over ``horizon_days``)."""

    @property
    def preexisting(self) -> bool:
        """The event is already in the initial timetable: the chat moves, changes or cancels it."""
        return bool(self.turns) and self.turns[0].kind == "existing"

    @property
    def pattern(self) -> str:
        return ">".join(t.token for t in self.turns)

    @property
    def atomic_ops(self) -> list[str]:
        ops = [t.op for t in self.turns if t.op]
        if self.turns and self.turns[0].intent in ("propose_time_tbd", "propose_place_tbd"):
            ops.insert(0, "detail_removal")
        return list(dict.fromkeys(o for o in ops if o))

    @property
    def initial_state(self) -> EventState | None:
        return self.turns[0].state if self.preexisting else None

    @property
    def negotiation_turns(self) -> int:
        return sum(1 for t in self.turns if t.kind == "modify")

    @property
    def group(self) -> bool:
        return self.profile.group is not None

    def speaker(self, by: str) -> str:
        return self.user if by == "USER" else by


def _weighted(rng: random.Random, weights: dict[str, float]) -> str:
    keys = [k for k, w in weights.items() if w > 0]
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


_EVENT_SPREAD = 6
"""An event lies up to this many days after the last day of its messages: mostly within the week."""
_WEEKDAY_WEIGHT = (0.2, 0.3, 1.0, 1.3, 1.0, 1.6, 1.0)
"""How often a plan lands on each weekday (Monday first): fewer plans are made for the start of the week,
most for Thursday and Saturday (in the hand-written chats "sat" and "thu" are the most frequent day words)."""
_NEXT_DAY = 2.0
"""The day right after the chat's last day is this much likelier: plans are often for tomorrow."""


def _event_days(profile: Profile, day0: date, lo: int, hi: int) -> list[date]:
    days = [day0 + timedelta(days=k) for k in range(lo, hi + 1)]
    if profile.days == "weekday":
        days = [d for d in days if d.weekday() < 5] or days
    elif profile.days == "weekend":
        days = [d for d in days if d.weekday() >= 5] or days
    return days


_PEOPLE_MINUTES = (0,) * 13 + (30,) * 6 + (15,)
"""People choose whole hours, then half hours; a quarter past is rare (one in twenty)."""
_SLOT_MINUTES = (0, 0, 0, 0, 0, 30, 30, 30, 15, 45)
"""A practice or salon books quarter-hour slots."""


def _books_slots(profile: Profile) -> bool:
    return profile.category == "health"


def _clock(rng: random.Random, profile: Profile) -> tuple[int, int]:
    return rng.randint(*profile.hours), rng.choice(_SLOT_MINUTES if _books_slots(profile) else _PEOPLE_MINUTES)


def _duration(rng: random.Random, profile: Profile) -> int:
    """Minutes: quarter hours for a practice's slot; otherwise whole or half hours where the range holds
    one (a lunch of 45-75 minutes is an hour), so that people's ends are round too."""
    lo, hi = profile.duration
    if not _books_slots(profile):
        halves = [m for m in range(lo, hi + 1) if m % 30 == 0]
        if halves:
            return rng.choice(halves)
    return rng.randrange(lo, hi + 1, 15)


def _at(d: date, hm: tuple[int, int]) -> str:
    return format_time(datetime(d.year, d.month, d.day, *hm))


def _plus(t: str, minutes: int) -> str:
    return format_time(datetime.strptime(t, "%Y-%m-%dT%H:%M") + timedelta(minutes=minutes))


def _minutes(start: str, end: str) -> int:
    return int((datetime.strptime(end, "%Y-%m-%dT%H:%M") - datetime.strptime(start, "%Y-%m-%dT%H:%M")
                ).total_seconds() // 60)


_SAME_TIME = 0.45
"""How often a move to another day keeps the clock time (people move the day, not the hour)."""

_MULTI_DAY = ("travel/weekend", "travel/camping", "travel/roadtrip")
"""Profiles whose events may span days: a date range ("fri to sun") instead of clock times."""


class _Builder:
    """Holds the running state while one trajectory is drawn."""

    def __init__(self, rng: random.Random, config: GeneratorConfig, profile: Profile, user: str, day0: date,
                 ending: str, taken: set[str], horizon: int | None = None,
                 members: list[str] | None = None, avoid_days: set[date] | None = None) -> None:
        self.rng, self.config, self.p, self.user, self.day0 = rng, config, profile, user, day0
        self.avoid_days = avoid_days or set()
        self.ending = ending
        self.taken = taken
        drawn = rng.choices((0, 1, 2, 3), weights=(0.3, 0.42, 0.2, 0.08))[0]
        self.horizon = drawn if horizon is None else horizon
        if members is not None:
            self.members = list(members)
        else:
            others: list[str] = []
            if profile.group:
                pool = [n for n in names().people if n not in taken]
                others = rng.sample(pool, rng.randint(*profile.group.size))
                taken.update(others)
            self.members = [user, profile.name, *others]
        # group events: some members come (and say so), some decline, the rest stay silent
        others = self.members[2:]
        roll = rng.random()
        if not others or roll < 0.35:
            self.attending = list(others)
        else:
            k = rng.randint(0, len(others) - 1)
            self.attending = rng.sample(others, k)
        rest = [m for m in others if m not in self.attending]
        self.decliners = [m for m in rest if rng.random() < 0.5]
        self.refs: list[RefEvent] = []
        self.duration = _duration(rng, profile)
        self.casual_places = profile.register == "casual" and rng.random() < 0.7
        self.multi_day = profile.id in _MULTI_DAY and rng.random() < 0.8

    # -- values -------------------------------------------------------------------------
    def first_day(self) -> int:
        return self.horizon + 1

    def new_day(self, avoid: date | None) -> date:
        first = self.first_day()
        days = [d for d in _event_days(self.p, self.day0, first, first + _EVENT_SPREAD) if d != avoid]
        free = [d for d in days if d not in self.avoid_days]  # another event with this contact is then
        pool = free or days
        near = self.day0 + timedelta(days=first)  # the day after the last messages: "tmrw" on that day
        return self.rng.choices(pool, weights=[_WEEKDAY_WEIGHT[d.weekday()] * (_NEXT_DAY if d == near else 1.0)
                                               for d in pool])[0]

    def participants(self) -> tuple[str, ...]:
        """The user, the contact when they attend, and the group members who say they come.

        People outside the user's chats (the dentist a receptionist books) are never participants.
        """
        people = [self.user]
        if self.p.contact_attends:
            people.append(self.p.name)
        people += self.attending
        return tuple(dict.fromkeys(people))

    def place(self, avoid: str | None = None) -> str:
        """A place of the profile, written as this chat writes it (friends often in lower case)."""
        options = [x for x in self.p.places if avoid is None or x.lower() != avoid.lower()]
        x = self.rng.choice(options)
        return x.lower() if self.casual_places and self.rng.random() < 0.7 else x

    def opening(self) -> EventState:
        d = self.new_day(None)
        if self.multi_day:
            end = d + timedelta(days=self.rng.choice((1, 2, 2)))
            return EventState(d.isoformat(), end.isoformat(), self.place(), self.participants(), self.p.description)
        start = _at(d, _clock(self.rng, self.p))
        end = _plus(start, self.duration) if self.rng.random() < 0.55 else None
        return EventState(start, end, self.place(), self.participants(), self.p.description)

    def proposer(self) -> str:
        if self.p.group and self.attending and self.rng.random() < 0.3:
            return self.rng.choice(self.attending)
        return "USER" if self.rng.random() < 0.45 else self.p.name

    # -- turns --------------------------------------------------------------------------
    def modification(self, s: EventState, op: str, attr: str, by: str) -> Turn | None:
        """A proposed change of ``attr`` by ``by``; ``None`` when it does not apply to ``s``."""
        rng, p = self.rng, self.p
        exact = s.start is not None and len(s.start) == 16
        if self.multi_day and attr == "time":
            if op != "simple_modification" or s.start is None or s.end is None:
                return None
            shift = timedelta(days=rng.choice((7, 7, 14, -7, 1, -1)))
            new_start, new_end = date.fromisoformat(s.start) + shift, date.fromisoformat(s.end) + shift
            if new_start <= self.day0 + timedelta(days=self.horizon):
                new_start, new_end = new_start + timedelta(days=14), new_end + timedelta(days=14)
            return Turn("modify", by, "counter_time", op=op, attribute=attr,
                        values={"start": new_start.isoformat(), "end": new_end.isoformat()})
        if op == "detail_removal":
            if attr == "time" and exact:
                return Turn("modify", by, "drop_time", op=op, attribute=attr,
                            values={"start": s.start[:10], "end": None, "day": s.start[:10]})
            if attr == "location" and s.location is not None:
                return Turn("modify", by, "drop_place", op=op, attribute=attr, values={"location": None})
            return None
        if op == "timetable_linking":
            if attr == "time":
                day = date.fromisoformat(s.start[:10]) if s.start else self.new_day(None)
                new_start = _at(day, _clock(rng, p))
                dur = rng.choice((30, 45, 60, 90))
                other = rng.choice([q for q in contact_pool().profiles if q.id != p.id and q.group is None])
                ref = RefEvent(EventState(_plus(new_start, -dur), new_start, rng.choice(other.places),
                                          (self.user,), other.description),
                               historical=False, shared_with_contact=False)
                self.refs.append(ref)
                # the whole event moves to start after the other one: a known end keeps the duration
                end = _plus(new_start, _minutes(s.start, s.end)) if exact and s.end and len(s.end) == 16 else None
                return Turn("modify", "USER", "link_time", op=op, attribute=attr, ref=len(self.refs) - 1,
                            values={"start": new_start, "end": end})
            if attr == "location":
                place = self.place(avoid=s.location)
                when = self.day0 - timedelta(days=rng.randint(6, 60))
                hist_start = _at(when, _clock(rng, p))
                people = [self.user, *([p.name] if p.contact_attends else [])]
                ref = RefEvent(EventState(hist_start, _plus(hist_start, self.duration), place,
                                          tuple(people), p.description),
                               historical=True, shared_with_contact=True)
                self.refs.append(ref)
                return Turn("modify", by, "link_place", op=op, attribute=attr, ref=len(self.refs) - 1,
                            values={"location": place})
            if attr == "participants":
                # "same crew as last time": members of this group who were at an earlier event
                extra = [n for n in self.members[2:] if n not in s.participants]
                if not extra:
                    return None
                chosen = rng.sample(extra, rng.randint(1, min(2, len(extra))))
                when = self.day0 - timedelta(days=rng.randint(6, 60))
                hist_start = _at(when, _clock(rng, p))
                hist_people = tuple(dict.fromkeys([*s.participants, self.user, p.name, *chosen]))
                ref = RefEvent(EventState(hist_start, _plus(hist_start, self.duration), rng.choice(p.places),
                                          hist_people, p.description), historical=True, shared_with_contact=True)
                self.refs.append(ref)
                return Turn("modify", by, "link_people", op=op, attribute=attr, ref=len(self.refs) - 1,
                            values={"participants": tuple(dict.fromkeys([*s.participants, *hist_people]))})
            return None
        # simple modification
        if attr == "time":
            if s.start is not None and not exact:
                hm = _clock(rng, p)
                start = _at(date.fromisoformat(s.start), hm)
                end = _plus(start, self.duration) if rng.random() < 0.4 else None
                return Turn("modify", by, "fill_time", op=op, attribute=attr, values={"start": start, "end": end})
            old_day = date.fromisoformat(s.start[:10]) if s.start else None
            day = old_day if (old_day and rng.random() < 0.4) else self.new_day(old_day)
            hm = _clock(rng, p)
            if exact and day != old_day and rng.random() < _SAME_TIME:
                hm = (int(s.start[11:13]), int(s.start[14:16]))  # another day, same time ("thu instead, same time?")
            start = _at(day, hm)
            if start == s.start:
                start = _plus(start, 60)
            if s.end is not None and s.start is not None and len(s.start) == 16:
                # the whole event moves: the end keeps the duration
                end = _plus(start, _minutes(s.start, s.end) if len(s.end) == 16 else self.duration)
            else:
                end = _plus(start, self.duration) if rng.random() < 0.2 else None
            return Turn("modify", by, "counter_time", op=op, attribute=attr, values={"start": start, "end": end})
        if attr == "location":
            if s.location is None:
                return Turn("modify", by, "fill_place", op=op, attribute=attr, values={"location": self.place()})
            return Turn("modify", by, "counter_place", op=op, attribute=attr,
                        values={"location": self.place(avoid=s.location)})
        if attr == "participants":
            # only chat members join or leave; people outside the user's chats are never participants
            leaving = [n for n in s.participants if n in self.members[2:]]
            joining = [n for n in self.members[2:] if n not in s.participants]
            if leaving and (not joining or rng.random() < 0.5):
                who = rng.choice(leaving)
                left = tuple(n for n in s.participants if n != who)
                if rng.random() < 0.7:
                    return Turn("modify", who, "self_dropout", op=op, attribute=attr,
                                values={"participants": left, "person": who})
                teller = p.name if p.name in s.participants else "USER"
                return Turn("modify", teller, "remove_person", op=op, attribute=attr,
                            values={"participants": left, "person": who})
            if joining:
                who = rng.choice(joining)
                return Turn("modify", who, "join", op=op, attribute=attr,
                            values={"participants": (*s.participants, who), "person": who})
        return None

    def apply(self, s: EventState, turn: Turn) -> EventState:
        changes = {k: v for k, v in turn.values.items() if k in ("start", "end", "location", "participants")}
        return replace(s, **changes)


def build_trajectory(rng: random.Random, config: GeneratorConfig, profile: Profile, user: str, day0: date,
                     *, ending: str | None = None, taken: set[str] | None = None,
                     horizon: int | None = None, members: list[str] | None = None,
                     preexisting: bool = False, avoid_days: set[date] | None = None) -> Trajectory:
    """Draw one trajectory for ``profile``; ``ending`` forces an ending (e.g. ``"fail"`` for noise).

    ``preexisting``: the event is already in the initial timetable (agreed before the case starts),
    and the chat only changes or cancels it. ``members`` reuses a chat's members (a second event
    settled in the same chat).
    """
    ending = ending or _weighted(rng, config.endings)
    if ending == "dropout" and (profile.group is None or preexisting and rng.random() < 0.5):
        ending = "cancel_explicit" if rng.random() < 0.5 else "cancel_implicit"
    if preexisting and ending == "fail":
        ending = "keep"
    b = _Builder(rng, config, profile, user, day0, ending, taken if taken is not None else {user}, horizon,
                 members, avoid_days)
    tc = config.turns
    counts = list(range(tc.min, tc.max + 1))
    n = rng.choices(counts, weights=[tc.decay**i for i in range(len(counts))])[0]
    if ending == "fail" or (preexisting and ending == "keep"):
        n = max(n, 1)
    if preexisting and ending != "keep":
        n = min(n, 2)
    turns: list[Turn] = []
    state = b.opening()
    intent = "propose"
    if preexisting:
        turns.append(Turn("existing", profile.name, "existing", state=state))
        return _negotiate(rng, config, b, turns, state, state, n, ending)
    if config.atomic_ops["detail_removal"] > 0 and rng.random() < 0.15 * config.atomic_ops["detail_removal"] / 0.25:
        if rng.random() < 0.5 and not b.multi_day:
            intent = "propose_time_tbd"
            state = replace(state, start=state.start[:10] if state.start else None, end=None)
        else:
            intent = "propose_place_tbd"
            state = replace(state, location=None)
    # a service (a clinic, a salon) is asked for a slot by the user far more often than it offers one
    by = "USER" if profile.category == "health_care" and rng.random() < 0.75 else b.proposer()
    opening = Turn("propose", by, intent, success=ending != "fail", values={"proposal": state})
    opening.state = state if opening.success else None
    turns.append(opening)
    return _negotiate(rng, config, b, turns, opening.state, state, n, ending)


_ANNOUNCED = ("self_dropout", "remove_person", "join")
"""Turns that need no one's agreement: someone says they are in or out."""


def _negotiate(rng: random.Random, config: GeneratorConfig, b: _Builder, turns: list[Turn],
               current: EventState | None, proposal: EventState, n: int, ending: str) -> Trajectory:
    """The negotiation turns after the opening, then the ending."""
    tc = config.turns
    profile, user = b.p, b.user
    for _ in range(n):
        base = current if current is not None else proposal
        turn = None
        for _try in range(8):
            op = _weighted(rng, config.atomic_ops)
            attr = _weighted(rng, config.attributes)
            turn = b.modification(base, op, attr, b.proposer())
            if turn is not None and ending == "fail" and turn.intent in _ANNOUNCED:
                turn = None  # "im free now, in" reads as a yes whatever the plan's fate: no join in a plan that fails
            if turn is not None:
                break
        if turn is None:
            break
        announced = turn.intent in _ANNOUNCED
        turn.success = ending != "fail" and (announced or rng.random() < tc.success_rate)
        if turn.success:
            current = b.apply(base, turn)
        turn.state = current
        turns.append(turn)
    if ending == "keep" and len(turns) == 1 and turns[0].kind == "existing":
        ending = "cancel_explicit"  # an event already agreed on, and no change drawn: it is called off
    if ending in ("cancel_explicit", "cancel_implicit"):
        by = "USER" if rng.random() < 0.5 else profile.name
        intent = "cancel" if ending == "cancel_explicit" else "cancel_implicit"
        if profile.group is not None and by != "USER":
            # in a group, "broke my wrist, next time" from one member says they drop out, not that
            # the event is off: an organiser calling it off for everyone says so; more often it is
            # the user who cannot make it
            if intent == "cancel_implicit" and rng.random() < 0.6:
                by = "USER"
            else:
                intent = "cancel"
        turns.append(Turn("cancel", by, intent, state=None))
    elif ending == "dropout":
        turns.append(Turn("dropout", "USER", "user_dropout", state=None))
    elif ending == "fail":
        turns.append(Turn("abandon", b.proposer(), "abandon", state=None))
    return Trajectory(profile=profile, user=user, members=b.members, turns=turns, refs=b.refs,
                      horizon_days=b.horizon, attending=list(b.attending), decliners=list(b.decliners),
                      day0=b.day0)
