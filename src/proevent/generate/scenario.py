"""Scenario structures of generator v2 beyond one event in one chat.

- a second event settled in the same chat;
- news relayed through another chat: a partner or relative passes on what the contact said about
  an event ("Maya says dinner's moved to 8"), and the gold follows the relaying message;
- a similar event in the timetable (same contact, same place, another day), so that the day the
  messages name is what tells the events apart;
- "the usual spot": earlier events with the contact at one place make the phrase resolvable;
- a task the user volunteers for in a family or flat chat (the user's own event);
- a booking the user made alone and mentions to someone close ("booked a haircut for tue 9").
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, timedelta

from proevent.generate.config import GeneratorConfig
from proevent.generate.contacts import Task, names, tasks
from proevent.generate.skeleton import Line, chat_skeleton
from proevent.generate.trajectory import EventState, RefEvent, Trajectory, _at, _clock, _plus, build_trajectory


def second_event(rng: random.Random, config: GeneratorConfig, traj: Trajectory, ref_offset: int, taken: set[str],
                 *, preexisting: bool) -> tuple[Trajectory, list[Line]]:
    """Another event planned in the same chat, after the first one's lines (a new session)."""
    second = build_trajectory(rng, config, traj.profile, traj.user, _day0(traj), taken=taken,
                              horizon=traj.horizon_days, members=traj.members, preexisting=preexisting,
                              avoid_days=event_days(traj))
    lines = chat_skeleton(second, rng, config, key="second")
    for ln in lines:
        if "ref" in ln.slots:
            ln.slots["ref"] = int(ln.slots["ref"]) + ref_offset  # type: ignore[arg-type]
    if lines:
        lines[0].new_session = True
        if not preexisting:  # a new plan with the same people says it is another one
            first = next((ln for ln in lines if ln.turn == 0 and ln.speaker == second.speaker(second.turns[0].by)),
                         lines[0])
            first.slots["another"] = True
    return second, lines


def event_days(*trajs: Trajectory) -> set[date]:
    """Every day the trajectories' events are ever on: two events with one contact on one day would
    leave "the sat one" unable to say which."""
    days = set()
    for traj in trajs:
        for turn in traj.turns:
            for st in (turn.state, turn.values.get("proposal")):
                if isinstance(st, EventState) and st.start:
                    days.add(date.fromisoformat(st.start[:10]))
    return days


def _day0(traj: Trajectory) -> date:
    assert traj.day0 is not None
    return traj.day0


_RELAYABLE = ("counter_time", "counter_place", "cancel", "cancel_implicit", "announce_change", "announce_place",
              "shift_time")
_RELAY_INTENT = {"counter_time": "relay_time", "announce_change": "relay_time", "shift_time": "relay_time",
                 "counter_place": "relay_place",
                 "announce_place": "relay_place", "cancel": "relay_cancel", "cancel_implicit": "relay_cancel"}


def relay_turn(rng: random.Random, traj: Trajectory, lines: list[Line],
               taken: set[str]) -> tuple[str, list[Line]] | None:
    """Move one change the contact makes to the target event into a chat with someone close to the user.

    The contact's own lines of that turn leave the target chat; the relaying message settles the
    change (the contact decided it: a clinic moving an appointment, a friend calling dinner off).
    Returns the relayer's name and the relay chat's lines, or ``None`` when no turn fits.
    """
    contact = traj.profile.name
    candidates = [i for i, t in enumerate(traj.turns)
                  if t.by == contact and t.intent in _RELAYABLE and (t.success or t.kind == "cancel")
                  and any(ln.turn == i and ln.event == "target" and ln.effect for ln in lines)
                  and any(ln.turn == i and ln.event == "target" and ln.speaker == contact
                          and ln.intent in _RELAYABLE for ln in lines)]
    if not candidates:
        return None
    k = rng.choice(candidates)
    turn = traj.turns[k]
    own = [ln for ln in lines if ln.turn == k and ln.event == "target"]
    said = next(ln for ln in own if ln.speaker == contact and ln.intent in _RELAYABLE)
    relayer = rng.choice([n for n in names().people if n not in taken])
    taken.add(relayer)
    lines[:] = [ln for ln in lines if not (ln.turn == k and ln.event == "target")]
    slots = {key: v for key, v in said.slots.items() if key in ("when", "time", "place", "day", "act", "about")}
    slots["person"] = _who(traj)
    out = [Line(relayer, _RELAY_INTENT[turn.intent], slots, new_session=True, effect=True, state=turn.state,
                turn=k),
           Line(traj.user, "ack", {"after": "remove_person"}, turn=k)]
    return relayer, out


def _who(traj: Trajectory) -> str:
    """How someone close to the user names the contact: the first name, or the business for a service."""
    p = traj.profile
    if not p.contact_attends and " at " in p.relation:
        return p.relation.split(" at ", 1)[1]
    first = p.name.split()
    return p.nickname if first[0].rstrip(".") not in ("Dr", "Prof", "Mrs", "Mr", "Ms") else p.name


def similar_event(rng: random.Random, state: EventState, traj: Trajectory, busy: set[date]) -> RefEvent:
    """The same contact, place and activity on another day: the chats must say which one they mean.

    The day is one no event of the chat is ever on (``busy``), after the messages' horizon.
    """
    assert state.start is not None
    first = date.fromisoformat(state.start[:10])
    horizon = _day0(traj) + timedelta(days=traj.horizon_days)
    days = [first + timedelta(days=k) for k in (-7, 7, 14, 3, 4, 21, 10)]
    free = [d for d in days if d > horizon and d not in busy]
    day = rng.choice(free) if free else first + timedelta(days=28)
    if len(state.start) == 16:
        start = _at(day, (int(state.start[11:13]), int(state.start[14:16])))
        end = _plus(start, 60) if state.end and len(state.end) == 16 else None
    else:
        start, end = day.isoformat(), None
    return RefEvent(replace(state, start=start, end=end), historical=False, shared_with_contact=True)


def usual_spot_events(rng: random.Random, traj: Trajectory, lines: list[Line]) -> list[RefEvent]:
    """Two earlier events with the contact at the opening's place; the proposal then says "the usual spot"."""
    opening = traj.turns[0]
    proposal = opening.values.get("proposal")
    if not isinstance(proposal, EventState) or proposal.location is None or not traj.profile.contact_attends:
        return []
    marked = False
    for ln in lines:
        if ln.turn == 0 and ln.slots.get("place") == proposal.location and ln.intent in (
                "propose", "propose_time_tbd", "fill_place"):
            ln.slots["usual"] = True
            marked = True
            break
    if not marked:
        return []
    out = []
    for weeks in sorted(rng.sample(range(2, 9), 2), reverse=True):
        d = _day0(traj) - timedelta(days=7 * weeks + rng.randint(0, 3))
        start = _at(d, _clock(rng, traj.profile))
        people = (traj.user, traj.profile.name)
        out.append(RefEvent(EventState(start, _plus(start, 90), proposal.location, people,
                                       traj.profile.description), historical=True, shared_with_contact=True))
    return out


def _task_time(rng: random.Random, task: Task, traj: Trajectory) -> tuple[str, str | None]:
    d = _day0(traj) + timedelta(days=traj.horizon_days + rng.randint(1, 6))
    start = _at(d, (rng.randint(*task.hours), rng.choice((0, 0, 30))))
    end = _plus(start, rng.randrange(task.duration[0], task.duration[1] + 1, 15)) if rng.random() < 0.3 else None
    return start, end


def volunteer_chat(rng: random.Random, traj: Trajectory, taken: set[str]) -> tuple[str, list[str], list[Line]]:
    """Someone asks who can do a task and the user takes it on: the user's yes to the request settles
    it (gold conventions: the user agrees to what someone else proposed); the asker's thanks follow."""
    task = rng.choice(tasks().volunteer)
    asker, other = rng.sample([n for n in names().people if n not in taken], 2)
    taken.update((asker, other))
    start, end = _task_time(rng, task, traj)
    place = rng.choice(task.places)
    state = EventState(start, end, place, (traj.user,), task.description)
    lines = [Line(asker, "ask_help", {"act": task.act, "when": (start, end), "place": place}, new_session=True,
                  event="volunteer")]
    if rng.random() < 0.5:
        lines.append(Line(other, "decline", {"reason": "conflict"}, event="volunteer"))
    lines.append(Line(traj.user, "volunteer", {"act": task.act}, effect=True, state=state, event="volunteer"))
    lines.append(Line(asker, "react", event="volunteer"))
    return rng.choice(tasks().groups), [traj.user, asker, other], lines


def solo_report(rng: random.Random, traj: Trajectory, taken: set[str]) -> tuple[str, list[Line]]:
    """The user mentions a booking made alone: reported as done, it is settled by that message."""
    task = rng.choice(tasks().solo)
    friend = rng.choice([n for n in names().people if n not in taken])
    taken.add(friend)
    start, end = _task_time(rng, task, traj)
    state = EventState(start, end, None, (traj.user,), task.description)
    lines = [Line(traj.user, "report_done", {"act": task.act, "when": (start, end)}, new_session=True,
                  effect=True, state=state, event="report"),
             Line(friend, "react", event="report")]
    return friend, lines
