"""The rules agent's negotiation reading, on hand-written chats with hand-computed answers."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from proevent.agents.protocol import ChatUpdate, Observation
from proevent.agents.rules.agent import RulesAgent
from proevent.agents.rules.cues import load_cues
from proevent.agents.rules.reading import read_message
from proevent.model import Chat, Message, Timetable, make_event
from proevent.timeexpr import date_phrases, date_spans, find_dates, find_times, time_spans

USER = "Ann Lee"
WED = "2026-03-11"  # a Wednesday

DENTIST = make_event("e1", start="2026-03-13T15:00", end="2026-03-13T16:00", location="Smile Dental",
                     participants=[USER], description="Dentist appointment")
PAST_LUNCH = make_event("e2", start="2026-02-10T12:30", end="2026-02-10T13:30", location="Cafe Nero",
                        participants=[USER, "Bob Ray"], description="Lunch with Bob")
DINNER = make_event("e3", start="2026-03-14T19:00", end="2026-03-14T21:00", location="Luigi's",
                    participants=[USER, "Bob Ray", "Cy Hunt"], description="Dinner")


def _msgs(lines: list[tuple[str, str, str]], chat_id: str = "c1") -> list[Message]:
    return [Message(chat_id=chat_id, time=f"{WED}T{hm}", sender=who, text=text) for hm, who, text in lines]


def _act(new, *, context=(), members=(USER, "Bob Ray"), kind="direct", timetable=(DENTIST, PAST_LUNCH)):
    chat = Chat(chat_id="c1", name="Bob", type=kind, members=list(members))
    obs = Observation(case_id="x", t=1, mode="single", repeat=0, user=USER, now=f"{WED}T12:00",
                      window_start=f"{WED}T08:00", timetable=Timetable(list(timetable)),
                      chats=[ChatUpdate(chat=chat, context=_msgs(list(context)), new=_msgs(new))])
    return asyncio.run(RulesAgent().act(obs)).ops


def test_a_proposal_the_user_accepts_is_inserted_whole():
    ops = _act([("09:00", "Bob Ray", "dinner next Fri 7-9pm at Luigi's?"), ("09:05", USER, "sounds good!")])
    assert ops == [{"op": "insert", "event": {
        "start": "2026-03-20T19:00", "end": "2026-03-20T21:00", "location": "Luigi's",
        "participants": [USER, "Bob Ray"], "description": "Dinner"}}]  # next Fri: the following week


def test_a_proposal_without_the_users_answer_is_not_inserted():
    members = (USER, "Bob Ray", "Cy Hunt")
    new = [("09:00", "Bob Ray", "anyone up for bowling tmrw 7ish at Lucky Strike?"), ("09:05", "Cy Hunt", "yes!"),
           ("09:10", USER, "I'll pass this time")]
    assert _act(new, members=members, kind="group") == []


def test_a_rejected_counter_changes_nothing_and_an_accepted_one_updates():
    ctx = [("08:00", "Bob Ray", "dinner Saturday 7pm at Luigi's?"), ("08:05", USER, "perfect")]
    rejected = [("09:00", "Bob Ray", "can we do 8pm instead?"), ("09:05", USER, "no can do, keep it as is")]
    assert _act(rejected, context=ctx, timetable=(DENTIST, PAST_LUNCH, DINNER), members=(USER, "Bob Ray")) == []
    accepted = [("09:00", "Bob Ray", "can we do 8pm instead?"), ("09:05", USER, "works for me")]
    assert _act(accepted, context=ctx, timetable=(DENTIST, PAST_LUNCH, DINNER)) == [
        {"op": "update", "id": "e3", "attribute": "start", "value": "2026-03-14T20:00"}]  # "8pm": the end stays


def test_the_user_dropping_out_deletes_someone_else_dropping_out_leaves():
    members = (USER, "Bob Ray", "Cy Hunt")
    ctx = [("08:00", "Bob Ray", "dinner Saturday 7-9pm at Luigi's?"), ("08:05", USER, "I'm in")]
    tt = (DENTIST, PAST_LUNCH, DINNER)
    mine = [("09:00", USER, "sorry guys, can't make it after all, go without me")]
    assert _act(mine, context=ctx, members=members, kind="group", timetable=tt) == [{"op": "delete", "id": "e3"}]
    theirs = [("09:00", "Cy Hunt", "sorry all, I'm out, have fun without me")]
    assert _act(theirs, context=ctx, members=members, kind="group", timetable=tt) == [
        {"op": "update", "id": "e3", "attribute": "participants", "value": [USER, "Bob Ray"]}]


def test_cancellation_deletes_at_once():
    ctx = [("08:00", "Bob Ray", "dinner Saturday 7-9pm at Luigi's?"), ("08:05", USER, "deal")]
    new = [("09:00", "Bob Ray", "so sorry, I have to cancel dinner. something came up")]
    assert _act(new, context=ctx, timetable=(DENTIST, PAST_LUNCH, DINNER)) == [{"op": "delete", "id": "e3"}]


def test_place_tbd_clears_the_location():
    ctx = [("08:00", "Bob Ray", "dinner Saturday 7-9pm at Luigi's?"), ("08:05", USER, "yes")]
    new = [("09:00", "Bob Ray", "actually place tbd, I'll let you know"), ("09:02", USER, "ok cool")]
    assert _act(new, context=ctx, timetable=(DENTIST, PAST_LUNCH, DINNER)) == [
        {"op": "update", "id": "e3", "attribute": "location", "value": None}]


def test_timetable_links_same_place_as_last_time_and_right_after_an_appointment():
    new = [("09:00", "Bob Ray", "lunch Friday 1pm? same place as last time?"), ("09:05", USER, "sure")]
    (ins,) = _act(new)
    assert ins["event"]["location"] == "Cafe Nero" and ins["event"]["start"] == "2026-03-13T13:00"
    ctx = [("08:00", "Bob Ray", "coffee Friday 2pm at Blue Bottle?"), ("08:05", USER, "yes")]
    coffee = make_event("e3", start="2026-03-13T14:00", end=None, location="Blue Bottle",
                        participants=[USER, "Bob Ray"], description="Coffee")
    new = [("09:00", USER, "could we do it right after my dentist appointment on Friday?"),
           ("09:05", "Bob Ray", "sure thing")]
    assert _act(new, context=ctx, timetable=(DENTIST, PAST_LUNCH, coffee)) == [
        {"op": "update", "id": "e3", "attribute": "start", "value": "2026-03-13T16:00"}]  # the dentist's end


def test_message_moves():
    cues = load_cues()

    def kind(text, sender="Bob Ray", has_plan=True):
        msg = Message(chat_id="c1", time=f"{WED}T09:00", sender=sender, text=text)
        return read_message(msg, cues, user=USER, members=[USER, "Bob Ray", "Cy Hunt"], timetable=[DENTIST],
                            plan_day=date(2026, 3, 14), has_plan=has_plan, now=f"{WED}T12:00").kind

    assert kind("lunch tomorrow at noon at Cafe Nero?", has_plan=False) == "propose"
    assert kind("Bob and I are doing lunch tomorrow at Cafe Nero", has_plan=False) == "none"  # narrated
    assert kind("sounds great!") == "accept"
    assert kind("not sure yet, will confirm tonight") == "defer"
    assert kind("nah can't, work is crazy. keep what we had?") == "reject"
    assert kind("heads up, Cy can't make it anymore") == "remove"
    assert kind("let's call it off, rain check?") == "cancel"
    assert kind("how about 8pm instead?") == "modify"


def test_dates_and_times_read_once():
    ref = datetime(2026, 3, 11, 10)  # Wednesday
    assert [d for _, d in find_dates("next Fri", ref)] == [date(2026, 3, 20)]
    assert [d for _, d in find_dates("Tuesday the 22nd?", datetime(2026, 9, 12, 10))] == [date(2026, 9, 22)]
    assert [d for _, d in find_dates("on the 14th", ref)] == [date(2026, 3, 14)]
    assert [d for _, d in find_dates("Blue Bottle on 5th, the 13th", ref)] == [date(2026, 3, 13)]  # a street
    assert [d for _, d in find_dates("the 11th of April", ref)] == [date(2026, 4, 11)]
    assert [d for _, d in find_dates("lunch in 3 days? or in two weeks", ref)] == [date(2026, 3, 14),
                                                                                  date(2026, 3, 25)]
    assert [(s, e) for _, s, e in find_times("tmrw 7ish")] == [((19, 0), None)]
    assert [(s, e) for _, s, e in find_times("17:00 works")] == [((17, 0), None)]
    assert [(s, e) for _, s, e in find_times("from 7pm until 9:30pm")] == [((19, 0), (21, 30))]
    assert [(s, e) for _, s, e in find_times("from 07:00 to 09:15")] == [((7, 0), (9, 15))]
    assert [(s.best, s.role) for s in time_spans("7-9pm")] == [((19, 0), "start"), ((21, 0), "end")]
    (span,) = date_spans("next Friday", ref)
    assert span.best == date(2026, 3, 20) and span.days == {date(2026, 3, 20), date(2026, 3, 13)}


@settings(max_examples=60, deadline=None)
@given(ref=st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2030, 12, 31)),
       ahead=st.integers(min_value=0, max_value=30), formal=st.booleans())
def test_every_date_the_generator_writes_reads_back_exactly(ref, ahead, formal):
    day = ref.date() + timedelta(days=ahead)
    for phrase in date_phrases(day, ref, formal):
        found = find_dates(phrase, ref)
        assert found and found[0][1] == day, phrase
