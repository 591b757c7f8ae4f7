"""Chat skeletons: the blueprint of a chat, one line per message (who, which intent, which values).

A skeleton line that settles a change carries ``effect``: from that message on, the event's true
state is ``state``. Lines are grouped into sessions (``new_session``); the assembler puts sessions
on the clock and the realiser turns each line into text.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from proevent.generate.config import GeneratorConfig
from proevent.generate.contacts import noise_content
from proevent.generate.trajectory import EventState, Trajectory, Turn


@dataclass
class Line:
    speaker: str
    intent: str
    slots: dict[str, object] = field(default_factory=dict)
    new_session: bool = False
    effect: bool = False
    state: EventState | None = None
    addressee: str | None = None


def _responder(traj: Trajectory, proposer: str, rng: random.Random) -> str:
    if proposer != traj.user:
        return traj.user
    if traj.group and rng.random() < 0.3:
        return rng.choice(traj.members[2:])
    return traj.profile.name


def _values_slots(turn: Turn, traj: Trajectory, rng: random.Random) -> dict[str, object]:
    slots: dict[str, object] = {"act": rng.choice(traj.profile.acts)}
    s = turn.values.get("proposal")
    if isinstance(s, EventState):
        if s.start and len(s.start) == 16:
            slots["when"] = (s.start, s.end)
        if s.start:
            slots["day"] = s.start[:10]
        if s.location:
            slots["place"] = s.location
        return slots
    v = turn.values
    if "start" in v:
        if v["start"] and len(str(v["start"])) == 16:
            slots["when"] = (v["start"], v["end"])
            slots["time"] = (v["start"], v["end"])
        slots["day"] = str(v["start"])[:10] if v["start"] else v.get("day")
    if v.get("day"):
        slots["day"] = v["day"]
    if v.get("location"):
        slots["place"] = v["location"]
    if "person" in v:
        slots["person"] = v["person"]
        slots["relation"] = v.get("relation")
    if turn.ref is not None:
        slots["ref"] = turn.ref
    return slots


def chat_skeleton(traj: Trajectory, rng: random.Random, config: GeneratorConfig) -> list[Line]:
    """Lines for a whole event chat, following the trajectory turn by turn."""
    lines: list[Line] = []
    tc = config.turns
    for i, turn in enumerate(traj.turns):
        who = traj.speaker(turn.by)
        first = i == 0 or rng.random() < tc.new_session_rate
        slots = _values_slots(turn, traj, rng)
        if turn.kind in ("cancel", "dropout", "abandon"):
            lines.append(Line(who, turn.intent, slots, new_session=first, effect=turn.kind != "abandon",
                              state=None))
            lines.append(Line(_responder(traj, who, rng), "ack", {"after": turn.intent}))
            continue
        if turn.intent in ("self_dropout", "remove_person"):
            lines.append(Line(who, turn.intent, slots, new_session=first, effect=turn.success, state=turn.state))
            lines.append(Line(_responder(traj, who, rng), "ack", {"after": turn.intent}))
            continue
        lines.append(Line(who, turn.intent, slots, new_session=first))
        answer = _responder(traj, who, rng)
        if turn.success:
            if traj.group and rng.random() < 0.5:
                extra = rng.choice([m for m in traj.members[1:] if m not in (who, answer)] or [answer])
                if extra != answer:
                    lines.append(Line(extra, "accept"))
            echo = {k: v for k, v in slots.items() if k in ("when", "place", "time")}
            if rng.random() < tc.defer_rate:
                lines.append(Line(answer, "defer"))
                lines.append(Line(answer, "accept_later", echo, new_session=True, effect=True, state=turn.state))
            else:
                lines.append(Line(answer, "accept", echo, effect=True, state=turn.state))
            st = turn.state
            if turn.kind == "propose" and st and st.start and len(st.start) == 16 and rng.random() < 0.35:
                lines.append(Line(who, "confirm", {"act": slots["act"], "when": (st.start, st.end)}))
        else:
            lines.append(Line(answer, "reject", {"reason": "conflict"}))
            if rng.random() < 0.5:
                lines.append(Line(who, "ack", {"after": "reject"}))
    return lines


def add_message_noise(lines: list[Line], members: list[str], rng: random.Random, rate: float) -> int:
    """Interleave off-topic lines into an event chat; returns how many were added.

    The line itself is picked by the realiser from the speaker's register (``pick`` in [0, 1)).
    """
    out: list[Line] = []
    added = 0
    for line in lines:
        out.append(line)
        if rng.random() < rate:
            out.append(Line(rng.choice(members), "interjection", {"pick": rng.random()}))
            added += 1
    lines[:] = out
    return added


def off_topic_skeleton(user: str, other: str, rng: random.Random) -> list[Line]:
    """A whole chat of small talk (one or two topics)."""
    topics = rng.sample(noise_content().topics, rng.randint(1, 2))
    lines: list[Line] = []
    for topic in topics:
        starter_is_user = rng.random() < 0.4
        for j, text in enumerate(topic):
            speaker = user if (j % 2 == 0) == starter_is_user else other
            lines.append(Line(speaker, "interjection", {"text": text}, new_session=j == 0))
    return lines


def unrelated_event_skeleton(user: str, contact: str, third: str, act: str, when: tuple[str, str | None],
                             place: str, group_members: list[str] | None, rng: random.Random) -> list[Line]:
    """Someone else's plans: narrated in a direct chat, or planned by others in a group the user declines."""
    slots = {"act": act, "when": when, "place": place, "person": third}
    if group_members:
        a, b = group_members[1], group_members[2]
        return [
            Line(a, "invite_others", slots, new_session=True),
            Line(b, "accept"),
            Line(user, "decline_invite"),
            Line(a, "ack", {"after": "decline_invite"}),
        ]
    return [Line(contact, "narrate_plan", slots, new_session=True), Line(user, "ack", {"after": "narrate_plan"})]
