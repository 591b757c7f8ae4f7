"""Scenario assembly: concurrent chats on a realistic clock, merged, cut into windows, with gold.

:func:`plan_case` draws everything but the text (trajectory, skeletons, noise, message times);
a realiser fills ``PlannedChat.texts``; :func:`finish_case` merges the messages, cuts the windows
and derives each step's gold operations by diffing the true timetables at window boundaries.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from proevent.generate.config import GeneratorConfig
from proevent.generate.contacts import Profile, contact_pool, names
from proevent.generate.noise import noise_chat, noise_events
from proevent.generate.realize.template import ChatContext
from proevent.generate.skeleton import Line, add_message_noise, chat_skeleton
from proevent.generate.trajectory import EventState, RefEvent, Trajectory, _weighted, build_trajectory
from proevent.model import Case, Chat, Event, Message, Step, Timetable, diff_timetables
from proevent.model.times import format_time


class CaseRejected(Exception):
    """The drawn case cannot be used; ``reason`` is counted and another attempt is made."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class PlannedChat:
    chat: Chat
    kind: str
    """``target`` or a noise content type."""
    lines: list[Line]
    times: list[datetime]
    ctx: ChatContext
    texts: list[str] | None = None


@dataclass
class CasePlan:
    case_id: str
    user: str
    timezone: str
    start: datetime
    window: timedelta
    initial: list[Event]
    chats: list[PlannedChat]
    trajectory: Trajectory
    meta: dict[str, Any] = field(default_factory=dict)


def case_rng(seed: int, index: int, attempt: int) -> random.Random:
    """Each case (and each retry) has its own stream: cases do not depend on each other."""
    return random.Random(f"proevent/{seed}/{index}/{attempt}")


def profile_order(seed: int) -> list[Profile]:
    """All profiles in a seed-dependent order; case ``i`` uses profile ``i mod 56`` of it."""
    order = list(contact_pool().profiles)
    random.Random(f"proevent/{seed}/profiles").shuffle(order)
    return order


_WAKE, _SLEEP = 8 * 60, 22 * 60


def _session_times(rng: random.Random, lines: list[Line], day0: date, horizon: int,
                   first_on_day0: bool) -> list[datetime]:
    sessions = sum(1 for i, ln in enumerate(lines) if ln.new_session or i == 0)
    span = (horizon + 1) * (_SLEEP - _WAKE - 60)
    picks = sorted(rng.randrange(span) for _ in range(sessions))
    if first_on_day0:
        picks[0] = rng.randrange(15, _SLEEP - _WAKE - 180)
        picks.sort()
    base = datetime(day0.year, day0.month, day0.day)
    out: list[datetime] = []
    k = -1
    current: datetime | None = None
    for i, ln in enumerate(lines):
        if i == 0 or ln.new_session:
            k += 1
            day, minute = divmod(picks[k], _SLEEP - _WAKE - 60)
            planned = base + timedelta(days=day, minutes=_WAKE + minute)
            current = planned if current is None else max(planned, current + timedelta(minutes=rng.randint(25, 90)))
        else:
            assert current is not None
            gap = rng.randint(1, 12) if rng.random() < 0.88 else rng.randint(15, 75)
            current = current + timedelta(minutes=gap)
        out.append(current)
    limit = base + timedelta(days=horizon + 1)
    if out and out[-1] >= limit:
        raise CaseRejected("clock overrun")
    return out


def _voices(rng: random.Random, people: list[str], fixed: dict[str, str]) -> dict[str, str]:
    return {p: fixed.get(p) or rng.choice(("casual", "casual", "emoji", "terse")) for p in people}


def _nicknames(people: list[str]) -> dict[str, str]:
    pool = {p.name: p.nickname for p in contact_pool().profiles}
    return {p: pool.get(p, p.split()[0]) for p in people}


def plan_case(index: int, attempt: int, config: GeneratorConfig) -> CasePlan:
    rng = case_rng(config.seed, index, attempt)
    profile = profile_order(config.seed)[index % len(contact_pool().profiles)]
    contact_names = {p.name for p in contact_pool().profiles}
    user = rng.choice([u for u in names().users if u not in contact_names])
    span = (config.last_day - config.first_day).days
    day0 = config.first_day + timedelta(days=rng.randint(0, span))
    taken = {user, profile.name, *profile.attendees}
    traj = build_trajectory(rng, config, profile, user, day0, taken=taken)
    lines = chat_skeleton(traj, rng, config)
    noise = config.noise
    message_noise = rng.random() < noise.message
    if message_noise:
        message_noise = add_message_noise(lines, traj.members[:2], rng, noise.message_rate) > 0
    n_chats = 1
    if config.max_concurrent > 1 and rng.random() < noise.chat and any(w > 0 for w in noise.content.values()):
        ks = list(range(2, config.max_concurrent + 1))
        n_chats = rng.choices(ks, weights=[config.concurrent_decay**i for i in range(len(ks))])[0]
    user_voice = "formal" if profile.voice == "formal" else rng.choice(("casual", "casual", "emoji", "terse", "formal"))
    refs: list[RefEvent] = list(traj.refs)
    ref_offset = 0
    target_voices = _voices(rng, traj.members, {user: user_voice, profile.name: profile.voice})
    planned: list[tuple[str, str, str, list[str], list[Line], dict[str, str], int, str | None, list[str]]] = []
    planned.append(("target", profile.group.name if profile.group else profile.name,
                    "group" if profile.group else "direct", traj.members, lines, target_voices, ref_offset,
                    profile.category, list(profile.acts)))
    used = {profile.id}
    contents: list[str] = []
    for _ in range(n_chats - 1):
        kind = _weighted(rng, noise.content)
        nc = noise_chat(kind, rng, config, user, day0, traj.horizon_days, used, taken)
        contents.append(kind)
        offset = len(refs)
        refs += nc.refs
        if message_noise and kind != "off_topic":
            add_message_noise(nc.lines, nc.members[:2], rng, noise.message_rate)
        planned.append((kind, nc.name, nc.type, nc.members, nc.lines,
                        _voices(rng, nc.members, {user: user_voice, **nc.voices}), offset, nc.category, list(nc.acts)))
    extra_events = noise_events(rng, config, user, day0, profile.id, traj.horizon_days) if (
        rng.random() < noise.event) else []
    initial_states = sorted([r.state for r in refs] + [r.state for r in extra_events],
                            key=lambda s: (s.start or "", s.description))
    initial = [Event(id=f"e{i}", start=s.start, end=s.end, location=s.location,
                     participants=list(s.participants), description=s.description)
               for i, s in enumerate(initial_states, start=1)]
    order = list(range(len(planned)))
    rng.shuffle(order)
    chats: list[PlannedChat] = []
    for cid, k in enumerate(order, start=1):
        kind, name, ctype, members, clines, voices, offset, category, acts = planned[k]
        for ln in clines:
            if ln.addressee is None:
                others = [m for m in members if m != ln.speaker]
                ln.addressee = others[0] if len(members) == 2 else None
            if "ref" in ln.slots:
                ln.slots["ref"] = int(ln.slots["ref"]) + offset  # type: ignore[arg-type]
        times = _session_times(rng, clines, day0, traj.horizon_days, first_on_day0=kind == "target")
        ctx = ChatContext(user=user, voices=voices, nicknames=_nicknames(members), refs=refs, style=config.style,
                          category=category, acts=acts)
        chats.append(PlannedChat(Chat(chat_id=f"c{cid}", name=name, type=ctype, members=list(members)),
                                 kind, clines, times, ctx))
    first = min(t for c in chats for t in c.times)
    window = timedelta(minutes=config.window_minutes)
    start = datetime(first.year, first.month, first.day)
    while start + window <= first:
        start += window
    meta = {
        "category": profile.category,
        "subcategory": profile.subcategory,
        "negotiation_turns": traj.negotiation_turns,
        "concurrent_chats": len(chats),
        "noise": {"message": message_noise, "chat": len(chats) > 1, "event": bool(extra_events)},
        "noise_content": sorted(set(contents) | ({"off_topic"} if message_noise else set())),
        "scheduling_pattern": traj.pattern,
        "atomic_ops": traj.atomic_ops,
        "realizer": "template",
        "seed": config.seed,
    }
    return CasePlan(f"pe-{index + 1:05d}", user, rng.choice(names().timezones), start, window, initial, chats,
                    traj, meta)


def _as_event(eid: str, s: EventState) -> Event:
    return Event(id=eid, start=s.start, end=s.end, location=s.location, participants=list(s.participants),
                 description=s.description)


def finish_case(plan: CasePlan) -> Case:
    """Merge the realised chats, cut the windows and derive the gold of every step."""
    messages: list[tuple[datetime, int, int, Message]] = []
    effects: list[tuple[datetime, EventState | None]] = []
    for ci, pc in enumerate(plan.chats):
        if pc.texts is None or len(pc.texts) != len(pc.lines):
            raise ValueError(f"chat {pc.chat.chat_id} is not realised")
        for li, (ln, at, text) in enumerate(zip(pc.lines, pc.times, pc.texts)):
            messages.append((at, ci, li, Message(chat_id=pc.chat.chat_id, time=format_time(at),
                                                 sender=ln.speaker, text=text)))
            if pc.kind == "target" and ln.effect:
                effects.append((at, ln.state))
    messages.sort(key=lambda m: (m[0], m[1], m[2]))
    # the intent of every message, in the case's message order (stats: table 3 of the paper)
    plan.meta["message_intents"] = [plan.chats[ci].lines[li].intent for _, ci, li, _ in messages]
    last = messages[-1][0]
    timetable = Timetable(plan.initial)
    target_id: str | None = None
    steps: list[Step] = []
    ws = plan.start
    t = 0
    while ws <= last:
        we = ws + plan.window
        t += 1
        state: EventState | None = None
        seen = False
        for at, st in effects:
            if at < we:
                state, seen = st, True
        after = [ev for ev in timetable if ev.id != target_id]
        if seen and state is not None:
            if target_id is None:
                target_id = timetable.next_id()
            after.append(_as_event(target_id, state))
        ops = diff_timetables(timetable, after)
        result = timetable.apply(ops)
        if result.errors:
            raise CaseRejected("gold not executable")
        timetable = result.timetable
        steps.append(Step(t=t, start=format_time(ws), end=format_time(we),
                          messages=[m[3] for m in messages if ws <= m[0] < we],
                          gold_ops=ops, gold_timetable=timetable.events))
        ws = we
    return Case(case_id=plan.case_id, user=plan.user, timezone=plan.timezone, start=format_time(plan.start),
                initial_timetable=plan.initial, chats=[pc.chat for pc in plan.chats], steps=steps,
                meta=plan.meta)
