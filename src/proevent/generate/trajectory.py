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
    """``propose``, ``modify``, ``cancel``, ``dropout`` or ``abandon``."""
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


def _event_days(profile: Profile, day0: date, lo: int, hi: int) -> list[date]:
    days = [day0 + timedelta(days=k) for k in range(lo, hi + 1)]
    if profile.days == "weekday":
        days = [d for d in days if d.weekday() < 5] or days
    elif profile.days == "weekend":
        days = [d for d in days if d.weekday() >= 5] or days
    return days


def _clock(rng: random.Random, profile: Profile) -> tuple[int, int]:
    return rng.randint(*profile.hours), rng.choice((0, 0, 0, 30, 30, 15, 45))


def _at(d: date, hm: tuple[int, int]) -> str:
    return format_time(datetime(d.year, d.month, d.day, *hm))


def _plus(t: str, minutes: int) -> str:
    return format_time(datetime.strptime(t, "%Y-%m-%dT%H:%M") + timedelta(minutes=minutes))


class _Builder:
    """Holds the running state while one trajectory is drawn."""

    def __init__(self, rng: random.Random, config: GeneratorConfig, profile: Profile, user: str, day0: date,
                 ending: str, taken: set[str], horizon: int | None = None) -> None:
        self.rng, self.config, self.p, self.user, self.day0 = rng, config, profile, user, day0
        self.ending = ending
        self.taken = taken
        drawn = rng.choices((0, 1, 2, 3), weights=(0.3, 0.42, 0.2, 0.08))[0]
        self.horizon = drawn if horizon is None else horizon
        others: list[str] = []
        if profile.group:
            pool = [n for n in names().people if n not in taken]
            others = rng.sample(pool, rng.randint(*profile.group.size))
            taken.update(others)
        self.members = [user, profile.name, *others]
        self.refs: list[RefEvent] = []
        self.duration = rng.randrange(profile.duration[0], profile.duration[1] + 1, 15)

    # -- values -------------------------------------------------------------------------
    def first_day(self) -> int:
        return self.horizon + 1

    def new_day(self, avoid: date | None) -> date:
        days = [d for d in _event_days(self.p, self.day0, self.first_day(), self.first_day() + 8) if d != avoid]
        return self.rng.choice(days)

    def participants(self) -> tuple[str, ...]:
        people = [self.user]
        if self.p.contact_attends:
            people.append(self.p.name)
        people += self.p.attendees + self.members[2:]
        return tuple(dict.fromkeys(people))

    def opening(self) -> EventState:
        d = self.new_day(None)
        start = _at(d, _clock(self.rng, self.p))
        end = _plus(start, self.duration) if self.rng.random() < 0.55 else None
        return EventState(start, end, self.rng.choice(self.p.places), self.participants(), self.p.description)

    def proposer(self) -> str:
        if self.p.group and self.rng.random() < 0.3:
            return self.rng.choice(self.members[2:])
        return "USER" if self.rng.random() < 0.45 else self.p.name

    # -- turns --------------------------------------------------------------------------
    def modification(self, s: EventState, op: str, attr: str, by: str) -> Turn | None:
        """A proposed change of ``attr`` by ``by``; ``None`` when it does not apply to ``s``."""
        rng, p = self.rng, self.p
        exact = s.start is not None and len(s.start) == 16
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
                                          tuple(dict.fromkeys([self.user, *other.attendees])), other.description),
                               historical=False, shared_with_contact=False)
                self.refs.append(ref)
                return Turn("modify", "USER", "link_time", op=op, attribute=attr, ref=len(self.refs) - 1,
                            values={"start": new_start, "end": None})
            if attr == "location":
                place = rng.choice([x for x in p.places if x != s.location])
                when = self.day0 - timedelta(days=rng.randint(6, 60))
                hist_start = _at(when, _clock(rng, p))
                ref = RefEvent(EventState(hist_start, _plus(hist_start, self.duration), place,
                                          tuple(dict.fromkeys([self.user, p.name, *p.attendees])), p.description),
                               historical=True, shared_with_contact=True)
                self.refs.append(ref)
                return Turn("modify", by, "link_place", op=op, attribute=attr, ref=len(self.refs) - 1,
                            values={"location": place})
            if attr == "participants":
                extra = [n for n in names().people if n not in self.taken and n not in s.participants]
                chosen = rng.sample(extra, rng.randint(1, 2))
                self.taken.update(chosen)
                when = self.day0 - timedelta(days=rng.randint(6, 60))
                hist_start = _at(when, _clock(rng, p))
                hist_people = tuple(dict.fromkeys([self.user, p.name, *chosen]))
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
            start = _at(day, hm)
            if start == s.start:
                start = _plus(start, 60)
            end = _plus(start, self.duration) if s.end is not None or rng.random() < 0.2 else None
            return Turn("modify", by, "counter_time", op=op, attribute=attr, values={"start": start, "end": end})
        if attr == "location":
            if s.location is None:
                return Turn("modify", by, "fill_place", op=op, attribute=attr,
                            values={"location": rng.choice(p.places)})
            place = rng.choice([x for x in p.places if x != s.location])
            return Turn("modify", by, "counter_place", op=op, attribute=attr, values={"location": place})
        if attr == "participants":
            removable = [n for n in s.participants if n not in (self.user, p.name, *p.attendees)]
            if removable and rng.random() < 0.5:
                who = rng.choice(removable)
                left = tuple(n for n in s.participants if n != who)
                if who in self.members:
                    return Turn("modify", who, "self_dropout", op=op, attribute=attr,
                                values={"participants": left, "person": who})
                return Turn("modify", by, "remove_person", op=op, attribute=attr,
                            values={"participants": left, "person": who})
            extra = [n for n in names().people if n not in self.taken and n not in s.participants]
            who = rng.choice(extra)
            self.taken.add(who)
            return Turn("modify", by, "add_person", op=op, attribute=attr,
                        values={"participants": (*s.participants, who), "person": who,
                                "relation": rng.choice(names().relations_for_added)})
        return None

    def apply(self, s: EventState, turn: Turn) -> EventState:
        changes = {k: v for k, v in turn.values.items() if k in ("start", "end", "location", "participants")}
        return replace(s, **changes)


def build_trajectory(rng: random.Random, config: GeneratorConfig, profile: Profile, user: str, day0: date,
                     *, ending: str | None = None, taken: set[str] | None = None,
                     horizon: int | None = None) -> Trajectory:
    """Draw one trajectory for ``profile``; ``ending`` forces an ending (e.g. ``"fail"`` for noise)."""
    ending = ending or _weighted(rng, config.endings)
    if ending == "dropout" and profile.group is None:
        ending = "cancel_explicit"
    b = _Builder(rng, config, profile, user, day0, ending, taken if taken is not None else {user}, horizon)
    tc = config.turns
    counts = list(range(tc.min, tc.max + 1))
    n = rng.choices(counts, weights=[tc.decay**i for i in range(len(counts))])[0]
    if ending == "fail":
        n = max(n, 1)
    turns: list[Turn] = []
    state = b.opening()
    intent = "propose"
    if config.atomic_ops["detail_removal"] > 0 and rng.random() < 0.15 * config.atomic_ops["detail_removal"] / 0.25:
        if rng.random() < 0.5:
            intent = "propose_time_tbd"
            state = replace(state, start=state.start[:10] if state.start else None, end=None)
        else:
            intent = "propose_place_tbd"
            state = replace(state, location=None)
    opening = Turn("propose", b.proposer(), intent, success=ending != "fail", values={"proposal": state})
    opening.state = state if opening.success else None
    turns.append(opening)
    current: EventState | None = opening.state
    proposal = state
    for _ in range(n):
        base = current if current is not None else proposal
        turn = None
        for _try in range(8):
            op = _weighted(rng, config.atomic_ops)
            attr = _weighted(rng, config.attributes)
            turn = b.modification(base, op, attr, b.proposer())
            if turn is not None:
                break
        if turn is None:
            break
        announced = turn.intent in ("self_dropout", "remove_person")
        turn.success = ending != "fail" and (announced or rng.random() < tc.success_rate)
        if turn.success:
            current = b.apply(base, turn)
        turn.state = current
        turns.append(turn)
    if ending in ("cancel_explicit", "cancel_implicit"):
        by = "USER" if rng.random() < 0.5 else profile.name
        intent = "cancel" if ending == "cancel_explicit" else "cancel_implicit"
        turns.append(Turn("cancel", by, intent, state=None))
    elif ending == "dropout":
        turns.append(Turn("dropout", "USER", "user_dropout", state=None))
    elif ending == "fail":
        turns.append(Turn("abandon", b.proposer(), "abandon", state=None))
    return Trajectory(profile=profile, user=user, members=b.members, turns=turns, refs=b.refs,
                      horizon_days=b.horizon)
