"""The lean v2 prompt rendering, with hand-computed expectations."""

from __future__ import annotations

from proevent.agents.llm.prompts import build_messages, render_chats_v2, render_timetable_v2
from proevent.agents.protocol import ChatUpdate, Observation
from proevent.model import Chat, Message, Timetable, make_event


def _timetable() -> Timetable:
    return Timetable([
        make_event("e1", start="2026-03-01T18:00", end="2026-03-01T20:00", location="Cafe Nero",
                   participants=["Ann Lee", "Bob Ray"], description="Dinner"),
        make_event("e2", start="2026-03-12T12:30", end="2026-03-12T13:15", location=None,
                   participants=["Ann Lee"], description="Dentist"),
        make_event("e3", start="2026-03-14", end=None, location="the park",
                   participants=["Ann Lee", "Bob Ray"], description="Picnic"),
        make_event("e4", start="2026-03-14T22:00", end="2026-03-15T01:00", location="Club",
                   participants=["Ann Lee"], description="Party"),
    ])


def test_timetable_lines_are_compact_and_keep_past_events_by_day():
    text = render_timetable_v2(_timetable(), "2026-03-09T08:00")
    assert text.splitlines() == [
        "e1 | 2026-03-01 | Cafe Nero | Ann Lee, Bob Ray | Dinner",  # past: its day only
        "e2 | 2026-03-12T12:30-13:15 | - | Ann Lee | Dentist",  # same-day end: the clock only
        "e3 | 2026-03-14 | the park | Ann Lee, Bob Ray | Picnic",
        "e4 | 2026-03-14T22:00 to 2026-03-15T01:00 | Club | Ann Lee | Party",
    ]
    assert render_timetable_v2(Timetable([]), "2026-03-09T08:00") == "(empty)"


def _obs() -> Observation:
    chat = Chat(chat_id="c1", name="Dinner club", type="group", members=["Ann Lee", "Bob Ray", "Bob Stone"])
    context = [Message(chat_id="c1", time="2026-03-08T21:00", sender="Bob Ray", text="dinner sat?")]
    new = [Message(chat_id="c1", time="2026-03-09T09:00", sender="Ann Lee", text="yes!"),
           Message(chat_id="c1", time="2026-03-09T09:05", sender="Bob Stone", text="me too")]
    return Observation(case_id="x", t=1, mode="single", repeat=0, user="Ann Lee", now="2026-03-09T12:00",
                       window_start="2026-03-09T08:00", timetable=_timetable(),
                       chats=[ChatUpdate(chat=chat, context=context, new=new)])


def test_chats_have_day_headings_and_unique_first_names():
    assert render_chats_v2(_obs()).splitlines() == [
        '# "Dinner club" (group: Ann Lee, Bob Ray, Bob Stone)',
        "earlier:",
        "[Sun 2026-03-08]",
        "21:00 Bob Ray: dinner sat?",  # two Bobs: full names
        "new:",
        "[Mon 2026-03-09]",
        "09:00 Ann: yes!",
        "09:05 Bob Stone: me too",
    ]


def test_v2_is_shorter_than_v1_and_holds_the_same_facts():
    obs = _obs()
    v1 = "\n".join(m["content"] for m in build_messages("procot", obs, "v1"))
    v2 = "\n".join(m["content"] for m in build_messages("procot", obs, "v2"))
    assert len(v2) < 0.7 * len(v1)
    for needle in ("Ann Lee", "needs_action", "Cafe Nero", "2026-03-12T12:30", "dinner sat?", "me too",
                   "2026-03-09T12:00", '"op":"delete"'):
        assert needle in v2


def test_a_titled_sender_is_shown_with_the_surname_not_the_title_alone():
    chat = Chat(chat_id="c2", name="Dr. Miriam Adler", type="direct", members=["Ann Lee", "Dr. Miriam Adler"])
    new = [Message(chat_id="c2", time="2026-03-09T09:00", sender="Dr. Miriam Adler", text="Thursday at 3?"),
           Message(chat_id="c2", time="2026-03-09T09:05", sender="Ann Lee", text="works")]
    obs = Observation(case_id="x", t=1, mode="single", repeat=0, user="Ann Lee", now="2026-03-09T12:00",
                      window_start="2026-03-09T08:00", timetable=Timetable([]),
                      chats=[ChatUpdate(chat=chat, context=[], new=new)])
    lines = render_chats_v2(obs).splitlines()
    assert lines[-2:] == ["09:00 Dr. Adler: Thursday at 3?", "09:05 Ann: works"]
