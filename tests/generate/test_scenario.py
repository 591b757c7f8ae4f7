"""Generator v2 scenario structures: events of the initial timetable, several events per chat,
news through another chat, attendance, per-case windows (expectations counted by hand)."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from proevent.generate import GeneratorConfig
from proevent.generate.assemble import CasePlan, PlannedChat, choose_window, finish_case
from proevent.generate.contacts import contact_pool
from proevent.generate.realize.template import ChatContext
from proevent.generate.scenario import relay_turn, volunteer_chat
from proevent.generate.skeleton import Line, chat_skeleton
from proevent.generate.trajectory import EventState, build_trajectory
from proevent.model import DeleteOp, Event, InsertOp, UpdateOp

U, C, R = "Jerry Chen", "Maya Patel", "Ana Ruiz"
DAY0 = date(2026, 3, 2)
OLD = EventState("2026-03-06T19:00", "2026-03-06T21:00", "Osteria Lucca", (U, C), "Dinner with Maya")
MOVED = EventState("2026-03-06T20:00", "2026-03-06T22:00", "Osteria Lucca", (U, C), "Dinner with Maya")
BRUNCH = EventState("2026-03-08T11:00", None, "Saigon Corner", (U, C), "Brunch with Maya")


def profile(pid: str):
    return next(p for p in contact_pool().profiles if p.id == pid)


def _chat(cid: str, kind: str, members: list[str], lines: list[Line], times: list[str]) -> PlannedChat:
    return PlannedChat(_Chat(cid, members), kind, lines, [datetime.fromisoformat(t) for t in times],
                       ChatContext(user=U, voices={}, nicknames={}), texts=["ok"] * len(lines))


def _Chat(cid: str, members: list[str]):  # noqa: N802 - a tiny factory
    from proevent.model import Chat

    return Chat(chat_id=cid, name=members[-1], type="direct", members=members)


def _plan(chats: list[PlannedChat], keys: dict[str, str]) -> CasePlan:
    initial = [Event(id="e1", start="2026-02-20T19:00", end=None, location="Rosa's", participants=[U, C],
                     description="Dinner with Maya"),
               Event(id="e2", start=OLD.start, end=OLD.end, location=OLD.location, participants=list(OLD.participants),
                     description=OLD.description)]
    return CasePlan("pe-x", U, "Europe/London", datetime(2026, 3, 2, 8), timedelta(hours=4), initial, chats,
                    trajectory=None, meta={}, keys=keys)  # type: ignore[arg-type]


def test_an_initial_event_is_updated_and_a_second_event_of_the_chat_inserted():
    lines = [Line(C, "counter_time", event="target"),
             Line(U, "accept", effect=True, state=MOVED, event="target"),
             Line(C, "propose", event="second"),
             Line(U, "react", effect=True, state=BRUNCH, event="second")]
    chat = _chat("c1", "target", [U, C], lines, ["2026-03-02T09:00", "2026-03-02T09:05", "2026-03-02T13:00",
                                                  "2026-03-02T13:10"])
    case = finish_case(_plan([chat], {"target": "e2"}))
    g1, g2 = (s.gold_ops for s in case.steps)
    # the whole event moved: start and end, on the initial event's own id
    assert g1 == [UpdateOp(id="e2", attribute="start", value="2026-03-06T20:00"),
                  UpdateOp(id="e2", attribute="end", value="2026-03-06T22:00")]
    # the second event gets the next id of the rule
    assert g2 == [InsertOp(event=dict(start=BRUNCH.start, end=None, location="Saigon Corner", participants=[U, C],
                                      description="Brunch with Maya"))]
    assert [e.id for e in case.steps[1].gold_timetable] == ["e1", "e2", "e3"]


def test_news_relayed_in_another_chat_is_gold_in_the_step_of_the_relaying_message():
    target = _chat("c1", "target", [U, C], [Line(C, "remind"), Line(U, "react")],
                   ["2026-03-02T09:00", "2026-03-02T09:01"])
    relay = _chat("c2", "relay", [U, R], [Line(R, "relay_cancel", effect=True, state=None, event="target"),
                                          Line(U, "ack")], ["2026-03-02T14:00", "2026-03-02T14:02"])
    case = finish_case(_plan([target, relay], {"target": "e2"}))
    assert [s.gold_ops for s in case.steps] == [[], [DeleteOp(id="e2")]]


def test_an_event_called_off_and_settled_again_gets_a_new_id():
    lines = [Line(U, "accept", effect=True, state=BRUNCH),
             Line(C, "cancel", effect=True, state=None),
             Line(C, "accept", effect=True, state=BRUNCH)]
    chat = _chat("c1", "target", [U, C], lines, ["2026-03-02T09:00", "2026-03-02T13:00", "2026-03-02T17:00"])
    case = finish_case(_plan([chat], {}))
    g1, g2, g3 = (s.gold_ops for s in case.steps)
    assert [op.op for op in g1] == ["insert"] and g2 == [DeleteOp(id="e3")]
    assert [op.op for op in g3] == ["insert"] and [e.id for e in case.steps[2].gold_timetable] == ["e1", "e2", "e4"]


def test_a_burst_becomes_several_messages_of_the_same_minute():
    chat = _chat("c1", "target", [U, C], [Line(C, "propose"), Line(U, "accept", effect=True, state=BRUNCH)],
                 ["2026-03-02T09:00", "2026-03-02T09:03"])
    chat.texts = ["brunch sun?\nsaigon corner 11", "ya"]
    case = finish_case(_plan([chat], {}))
    texts = [(m.time, m.text) for m in case.steps[0].messages]
    assert texts == [("2026-03-02T09:00", "brunch sun?"), ("2026-03-02T09:00", "saigon corner 11"),
                     ("2026-03-02T09:03", "ya")]
    assert case.meta["message_intents"] == ["propose", "propose", "accept"]


def test_a_preexisting_trajectory_starts_from_its_initial_state():
    cfg = GeneratorConfig(cases=1)
    for seed in range(20):
        t = build_trajectory(random.Random(seed), cfg, profile("dining/dinner"), U, DAY0, preexisting=True)
        assert t.preexisting and t.pattern.startswith("E>") and t.initial_state == t.turns[0].state
        assert t.turns[-1].kind != "abandon"  # an agreed event does not fail to be planned
        lines = chat_skeleton(t, random.Random(seed), cfg)
        assert not any(ln.intent.startswith("propose") for ln in lines)
        # every message about a change of an initial event says which event it is about
        assert all("about" in ln.slots for ln in lines if ln.intent in ("counter_time", "counter_place", "cancel"))


def test_group_participants_are_the_members_who_say_they_come():
    cfg = GeneratorConfig(cases=1)
    seen_partial = False
    for seed in range(40):
        t = build_trajectory(random.Random(seed), cfg, profile("sports/hiking"), U, DAY0, ending="keep")
        lines = chat_skeleton(t, random.Random(seed), cfg)
        opening = t.turns[0]
        if not opening.success or opening.state is None:
            continue
        spoke = {ln.speaker for ln in lines if ln.turn == 0 and ln.intent not in ("decline",)}
        assert set(opening.state.participants) <= spoke | {U}
        assert not set(t.decliners) & set(opening.state.participants)
        seen_partial |= len(opening.state.participants) < len(t.members)
    assert seen_partial


def test_relay_moves_one_turn_of_the_contact_out_of_the_target_chat():
    cfg = GeneratorConfig(cases=1, endings={"cancel_explicit": 1})
    for seed in range(60):
        rng = random.Random(seed)
        t = build_trajectory(rng, cfg, profile("dining/dinner"), U, DAY0, preexisting=True)
        if t.turns[-1].by != t.profile.name:
            continue
        lines = chat_skeleton(t, rng, cfg)
        before = len(lines)
        relayed = relay_turn(rng, t, lines, {U, C})
        assert relayed is not None
        person, out = relayed
        assert out[0].speaker == person and out[0].effect and out[0].state is None
        assert out[0].intent == "relay_cancel" and out[0].slots["person"] == "May"
        assert len(lines) < before and not any(ln.intent == "cancel" for ln in lines)
        return
    raise AssertionError("no contact cancellation drawn in 60 seeds")


def test_choose_window_leaves_few_quiet_steps():
    cfg = GeneratorConfig(cases=1)
    # messages at 9:00 and 15:00 on two days: 4 h windows from 8:00 would leave 9 of 12 steps quiet
    times = [datetime(2026, 3, 2, 9), datetime(2026, 3, 2, 15), datetime(2026, 3, 3, 9), datetime(2026, 3, 3, 15)]
    for seed in range(10):
        window, start = choose_window(random.Random(seed), cfg, times)
        n = int((times[-1] - start) // window) + 1
        busy = {int((t - start) // window) for t in times}
        assert n - len(busy) <= 0.2 * n and start <= times[0] < start + window
    fixed = GeneratorConfig(cases=1, window_minutes=240)
    assert choose_window(random.Random(0), fixed, times) == (timedelta(hours=4), datetime(2026, 3, 2, 8))


def test_the_users_offer_settles_a_task_someone_asked_for():
    # gold conventions: someone else proposed, the user agreed; the asker's thanks settle nothing more
    for seed in range(10):
        t = build_trajectory(random.Random(seed), GeneratorConfig(), profile("dining/dinner"), U, DAY0)
        _, _, lines = volunteer_chat(random.Random(seed), t, {U, C})
        settling = [ln for ln in lines if ln.effect]
        assert [(ln.speaker, ln.intent) for ln in settling] == [(U, "volunteer")]
        assert settling[0].state is not None and settling[0].state.participants == (U,)
        assert lines[-1].intent == "react" and not lines[-1].effect
