from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.generate import GeneratorConfig
from proevent.generate.assemble import CasePlan, CaseRejected, PlannedChat, finish_case
from proevent.generate.pipeline import build_case
from proevent.generate.realize.template import ChatContext
from proevent.generate.skeleton import Line
from proevent.generate.trajectory import EventState
from proevent.generate.validate import validate_case
from proevent.model import Chat, DeleteOp, Event, InsertOp, UpdateOp

U, C = "Jerry Chen", "Maya Patel"
S1 = EventState("2026-03-06T19:00", None, "Osteria Lucca", (U, C), "Dinner with Maya")
S2 = EventState("2026-03-06T19:00", None, "Saigon Corner", (U, C), "Dinner with Maya")
S3 = EventState("2026-03-06T20:00", None, "Saigon Corner", (U, C), "Dinner with Maya")


def _plan(effects: list[tuple[str, EventState | None]]) -> CasePlan:
    lines, times = [], []
    for at, state in effects:
        lines.append(Line(U, "accept", effect=True, state=state))
        times.append(datetime.fromisoformat(at))
    chat = PlannedChat(Chat(chat_id="c1", name=C, type="direct", members=[U, C]), "target", lines, times,
                       ChatContext(user=U, voices={}, nicknames={}), texts=["ok"] * len(lines))
    old = Event(id="e1", start="2026-02-20T19:00", end=None, location="Osteria Lucca", participants=[U, C],
                description="Dinner with Maya")
    return CasePlan("pe-x", U, "Europe/London", datetime(2026, 3, 2, 8), timedelta(hours=4), [old], [chat],
                    trajectory=None, meta={})  # type: ignore[arg-type]


def test_gold_comes_from_the_states_at_window_boundaries():
    plan = _plan([("2026-03-02T09:00", S1), ("2026-03-02T10:00", S2),  # same window: one insert, final values
                  ("2026-03-02T13:00", S3),                             # window 2: an update of start
                  ("2026-03-02T21:30", None)])                          # window 4: the delete
    case = finish_case(plan)
    assert [s.start for s in case.steps] == ["2026-03-02T08:00", "2026-03-02T12:00", "2026-03-02T16:00",
                                             "2026-03-02T20:00"]
    g1, g2, g3, g4 = (s.gold_ops for s in case.steps)
    assert g1 == [InsertOp(event=dict(start=S2.start, end=None, location="Saigon Corner",
                                      participants=[U, C], description="Dinner with Maya"))]
    assert g2 == [UpdateOp(id="e2", attribute="start", value="2026-03-06T20:00")]
    assert g3 == [] and not case.steps[2].messages
    assert g4 == [DeleteOp(id="e2")]
    assert [e.id for e in case.steps[0].gold_timetable] == ["e1", "e2"]
    assert [e.id for e in case.steps[3].gold_timetable] == ["e1"]


def test_an_event_inserted_and_cancelled_in_one_window_leaves_no_gold():
    case = finish_case(_plan([("2026-03-02T09:00", S1), ("2026-03-02T11:00", None)]))
    assert [s.gold_ops for s in case.steps] == [[]]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), index=st.integers(0, 2000))
def test_any_drawn_case_is_valid_or_rejected(seed, index):
    try:
        case = build_case(index, 0, GeneratorConfig(seed=seed, cases=index + 1))
    except CaseRejected:
        return
    assert not [i for i in validate_case(case) if i.severity == "error"]
    assert all(case.user in ev.participants for s in case.steps for ev in s.gold_timetable)
    assert all(m.sender in {c.chat_id: c for c in case.chats}[m.chat_id].members
               for s in case.steps for m in s.messages)
