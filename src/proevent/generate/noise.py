"""Noise: other events in the initial timetable, and whole chats that are not about the target event.

Message-level noise (off-topic lines inside event chats) lives in :mod:`skeleton`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from proevent.generate.config import GeneratorConfig
from proevent.generate.contacts import Profile, contact_pool, names
from proevent.generate.skeleton import Line, chat_skeleton, off_topic_skeleton, unrelated_event_skeleton
from proevent.generate.trajectory import EventState, RefEvent, _at, _clock, _plus, build_trajectory

_NARRATABLE = ("dining", "sports_outdoors", "entertainment", "education")


def noise_events(rng: random.Random, config: GeneratorConfig, user: str, day0: date, exclude: str,
                 horizon: int) -> list[RefEvent]:
    """Other determined (future) and historical events of the user, from other contacts' profiles."""
    pool = [p for p in contact_pool().profiles if p.id != exclude]
    out: list[RefEvent] = []
    for _ in range(rng.randint(*config.noise.events)):
        p = rng.choice(pool)
        historical = rng.random() < config.noise.historical_rate
        day = day0 - timedelta(days=rng.randint(1, 45)) if historical else day0 + timedelta(
            days=rng.randint(horizon + 1, horizon + 10))
        start = _at(day, _clock(rng, p))
        dur = rng.randrange(p.duration[0], p.duration[1] + 1, 15)
        people = [user, *([p.name] if p.contact_attends else [])]
        end = _plus(start, dur) if rng.random() < 0.8 else None
        state = EventState(start, end, rng.choice(p.places), tuple(dict.fromkeys(people)), p.description)
        out.append(RefEvent(state, historical=historical, shared_with_contact=False))
    return out


@dataclass
class NoiseChat:
    kind: str
    name: str
    type: str
    members: list[str]
    lines: list[Line]
    voices: dict[str, str]
    refs: list[RefEvent]
    category: str | None = None
    acts: tuple[str, ...] = ()


def _voice(rng: random.Random) -> str:
    return rng.choice(("casual", "casual", "emoji", "terse"))


def _with_hours(lines: list[Line], profile: Profile) -> list[Line]:
    """The activity's hours on each line (slot ``hours``): the realiser writes a bare "8" where they
    leave one reading, as in the chat of the case's own event."""
    for line in lines:
        line.slots["hours"] = tuple(profile.hours)
    return lines


def noise_chat(kind: str, rng: random.Random, config: GeneratorConfig, user: str, day0: date, horizon: int,
               used_profiles: set[str], taken: set[str]) -> NoiseChat:
    """One whole chat of noise content: ``off_topic``, ``unrelated_event`` or ``failed_planning``."""
    profiles = [p for p in contact_pool().profiles if p.id not in used_profiles and p.name not in taken]
    if kind == "failed_planning":
        p = rng.choice(profiles)
        used_profiles.add(p.id)
        taken.add(p.name)
        traj = build_trajectory(rng, config, p, user, day0, ending="fail", taken=taken, horizon=horizon)
        lines = _with_hours(chat_skeleton(traj, rng, config), p)
        voices = {p.name: p.voice, **{m: _voice(rng) for m in traj.members[2:]}}
        group = p.group is not None
        return NoiseChat(kind, p.group.name if p.group else p.name, "group" if group else "direct",
                         traj.members, lines, voices, traj.refs, p.category, tuple(p.acts))
    if kind == "unrelated_event":
        q: Profile = rng.choice([p for p in profiles if p.category in _NARRATABLE and p.contact_attends])
        used_profiles.add(q.id)
        taken.add(q.name)
        free = [n for n in names().people if n not in taken]
        third = rng.choice(free)
        taken.add(third)
        day = day0 + timedelta(days=rng.randint(horizon + 1, horizon + 8))
        start = _at(day, _clock(rng, q))
        end = _plus(start, rng.randrange(q.duration[0], q.duration[1] + 1, 15)) if rng.random() < 0.4 else None
        act = rng.choice(q.acts)
        place = rng.choice(q.places)
        if q.group and rng.random() < 0.6:
            members = [user, q.name, third]
            lines = _with_hours(
                unrelated_event_skeleton(user, q.name, third, act, (start, end), place, members, rng), q)
            return NoiseChat(kind, q.group.name, "group", members, lines,
                             {q.name: q.voice, third: _voice(rng)}, [], q.category, (act,))
        lines = _with_hours(unrelated_event_skeleton(user, q.name, third, act, (start, end), place, None, rng), q)
        return NoiseChat(kind, q.name, "direct", [user, q.name], lines, {q.name: q.voice}, [], q.category, (act,))
    other = rng.choice([n for n in names().people if n not in taken])
    taken.add(other)
    return NoiseChat("off_topic", other, "direct", [user, other], off_topic_skeleton(user, other, rng),
                     {other: _voice(rng)}, [])
