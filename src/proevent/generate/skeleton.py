"""Chat skeletons: the blueprint of a chat, one line per message (who, which intent, which values).

A skeleton line that settles a change carries ``effect``: from that message on, the event's true
state is ``state``. Lines are grouped into sessions (``new_session``); the assembler puts sessions
on the clock and the realiser turns each line into text.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

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
    event: str = "target"
    """Which event of the case ``effect``/``state`` are about (a chat may settle several)."""
    turn: int | None = None
    """The trajectory turn the line belongs to (relayed news moves a turn to another chat)."""


_ACK_REJECT = 0.25
"""Share of refusals the proposer acknowledges ("ah ok, next time"); mostly the chat just moves on."""
_ACK_CANCEL = 0.6
"""Share of cancellations and drop-outs that get an acknowledgement."""


def _responder(traj: Trajectory, proposer: str, rng: random.Random) -> str:
    if proposer != traj.user:
        return traj.user
    if traj.group and traj.attending and rng.random() < 0.3:
        return rng.choice(traj.attending)
    return traj.profile.name


def _values_slots(turn: Turn, traj: Trajectory, rng: random.Random) -> dict[str, object]:
    slots: dict[str, object] = {"act": rng.choice(traj.profile.acts)}
    s = turn.values.get("proposal")
    if isinstance(s, EventState):
        if s.start and (len(s.start) == 16 or s.end and len(s.end) == 10):
            slots["when"] = (s.start, s.end)
        if s.start:
            slots["day"] = s.start[:10]
        if s.location:
            slots["place"] = s.location
        return slots
    v = turn.values
    if "start" in v:
        if v["start"] and (len(str(v["start"])) == 16 or v.get("end") and len(str(v["end"])) == 10):
            slots["when"] = (v["start"], v["end"])
            if len(str(v["start"])) == 16:
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


_ORGANISERS = ("work", "education")
SERVICES = ("health_care",)
"""Categories whose contact is a service that books for the user (a receptionist), not a person who plans with them."""


def _wrong_time(start: str, rng: random.Random) -> str:
    """A slip of the keyboard: the same day, one or two hours off."""
    h = int(start[11:13]) + rng.choice((-2, -1, 1, 2))
    h = min(max(h, 7), 21)
    if h == int(start[11:13]):
        h = h + 1 if h < 21 else h - 1
    return f"{start[:11]}{h:02d}{start[13:]}"


_SHIFTS = (-120, -90, -60, -30, 30, 60, 90, 120)


def _shift(current: EventState | None, turn: Turn) -> int | None:
    """Minutes a time change moves the event by, when people would say it as a shift ("an hour later")."""
    new = turn.values.get("start")
    if turn.intent != "counter_time" or current is None or not current.start or len(current.start) != 16 or (
            not isinstance(new, str) or len(new) != 16 or new[:10] != current.start[:10]):
        return None
    minutes = (int(new[11:13]) * 60 + int(new[14:16])) - (int(current.start[11:13]) * 60 + int(current.start[14:16]))
    return minutes if minutes in _SHIFTS else None


def _same_time(current: EventState | None, turn: Turn) -> bool:
    """A move to another day at the clock time the event already has (its start is known to the reader)."""
    new = turn.values.get("start")
    old = current.start if current is not None else None
    return isinstance(new, str) and len(new) == 16 and old is not None and len(old) == 16 and (
        new[:10] != old[:10] and new[11:] == old[11:])


def _about(traj: Trajectory, state: EventState | None, rng: random.Random) -> dict[str, object]:
    """Which event a message is about, for events already in the timetable ("dinner fri: ...")."""
    if state is None or state.start is None:
        return {}
    return {"about": (rng.choice(traj.profile.acts), state.start[:10])}


class _Chat:
    """Appends the lines of one event's negotiation (``key`` names the event)."""

    def __init__(self, traj: Trajectory, rng: random.Random, config: GeneratorConfig, key: str) -> None:
        self.traj, self.rng, self.config, self.key = traj, rng, config, key
        self.lines: list[Line] = []
        self.turn = 0

    def add(self, speaker: str, intent: str, slots: dict[str, object] | None = None, *, new_session: bool = False,
            effect: bool = False, state: EventState | None = None) -> Line:
        line = Line(speaker, intent, dict(slots or {}), new_session=new_session, effect=effect, state=state,
                    event=self.key, turn=self.turn)
        self.lines.append(line)
        return line

    def opening(self, turn: Turn, who: str, slots: dict[str, object], first: bool) -> None:
        traj, rng = self.traj, self.rng
        st = turn.state
        category = traj.profile.category
        if turn.success and who == traj.profile.name and category in _ORGANISERS and (
            traj.profile.register == "formal" or traj.group
        ) and rng.random() < 0.85 and "when" in slots and "place" in slots:
            # an organiser posts it: settled for the user without an answer
            self.add(who, "announce", slots, new_session=first, effect=True, state=st)
            if rng.random() < 0.5:
                self.add(traj.user, "react", _said(st))
            return
        if category in SERVICES and who == traj.user and "when" in slots and turn.success and rng.random() < 0.8:
            # a booking asked of a service is settled by its confirmation, not by the request
            self.add(who, "book_request", slots, new_session=first)
            if rng.random() < 0.35:
                self.add(traj.profile.name, "book_unavailable", {"reason": "conflict"})
                self.add(who, "ack", {"after": "reject"})
            self.add(traj.profile.name, "book_confirm", {"when": slots["when"]}, effect=True, state=st)
            self.add(who, "react", _said(st))
            return
        exact = "when" in slots and len(str(slots["when"][0])) == 16  # type: ignore[index]
        if turn.success and exact and st is not None and st.end is None and "place" in slots and (
                rng.random() < 0.25):
            # options: "sat or sun?", then the place, then one of them is picked
            start, end = slots["when"]  # type: ignore[misc]
            other = _wrong_time(str(start), rng)
            pair = [(other, None), (start, end)]
            rng.shuffle(pair)
            self.add(who, "propose_options", {"act": slots["act"], "options": tuple(pair)}, new_session=first)
            self.add(who, "fill_place", {"place": slots["place"]})
            self.answers(turn, who, {"choice": (start, end)}, pick=True)
            return
        if exact and rng.random() < 0.1:
            start, end = slots["when"]  # type: ignore[misc]
            wrong = dict(slots, when=(_wrong_time(str(start), rng), None))
            self.add(who, turn.intent, wrong, new_session=first)
            self.add(who, "self_correct", {"time": (start, end)})
        else:
            self.add(who, turn.intent, slots, new_session=first)
        self.answers(turn, who, {k: v for k, v in slots.items() if k in ("when", "place", "time")})

    def answers(self, turn: Turn, who: str, echo: dict[str, object], pick: bool = False,
                plan_exists: bool = True, current: EventState | None = None) -> None:
        """The answers to a proposal: in a group, everyone who comes says so; decliners say no.

        A refusal keeps the plan only where there is one: a new proposal is simply declined.
        """
        traj, rng = self.traj, self.rng
        st = turn.state
        if not turn.success:
            answer = _responder(traj, who, rng)
            keep = _keep(turn, current)
            day = _new_day(echo, current)
            if keep is not None:  # "can we leave the time open?" is refused by keeping it, not by a clash
                self.add(answer, keep[0], keep[1])
            elif plan_exists and turn.kind != "propose":
                # the refusal fits what was asked: a time clash for a time, distance for a place
                intent = {"location": "reject_place", "participants": "reject_person"}.get(turn.attribute or "",
                                                                                          "reject")
                self.add(answer, intent, {"reason": "conflict", **day})
            else:
                self.add(answer, "decline", {"reason": "conflict", **day})
            if rng.random() < _ACK_REJECT:
                self.add(who, "ack", {"after": "reject"})
            return
        assert st is not None
        if traj.group and turn.kind == "propose":
            need = [p for p in st.participants if p != who]
            rng.shuffle(need)
            if traj.user in need and rng.random() < 0.5:
                need.remove(traj.user)
                need.insert(0, traj.user)
            said = {who}
            for person in need:
                said.add(person)
                settled = traj.user in said and len(said) >= 2
                part = tuple(p for p in st.participants if p in said)
                self.accept(person, echo if person == need[0] else {}, _with_people(st, part), settled,
                            pick and person == need[0])
            for person in traj.decliners:
                if person != who:
                    self.add(person, "decline", {"reason": "conflict"})
            return
        answer = _responder(traj, who, rng)
        if traj.group and rng.random() < 0.5:
            extra = rng.choice([m for m in st.participants[1:] if m not in (who, answer)] or [answer])
            if extra != answer and extra != traj.user:
                self.add(extra, "react", _said(st))
        self.accept(answer, echo, st, True, pick)
        if turn.kind == "propose" and st.start and len(st.start) == 16 and rng.random() < 0.2:
            self.add(who, "confirm", {"act": echo.get("act", rng.choice(traj.profile.acts)),
                                      "when": (st.start, st.end)})

    def accept(self, person: str, echo: dict[str, object], state: EventState, effect: bool, pick: bool) -> None:
        rng, tc = self.rng, self.config.turns
        if pick:
            self.add(person, "pick_option", echo, effect=effect, state=state)
            return
        roll = rng.random()
        if effect and roll < tc.defer_rate * 0.5:
            self.add(person, "defer")
            self.add(person, "accept_later", echo, new_session=True, effect=True, state=state)
        elif effect and roll < tc.defer_rate:
            self.add(person, "accept_conditional")
            self.add(person, "condition_met", new_session=True, effect=True, state=state)
        elif roll < 0.55:
            self.add(person, "react", _said(state), effect=effect, state=state)
        else:
            self.add(person, "accept", echo, effect=effect, state=state)


def _said(state: EventState | None) -> dict[str, object]:
    """What a reaction to a settled plan may name: its day, and its start when it has a clock time
    ("see you sat", "8 works")."""
    if state is None or not state.start:
        return {}
    return {"day": state.start[:10], **({"time": (state.start, None)} if len(state.start) == 16 else {})}


def _new_day(echo: dict[str, object], current: EventState | None) -> dict[str, object]:
    """The day a refused proposal names, when it is a new one ("cant do thu"): not for a new time on
    the same day, where the day is not what is refused."""
    when = echo.get("when")
    if not isinstance(when, tuple) or not when[0]:
        return {}
    day = str(when[0])[:10]
    return {} if current is not None and (current.start or "")[:10] == day else {"day": day}


def _keep(turn: Turn, current: EventState | None) -> tuple[str, dict[str, object]] | None:
    """The refusal of a detail removal: keeping the value it would drop ("nah let's keep 7")."""
    if current is None:
        return None
    if turn.intent == "drop_time" and current.start and len(current.start) == 16:
        return "keep_time", {"time": (current.start, current.end)}
    if turn.intent == "drop_place" and current.location:
        return "keep_place", {"place": current.location}
    return None


def _with_people(state: EventState, people: tuple[str, ...]) -> EventState:
    return replace(state, participants=people)


def chat_skeleton(traj: Trajectory, rng: random.Random, config: GeneratorConfig, key: str = "target") -> list[Line]:
    """Lines for a whole event chat, following the trajectory turn by turn."""
    tc = config.turns
    chat = _Chat(traj, rng, config, key)
    current: EventState | None = None
    for i, turn in enumerate(traj.turns):
        chat.turn = i
        who = traj.speaker(turn.by)
        first = i == 0 or rng.random() < tc.new_session_rate
        slots = _values_slots(turn, traj, rng)
        if turn.kind == "existing":
            current = turn.state
            if rng.random() < config.scenario.reminder:
                opener = traj.user if rng.random() < 0.5 else traj.profile.name
                chat.add(opener, "remind", {"act": slots["act"], **({"day": current.start[:10]}
                                                                       if current and current.start else {})},
                         new_session=True)
                chat.add(traj.user if opener != traj.user else traj.profile.name, "react", _said(current))
            continue
        if current is not None and traj.preexisting:
            slots.update(_about(traj, current, rng))
        if turn.kind in ("cancel", "dropout", "abandon"):
            if turn.intent == "cancel" and traj.group and who != traj.user:
                slots["for_all"] = True  # an organiser calls it off for everyone, and says so
            chat.add(who, turn.intent, slots, new_session=first, effect=turn.kind != "abandon", state=None)
            if rng.random() < _ACK_CANCEL:  # a cancellation often goes unanswered, or gets a 👍 elsewhere
                chat.add(_responder(traj, who, rng), "ack", {"after": turn.intent})
            current = None
            continue
        if turn.intent in ("self_dropout", "remove_person", "join"):
            chat.add(who, turn.intent, slots, new_session=first, effect=turn.success, state=turn.state)
            if turn.intent == "join" or rng.random() < _ACK_CANCEL:
                chat.add(_responder(traj, who, rng), "react" if turn.intent == "join" else "ack",
                         {"after": turn.intent})
            current = turn.state
            continue
        if turn.kind == "propose":
            chat.opening(turn, who, slots, first)
            current = turn.state
            continue
        clocked = current is not None and current.start is not None and len(current.start) == 16
        if turn.intent == "counter_time" and clocked and rng.random() < config.scenario.busy:
            chat.add(who, "busy", {"other": current.start}, new_session=first)
            first = False
        if turn.intent in ("fill_time", "fill_place") and turn.success and who == traj.profile.name and (
                traj.profile.category in _ORGANISERS + SERVICES and traj.profile.register == "formal"):
            # the organiser or the service sends the detail after the yes: settled by that message
            chat.add(who, turn.intent, slots, new_session=first, effect=True, state=turn.state)
            if rng.random() < 0.5:
                chat.add(_responder(traj, who, rng), "react", _said(turn.state))
            current = turn.state
            continue
        organiser = who == traj.profile.name and traj.profile.category in _ORGANISERS and (
            traj.profile.register == "formal") and turn.intent in ("counter_time", "counter_place")
        if organiser and turn.success and rng.random() < 0.6:
            intent = "announce_change" if turn.intent == "counter_time" else "announce_place"
            chat.add(who, intent, slots, new_session=first, effect=True, state=turn.state)
            if rng.random() < 0.5:
                chat.add(traj.user, "react", _said(turn.state))
        else:
            intent = turn.intent
            shift = _shift(current, turn)
            if shift is not None and rng.random() < config.scenario.shift:
                intent, slots = "shift_time", {**slots, "shift": shift}  # "can we do it an hour later?"
            elif intent == "counter_time" and _same_time(current, turn):
                slots["same_time"] = True  # the realiser may say the day alone: "thu instead? same time"
            chat.add(who, intent, slots, new_session=first)
            chat.answers(turn, who, {k: v for k, v in slots.items() if k in ("when", "place", "time")},
                         plan_exists=current is not None, current=current)
        current = turn.state if turn.success else current
    return chat.lines


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
