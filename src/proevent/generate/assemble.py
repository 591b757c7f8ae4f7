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
from proevent.generate.phenomena import case_phenomena
from proevent.generate.realize.template import ChatContext
from proevent.generate.scenario import (
    event_days,
    relay_turn,
    second_event,
    similar_event,
    solo_report,
    usual_spot_events,
    volunteer_chat,
)
from proevent.generate.skeleton import SERVICES, Line, add_message_noise, chat_skeleton
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
    keys: dict[str, str] = field(default_factory=dict)
    """Event key -> id of the initial event it is (events already in the timetable)."""
    tags: set[str] = field(default_factory=set)
    """Phenomena the plan holds by construction (the rest are read from lines and texts)."""


def case_rng(seed: int, index: int, attempt: int) -> random.Random:
    """Each case (and each retry) has its own stream: cases do not depend on each other."""
    return random.Random(f"proevent/{seed}/{index}/{attempt}")


def profile_order(seed: int) -> list[Profile]:
    """All profiles in a seed-dependent order; case ``i`` uses profile ``i mod 56`` of it."""
    order = list(contact_pool().profiles)
    random.Random(f"proevent/{seed}/profiles").shuffle(order)
    return order


_WAKE, _SLEEP = 8 * 60, 22 * 60
EVENT_CHATS = ("target", "relay", "volunteer", "report")
"""Chat kinds whose lines settle events of the user (noise chats never do)."""


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


_TEXTS_CASUALLY = 0.5
"""Share of cases in which a contact whose profile writes formally but who is no service (a manager,
a tutor, a project lead) texts like anyone else: people write a colleague "can we push to 3?", not a
letter. Receptionists and other services keep their formal voice."""


def _contact_voice(profile: Profile, rng: random.Random) -> str:
    if profile.voice == "formal" and profile.category not in SERVICES and rng.random() < _TEXTS_CASUALLY:
        return rng.choice(("casual", "casual", "terse"))
    return profile.voice


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
    taken = {user, profile.name}
    sc = config.scenario
    tags: set[str] = set()
    traj = build_trajectory(rng, config, profile, user, day0, taken=taken, preexisting=rng.random() < sc.preexisting)
    lines = chat_skeleton(traj, rng, config)
    refs: list[RefEvent] = list(traj.refs)
    own: list[tuple[str, Trajectory]] = [("target", traj)]
    if rng.random() < sc.second_event:
        traj2, lines2 = second_event(rng, config, traj, len(refs), taken, preexisting=rng.random() < sc.preexisting)
        lines += lines2
        refs += traj2.refs
        own.append(("second", traj2))
    existing: list[tuple[str, EventState]] = [(k, t.initial_state) for k, t in own if t.initial_state is not None]
    if existing and rng.random() < sc.similar:
        refs.append(similar_event(rng, existing[0][1], traj, event_days(*(t for _, t in own))))
        tags.add("similar_events")
    if not traj.preexisting and rng.random() < sc.usual_spot:
        extra = usual_spot_events(rng, traj, lines)
        if extra:
            refs += extra
            tags.add("usual_spot")
    if "similar_events" not in tags and len(own) == 1:
        # one event with this contact in the timetable: people often do not say which one they mean
        for ln in lines:
            if "about" in ln.slots and rng.random() < 0.6:
                del ln.slots["about"]
    noise = config.noise
    message_noise = rng.random() < noise.message
    if message_noise:
        message_noise = add_message_noise(lines, traj.members[:2], rng, noise.message_rate) > 0
    if rng.random() < sc.lateness:
        late_by = rng.choice(traj.members[1:])
        lines.append(Line(late_by, "late", new_session=True))
        lines.append(Line(user, "react"))
    n_chats = 1
    if config.max_concurrent > 1 and rng.random() < noise.chat and any(w > 0 for w in noise.content.values()):
        ks = list(range(2, config.max_concurrent + 1))
        n_chats = rng.choices(ks, weights=[config.concurrent_decay**i for i in range(len(ks))])[0]
    # people text the way they text: a user writes a receptionist or a manager a little more formally,
    # friends never
    contact_voice = _contact_voice(profile, rng)
    user_voice = "formal" if contact_voice == "formal" and rng.random() < 0.15 else rng.choice(
        ("casual", "casual", "emoji", "terse"))
    target_voices = _voices(rng, traj.members, {user: user_voice, profile.name: contact_voice})
    planned: list[tuple[str, str, str, list[str], list[Line], dict[str, str], int, str | None, list[str]]] = []
    room = config.max_concurrent - 1  # chats besides the target chat
    relayed = relay_turn(rng, traj, lines, taken) if (
        room > 0 and profile.group is None and rng.random() < sc.relay) else None
    if relayed is not None and not lines:  # the chat with the contact itself says something first
        day = {"day": traj.initial_state.start[:10]} if traj.initial_state and traj.initial_state.start else {}
        lines += [Line(user, "remind", {"act": rng.choice(profile.acts), **day}, new_session=True, turn=0),
                  Line(profile.name, "react", turn=0)]
    planned.append(("target", profile.group.name if profile.group else _chat_name(profile),
                    "group" if profile.group else "direct", traj.members, lines, target_voices, 0,
                    profile.category, list(profile.acts)))
    if relayed is not None:
        relay_person, relay_lines = relayed
        planned.append(("relay", relay_person, "direct", [user, relay_person], relay_lines,
                        _voices(rng, [user, relay_person], {user: user_voice}), 0, profile.category,
                        list(profile.acts)))
        room -= 1
    if room > 0 and rng.random() < sc.volunteer:
        gname, gmembers, glines = volunteer_chat(rng, traj, taken)
        planned.append(("volunteer", gname, "group", gmembers, glines, _voices(rng, gmembers, {user: user_voice}),
                        0, None, []))
        room -= 1
    if room > 0 and rng.random() < sc.solo:
        friend, flines = solo_report(rng, traj, taken)
        planned.append(("report", friend, "direct", [user, friend], flines,
                        _voices(rng, [user, friend], {user: user_voice}), 0, None, []))
        room -= 1
    used = {profile.id}
    contents: list[str] = []
    for _ in range(min(n_chats - len(planned), room)):
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
    initial_states = [(None, r.state) for r in refs] + [(None, r.state) for r in extra_events] + [
        (key, st) for key, st in existing]
    initial_states.sort(key=lambda ks: (ks[1].start or "", ks[1].description, ks[0] or ""))
    initial = [Event(id=f"e{i}", start=s.start, end=s.end, location=s.location,
                     participants=list(s.participants), description=s.description)
               for i, (_, s) in enumerate(initial_states, start=1)]
    keys = {key: f"e{i}" for i, (key, _) in enumerate(initial_states, start=1) if key is not None}
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
                          category=category, acts=acts, hours=tuple(profile.hours) if kind in (
                              "target", "relay") else None)
        chats.append(PlannedChat(Chat(chat_id=f"c{cid}", name=name, type=ctype, members=list(members)),
                                 kind, clines, times, ctx))
    if relayed is not None:
        _relay_after_target(chats)
    window, start = choose_window(rng, config, [t for c in chats for t in c.times])
    meta = {
        "category": profile.category,
        "subcategory": profile.subcategory,
        "negotiation_turns": sum(t.negotiation_turns for _, t in own),
        "concurrent_chats": len(chats),
        "noise": {"message": message_noise, "chat": any(c.kind not in EVENT_CHATS for c in chats),
                  "event": bool(extra_events)},
        "noise_content": sorted(set(contents) | ({"off_topic"} if message_noise else set())),
        "scheduling_pattern": "|".join(t.pattern for _, t in own),
        "atomic_ops": list(dict.fromkeys(op for _, t in own for op in t.atomic_ops)),
        "realizer": "template",
        "seed": config.seed,
    }
    return CasePlan(f"pe-{index + 1:05d}", user, rng.choice(names().timezones), start, window, initial, chats,
                    traj, meta, keys=keys, tags=tags)


def _chat_name(profile: Profile) -> str:
    """A service's chat shows the business ("Brightsmile Dental"), as phones show a saved business;
    a person's chat their name."""
    if not profile.contact_attends:
        return profile.relation.split(" at ", 1)[1] if " at " in profile.relation else (
            f"{profile.name} ({profile.relation})")
    return profile.name


def _relay_after_target(chats: list[PlannedChat]) -> None:
    """Relayed news comes after what the target chat said before it: shift the relay chat's clock."""
    target = next(c for c in chats if c.kind == "target")
    relay = next(c for c in chats if c.kind == "relay")
    before = [t for ln, t in zip(target.lines, target.times) if ln.turn is not None and ln.turn < (
        relay.lines[0].turn or 0) and ln.event == "target"]
    if before and relay.times[0] <= max(before):
        shift = max(before) - relay.times[0] + timedelta(minutes=40)
        relay.times = [t + shift for t in relay.times]
    after = [t for ln, t in zip(target.lines, target.times) if ln.turn is not None and ln.turn > (
        relay.lines[0].turn or 0) and ln.event == "target"]
    if after and relay.times[-1] >= min(after):
        raise CaseRejected("relay out of order")


def choose_window(rng: random.Random, config: GeneratorConfig, times: list[datetime]) -> tuple[timedelta, datetime]:
    """The case's window length and the start of its first window.

    With ``window_minutes`` set, every case takes it. Otherwise a case takes, among ``windows``, one
    that leaves at most ``max_quiet`` of its steps without any message (drawn among those, shorter
    ones preferred), or the quietest-free one when none does: a phone is looked at when something
    arrives, and a benchmark whose steps are mostly empty measures silence, not tracking.
    """
    first, last = min(times), max(times)

    def cut(minutes: int) -> tuple[datetime, int, int]:
        window = timedelta(minutes=minutes)
        start = datetime(first.year, first.month, first.day)
        while start + window <= first:
            start += window
        n = int((last - start) // window) + 1
        busy = {int((t - start) // window) for t in times}
        return start, n, n - len(busy)

    if config.window_minutes is not None:
        start, _, _ = cut(config.window_minutes)
        return timedelta(minutes=config.window_minutes), start
    options = []
    for minutes in sorted(config.windows):
        start, n, quiet = cut(minutes)
        options.append((minutes, start, n, quiet))
    fitting = [o for o in options if o[3] <= config.max_quiet * o[2] and o[2] >= 2] or [
        o for o in options if o[3] <= config.max_quiet * o[2]]
    if fitting:
        weights = [1.0 / (1 + i) for i in range(len(fitting))]
        minutes, start, _, _ = rng.choices(fitting, weights=weights)[0]
    else:
        minutes, start, _, _ = min(options, key=lambda o: (o[3] / o[2], -o[2]))
    return timedelta(minutes=minutes), start


def _as_event(eid: str, s: EventState) -> Event:
    return Event(id=eid, start=s.start, end=s.end, location=s.location, participants=list(s.participants),
                 description=s.description)


def finish_case(plan: CasePlan) -> Case:
    """Merge the realised chats, cut the windows and derive the gold of every step.

    Every event a chat settles has a key; its true state is the state of the latest line with an
    effect on that key sent before the window's end (events already in the initial timetable start
    from their initial state). The gold of a step is the diff of the true timetables at the two ends.
    """
    messages: list[tuple[datetime, int, int, Message]] = []
    effects: list[tuple[datetime, str, EventState | None]] = []
    for ci, pc in enumerate(plan.chats):
        if pc.texts is None or len(pc.texts) != len(pc.lines):
            raise ValueError(f"chat {pc.chat.chat_id} is not realised")
        for li, (ln, at, text) in enumerate(zip(pc.lines, pc.times, pc.texts)):
            for k, part in enumerate(text.split("\n")):
                messages.append((at, ci, li * 8 + k, Message(chat_id=pc.chat.chat_id, time=format_time(at),
                                                             sender=ln.speaker, text=part)))
            if ln.effect and pc.kind in EVENT_CHATS:
                effects.append((at, ln.event, ln.state))
    messages.sort(key=lambda m: (m[0], m[1], m[2]))
    # the intent of every message, in the case's message order (stats: table 3 of the paper)
    plan.meta["message_intents"] = [plan.chats[ci].lines[li // 8].intent for _, ci, li, _ in messages]
    effects.sort(key=lambda e: e[0])
    last = messages[-1][0]
    timetable = Timetable(plan.initial)
    ids: dict[str, str] = dict(plan.keys)
    order = list(dict.fromkeys([*plan.keys, *(key for _, key, _ in effects)]))
    steps: list[Step] = []
    ws = plan.start
    t = 0
    while ws <= last:
        we = ws + plan.window
        t += 1
        states: dict[str, EventState | None] = {}
        for at, key, st in effects:
            if at < we:
                states[key] = st
        managed = {ids[k] for k in states if k in ids}
        after = [ev for ev in timetable if ev.id not in managed]
        next_n = timetable.max_id
        present = {ev.id for ev in timetable}
        for key in order:
            st = states.get(key)
            if st is None:
                continue
            eid = ids.get(key)
            if eid is None or eid not in present:  # new, or settled again after it was called off
                next_n += 1
                eid = f"e{next_n}"
                ids[key] = eid
            after.append(_as_event(eid, st))
        ops = diff_timetables(timetable, after)
        result = timetable.apply(ops)
        if result.errors:
            raise CaseRejected("gold not executable")
        timetable = result.timetable
        steps.append(Step(t=t, start=format_time(ws), end=format_time(we),
                          messages=[m[3] for m in messages if ws <= m[0] < we],
                          gold_ops=ops, gold_timetable=timetable.events))
        ws = we
    case = Case(case_id=plan.case_id, user=plan.user, timezone=plan.timezone, start=format_time(plan.start),
                initial_timetable=plan.initial, chats=[pc.chat for pc in plan.chats], steps=steps,
                meta=plan.meta)
    case.meta["phenomena"] = case_phenomena(plan, case)
    return case
