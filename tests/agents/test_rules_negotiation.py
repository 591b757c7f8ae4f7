"""The rules agent on hand-written chats with hand-computed answers, one group per error class of
issue 16: time reading, negotiation state, which event, places, participants, cancellations,
booking services; and its cue file."""

from __future__ import annotations

import asyncio
import glob
import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from pydantic import ValidationError

from proevent.agents.protocol import ChatUpdate, Observation
from proevent.agents.rules.agent import RulesAgent
from proevent.agents.rules.cues import load_cue_file
from proevent.model import Chat, Message, Timetable, make_event

USER = "Ann Lee"
MON = "2026-03-09"  # a Monday
ROOT = Path(__file__).resolve().parents[2]

DINNER = make_event("e1", start="2026-03-12T19:30", end=None, location="Dishoom",
                    participants=[USER, "Bob Ray"], description="Dinner with Bob")
PADELLA = make_event("e2", start="2026-03-14T20:00", end=None, location="Padella",
                     participants=[USER, "Bob Ray", "Cy Hunt"], description="Dinner at Padella")


def _obs(new, *, context=(), members=(USER, "Bob Ray"), kind="direct", timetable=(DINNER,), name="Bob", t=1,
         day=MON, context_day=MON) -> Observation:
    """One chat's step: ``new`` and ``context`` are (hh:mm, sender, text) lines sent on ``day`` and ``context_day``."""
    chat = Chat(chat_id="c1", name=name, type=kind, members=list(members))
    msgs = lambda on, lines: [Message(chat_id="c1", time=f"{on}T{hm}", sender=who, text=text)  # noqa: E731
                              for hm, who, text in lines]
    return Observation(case_id="x", t=t, mode="single", repeat=0, user=USER, now=f"{day}T20:00",
                       window_start=f"{day}T08:00", timetable=Timetable(list(timetable)),
                       chats=[ChatUpdate(chat=chat, context=msgs(context_day, list(context)), new=msgs(day, new))])


def _act(new, *, agent=None, **step):
    return asyncio.run((agent or RulesAgent()).act(_obs(new, **step))).ops


# -- time reading ---------------------------------------------------------------------------------
def test_a_bare_hour_takes_the_half_of_the_day_of_the_event_and_a_reason_time_is_not_the_events():
    ops = _act([("09:00", "Bob Ray", "thursday's dishoom thing, can we go later? got a call till 8"),
                ("09:10", USER, "8:30?"), ("09:12", "Bob Ray", "perfect")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-12T20:30"}]


def test_a_self_correction_wins():
    ops = _act([("09:00", "Bob Ray", "could we do 7 on thursday? wait no, 8 not 7"), ("09:10", USER, "8 is fine")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-12T20:00"}]


def test_a_range_gives_the_end():
    ops = _act([("09:00", "Bob Ray", "tennis sat 10-11am?"), ("09:05", USER, "yes")], timetable=())
    assert ops == [{"op": "insert", "event": {"start": "2026-03-14T10:00", "end": "2026-03-14T11:00",
                                              "location": None, "participants": [USER, "Bob Ray"],
                                              "description": "Tennis"}}]


# -- negotiation state ----------------------------------------------------------------------------
def test_a_reminder_or_lateness_changes_nothing():
    assert _act([("09:00", "Bob Ray", "thursday still on?"), ("09:05", USER, "yep 7:30")]) == []
    assert _act([("19:20", "Bob Ray", "running 10 min late sorry")]) == []


def test_a_proposal_without_the_users_answer_or_with_a_hedge_settles_nothing():
    assert _act([("09:00", "Bob Ray", "drinks fri 8?")], timetable=()) == []
    assert _act([("09:00", "Bob Ray", "drinks fri 8?"), ("09:05", USER, "prob, let me check")], timetable=()) == []


def test_a_refusal_with_a_reason_drops_the_proposal():
    assert _act([("09:00", "Bob Ray", "drinks fri 8?"), ("09:05", USER, "can't fri, I have a work thing")],
                timetable=()) == []


# -- which event ----------------------------------------------------------------------------------
def test_the_event_named_by_its_place_is_the_one_changed():
    ops = _act([("09:00", "Bob Ray", "padella sat: could we go earlier? like 7"), ("09:10", USER, "7 is good")],
               timetable=(DINNER, PADELLA))
    assert ops == [{"op": "update", "id": "e2", "attribute": "start", "value": "2026-03-14T19:00"}]


# -- places ---------------------------------------------------------------------------------------
def test_a_lower_case_place_instead():
    ops = _act([("09:00", "Bob Ray", "dishoom's closed thursday. flat iron instead? same time"),
                ("09:05", USER, "👍")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "flat iron"}]



# -- places and times named by other events ----------------------------------------------------------
CLIMB = make_event("e5", start="2026-03-05T18:00", end=None, location="the Arch", participants=[USER, "Bob Ray"],
                   description="Climbing")
CLIMB2 = make_event("e6", start="2026-03-07T18:00", end=None, location="the Arch", participants=[USER, "Bob Ray"],
                    description="Climbing")
QUIZ = make_event("e7", start="2026-03-08T20:00", end=None, location="the Crown", participants=[USER, "Bob Ray"],
                  description="Quiz")
PHYSIO = make_event("e8", start="2026-03-13T16:00", end="2026-03-13T16:45", location="the clinic",
                    participants=[USER], description="Physio")


def test_the_usual_spot_is_the_place_the_chats_earlier_events_share():
    ops = _act([("09:00", "Bob Ray", "climb sat 6pm? usual spot"), ("09:05", USER, "yes")],
               timetable=(CLIMB, CLIMB2, QUIZ))
    assert ops == [{"op": "insert", "event": {"start": "2026-03-14T18:00", "end": None, "location": "the Arch",
                                              "participants": [USER, "Bob Ray"], "description": "Climb"}}]


def test_same_place_as_last_time_is_the_latest_earlier_events_place():
    ops = _act([("09:00", "Bob Ray", "drinks sat 8pm, same place as last time?"), ("09:05", USER, "yes")],
               timetable=(CLIMB, CLIMB2, QUIZ))
    assert ops[0]["event"]["location"] == "the Crown"


def test_straight_after_an_event_starts_at_its_end_and_it_stays_the_reference():
    ops = _act([("09:00", USER, "coffee friday straight after my physio?"), ("09:05", "Bob Ray", "go on then, yes")],
               timetable=(PHYSIO,))
    assert ops == [{"op": "insert", "event": {"start": "2026-03-13T16:45", "end": None, "location": None,
                                              "participants": [USER, "Bob Ray"], "description": "Coffee"}}]


def test_straight_after_a_time_the_message_ends_starts_then_and_a_members_home_is_the_place():
    ops = _act([("09:00", USER, "sat I'm in a workshop till 3, could pop by bob's straight after?"),
                ("09:05", "Bob Ray", "sure")], timetable=())
    assert [(o["event"]["start"], o["event"]["location"], o["event"]["participants"]) for o in ops] == [
        ("2026-03-14T15:00", "bob's", [USER, "Bob Ray"])]

# -- participants ---------------------------------------------------------------------------------
def test_decliners_and_silent_members_are_left_out_of_a_group_plan():
    members = (USER, "Bob Ray", "Cy Hunt", "Di Moss")
    ops = _act([("09:00", "Bob Ray", "bowling sat 3pm at Lucky Strike?"), ("09:05", "Cy Hunt", "can't, working"),
                ("09:10", USER, "I'm in")], members=members, kind="group", timetable=())
    assert ops == [{"op": "insert", "event": {"start": "2026-03-14T15:00", "end": None, "location": "Lucky Strike",
                                              "participants": [USER, "Bob Ray"], "description": "Bowling"}}]


def test_someone_else_dropping_out_leaves_the_participants():
    ops = _act([("09:00", "Cy Hunt", "so sorry, can't make it to padella sat")], members=(USER, "Bob Ray", "Cy Hunt"),
               kind="group", timetable=(PADELLA,))
    assert ops == [{"op": "update", "id": "e2", "attribute": "participants", "value": [USER, "Bob Ray"]}]



def test_a_roll_call_on_an_event_adds_who_says_yes_and_removes_who_says_no():
    members = (USER, "Bob Ray", "Cy Hunt", "Di Moss")
    quiz = make_event("e3", start="2026-03-12T20:00", end=None, location="the Crown",
                      participants=[USER, "Bob Ray", "Cy Hunt"], description="Pub quiz")
    ops = _act([("09:00", "Bob Ray", "quiz on thursday?"), ("09:05", "Cy Hunt", "no, I'm away"),
                ("09:06", "Di Moss", "me"), ("09:10", USER, "yep")], members=members, kind="group",
               timetable=(quiz,))
    assert ops == [{"op": "update", "id": "e3", "attribute": "participants", "value": [USER, "Bob Ray", "Di Moss"]}]


def test_a_member_silent_at_a_roll_call_stays_and_small_talk_after_it_changes_nothing():
    members = (USER, "Bob Ray", "Cy Hunt")
    ops = _act([("09:00", "Bob Ray", "padella on saturday, who's coming?"), ("09:10", USER, "yes"),
                ("12:00", "Bob Ray", "lol the weather")], members=members, kind="group", timetable=(PADELLA,))
    assert ops == []


# -- the event's time said back, a part of the day --------------------------------------------------
def test_the_proposed_time_said_back_agrees():
    ops = _act([("09:00", "Bob Ray", "thursday dinner, can we make it 8:15?"), ("09:10", USER, "8:15 suits")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-12T20:15"}]


def test_a_part_of_the_day_picks_the_event_and_a_bare_small_hour_is_the_afternoon():
    brunch = make_event("e3", start="2026-03-14T10:00", end=None, location="Dishoom",
                        participants=[USER, "Bob Ray"], description="Brunch")
    tea = make_event("e4", start="2026-03-14T15:00", end=None, location="the V&A",
                     participants=[USER, "Bob Ray"], description="Tea")
    ops = _act([("09:00", "Bob Ray", "the afternoon one on saturday, could we do 4 instead?"),
                ("09:05", USER, "sure")], timetable=(brunch, tea))
    assert ops == [{"op": "update", "id": "e4", "attribute": "start", "value": "2026-03-14T16:00"}]


def test_out_for_the_day_in_a_group_is_a_drop_out_and_a_consolation_is_nothing():
    members = (USER, "Bob Ray", "Cy Hunt")
    ops = _act([("09:00", "Cy Hunt", "back's playing up, out for saturday"), ("09:05", "Bob Ray", "noo, next time")],
               members=members, kind="group", timetable=(PADELLA,))
    assert ops == [{"op": "update", "id": "e2", "attribute": "participants", "value": [USER, "Bob Ray"]}]
    ops = _act([("09:00", "Bob Ray", "padella sat still good?"), ("09:05", "Cy Hunt", "can't, next time!")],
               members=members, kind="group", timetable=(PADELLA,))
    assert ops == [{"op": "update", "id": "e2", "attribute": "participants", "value": [USER, "Bob Ray"]}]

# -- cancellations --------------------------------------------------------------------------------
def test_the_user_dropping_out_deletes():
    assert _act([("09:00", USER, "sorry, can't make it thursday after all")]) == [{"op": "delete", "id": "e1"}]


def test_a_cancellation_deletes_but_next_time_after_someone_elses_plan_does_not():
    assert _act([("09:00", "Bob Ray", "I have to cancel dinner, something came up")]) == [
        {"op": "delete", "id": "e1"}]
    assert _act([("09:00", "Bob Ray", "we're doing the lake on saturday, wanna come?"),
                 ("09:05", USER, "can't this weekend"), ("09:06", "Bob Ray", "next time!")], timetable=()) == []


# -- booking services ------------------------------------------------------------------------------
def test_a_booking_is_inserted_when_the_service_confirms_it_and_the_service_is_no_participant():
    members = (USER, "Booking Assistant")
    asked = [("09:00", USER, "Hi, I'd like a table for 4 at Luca on Friday at 7:30pm")]
    assert _act(asked, members=members, name="Booking Assistant", timetable=()) == []  # not confirmed yet
    done = [*asked, ("09:01", "Booking Assistant", "Your table for 4 at Luca on Friday 13 March at 7:30pm is "
                                                   "confirmed. Reference: LX4Q2.")]
    assert _act(done, members=members, name="Booking Assistant", timetable=()) == [
        {"op": "insert", "event": {"start": "2026-03-13T19:30", "end": None, "location": "Luca",
                                   "participants": [USER], "description": "Table"}}]


def test_a_failed_booking_inserts_nothing():
    members = (USER, "Booking Assistant")
    new = [("09:00", USER, "table for two at Hawksmoor tonight at 8?"),
           ("09:01", "Booking Assistant", "Sorry, Hawksmoor is fully booked tonight."), ("09:02", USER, "ok thanks")]
    assert _act(new, members=members, name="Booking Assistant", timetable=()) == []


# -- state across steps ---------------------------------------------------------------------------
def test_the_chat_state_is_kept_across_steps_and_the_context_is_not_read_again():
    agent = RulesAgent()
    first = [("09:00", "Bob Ray", "drinks fri 8?")]
    assert _act(first, timetable=(), agent=agent) == []
    ops = _act([("10:00", USER, "yes!")], context=first, timetable=(), agent=agent, t=2)
    assert ops == [{"op": "insert", "event": {"start": "2026-03-13T20:00", "end": None, "location": None,
                                              "participants": [USER, "Bob Ray"], "description": "Drinks"}}]
    assert agent.replays == 0


# -- the cue file ---------------------------------------------------------------------------------
def test_the_cue_file_rejects_unknown_keys():
    text = (ROOT / "src/proevent/agents/rules/data/cues.json").read_text(encoding="utf-8")
    data = json.loads(text)
    load_cue_file(text)
    data["location_prefixes"] = ["at"]
    with pytest.raises(ValidationError, match="location_prefixes"):
        load_cue_file(json.dumps(data))


def _generator_entries() -> set[str]:
    out: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, str):
            out.add(x.strip().lower().replace("’", "'"))
        elif isinstance(x, list):
            for i in x:
                walk(i)
        elif isinstance(x, dict):
            for i in x.values():
                walk(i)

    for f in glob.glob(str(ROOT / "src/proevent/generate/data/*.json")):
        walk(json.loads(Path(f).read_text(encoding="utf-8")))
    for f in glob.glob(str(ROOT / "src/proevent/generate/realize/*.py")):  # string literals of the realisers
        for lit in re.findall(r"\"([^\"\n]{1,80})\"|'([^'\n]{1,80})'", Path(f).read_text(encoding="utf-8")):
            out.add((lit[0] or lit[1]).strip().lower())
    return out


def test_few_cue_phrases_are_entries_of_the_generators_data():
    """A cue that is one of the generator's own phrase entries (a realisation the generator emits
    whole) is a sign of reverse-engineering; general English words inside them are not counted."""
    cues = json.loads((ROOT / "src/proevent/agents/rules/data/cues.json").read_text(encoding="utf-8"))
    phrases = [w.lower() for k, v in cues.items() if isinstance(v, list) for w in v]
    entries = _generator_entries()
    shared = [p for p in phrases if p in entries]
    assert len(shared) / len(phrases) < 0.30, sorted(shared)


# -- issue 16, second round: services, re-mentions, "no <activity> <day>" --------------------------
def test_a_services_confirmation_keeps_its_place_a_booked_is_no_reason_there():
    ops = _act([("09:00", "Pasta Studio", "Hi Ann! You're booked on the dumpling workshop at Pasta Studio, "
                "Saturday 14 March, 11am-1pm.")], members=(USER, "Pasta Studio"), name="Pasta Studio", timetable=())
    assert ops == [{"op": "insert", "event": {"start": "2026-03-14T11:00", "end": "2026-03-14T13:00",
                                              "location": "Pasta Studio", "participants": [USER],
                                              "description": "Pasta Studio"}}]


def test_a_cancel_request_naming_another_day_than_the_events_deletes_nothing():
    court = make_event("e1", start="2026-03-15T16:00", end=None, location="the courts",
                       participants=[USER, "Bob Ray"], description="Tennis with Bob")
    ops = _act([("09:00", USER, "hi, can you cancel my saturday 4pm court please?"),
                ("09:30", "Court Bookings", "No problem, that's cancelled.")],
               members=(USER, "Court Bookings"), name="Court Bookings", timetable=(court,))
    assert ops == []


def test_no_activity_and_a_day_cancels_that_days_event():
    standup = make_event("e1", start="2026-03-12T09:00", end="2026-03-12T09:15", location="room 2",
                         participants=[USER, "Bob Ray", "Cy Hunt"], description="Standup")
    other = make_event("e2", start="2026-03-11T15:00", end=None, location="room 2",
                       participants=[USER, "Bob Ray", "Cy Hunt"], description="Planning")
    ops = _act([("08:05", "Bob Ray", "no standup thursday, we're all at the client. see you at planning")],
               members=(USER, "Bob Ray", "Cy Hunt"), kind="group", name="squad", timetable=(standup, other))
    assert ops == [{"op": "delete", "id": "e1"}]
    assert _act([("08:05", "Bob Ray", "no thursday for me, sorry")], members=(USER, "Bob Ray", "Cy Hunt"),
                kind="group", name="squad", timetable=(standup,)) == [
        {"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Cy Hunt"]}]


def test_a_yes_to_a_time_already_settled_inserts_no_second_event():
    ops = _act([("09:00", "Bob Ray", "can we move thursday's dinner to fri 8?"), ("09:10", USER, "fri 8 works"),
                ("09:12", "Bob Ray", "great, 8 it is")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-13T20:00"}]


def test_a_join_naming_the_events_own_day_joins_it_another_day_proposes():
    study = make_event("e1", start="2026-03-11T15:30", end="2026-03-11T17:30", location="room 2",
                       participants=[USER, "Bob Ray"], description="Planning session")
    members = (USER, "Bob Ray", "Cy Hunt")
    joined = [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray", "Cy Hunt"]}]
    kw = dict(members=members, kind="group", name="squad", timetable=(study,))
    context = [("08:00", "Bob Ray", "planning wed 3:30-5:30, room 2")]
    assert _act([("21:40", "Cy Hunt", "sorry, was offline. I can join wed but only from 4")], context=context,
                **kw) == joined
    assert _act([("21:40", "Cy Hunt", "can I join fri at 10 instead?")], context=context, **kw) == []


def test_not_going_to_work_and_out_till_are_no_drop_outs():
    change = [("09:00", "Bob Ray", "could we do thursday's dinner an hour earlier?")]
    assert _act([("09:10", USER, "that's not going to work, I'm teaching, sorry")], context=change) == []
    assert _act([("09:10", USER, "im out till 8.15pm")], context=change) == []
    assert _act([("09:10", USER, "sorry, not going thursday after all")]) == [{"op": "delete", "id": "e1"}]


def test_giving_up_a_new_plan_that_fell_through_cancels_no_event_of_the_timetable():
    ops = _act([("09:00", "Bob Ray", "want to go bowling fri 6?"), ("09:10", USER, "fri doesnt work, I have rehearsal"),
                ("09:20", USER, "ugh we'll drop it for a bit")])
    assert ops == []


def test_a_date_range_gives_a_stays_last_day_and_a_weekend_is_no_place():
    trip = make_event("e1", start="2026-03-13", end="2026-03-15", location="the campsite",
                      participants=[USER, "Bob Ray", "Cy Hunt"], description="Camping")
    ops = _act([("12:51", "Bob Ray", "im not camping in a puddle. push to the bank holiday weekend? 20-22nd"),
                ("13:05", "Cy Hunt", "works for me"), ("13:40", USER, "yep 20-22 👍")],
               members=(USER, "Bob Ray", "Cy Hunt"), kind="group", name="camping", timetable=(trip,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-20"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-22"}]


def test_a_stay_moved_to_another_day_keeps_its_length():
    from datetime import date

    from proevent.agents.rules.links import apply_values
    from proevent.agents.rules.moves import Values
    from proevent.agents.rules.state import Slot

    stay = Slot("e1", "2026-03-13", "2026-03-15", "the campsite", [USER], "Camping")
    apply_values(stay, Values(day=date(2026, 3, 20)))
    assert (stay.start, stay.end) == ("2026-03-20", "2026-03-22")


def test_a_drop_out_leaves_the_event_of_the_day_its_own_clause_names():
    thursday = make_event("e1", start="2026-03-12T07:00", end=None, location="the park",
                          participants=[USER, "Bob Ray"], description="Run with Bob")
    saturday = make_event("e2", start="2026-03-14T09:30", end=None, location="the park",
                          participants=[USER, "Bob Ray", "Cy Hunt"], description="parkrun")
    ops = _act([("16:30", "Bob Ray", "yeah, no thursday for me, sorry. sat tho!")], timetable=(thursday, saturday))
    assert ops == [{"op": "delete", "id": "e1"}]  # a direct chat's two-person run without Bob is off; sat stays
    # unless the user goes anyway: then only the participants change
    ops = _act([("16:30", "Bob Ray", "yeah, no thursday for me, sorry. sat tho!"),
                ("16:45", USER, "no bother, I'll go on my own")], timetable=(thursday, saturday))
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER]}]


def test_asks_if_relays_a_question_it_is_no_hedge():
    lunch = make_event("e1", start="2026-03-15T12:00", end=None, location=None,
                       participants=[USER, "Bob Ray"], description="Sunday lunch at Bob's")
    ops = _act([("20:10", "Bob Ray", "dad asks if you can come at 1 instead on sunday, he has golf in the morning"),
                ("20:35", USER, "sure 1 is fine")], timetable=(lunch,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-15T13:00"}]
    assert _act([("20:10", "Bob Ray", "could we do 1 instead on sunday? not sure if dad can")],
                timetable=(lunch,)) == []


def test_a_range_after_to_is_the_new_time_of_the_event():
    talk = make_event("e1", start="2026-03-13T10:00", end="2026-03-13T12:00", location="LT1",
                      participants=[USER, "Bob Ray", "Cy Hunt"], description="Guest lecture")
    ops = _act([("11:00", "Bob Ray", "Update: the speaker can only do Friday afternoon now, so the guest lecture "
                 "moves to 2-4pm, same room.")], members=(USER, "Bob Ray", "Cy Hunt"), kind="group", name="class",
               timetable=(talk,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-13T14:00"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-13T16:00"}]


# -- issue 16, third round: a change asked before its values, a new activity for the same slot, ---
# -- several chats in send order -------------------------------------------------------------------
def test_a_change_asked_before_its_values_moves_the_named_event_to_another_day():
    ops = _act([("09:00", "Bob Ray", "could we move thursday's dinner? my sister is in town"),
                ("09:01", "Bob Ray", "sat 8 or sun 7?"), ("09:20", USER, "sun 7 works")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-15T19:00"}]
    # without the change asked first, another day's plan is a new plan, not this event
    ops = _act([("09:00", "Bob Ray", "sat 8 or sun 7?"), ("09:20", USER, "sun 7 works")])
    assert [op["op"] for op in ops] == ["insert"]


def test_the_named_event_moved_into_another_activity_is_updated_not_inserted():
    ops = _act([("09:00", "Bob Ray", "thursday's dinner, could we do a coffee at 5 instead? at kaffeeklatsch"),
                ("09:30", USER, "sure")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-12T17:00"},
                   {"op": "update", "id": "e1", "attribute": "location", "value": "kaffeeklatsch"}]


def test_the_chats_of_a_step_are_played_in_the_order_their_messages_were_sent():
    group = Chat(chat_id="c2", name="supper club", type="group", members=[USER, "Bob Ray", "Cy Hunt"])
    direct = Chat(chat_id="c1", name="Bob", type="direct", members=[USER, "Bob Ray"])
    at = lambda chat, hm, who, text: Message(chat_id=chat, time=f"{MON}T{hm}", sender=who, text=text)  # noqa: E731
    obs = Observation(case_id="x", t=1, mode="single", repeat=0, user=USER, now=f"{MON}T20:00",
                      window_start=f"{MON}T08:00", timetable=Timetable([DINNER]), chats=[
                          ChatUpdate(chat=direct, context=[], new=[
                              at("c1", "09:00", "Bob Ray", "can we move thursday's dinner to friday?"),
                              at("c1", "11:00", USER, "friday works")]),
                          ChatUpdate(chat=group, context=[], new=[
                              at("c2", "10:00", USER, "bob wants thursday's dinner on friday instead, ok with you?"),
                              at("c2", "10:05", "Cy Hunt", "fine by me")])])
    # played by send time: the group agrees to the move (10:05) before the direct chat settles it (11:00);
    # chat by chat, the group would read "thursday" against an event already moved to friday
    ops = asyncio.run(RulesAgent().act(obs)).ops
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-13T19:30"}]


def test_a_direct_chat_whose_contact_confirms_in_a_booking_systems_voice_is_a_service():
    # the contact's name says nothing ("Kim & Söhne"); its confirmation opens with "Booked" and a date
    ops = _act([("09:00", USER, "hi, a trim on friday? after 4 if possible"),
                ("09:05", "Kim & Söhne", "Hi! Free on Fri 13.03 at 16:30 or 17:15."),
                ("09:10", USER, "fri 17:15"),
                ("09:11", "Kim & Söhne", "Booked: Fri 13.03 at 17:15 (30 min) at Kim & Söhne.")],
               members=(USER, "Kim & Söhne"), name="Kim & Söhne", timetable=())
    assert [{k: v for k, v in op["event"].items() if k != "description"} for op in ops] == [
        {"start": "2026-03-13T17:15", "end": "2026-03-13T17:45", "location": "Kim & Söhne", "participants": [USER]}]
    # a friend's lower-case "booked, ..." keeps the chat a chat between people
    ops = _act([("09:00", "Bob Ray", "booked, fri 8 at the tap"), ("09:05", USER, "👍")], timetable=())
    assert ops[0]["event"]["participants"] == [USER, "Bob Ray"]


def test_lets_use_the_room_moves_the_event_and_in_a_named_room_is_a_place():
    ops = _act([("09:00", "Bob Ray", "dishoom is closed thursday actually, let's use the roof terrace"),
                ("09:10", USER, "terrace 👌")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "the roof terrace"}]
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.places import find_place
    cues = load_cues()
    assert find_place("we're in seminar room c on the ground floor", cues) == "seminar room c"
    assert find_place("we're in hamburg till sunday", cues) is None
    assert find_place("just use a pen", cues) is None


def test_a_weekday_said_as_the_events_own_names_that_days_event_over_the_chats_focus():
    tuesday = make_event("e1", start="2026-03-10T10:00", end="2026-03-10T10:30", location="room 2",
                         participants=[USER, "Bob Ray"], description="1:1 with Bob")
    thursday = make_event("e2", start="2026-03-12T10:00", end="2026-03-12T10:30", location="room 2",
                          participants=[USER, "Bob Ray"], description="1:1 with Bob")
    ops = _act([("18:00", "Bob Ray", "thursday's one we can drop, we'll be done by tomorrow"),
                ("18:20", USER, "sounds good")], timetable=(tuesday, thursday))
    assert ops == [{"op": "delete", "id": "e2"}]


def test_an_announced_event_with_the_words_of_a_weekly_one_on_another_day_is_a_new_event():
    weekly = make_event("e1", start="2026-03-11T14:00", end="2026-03-11T16:00", location="LT2",
                        participants=[USER, "Bob Ray"], description="Stats lecture")
    members = (USER, "Bob Ray", "Cy Hunt")
    ops = _act([("09:00", "Bob Ray", "Hi all. This Friday (13 March) we have a guest lecture, 10am-12pm in room 104."),
                ("09:30", USER, "great, see you there")], members=members, kind="group", name="stats class",
               timetable=(weekly,))
    assert [op["op"] for op in ops] == ["insert"]
    assert (ops[0]["event"]["start"], ops[0]["event"]["end"]) == ("2026-03-13T10:00", "2026-03-13T12:00")
    # the same words on the event's own day with a change word move it
    ops = _act([("09:00", "Bob Ray", "wednesday's lecture moves to 3pm, same room")], members=members, kind="group",
               name="stats class", timetable=(weekly,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-11T15:00"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-11T17:00"}]


def test_a_change_a_service_states_for_a_booked_event_is_settled_and_its_offer_is_not():
    cls = make_event("e1", start="2026-03-14T10:00", end="2026-03-14T12:00", location="Clay Corner",
                     participants=[USER], description="Pottery class")
    said = ("Hi Ann, the teacher's train is late on Saturday, so the pottery class now starts at 11am "
            "and runs until 1pm instead. Sorry!")
    ops = _act([("09:00", "Clay Corner Bookings", said)], members=(USER, "Clay Corner Bookings"),
               name="Clay Corner Bookings", timetable=(cls,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T11:00"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-14T13:00"}]
    offer = "Hi Ann, could we move your pottery class on Saturday to 11am instead?"
    assert _act([("09:00", "Clay Corner Bookings", offer)], members=(USER, "Clay Corner Bookings"),
                name="Clay Corner Bookings", timetable=(cls,)) == []


def test_a_stay_put_to_a_group_is_a_plan_its_answers_keep_it_open_and_a_deadline_is_not_its_day():
    members = (USER, "Bob Ray", "Cy Hunt", "Di Moss", "Ed Park")
    ops = _act([("10:00", "Bob Ray", "cabin trip!"), ("10:01", "Bob Ray", "20th to 22nd"),
                ("10:02", "Bob Ray", "sleeps 4"), ("10:03", "Bob Ray", "need numbers by wed"),
                ("10:30", "Cy Hunt", "in 🙋"), ("10:40", "Di Moss", "maybe, checking work"),
                ("10:50", "Ed Park", "cant, wedding"), ("11:00", "Di Moss", "ugh no, work says no"),
                ("11:10", "Ed Park", "have fun"), ("11:30", USER, "sorted, im in")],
               members=members, kind="group", name="cabin crew", timetable=())
    assert [{k: v for k, v in op["event"].items() if k != "description"} for op in ops] == [
        {"start": "2026-03-20", "end": "2026-03-22", "location": None, "participants": [USER, "Bob Ray", "Cy Hunt"]}]


def test_a_confirmation_repeating_the_asked_time_keeps_it_over_a_later_collection_time():
    ops = _act([("12:50", USER, "hi, 2 seats for the play on thu at 7:30pm please?"),
                ("13:34", "Roxy Box Office", "Confirmed: 2 tickets, Thu 12 March at 7:30pm. Doors open from 6:45.")],
               members=(USER, "Roxy Box Office"), name="Roxy Box Office", timetable=())
    assert [op["event"]["start"] for op in ops] == ["2026-03-12T19:30"]


def test_rooms_with_dotted_numbers_a_call_to_use_and_a_mark_after_a_name_are_read():
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.places import find_place, short_answer_place
    cues = load_cues()
    assert find_place("can we use room 2.07 instead?", cues) == "room 2.07"
    assert find_place("they want to use teams instead of zoom", cues) == "Teams"
    assert find_place("7 at the boathouse ✅", cues) == "the boathouse"
    assert short_answer_place("room 2.07 then", cues) == "room 2.07"
    assert short_answer_place("4.30 then", cues) is None  # a number alone is no place
    ops = _act([("09:00", "Bob Ray", "dishoom is closed thursday, can we use room 2.07 at work instead?"),
                ("09:10", USER, "room 2.07 then, same time")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "room 2.07"}]


def test_a_drop_out_relayed_from_another_chat_leaves_the_person_it_names():
    games = make_event("e1", start="2026-03-12T20:00", end=None, location="Cy's",
                       participants=[USER, "Bob Ray", "Cy Hunt", "Di Moss"], description="Board games")
    ops = _act([("22:00", "Bob Ray", "did you hear di has covid? she told me she won't make thursday"),
                ("22:10", USER, "oh no")], timetable=(games,))  # Di is in another chat, not this one
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray", "Cy Hunt"]}]
    ops = _act([("22:00", "Bob Ray", "can't make thursday after all, sorry, tell cy")], timetable=(games,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Cy Hunt", "Di Moss"]}]


def test_a_service_moving_the_chats_booking_on_its_day_updates_it_and_a_place_stops_at_rather_than():
    cut = make_event("e1", start="2026-03-10T18:00", end=None, location="Kim & Söhne",
                     participants=[USER], description="Haircut")
    ops = _act([("09:00", "Kim & Söhne", "Hi Ann! Mira is off sick on Tuesday. Can we move your haircut to Tue 17:00 "
                 "or Wed 18:30?"),
                ("09:30", USER, "tue 5 is fine"),
                ("09:40", "Kim & Söhne", "Done ✂️ Tue 17:00 with Jo. See you!")],
               members=(USER, "Kim & Söhne"), name="Kim & Söhne", timetable=(cut,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-10T17:00"}]
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.places import find_place
    assert find_place("it will be in the library rather than Room 12", load_cues()) == "the library"


def test_an_event_named_by_its_own_day_takes_a_new_start_though_its_words_differ():
    group = make_event("e1", start="2026-03-12T16:00", end="2026-03-12T18:00", location="library",
                       participants=[USER, "Bob Ray", "Cy Hunt"], description="Biochem study group")
    ops = _act([("09:00", "Bob Ray", "thursday's session, can we start at 5? i have a lab till 4:45"),
                ("09:10", "Cy Hunt", "5 to 7 fine"), ("09:30", USER, "5-7 👍")],
               members=(USER, "Bob Ray", "Cy Hunt"), kind="group", name="biochem", timetable=(group,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-12T17:00"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-12T19:00"}]


def test_a_drawn_out_no_in_a_group_is_sympathy_and_a_yes_after_the_plan_is_settled_joins_it():
    members = (USER, "Bob Ray", "Cy Hunt", "Di Moss")
    ops = _act([("20:41", "Bob Ray", "dinner this week???"), ("20:45", "Cy Hunt", "fri?"),
                ("20:58", "Di Moss", "fri im away the whole weekend 😭"), ("20:59", "Bob Ray", "noooo"),
                ("21:10", USER, "fri works for me. 7:30?"), ("21:14", "Bob Ray", "7:30 yes")],
               members=members, kind="group", name="dinner club", timetable=())
    assert [sorted(op["event"]["participants"]) for op in ops] == [sorted([USER, "Bob Ray", "Cy Hunt"])]


def test_sitting_a_day_out_is_a_drop_out():
    run = make_event("e1", start="2026-03-15T09:00", end=None, location="the lake",
                     participants=[USER, "Bob Ray", "Cy Hunt"], description="Long run")
    ops = _act([("14:00", "Bob Ray", "tweaked my calf yesterday. sitting sunday out 😤"),
                ("14:05", "Cy Hunt", "rest up")],
               members=(USER, "Bob Ray", "Cy Hunt"), kind="group", name="runners", timetable=(run,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Cy Hunt"]}]


def test_after_the_place_is_said_closed_a_bare_name_asked_is_the_new_place():
    ops = _act([("09:00", "Bob Ray", "bad news, dishoom is closed thursday for a private event"),
                ("09:20", "Bob Ray", "padella? same time"), ("09:30", USER, "yes")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "padella"}]


def test_a_place_booked_or_gone_to_in_lower_case_is_read():
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.places import find_place
    cues = load_cues()
    assert find_place("ya come to kelvin hall, room 12. 10 still?", cues) == "kelvin hall"
    assert find_place("she booked LT4 for us instead", cues) == "LT4"
    assert find_place("i'm going to work early", cues) is None
    assert find_place("booked it!", cues) is None


def test_a_day_in_a_reason_of_a_counter_proposal_is_not_the_events():
    ops = _act([("12:00", "Bob Ray", "brunch sunday? 11 at the deli?"),
                ("12:30", USER, "11:30? we'll be out late saturday"), ("12:41", "Bob Ray", "11:30 perfect")],
               timetable=())
    assert [op["event"]["start"] for op in ops] == ["2026-03-15T11:30"]


def test_another_days_plan_reads_its_bare_hours_alone_and_i_can_volunteers():
    members = (USER, "Bob Ray", "Cy Hunt")
    committee = make_event("e1", start="2026-03-10T20:00", end=None, location="the Crown",
                           participants=list(members), description="Committee")
    ops = _act([("19:00", "Bob Ray", "committee tue as usual?"), ("19:05", USER, "ya"),
                ("20:00", "Bob Ray", "also the school fair needs 2 helpers friday 9-11! anyone?"),
                ("20:12", "Cy Hunt", "i can"), ("20:30", USER, "me too"), ("20:33", "Bob Ray", "thank you both")],
               members=members, kind="group", name="parents", timetable=(committee,))
    assert [(op["event"]["start"], op["event"]["end"], sorted(op["event"]["participants"])) for op in ops] == [
        ("2026-03-13T09:00", "2026-03-13T11:00", sorted(members))]


# -- issue 16, fourth round: an event named as another plan's time; the service where an event is held
def test_an_event_named_only_as_another_plans_time_is_not_the_one_changed():
    workshop = make_event("e1", start="2026-03-12T13:00", end="2026-03-12T17:00", location="the studio",
                          participants=[USER, "Bob Ray", "Cy Hunt"], description="Design workshop")
    ops = _act([("09:00", "Bob Ray", "lunch before the workshop thu? 12 at nandos?"), ("09:10", USER, "ok 12")],
               timetable=(workshop,))
    assert ops == [{"op": "insert", "event": {"start": "2026-03-12T12:00", "end": None, "location": "nandos",
                                              "participants": [USER, "Bob Ray"], "description": "Lunch"}}]
    # "after": the plan starts when the named event ends
    ops = _act([("09:00", "Bob Ray", "drinks thu after the workshop?"), ("09:10", USER, "deal")],
               timetable=(workshop,))
    assert [(op["op"], op["event"]["start"]) for op in ops] == [("insert", "2026-03-12T17:00")]
    # the event's own words outside "before/after" still name it: a change of the workshop
    ops = _act([("09:00", "Bob Ray", "the workshop thu: can we start at 2, lunch before it runs long"),
                ("09:10", USER, "ok 2")], timetable=(workshop,))
    # ("start at": the end stays)
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-12T14:00"}]


def test_a_services_confirmation_on_the_day_moves_the_event_held_there():
    cut = make_event("e1", start="2026-03-10T18:30", end=None, location="Snip Studio", participants=[USER],
                     description="Haircut")
    gym = make_event("e2", start="2026-03-10T08:00", end=None, location="the gym", participants=[USER],
                     description="Gym")
    ops = _act([("09:00", "Snip Studio", "Hi Ann, Burak is off on Tuesday. Could we move you to Tue 17:00?"),
                ("09:30", USER, "tue 5 is fine"), ("09:40", "Snip Studio", "Booked ✂️ Tue 17:00. See you!")],
               members=(USER, "Snip Studio"), name="Snip Studio", timetable=(gym, cut))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-10T17:00"}]


def test_in_a_direct_chat_an_unnamed_event_is_the_one_of_the_two_of_them():
    one_to_one = make_event("e1", start="2026-03-11T09:30", end=None, location=None, participants=[USER, "Bob Ray"],
                            description="1:1 with Bob")
    team = make_event("e2", start="2026-03-12T13:00", end=None, location="Room 2",
                      participants=[USER, "Bob Ray", "Cy Hunt"], description="Team workshop")
    ops = _act([("21:40", "Bob Ray", "hey, can we skip our 1:1 this week? drowning in the migration"),
                ("21:52", USER, "sure, skip it 👍")], timetable=(one_to_one, team))
    assert ops == [{"op": "delete", "id": "e1"}]


def test_drop_outs_a_work_shift_a_name_spoken_to_and_one_relayed_in_the_third_person():
    members = (USER, "Bob Ray", "Cy Hunt", "Dee Moss")
    party = make_event("e1", start="2026-03-14T20:00", end=None, location="Cobalt Lounge",
                       participants=list(members), description="Cy's birthday drinks")
    group = dict(members=members, kind="group", name="cy's bday", timetable=(party,))
    # "a double shift" is the reason, not a change: Bob leaves the event
    ops = _act([("11:00", "Bob Ray", "ugh cy so sorry, got called in for a double shift saturday. i'm out 😭")],
               **group)
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Cy Hunt", "Dee Moss"]}]
    # "cy i'm so sorry ... not gonna make it": Cy is spoken to; the user drops out, so the event goes
    ops = _act([("07:45", USER, "cy i'm so sorry, woke up with a fever. i'm not gonna make it tomorrow")],
               **group)
    assert ops == [{"op": "delete", "id": "e1"}]
    # "she's out for saturday" said by Bob of Dee, in a chat Dee is not in
    ops = _act([("13:00", "Bob Ray", "btw dee told me she twisted her ankle 😬 she's out for saturday")],
               timetable=(party,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray", "Cy Hunt"]}]


def test_the_speakers_own_commitment_is_not_the_activity_planned():
    pickup = make_event("e1", start="2026-03-14T18:40", end=None, location="the airport",
                        participants=[USER, "Bob Ray"],
                        description="Pick up Bob at the airport")
    ops = _act([("10:00", "Bob Ray", "ugh they changed my flight, now landing 21:15 😩 still ok??"),
                ("10:20", USER, "no stress, 21:15 it is")], timetable=(pickup,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T21:15"}]


def test_an_event_named_in_the_reason_of_a_counter_proposal_is_not_the_one_planned():
    haircut = make_event("e1", start="2026-03-10T18:30", end=None, location="Snip Studio", participants=[USER],
                         description="Haircut")
    # ("with my parents": who comes, not a reason, so "tue" is the plan's day)
    ops = _act([("13:00", "Bob Ray", "dinner with my parents tue? 7:30"),
                ("13:20", USER, "i have the haircut at 6:30, 8?"), ("13:25", "Bob Ray", "8 ok, i'll tell them")],
               timetable=(haircut,))
    assert [(op["op"], op["event"]["start"]) for op in ops] == [("insert", "2026-03-10T20:00")]


def test_a_bare_weekday_said_of_the_event_a_week_ahead_is_the_events_day():
    # sent on Monday 9 March; the drinks are on Friday 20 March, not the nearest Friday (the 13th)
    drinks = make_event("e1", start="2026-03-20T18:00", end="2026-03-20T19:30", location="the tap",
                        participants=[USER, "Bob Ray"], description="Drinks with Bob")
    ops = _act([("11:55", USER, "hey can we do 5 instead of 6 on fri? theatre got moved to 7:30 that night"),
                ("12:30", "Bob Ray", "5 works, ill sneak out early")], timetable=(drinks,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-20T17:00"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-20T18:30"}]
    # "this fri" is the nearest Friday: a move
    ops = _act([("11:55", USER, "can we do this fri at 6 instead?"), ("12:30", "Bob Ray", "sure")],
               timetable=(drinks,))
    assert ops[0] == {"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-13T18:00"}


def test_a_bare_i_cant_naming_the_events_own_day_is_a_drop_out_not_a_counter_proposal():
    members = (USER, "Bob Ray", "Cy Hunt")
    run = make_event("e1", start="2026-03-15T14:00", end=None, location="the bridge", participants=list(members),
                     description="Sunday long run")
    said = "ah wait sunday afternoon i actually can't, got a shift at the café from 1. sorry!!"
    ops = _act([("09:30", "Cy Hunt", said)], members=members, kind="group", name="runners", timetable=(run,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray"]}]
    # another day with the "can't" is a counter-proposal: nothing settled yet
    assert _act([("09:30", "Cy Hunt", "i can't sunday, actually saturday?")], members=members, kind="group",
                name="runners", timetable=(run,)) == []


def test_a_day_said_of_someone_elses_errand_does_not_move_the_open_change():
    members = (USER, "Bob Ray", "Cy Hunt")
    drinks = make_event("e1", start="2026-03-14T20:00", end=None, location="Lantern Room", participants=list(members),
                        description="Cy's birthday drinks")
    ops = _act([("22:15", "Bob Ray", "lantern room cancelled our booking?? it's at Cobalt Lounge now, same time"),
                ("22:16", "Bob Ray", "she's posting it in the group tmrw"),
                ("22:30", USER, "wait what. ok cobalt lounge")],
               members=members, kind="group", name="drinks", timetable=(drinks,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "Cobalt Lounge"}]


def test_a_name_asked_alone_beside_the_plans_day_or_time_is_its_place():
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.reading import _asked_name, features
    cues = load_cues()
    read = lambda text: _asked_name(features(text, datetime(2026, 3, 9, 21, 10), cues), cues)  # noqa: E731
    assert read("fri works for me. lucky thai? 7:30?") == "lucky thai"
    assert read("lunch tmrw? nandos? 1?") == "nandos"
    assert read("drinks fri? 8?") is None and read("dinner sat? you free?") is None
    assert read("tennis sat? or sun?") is None
    ops = _act([("21:10", USER, "fri works for me. lucky thai? 7:30?"), ("21:14", "Bob Ray", "lucky thai 7:30 yes")],
               timetable=())
    assert [(op["event"]["start"], op["event"]["location"]) for op in ops] == [("2026-03-13T19:30", "lucky thai")]


def test_thanks_for_something_done_or_a_question_about_something_else_plans_nothing():
    from proevent.agents.rules.detect import StepDetector
    from proevent.agents.rules.reading import _RE_NOT_A_PLAN
    for said in ("thanks for covering the review today btw", "what do helpers even do at the book fair lol",
                 "why is the car park closed tmrw"):
        assert _RE_NOT_A_PLAN.match(said), said
    for said in ("what do we do sat? drinks?", "how does 7 sound", "how does sat work for you",
                 "thanks for the invite! fri works"):
        assert not _RE_NOT_A_PLAN.match(said), said
    obs = _obs([("17:00", "Bob Ray", "thanks for covering the review today btw"), ("17:05", USER, "anytime")])
    assert StepDetector()(obs) is False  # gated skips the step


def test_where_the_event_is_stated_moves_it_and_a_days_own_event_is_no_reason():
    members = (USER, "Bob Ray", "Cy Hunt")
    study = make_event("e1", start="2026-03-11T16:00", end="2026-03-11T18:00", location="library 3rd floor",
                       participants=list(members), description="Stats study group")
    ops = _act([("13:00", "Bob Ray", "3rd floor is booked out for exams, we're in group room b on the ground floor")],
               members=members, kind="group", name="stats", timetable=(study,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "group room b"}]
    lecture = make_event("e1", start="2026-03-11T14:00", end="2026-03-11T16:00", location="LT2",
                         participants=[USER, "Bob Ray"], description="MKT301 lecture")
    ops = _act([("09:01", "Bob Ray", "Also, Wednesday's class is in LT3 this week, LT2's aircon is being repaired.")],
               timetable=(lecture,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "LT3"}]
    # a proposal of a place is not a statement: it waits for the yes
    assert _act([("13:00", "Bob Ray", "group room b instead? 3rd floor is booked out")], members=members, kind="group",
                name="stats", timetable=(study,)) == []


def test_a_yes_then_a_name_asked_agrees_and_names_the_place():
    ops = _act([("12:15", "Bob Ray", "lunch this week?"), ("12:30", USER, "fri? free from 12"),
                ("12:32", "Bob Ray", "ya maxwell?"), ("12:40", USER, "👍")], timetable=())
    assert [(op["event"]["start"], op["event"]["location"]) for op in ops] == [("2026-03-13T12:00", "maxwell")]
    # "good game lads. same time next week?" opens with a yes-word but asks no place
    from proevent.agents.rules.reading import _RE_NAME_ASKED
    assert _RE_NAME_ASKED.match("good game lads. same time next week?", 4) is None


def test_after_a_quiet_night_a_plan_on_another_day_is_new_and_the_activity_is_read_outside_reasons():
    members = (USER, "Bob Ray", "Cy Hunt")
    party = make_event("e1", start="2026-03-14T20:00", end=None, location="Lantern Room", participants=list(members),
                       description="Cy's birthday drinks")
    group = dict(members=members, kind="group", name="crew", timetable=(party,))
    # the evening before: a change of the party asked and settled; the next afternoon a drink for today
    context = [("22:15", "Bob Ray", "lantern room cancelled our booking?? it's at Cobalt Lounge now, same time"),
               ("22:30", USER, "ok cobalt lounge")]
    ops = _act(context, **group)
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "Cobalt Lounge"}]
    moved = party.model_copy(update={"location": "Cobalt Lounge"})
    ops = _act([("15:04", "Bob Ray", "random but drink after work today? 6 at the dive?"),
                ("15:30", USER, "cant today, pilates. tmrw?"), ("15:41", "Bob Ray", "tmrw 6 works. dive?"),
                ("15:43", USER, "ya")], context=context, t=2, day="2026-03-10", **{**group, "timetable": (moved,)})
    assert [(op["op"], op["event"]["start"], op["event"]["location"], op["event"]["participants"]) for op in ops] == [
        ("insert", "2026-03-11T18:00", "dive", [USER, "Bob Ray"])]
    # "my 5pm meeting always runs over" is why, not a run
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.reading import _planned_text, activity_of, features
    cues = load_cues()
    f = features("can we do 6:30 instead? my 5pm meeting always runs over", datetime(2026, 3, 9, 8, 10), cues)
    assert activity_of(_planned_text(f), cues) is None


def test_a_video_call_named_in_a_reason_is_no_place():
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.reading import _place_of, features
    cues = load_cues()
    said = features("they have a booking thing on whatsapp", datetime(2026, 3, 9, 12, 46), cues)
    assert _place_of(said, cues) is None
    assert _place_of(features("let's do it on whatsapp instead", datetime(2026, 3, 9, 12, 46), cues), cues) == (
        "WhatsApp")


def test_the_no_of_no_worries_is_no_refusal():
    review = make_event("e1", start="2026-03-10T14:00", end="2026-03-10T15:00", location="room Liffey",
                        participants=[USER, "Bob Ray"], description="Annual review with Bob")
    ops = _act([("08:36", "Bob Ray", "stuck in london till wed night. ok if we do it thursday, same time, on zoom?"),
                ("08:58", USER, "no worries at all, thurs at 2 on zoom is grand")], timetable=(review,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-12T14:00"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-12T15:00"},
                   {"op": "update", "id": "e1", "attribute": "location", "value": "Zoom"}]
    # a "no" of its own still refuses
    assert _act([("08:36", "Bob Ray", "thursday at 2 on zoom?"), ("08:58", USER, "no, sorry, thursday is full")],
                timetable=(review,)) == []


def test_the_one_event_held_at_the_service_is_what_its_chat_speaks_of():
    dinner = make_event("e1", start="2026-03-11T19:00", end=None, location="Osteria Fantasma",
                        participants=[USER, "Bob Ray"], description="Dinner with Bob")
    asked = "Hi Ann, about your table on wed the 11th at 7pm: could we move you to 8?"
    ops = _act([("10:02", "Osteria Fantasma", asked),
                ("10:30", USER, "yes that's fine")],
               members=(USER, "Osteria Fantasma"), name="Osteria Fantasma", timetable=(dinner,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-11T20:00"}]


def test_drop_outs_with_a_see_you_after_or_a_time_too_late_and_places_asked_elsewhere_or_labelled_by_a_day():
    members = (USER, "Bob Ray", "Cy Hunt", "Dee Moss")
    pottery = make_event("e1", start="2026-03-11T19:00", end="2026-03-11T21:00", location="the studio",
                         participants=list(members), description="Pottery class")
    group = dict(members=members, kind="group", name="pottery", timetable=(pottery,))
    assert _act([("21:30", "Dee Moss", "i can't on wednesday, choir 🎶 see you next week")], **group) == [
        {"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray", "Cy Hunt"]}]
    assert _act([("16:40", "Cy Hunt", "7 is too late for me, early flight. i'll skip this one 😔")], **group) == [
        {"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray", "Dee Moss"]}]
    assert _act([("15:52", "Cy Hunt", "running 10 late, sorry")], **group) == []  # lateness stays lateness
    # "saturday: kabaty forest instead of the park?" names the new place after a day that labels it
    ops = _act([("12:00", "Bob Ray", "wednesday: the garden room instead of the studio? it's nicer"),
                ("12:15", "Cy Hunt", "yes"), ("12:30", USER, "garden room fine by me")], **group)
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "the garden room"}]
    # "somewhere else?" asks where: a bare name next answers it
    ops = _act([("10:21", "Bob Ray", "can we do wednesday somewhere else? the studio is being painted"),
                ("10:35", "Cy Hunt", "Clay Corner? they have wheels"), ("11:30", USER, "ok clay corner")], **group)
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "Clay Corner"}]


def test_a_service_that_says_it_moved_the_booking_after_a_failure_moves_it():
    show = make_event("e1", start="2026-03-14T21:00", end=None, location="Punchline Club", participants=[USER],
                      description="Comedy show")
    said = ("Dear Ann, due to high demand Saturday's 9pm show has been oversold. Your 2 tickets have been moved to "
            "the 7pm show on the same night. Reply CANCEL within 24h for a full refund.")
    ops = _act([("14:05", "Punchline Club", said)], members=(USER, "Punchline Club"), name="Punchline Club",
               timetable=(show,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T19:00"}]
    # an offer after a failure waits for the yes
    assert _act([("14:05", "Punchline Club", "Sorry, the 9pm show is fully booked. Would the 7pm show work?")],
                members=(USER, "Punchline Club"), name="Punchline Club", timetable=(show,)) == []


def test_gated_skips_a_re_mention_of_what_the_timetable_holds_and_sends_a_change():
    from proevent.agents.rules.detect import StepDetector
    members = (USER, "Bob Ray", "Cy Hunt")
    run = make_event("e1", start="2026-03-14T09:00", end=None, location="the park", participants=list(members),
                     description="Saturday run")
    step = lambda lines: _obs(lines, members=members, kind="group", name="runners", timetable=(run,))  # noqa: E731

    assert StepDetector()(step([("10:00", "Bob Ray", "still 9 on saturday?"), ("10:05", "Cy Hunt", "9 yes")])) is False
    change = ("10:00", "Bob Ray", "could we do 10 on saturday instead?")
    assert StepDetector()(step([change, ("10:10", USER, "hmm 10 is late for me")])) is True
    assert StepDetector()(step([change])) is False  # not answered yet: left for the step that answers it


def test_a_message_about_another_event_than_the_open_plan_reads_its_hours_by_that_event():
    members = (USER, "Bob Ray", "Cy Hunt")
    ferry = make_event("e1", start="2026-03-14T10:00", end=None, location="Piraeus port", participants=list(members),
                       description="Ferry to Naxos")
    run = make_event("e2", start="2026-03-10T19:00", end=None, location="the marina", participants=[USER, "Bob Ray"],
                     description="Evening run")
    ops = _act([("09:00", "Bob Ray", "evening run tue at 8 instead?"),
                ("09:05", "Cy Hunt", "the 10:00 sailing on saturday is cancelled, they moved us to 15:30, same gate"),
                ("09:10", USER, "ugh ok")],
               members=members, kind="group", name="naxos", timetable=(ferry, run))
    assert {"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T15:30"} in ops


def test_where_the_event_is_stated_after_were_in_reads_a_lower_case_name():
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.places import find_place
    cues = load_cues()
    assert find_place("wisła is taken 🙄 we're in odra instead", cues) == "odra"
    assert find_place("it's in the big hall now", cues) == "the big hall"
    assert find_place("im in a meeting", cues) is None and find_place("we're in a bit of a rush", cues) is None
    standup = make_event("e1", start="2026-03-12T10:00", end=None, location="wisła", participants=[USER, "Bob Ray"],
                         description="Sprint review")
    ops = _act([("09:00", "Bob Ray", "wisła is taken by the board on thursday 🙄 we're in odra instead")],
               timetable=(standup,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "odra"}]


def test_a_new_place_of_four_words_before_instead_and_a_yes_that_names_it():
    members = (USER, "Bob Ray", "Cy Hunt")
    dinner = make_event("e1", start="2026-03-12T21:00", end=None, location="bodegón", participants=list(members),
                        description="Girls' dinner")
    group = dict(members=members, kind="group", name="girls", timetable=(dinner,))
    ops = _act([("12:02", "Bob Ray", "bodegón is closed thu for renovation 🙄"),
                ("12:03", "Bob Ray", "el patio de nona instead? the one on honduras"), ("12:21", "Cy Hunt", "yes"),
                ("12:40", USER, "patio de nona 👌")], **group)
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "el patio de nona"}]
    ops = _act([("15:20", "Bob Ray", "for thursday, can we try the new spot on admiralty way instead? Cactus."),
                ("15:48", USER, "ok let's do Cactus")], timetable=(dinner,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "Cactus"}]


def test_a_join_asked_that_names_the_events_day_beside_another_joins():
    members = (USER, "Bob Ray", "Cy Hunt")
    swim = make_event("e1", start="2026-03-14T06:30", end=None, location="bronte baths", participants=[USER, "Bob Ray"],
                      description="Ocean swim")
    ops = _act([("12:20", "Cy Hunt", "bula from fiji 🌴 back tmrw night, can I tag along sat?"),
                ("12:45", USER, "of course!!")], members=members, kind="group", name="swimmers", timetable=(swim,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray", "Cy Hunt"]}]


def test_a_journey_someone_cancelled_is_the_speakers_not_the_event():
    members = (USER, "Bob Ray", "Cy Hunt")
    lunch = make_event("e1", start="2026-03-15T14:00", end=None, location="Nkoyo Kitchen", participants=list(members),
                       description="Mum's birthday lunch")
    ops = _act([("21:15", "Bob Ray", "the airline cancelled my saturday flight from abuja, next one is sunday 4pm"),
                ("21:16", "Bob Ray", "so I'll miss the lunch 😭😭")],
               members=members, kind="group", name="family", timetable=(lunch,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Cy Hunt"]}]


@pytest.mark.parametrize("text", [
    "saturday i'm at my cousin's christening 😢 next time!",
    "ugh i'm out of town that weekend. anyone want my spot",
    "ugh a client call just landed 😤 skip me saturday",
    "im skipping saturday's one, sorry",
    "fever again 🤢 ill stay home, dont wait for me",
    "i'm staying home this time, sorry",
])
def test_a_member_who_says_they_will_not_be_there_drops_out(text):
    """A conflict ending on "next time!", a spot given away, "skip me", "im skipping", staying home."""
    members = (USER, "Bob Ray", "Cy Hunt")
    ops = _act([("10:00", "Cy Hunt", text)], members=members, kind="group", name="padella", timetable=(PADELLA,))
    assert ops == [{"op": "update", "id": "e2", "attribute": "participants", "value": [USER, "Bob Ray"]}]


def test_next_time_said_to_one_who_dropped_out_is_no_drop_out():
    members = (USER, "Bob Ray", "Cy Hunt")
    ops = _act([("10:00", "Bob Ray", "can't do saturday, sorry all"), ("10:05", "Cy Hunt", "nooo. next time!")],
               members=members, kind="group", name="padella", timetable=(PADELLA,))
    assert ops == [{"op": "update", "id": "e2", "attribute": "participants", "value": [USER, "Cy Hunt"]}]


def test_a_no_to_the_new_day_just_after_the_event_moved_is_a_drop_out_but_not_before_any_move():
    members = (USER, "Bob Ray", "Cy Hunt")
    ops = _act([("10:00", "Bob Ray", "padella moved us to friday, same time"),
                ("10:05", "Cy Hunt", "no way, i'm at my sister's graduation fri 😭😭")],
               members=members, kind="group", name="padella", timetable=(PADELLA,))
    assert ops == [{"op": "update", "id": "e2", "attribute": "start", "value": "2026-03-13T20:00"},
                   {"op": "update", "id": "e2", "attribute": "participants", "value": [USER, "Bob Ray"]}]
    ops = _act([("10:00", "Cy Hunt", "guys my boss won't let me off early saturday 😭"),
                ("10:05", "Cy Hunt", "could we do sunday instead?")],
               members=members, kind="group", name="padella", timetable=(PADELLA,))
    assert ops == []


def test_ill_be_there_says_yes_to_an_invitation():
    ops = _act([("09:00", "Bob Ray", "we're doing a bbq at ours sunday at 1, you coming?"),
                ("09:20", USER, "i'll be there 🙌")], timetable=())
    assert ops == [{"op": "insert", "event": {"start": "2026-03-15T13:00", "end": None, "location": "Bob's",
                                              "participants": [USER, "Bob Ray"], "description": "Bbq"}}]


def test_a_cancellation_asked_is_off_when_the_other_side_says_yes_and_not_before():
    ask = ("09:00", "Bob Ray", "so sorry, woke up with a fever. can we cancel thursday's dinner?")
    assert _act([ask, ("09:30", USER, "of course, get well soon!")]) == [{"op": "delete", "id": "e1"}]
    assert _act([ask]) == []
    assert _act([ask, ("09:30", USER, "no way, I'll bring you soup instead 😂")]) == []
    assert _act([ask, ("09:02", "Bob Ray", "sure?")]) == []  # the asker's own yes settles nothing


def test_a_24_hour_clock_written_with_h_moves_the_event_and_the_speakers_whereabouts_are_no_place():
    ops = _act([("09:00", "Bob Ray", "can we do thursday at 14h instead?"),
                ("09:10", USER, "14h I'm at the dentist 😕 15h?"), ("09:12", "Bob Ray", "15h ok for me")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-12T15:00"}]


def test_a_task_asked_of_the_other_side_is_the_doers_event_not_the_askers():
    ops = _act([("09:00", "Bob Ray", "can you pick up the kids from school thursday at 3? I have a late meeting"),
                ("09:10", USER, "ya ok")], timetable=())
    assert [op["event"]["participants"] for op in ops] == [[USER]]
    ops = _act([("09:00", "Bob Ray", "can you pick me up from the station thursday at 9?"),
                ("09:10", USER, "sure")], timetable=())
    assert [op["event"]["participants"] for op in ops] == [[USER, "Bob Ray"]]
    assert _act([("09:00", USER, "could you take the dog to the vet thursday at 5?"),
                 ("09:10", "Bob Ray", "yep")], timetable=()) == []  # the user asked: not the user's event


def test_a_change_of_an_event_that_is_over_is_dropped_so_a_new_plan_after_it_is_inserted():
    brunch = make_event("e1", start=f"{MON}T11:45", end=None, location="Wren & Crumb",
                        participants=[USER, "Bob Ray"], description="Brunch with Bob")
    ops = _act([("15:02", "Bob Ray", "that was so nice. dad loved it"),
                ("15:03", "Bob Ray", "dinner thurs? 7ish"), ("15:20", USER, "yes. 7 good")],
               context=[("09:00", "Bob Ray", "could we do 12 instead? the bus is slow")], timetable=(brunch,))
    assert ops == [{"op": "insert", "event": {"start": "2026-03-12T19:00", "end": None, "location": None,
                                              "participants": [USER, "Bob Ray"], "description": "Dinner"}}]


def test_where_the_speaker_is_beside_a_no_is_a_reason_not_a_stay_to_plan():
    ops = _act([("09:00", USER, "lunch next tue?"),
                ("10:00", "Bob Ray", "checked, next tue cannot, im in KL 21st-23rd 😞"),
                ("10:05", USER, "aw ok, after you're back then")], timetable=())
    assert ops == []


def test_a_place_said_back_before_a_yes_is_the_place():
    ops = _act([("09:00", "Bob Ray", "dinner thurs? that georgian place near you, tbilisi nights. 7ish"),
                ("09:20", USER, "tbilisi nights yes. 7 good")], timetable=())
    assert [op["event"]["location"] for op in ops] == ["tbilisi nights"]
    ops = _act([("09:00", "Bob Ray", "drinks fri? the anchor or the crown"), ("09:05", USER, "fri 6? the anchor"),
                ("09:10", "Bob Ray", "the anchor 6 👍")], timetable=())
    assert [(op["event"]["start"], op["event"]["location"]) for op in ops] == [("2026-03-13T18:00", "the anchor")]
    ops = _act([("09:00", "Bob Ray", "lunch fri at noon?"), ("09:10", USER, "noon 👍")], timetable=())
    assert [op["event"]["location"] for op in ops] == [None]  # a time said back is no place


def test_a_plan_set_before_or_after_an_event_is_a_new_event_on_its_day():
    play = make_event("e1", start="2026-03-12T20:00", end=None, location="the Goodman",
                      participants=[USER, "Bob Ray"], description="Play at the Goodman")
    ops = _act([("09:00", "Bob Ray", "thursday's play, so excited"), ("09:01", "Bob Ray", "dinner before? 6:15?"),
                ("09:10", USER, "6:30? i'm on a call till 6"), ("09:12", "Bob Ray", "deal 🍜")], timetable=(play,))
    assert ops == [{"op": "insert", "event": {"start": "2026-03-12T18:30", "end": None, "location": None,
                                              "participants": [USER, "Bob Ray"], "description": "Dinner"}}]
    exam = make_event("e1", start="2026-03-13T09:00", end="2026-03-13T12:00", location="Aula 3",
                      participants=[USER, "Bob Ray"], description="Criminal law exam")
    ops = _act([("09:00", "Bob Ray", "after the exam friday, tapas? 2pm at el rincon?"),
                ("09:10", USER, "obviously 🍻")], timetable=(exam,))
    assert [(op["op"], op["event"]["start"], op["event"]["location"]) for op in ops] == [
        ("insert", "2026-03-13T14:00", "el rincon")]


def test_a_place_asked_again_leaves_the_place_open_to_another_name():
    ops = _act([("09:00", "Bob Ray", "can we do friday instead? same time"),
                ("09:05", USER, "fri works. dishoom again? the queue was awful last time"),
                ("09:06", "Bob Ray", "hoppers? it's quieter and the curry is better"), ("09:10", USER, "deal 👍")])
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-13T19:30"},
                   {"op": "update", "id": "e1", "attribute": "location", "value": "hoppers"}]


def test_a_bare_in_answers_the_roll_call():
    members = (USER, "Bob Ray", "Cy Hunt", "Di Moss")
    ops = _act([("09:00", "Bob Ray", "pub quiz thursday at 8?"), ("09:05", USER, "i'm in"), ("09:06", "Cy Hunt", "in!"),
                ("09:07", "Di Moss", "can't, sorry")], members=members, kind="group", name="quiz", timetable=())
    assert [op["event"]["participants"] for op in ops] == [[USER, "Bob Ray", "Cy Hunt"]]


@pytest.mark.parametrize(("text", "address"), [
    ("calle del pez 21, 3º dcha", "calle del pez 21, 3º dcha"),
    ("meet at mine at 6, av. insurgentes 1200", "av. insurgentes 1200"),
    ("mine! lindenstr 7, bring chairs", "lindenstr 7"),
    ("dinner at 14 kings road", "14 kings road"),
    ("ul. długa 5, room 3. bring the form", "ul. długa 5, room 3"),
    ("at 10:30 with Dr Okafor", None),  # a title, not a drive
    ("7 is way too early", None),
    ("table for 4 at 8", None),
])
def test_a_street_address_is_read_as_written(text, address):
    from proevent.agents.rules.places import address_place
    assert address_place(text) == address


def test_an_address_given_for_a_new_host_is_the_place():
    members = (USER, "Bob Ray", "Cy Hunt")
    ops = _act([("09:00", "Bob Ray", "padella is closed saturday, anyone host?"),
                ("09:05", "Cy Hunt", "mine! calle del pez 21, 3º dcha"), ("09:10", USER, "cy's 👍"),
                ("09:11", "Bob Ray", "👍")], members=members, kind="group", name="padella", timetable=(PADELLA,))
    assert ops == [{"op": "update", "id": "e2", "attribute": "location", "value": "calle del pez 21, 3º dcha"}]


def test_an_event_named_by_its_day_and_time_is_linked_though_the_chat_is_not_in_it():
    vet = make_event("e1", start=f"{MON}T10:15", end=None, location="Paws Clinic", participants=[USER],
                     description="Vet: Rex's vaccines")
    ops = _act([("08:00", "Bob Ray", "my meeting got moved! i can come to the vet today after all. 10:15 right?"),
                ("08:05", USER, "yes! rex will be thrilled")], timetable=(vet,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray"]}]


def test_a_booking_the_user_reports_is_read_whole_though_its_words_read_as_a_reason():
    ops = _act([("09:00", USER, "btw booked my eye exam for thu 4:15 at specsavers 👓"),
                ("09:05", "Bob Ray", "finally")], timetable=())
    assert [(op["event"]["start"], op["event"]["location"], op["event"]["participants"]) for op in ops] == [
        ("2026-03-12T16:15", "specsavers", [USER])]


def test_a_decision_someone_else_wants_passed_on_is_a_change_not_a_question():
    members = (USER, "Bob Ray", "Cy Hunt")
    call = make_event("e1", start="2026-03-10T16:30", end=None, location="Zoom", participants=list(members),
                      description="Client call")
    ops = _act([("09:00", "Bob Ray", "the client want to use teams instead of zoom for tmrw, new link in the invite"),
                ("09:05", "Cy Hunt", "ok")], members=members, kind="group", name="proj", timetable=(call,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "location", "value": "Teams"}]
    ops = _act([("09:00", "Bob Ray", "do you want to use teams instead of zoom for tmrw"), ("09:05", "Cy Hunt", "ok")],
               members=members, kind="group", name="proj", timetable=(call,))
    assert ops == []  # asked of the chat: the user has not agreed


@pytest.mark.parametrize(("text", "room"), [
    ("your review is scheduled for Thursday 23 April, 16:30–17:30, meeting room Tosca.", "meeting room Tosca"),
    ("Your booking is confirmed: Thursday 28 May, 17:00–18:30, court 7.", "court 7"),
    ("Done ✅ Sat 11 Jul 9pm–12am, room B2.", "room B2"),
    ("see you in the room at 5", None),
])
def test_a_room_a_service_names_as_a_part_of_its_own(text, room):
    from proevent.agents.rules.places import room_part
    assert room_part(text) == room


def test_a_slot_a_service_says_is_scheduled_is_booked_with_its_room():
    ops = _act([("09:00", "HR Desk", "Hello Ann, your appraisal is scheduled for Thursday 12 March, 16:30–17:30, "
                                      "meeting room Tosca.")],
               members=(USER, "HR Desk"), name="HR Desk", timetable=())
    assert [(op["event"]["start"], op["event"]["end"], op["event"]["location"]) for op in ops] == [
        ("2026-03-12T16:30", "2026-03-12T17:30", "meeting room Tosca")]


def test_the_time_gates_or_doors_open_is_not_the_events():
    show = make_event("e1", start="2026-03-14T20:00", end=None, location="the Forum", participants=[USER, "Bob Ray"],
                      description="Gig at the Forum")
    ops = _act([("09:00", "Bob Ray", "the forum moved it to sunday. gates open 6pm, show starts 8pm"),
                ("09:05", USER, "ok sunday then")], timetable=(show,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-15T20:00"}]


def test_a_range_in_a_message_is_the_plans_days_not_its_last_day():
    members = (USER, "Finca Sol")
    stay = make_event("e1", start="2026-03-21", end="2026-03-22", location="Finca Sol", participants=[USER],
                      description="Weekend at Finca Sol")
    ops = _act([("20:00", "Finca Sol", "Buenas noches! We confirm your reservation at Finca Sol for the weekend of "
                                       "21-22 March, 4 guests 🌿")], members=members, name="Finca Sol",
               timetable=(stay,))
    assert ops == []  # the stay the timetable holds, confirmed again


def test_where_an_event_will_be_announced_is_its_place():
    members = (USER, "Bob Ray", "Cy Hunt")
    review = make_event("e1", start="2026-03-12T10:00", end=None, location="the boardroom", participants=list(members),
                        description="Quarterly review")
    ops = _act([("09:00", "Bob Ray", "Team, the boardroom is being painted on Thursday. Our review will be in the "
                                     "small meeting room on level 2."), ("09:05", USER, "noted 👍")],
               members=members, kind="group", name="team", timetable=(review,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "location",
                    "value": "the small meeting room on level 2"}]


def test_a_services_your_wednesday_appointment_is_the_one_held_there_that_day_and_thanks_is_no_place():
    members = (USER, "FysioFit")
    physio = [make_event("e1", start="2026-03-11T09:00", end="2026-03-11T09:45", location="FysioFit, Kwattaweg",
                         participants=[USER], description="Physio"),
              make_event("e2", start="2026-03-13T17:00", end="2026-03-13T17:45", location="FysioFit, Kwattaweg",
                         participants=[USER], description="Physio"),
              make_event("e3", start="2026-03-11T16:00", end=None, location="the square", participants=[USER],
                         description="Holi celebration")]
    ops = _act([("08:00", "FysioFit", "Goedemorgen! Wednesday 11 March is Holi, the practice is closed. Your Wednesday "
                                      "appointment is moved to Thursday 12 March 09:00-09:45."),
                ("08:10", USER, "ok dank je")], members=members, name="FysioFit", timetable=tuple(physio))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-12T09:00"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-12T09:45"}]


def test_a_time_a_service_corrects_is_stated_and_moves_its_event():
    members = (USER, "Garage Ahmed")
    car = make_event("e1", start="2026-03-09T16:00", end=None, location="Garage Ahmed", participants=[USER],
                     description="Collect the car from the garage")
    ops = _act([("09:00", USER, "hi, is my car still ready for 4 today?"),
                ("11:00", "Garage Ahmed", "Madame good news, part arrived. Car ready today but 5pm, not 4pm"),
                ("11:05", USER, "ok i come at 5")], members=members, name="Garage Ahmed", timetable=(car,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-09T17:00"}]


def test_the_time_a_service_says_its_event_starts_is_stated():
    members = (USER, "Hillside School")
    day = make_event("e1", start="2026-03-14T08:30", end=None, location="Hillside School", participants=[USER],
                     description="Sports day")
    ops = _act([("08:00", USER, "Good morning, is sports day on Saturday starting at 8am or 8:30?"),
                ("09:00", "Hillside School", "Good morning madam. Sports day starts at 8.00am. Children report at "
                                             "7.30am."), ("09:05", USER, "thank you 🙏")],
               members=members, name="Hillside School", timetable=(day,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T08:00"}]


def test_a_name_after_lets_do_is_the_place_and_an_activity_is_not():
    members = (USER, "Bob Ray", "Cy Hunt")
    ops = _act([("09:00", "Bob Ray", "padella is closed saturdays now"),
                ("09:01", "Bob Ray", "lets do bao bar instead, same time"), ("09:05", USER, "👍")],
               members=members, kind="group", name="padella", timetable=(PADELLA,))
    assert ops == [{"op": "update", "id": "e2", "attribute": "location", "value": "bao bar"}]
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.reading import _lets_do_place, features
    assert _lets_do_place(features("lets do lunch instead", datetime(2026, 3, 9, 9), load_cues()), load_cues()) is None


def test_a_temperature_after_at_is_no_place():
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.places import find_place
    assert find_place("their soup at -20 is medicine", load_cues()) is None
    assert find_place("soup at hanbat", load_cues()) == "hanbat"


def test_more_street_words_and_yours_is_no_place_and_a_drawn_out_yes_keeps_its_place():
    from proevent.agents.rules.places import address_place
    assert address_place("8ish at mine, rruga e durresit 14") == "rruga e durresit 14"
    assert address_place("strada lipscani 5, etaj 2") == "strada lipscani 5"
    members = (USER, "Bob Ray", "Cy Hunt")
    ops = _act([("09:00", "Bob Ray", "board games next wed?"), ("09:05", USER, "yesss. at urs?")],
               members=members, kind="group", name="games", timetable=())
    assert all(op["event"]["location"] is None for op in ops)
    ops = _act([("09:00", "Bob Ray", "drinks thursday 7?"), ("09:05", USER, "yesss. the anchor?")], timetable=())
    assert [op["event"]["location"] for op in ops] == ["the anchor"]


# -- issue 16, sixth round: booking dialogues (rules found on examples/booking_blind after its unseen reading) --
def test_a_contact_that_confirms_in_the_second_person_or_with_a_booking_code_is_a_service():
    said = [("09:00", USER, "can you fit my bike in for a service next week? before friday ideally"),
            ("09:20", "Spokes Repairs", "Tuesday is free, drop it at 9?"),
            ("09:25", USER, "tuesday 9 is great")]
    for confirmation in ("Lovely, that's you booked in at Spokes Repairs for Tuesday 10 March at 9:00.",
                         "Confirmed for Tue 10 March 9:00 at Spokes Repairs. Ref SR-40213."):
        ops = _act([*said, ("09:30", "Spokes Repairs", confirmation)], members=(USER, "Spokes Repairs"),
                   name="Spokes Repairs", timetable=())
        assert [{k: v for k, v in op["event"].items() if k != "description"} for op in ops] == [
            {"start": "2026-03-10T09:00", "end": None, "location": "Spokes Repairs", "participants": [USER]}]
    # a friend who booked for both of you, with no code, stays a friend: both attend
    ops = _act([("09:00", "Bob Ray", "climbing tue 7? i can book"), ("09:05", USER, "yes pls"),
                ("09:20", "Bob Ray", "done, booked us at the arch for 7")], timetable=())
    assert ops[0]["event"]["participants"] == [USER, "Bob Ray"]


def test_a_new_booking_at_a_service_takes_the_place_its_earlier_event_was_held_at():
    check = make_event("e1", start="2026-03-11T09:15", end=None, location="Ivy Lane Dental", participants=[USER],
                       description="Dental check-up")
    members, name = (USER, "Ivy Lane Dental"), "Ivy Lane Dental"
    first = [("09:00", USER, "hi, can I cancel wednesday? something came up"),
             ("09:10", "Ivy Lane Dental", "No problem, your appointment on Wednesday 11 March is cancelled.")]
    agent = RulesAgent()
    assert _act(first, members=members, name=name, timetable=(check,), agent=agent) == [{"op": "delete", "id": "e1"}]
    later = [("09:00", USER, "could I book the check-up for next week instead? thursday afternoon"),
             ("09:10", "Ivy Lane Dental", "You're booked in for Thursday 19 March at 3pm. See you then!")]
    ops = _act(later, context=first, context_day=MON, members=members, name=name, timetable=(), t=2,
               day="2026-03-10", agent=agent)
    assert [(op["event"]["start"], op["event"]["location"]) for op in ops] == [("2026-03-19T15:00", "Ivy Lane Dental")]
    # with no earlier event held there, the place stays unknown (the messages name none)
    ops = _act(later, members=members, name=name, timetable=(), day="2026-03-10")
    assert [(op["event"]["start"], op["event"]["location"]) for op in ops] == [("2026-03-19T15:00", None)]


def test_how_long_a_table_is_held_is_not_the_dinners_length_and_a_full_service_is_no_failure():
    members, name = (USER, "Table Assistant"), "Table Assistant"
    ops = _act([("09:00", USER, "table for 2 at Rosa's thursday 8pm please"),
                ("09:01", "Table Assistant", "Booked: Rosa's, Thursday 12 March at 20:00, 2 people. The table will "
                                             "be held for 15 minutes.")], members=members, name=name, timetable=())
    assert [(op["event"]["start"], op["event"]["end"]) for op in ops] == [("2026-03-12T20:00", None)]
    ops = _act([("09:00", USER, "massage thursday 8pm please"),
                ("09:01", "Table Assistant", "Booked: Thursday 12 March at 20:00 for 60 minutes.")],
               members=members, name=name, timetable=())
    assert [(op["event"]["start"], op["event"]["end"]) for op in ops] == [("2026-03-12T20:00", "2026-03-12T21:00")]
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.reading import _failed, features
    at = datetime(2026, 3, 9, 9)
    assert not _failed(features("Done, Thursday at 9, full service and an oil change.", at, load_cues()), load_cues())
    for full in ("Sorry, we're full on Thursday", "we are full, sorry", "full that day unfortunately"):
        assert _failed(features(full, at, load_cues()), load_cues()), full


def test_a_place_under_a_label_is_read():
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.places import find_place
    assert find_place("Booked: 2 places, Sunday 10:00. Meeting point: Fountain Square. Ref T-99.", load_cues()) == \
        "Fountain Square"
    assert find_place("Venue: Hall B, Riverside Centre", load_cues()) == "Hall B"
    assert find_place("the meeting point is up to you", load_cues()) is None


def test_a_cancellation_asked_of_a_service_names_its_event_by_day_and_time():
    doubles = make_event("e1", start="2026-03-14T09:00", end=None, location="Parkside TC",
                         participants=[USER, "Bob Ray"], description="Doubles")
    members, name = (USER, "Parkside Tennis Club"), "Parkside TC"
    done = ("09:40", "Parkside Tennis Club", "No problem, that's cancelled.")
    # "my saturday 4pm court" is no 9am event: nothing is deleted; "my saturday 9am court" is
    assert _act([("09:00", USER, "sorry, can you cancel my saturday 4pm court? plans changed"), done],
                members=members, name=name, timetable=(doubles,)) == []
    assert _act([("09:00", USER, "please cancel my saturday 9am court"), done],
                members=members, name=name, timetable=(doubles,)) == [{"op": "delete", "id": "e1"}]


def test_a_services_news_of_its_own_cancelled_show_is_no_done_cancellation():
    show = make_event("e1", start="2026-03-12T19:30", end=None, location="the Lyric", participants=[USER],
                      description="The Seagull")
    members, name = (USER, "Lyric Box Office"), "Lyric Box Office"
    news = ("Hi Ann, the Thursday 12 March performance is cancelled. We can move your seats to Friday 13 March, "
            "7:30pm, or refund. Which would you prefer?")
    ops = _act([("09:00", "Lyric Box Office", news),
                ("09:10", USER, "friday please"), ("09:11", "Lyric Box Office", "Done, Fri 13 March at 7:30pm.")],
               members=members, name=name, timetable=(show,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-13T19:30"}]


# -- issue 16, sixth round: a booking assistant in the register of task-oriented dialogue corpora ------------
_ASSISTANT = {"members": (USER, "Assistant"), "name": "Assistant", "timetable": ()}


def _booked(ops):
    return [{k: v for k, v in op["event"].items() if k != "description"} for op in ops]


def test_a_journey_is_held_where_it_leaves_and_ends_when_it_arrives_and_a_fee_is_paid_elsewhere():
    ops = _act([("09:00", USER, "I need a train from Leeds to York on Friday, leaving after 8."),
                ("09:00", "Assistant", "TR2231 leaves Leeds at 08:12 and arrives at York at 08:41. Shall I book it?"),
                ("09:01", USER, "Yes, one ticket please."),
                ("09:01", "Assistant", "Booking was successful, the fee is 9.40 GBP payable at the station. "
                                       "Reference number is : QX81L0ZP.")], **_ASSISTANT)
    assert _booked(ops) == [{"start": "2026-03-13T08:12", "end": "2026-03-13T08:41", "location": "Leeds",
                             "participants": [USER]}]
    from datetime import datetime

    from proevent.timeexpr import read
    # an arrival without a departure before it is no end ("mum arrives at 9, can you pick her up?")
    assert [c.role for c in read("mum arrives at 9, can you pick her up?", datetime(2026, 3, 9, 9)).clocks] == ["start"]


def test_a_venue_the_assistant_offers_by_name_is_the_place_and_a_town_area_is_not():
    ops = _act([("09:00", USER, "I want a moderately priced restaurant in the north that serves Thai food."),
                ("09:00", "Assistant", "The Golden Lotus is a moderately priced Thai restaurant in the north. "
                                       "Shall I reserve a table?"),
                ("09:01", USER, "Yes, for 4 people at 19:30 on Thursday."),
                ("09:01", "Assistant", "Booking was successful. The table will be reserved for 15 minutes. "
                                       "Reference number is : 00000412.")], **_ASSISTANT)
    assert _booked(ops) == [{"start": "2026-03-12T19:30", "end": None, "location": "The Golden Lotus",
                             "participants": [USER]}]
    ops = _act([("09:00", USER, "Could you book the Linden Lodge for 2 nights from Saturday?"),
                ("09:00", "Assistant", "Booking was successful. Reference number is : 7GAWK763.")], **_ASSISTANT)
    assert _booked(ops) == [{"start": "2026-03-14", "end": "2026-03-16", "location": "the Linden Lodge",
                             "participants": [USER]}]
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.places import find_place, offered_venue
    assert find_place("can you book it for friday?", load_cues()) is None
    assert find_place("a table in the centre please", load_cues()) is None
    assert offered_venue("Tom is a legend", load_cues()) is None  # a person, no venue's kind after it


def test_a_retry_after_a_failed_booking_keeps_what_it_does_not_change():
    ops = _act([("09:00", USER, "Please book a table for 2 at Curry Garden on Saturday at 20:00."),
                ("09:00", "Assistant", "I'm sorry, that booking was unsuccessful. Would you like to try another time?"),
                ("09:01", USER, "How about 19:00 then?"),
                ("09:01", "Assistant", "Booking was successful. Reference number is : 4X9PLQ2C.")], **_ASSISTANT)
    assert _booked(ops) == [{"start": "2026-03-14T19:00", "end": None, "location": "Curry Garden",
                             "participants": [USER]}]
    # a failure with no retry books nothing
    assert _act([("09:00", USER, "Please book a table for 2 at Curry Garden on Saturday at 20:00."),
                 ("09:00", "Assistant", "I'm sorry, that booking was unsuccessful."),
                 ("09:01", USER, "No worries, thanks.")], **_ASSISTANT) == []


def test_tickets_purchased_confirm_and_a_window_to_enter_is_no_length():
    ops = _act([("09:00", USER, "I want 2 tickets for Dune at the Rex on Friday for the 7:30 pm show."),
                ("09:00", "Assistant", "Please confirm: 2 tickets for Dune at the Rex on March 13th at 7:30 pm."),
                ("09:01", USER, "Yes please."),
                ("09:01", "Assistant", "Your tickets have been purchased. Please come within 20 minutes of it.")],
               **_ASSISTANT)
    assert _booked(ops) == [{"start": "2026-03-13T19:30", "end": None, "location": "the Rex", "participants": [USER]}]


def test_a_venue_the_user_picks_from_the_assistants_list_is_the_place_and_a_second_booking_is_its_own():
    ops = _act([("09:00", USER, "I need a cheap place to eat in the centre."),
                ("09:00", "Assistant", "There are 3 cheap restaurants in the centre: The Gardenia, Nandos City Centre "
                                       "and Dojo Noodle Bar. Any preference?"),
                ("09:01", USER, "Dojo Noodle Bar sounds good. Please book a table for 2 at 18:30 on Friday."),
                ("09:01", "Assistant", "Booking was successful. Reference number is : 0BZ8XQ1A."),
                ("09:02", USER, "I also need a taxi from the Lensfield Hotel to the restaurant at 18:00 on Friday."),
                ("09:02", "Assistant", "Your taxi is booked to pick you up at the Lensfield Hotel at 18:00 Friday.")],
               **_ASSISTANT)
    assert [(op["event"]["start"], op["event"]["location"]) for op in ops] == [
        ("2026-03-13T18:30", "Dojo Noodle Bar"), ("2026-03-13T18:00", "the Lensfield Hotel")]
    from proevent.agents.rules.clues import chosen_option
    listed = ["there are 2 hotels: gonville hotel and university arms hotel. shall i book one?"]
    assert chosen_option("Let's try University Arms Hotel for 2 nights.", listed) == "University Arms Hotel"
    # a code, a date, a person or a yes said back is no venue
    for text in ("change VL-88213 to 3 people?", "Thursday 18 is fine", "with Dr Pillay please", "Yes please"):
        assert chosen_option(text, ["vl-88213 thursday 18 dr pillay yes please"]) is None, text


def test_a_request_to_a_service_states_its_appointment_and_a_journey_departing_from_a_stop():
    ops = _act([("09:00", USER, "I want to find a barber in Oakland."),
                ("09:00", "Assistant", "How about Fade Street Barbers in Oakland? It has a rating of 4.7."),
                ("09:01", USER, "Sounds good. Book me an appointment this Saturday at 11 in the morning."),
                ("09:01", "Assistant", "Your appointment is booked.")], **_ASSISTANT)
    assert _booked(ops) == [{"start": "2026-03-14T11:00", "end": None, "location": "Fade Street Barbers",
                             "participants": [USER]}]
    from proevent.agents.rules.cues import load_cues
    from proevent.agents.rules.places import find_place
    assert find_place("3 tickets for the bus, departing at 10:50 am from Union Station.", load_cues()) == \
        "Union Station"
    assert find_place("she leaves tomorrow for Paris", load_cues()) is None


def test_a_failed_change_that_leaves_the_booking_as_it_was_moves_nothing():
    taxi = make_event("e1", start="2026-03-13T16:15", end=None, location="the Lensfield Hotel", participants=[USER],
                      description="Taxi")
    kept = {**_ASSISTANT, "timetable": (taxi,)}
    for answer in ("I'm sorry, there are no taxis at 15:45. Your taxi at 16:15 is still booked.",
                   "Sorry, 15:45 is not possible. Your original booking remains unchanged."):
        assert _act([("09:00", USER, "Could my taxi on Friday come earlier, at 15:45?"), ("09:00", "Assistant", answer),
                     ("09:01", USER, "Okay, keep it then.")], **kept) == [], answer
    # a change done, with other details that "stay the same", moves it
    ops = _act([("09:00", USER, "Could my taxi on Friday come earlier, at 15:45?"),
                ("09:00", "Assistant", "Done, your taxi now comes at 15:45. The car stays the same.")], **kept)
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-13T15:45"}]


def test_a_length_said_with_an_offer_holds_when_the_time_is_chosen():
    ops = _act([("09:00", USER, "Does the maritime museum run guided tours on Saturday?"),
                ("09:00", "Assistant", "Yes, on Saturday there are tours at 11 am and 2 pm. Each lasts 90 minutes."),
                ("09:01", USER, "Please book me on the 11 am tour."),
                ("09:01", "Assistant", "Please confirm: 1 place on the guided tour on Saturday at 11:00 am."),
                ("09:02", USER, "Yes, that's correct."),
                ("09:02", "Assistant", "Your place is booked. Reference number is : HMM-0412.")], **_ASSISTANT)
    assert [(op["event"]["start"], op["event"]["end"]) for op in ops] == [("2026-03-14T11:00", "2026-03-14T12:30")]
    from proevent.agents.rules.moves import Values
    # a new time keeps the length (the conventions: a moved event keeps its duration); a new length replaces it
    assert Values(clock=(11, 0), minutes=90).merged(Values(clock=(14, 0))).minutes == 90
    assert Values(clock=(11, 0), minutes=90).merged(Values(clock=(14, 0), minutes=30)).minutes == 30


# -- issue 16, seventh round: which event a plan is about (rules found on examples/handwritten_g, tuned on since) ---
EXAM = make_event("e1", start="2026-03-11T14:00", end="2026-03-11T15:00", location="Room 4",
                  participants=[USER], description="Viva exam")


def test_a_plan_after_ur_event_is_a_new_event_and_the_event_stays():
    ops = _act([("09:00", "Bob Ray", "after ur exam we celebrate? pizza at luigi's, wed 8pm?"),
                ("09:20", USER, "8:30, i need a nap first"), ("09:21", "Bob Ray", "8:30 👍")], timetable=(EXAM,))
    assert [(op["op"], op["event"]["start"], op["event"]["location"]) for op in ops] == [
        ("insert", "2026-03-11T20:30", "luigi's")]


def test_a_plan_before_an_event_is_its_own_though_it_shares_a_word_of_the_events_description():
    train = make_event("e1", start="2026-03-13T18:00", end=None, location="Leeds station",
                       participants=[USER, "Bob Ray"], description="Train from Leeds")
    ops = _act([("09:00", "Bob Ray", "fri early dinner at wasabi, by leeds station, before the train? 5?"),
                ("09:10", USER, "5 works")], timetable=(train,))
    assert [(op["op"], op["event"]["start"], op["event"]["location"]) for op in ops] == [
        ("insert", "2026-03-13T17:00", "wasabi")]


def test_a_plan_set_after_an_event_drops_the_open_change_of_that_event():
    tennis = make_event("e1", start="2026-03-14T10:00", end="2026-03-14T12:00", location="Club courts",
                        participants=[USER, "Bob Ray", "Cy Hunt"], description="Saturday tennis")
    ops = _act([("09:00", "Cy Hunt", "after tennis brunch at the deli? 12:30"), ("09:10", USER, "yes!! 🥞")],
               context=[("08:00", "Bob Ray", "saturday tennis, could we start at 11 instead?")],
               members=(USER, "Bob Ray", "Cy Hunt"), kind="group", name="tennis", timetable=(tennis,))
    assert [(op["op"], op["event"]["start"], op["event"]["location"]) for op in ops] == [
        ("insert", "2026-03-14T12:30", "the deli")]


def test_the_events_own_day_said_with_a_part_of_the_day_keeps_its_time():
    review = make_event("e1", start="2026-03-12T09:00", end="2026-03-12T11:00", location="Board room",
                        participants=[USER, "Bob Ray", "Cy Hunt"], description="Budget review")
    ops = _act([("09:00", "Cy Hunt", "heads up, the wifi in the board room may be down thursday morning"),
                ("09:05", "Bob Ray", "we'll manage"), ("09:10", USER, "ok 👍")],
               members=(USER, "Bob Ray", "Cy Hunt"), kind="group", name="finance", timetable=(review,))
    assert ops == []


def test_a_cancellation_that_names_its_event_cancels_it_though_another_plan_is_open():
    match = make_event("e1", start="2026-03-10T09:00", end=None, location="Hackney Marshes",
                       participants=[USER, "Bob Ray"], description="Bob's football match")
    ops = _act([("07:00", "Bob Ray", "its pouring, match cancelled"), ("07:05", USER, "noooo")],
               context=[("20:00", "Bob Ray", "pub tmrw after? the crown"), ("20:05", "Bob Ray", "or sunday")],
               context_day="2026-03-08", timetable=(match,), day="2026-03-10")
    assert ops == [{"op": "delete", "id": "e1"}]


def test_a_cancellation_followed_by_the_same_senders_replacement_is_a_move():
    swim = make_event("e1", start="2026-03-11T16:00", end="2026-03-11T17:00", location="Leisure centre pool",
                      participants=[USER, "Cy Hunt"], description="Swimming lesson")
    group = dict(members=(USER, "Bob Ray", "Cy Hunt"), kind="group", name="swim parents", timetable=(swim,))
    ops = _act([("17:30", "Cy Hunt", "Hello parents. Wednesday's lesson is cancelled, the pool is being cleaned."),
                ("17:31", "Cy Hunt", "Replacement lesson Saturday 10:30am, same pool, 1 hour."),
                ("17:40", USER, "thanks 👍")], **group)
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T10:30"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-14T11:30"}]
    relayed = _act([("17:30", USER, "the pool cancelled wednesday's lesson"),
                    ("17:31", USER, "they offer saturday 10:30 instead")], **group)
    assert relayed == [{"op": "delete", "id": "e1"}]  # an offer relayed is no move yet


def test_a_yes_to_the_open_change_names_it_though_a_clause_names_another_event():
    review = make_event("e1", start="2026-03-12T09:00", end="2026-03-12T11:00", location="Board room",
                        participants=[USER, "Bob Ray"], description="Budget review")
    call = make_event("e2", start="2026-03-12T14:00", end=None, location="Zoom",
                      participants=[USER, "Bob Ray"], description="Call with the supplier")
    ops = _act([("20:10", "Bob Ray", "the supplier asked to push thursday's call to 3pm, ok with you?"),
                ("20:40", USER, "3 is fine, the review is done by 11"), ("20:41", "Bob Ray", "👍 i'll tell them")],
               timetable=(review, call))
    assert ops == [{"op": "update", "id": "e2", "attribute": "start", "value": "2026-03-12T15:00"}]


# -- issue 16, seventh round: who drops out, and when a yes is too late -----------------------------------
RUN = make_event("e1", start="2026-03-15T07:00", end=None, location="the harbour",
                 participants=[USER, "Bob Ray", "Cy Hunt", "Di Moss"], description="Long run")
CLUB = dict(members=(USER, "Bob Ray", "Cy Hunt", "Di Moss"), kind="group", name="run club")


def test_a_member_who_cannot_come_on_the_day_of_their_one_event_drops_out_of_it():
    ops = _act([("20:30", "Di Moss", "i can't on sunday 😢 my cousin's christening"),
                ("20:35", "Bob Ray", "next time!")], timetable=(RUN,), **CLUB)
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray", "Cy Hunt"]}]
    ops = _act([("20:30", "Di Moss", "sunday 7 is bad for me, 8?")], timetable=(RUN,), **CLUB)
    assert ops == []  # a time refused is a counter-proposal, not a drop-out


def test_a_drop_out_that_names_an_event_leaves_it_though_a_new_plan_is_open():
    ops = _act([("08:50", "Cy Hunt", "ok not risking it with this knee, i'm out sunday 😢"),
                ("09:00", "Bob Ray", "feel better")],
               context=[("08:00", "Bob Ray", "drinks thursday?"), ("08:10", "Di Moss", "maybe")],
               timetable=(RUN,), **CLUB)
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray", "Di Moss"]}]


def test_a_bare_yes_a_day_after_the_proposal_does_not_settle_it():
    late = _act([("20:35", "Bob Ray", "ok 👍")],
                context=[("13:30", USER, "dinner friday 8?"), ("13:40", "Bob Ray", "hmm let me see")],
                context_day="2026-03-09", day="2026-03-10", timetable=())
    assert late == []
    soon = _act([("19:35", "Bob Ray", "ok 👍")],
                context=[("13:30", USER, "dinner friday 8?"), ("13:40", "Bob Ray", "hmm let me see")],
                timetable=())
    assert [(op["op"], op["event"]["start"]) for op in soon] == [("insert", "2026-03-13T20:00")]


def test_a_member_who_cannot_make_the_day_a_move_proposes_leaves_only_if_the_event_moves():
    dinner = make_event("e1", start="2026-03-12T20:00", end=None, location="Padella",
                        participants=[USER, "Bob Ray", "Cy Hunt", "Di Moss"], description="Class reunion dinner")
    chat = dict(members=(USER, "Bob Ray", "Cy Hunt", "Di Moss"), kind="group", name="class of 2016",
                timetable=(dinner,))
    opening = [("12:41", "Bob Ray", "thursdays they have live music, super loud. what if we move to friday?"),
               ("12:55", "Cy Hunt", "friday i cant, im on call till 10")]
    stays = _act([*opening, ("13:20", USER, "i can do friday, but only if cy can"),
                  ("13:24", "Bob Ray", "ok thursday stays then")], **chat)
    assert stays == []
    moves = _act([*opening, ("13:02", "Di Moss", "friday is fine"), ("13:20", USER, "fri 👍")], **chat)
    assert moves == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-13T20:00"},
                     {"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Bob Ray", "Di Moss"]}]


def test_a_business_confirmation_after_a_greeting_is_a_confirmation():
    brunch = make_event("e1", start="2026-03-15T11:00", end=None, location="Hope Street Kitchen",
                        participants=[USER, "Bob Ray"], description="Sunday brunch")
    ops = _act([("09:15", "Hope Street Kitchen", "Good morning! Confirmed ✅ Sunday 15 March, 12:30pm, party of 4."),
                ("09:22", USER, "thank you!")],
               members=(USER, "Hope Street Kitchen"), name="Hope Street Kitchen", timetable=(brunch,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-15T12:30"}]


def test_a_yes_with_an_interjection_or_a_trailing_offer_answers_the_roll_call_and_a_no_gives_its_why():
    members = (USER, "Bob Ray", "Cy Hunt", "Di Moss")
    ops = _act([("21:10", "Bob Ray", "bbq at mine saturday from 1pm, 12 elm road. bring drinks"),
                ("21:12", "Cy Hunt", "oh, in"), ("21:20", "Di Moss", "can't, lunch at my aunt's"),
                ("21:40", USER, "in! i'll bring the salad")], members=members, kind="group", name="bbq", timetable=())
    assert [(op["event"]["start"], op["event"]["location"], op["event"]["participants"]) for op in ops] == [
        ("2026-03-14T13:00", "12 elm road", [USER, "Bob Ray", "Cy Hunt"])]


def test_a_venues_opening_hours_are_not_the_events_time():
    game = make_event("e1", start="2026-03-10T20:00", end="2026-03-10T21:00", location="Arena 5",
                      participants=[USER, "Bob Ray"], description="Five-a-side")
    ops = _act([("09:05", "Bob Ray", "tomorrow the arena closes at 18h, so no 20h game"),
                ("09:06", "Bob Ray", "got us 10h in the morning instead, same court"), ("09:30", USER, "10h 👍")],
               timetable=(game,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-10T10:00"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-10T11:00"}]


def test_a_part_of_the_day_alone_does_not_pull_the_chat_off_the_event_it_discusses():
    game = make_event("e1", start="2026-03-10T20:00", end="2026-03-10T21:00", location="Arena 5",
                      participants=[USER, "Bob Ray", "Cy Hunt"], description="Five-a-side")
    run = make_event("e2", start="2026-03-14T09:00", end=None, location="the park",
                     participants=[USER, "Cy Hunt"], description="Saturday run")
    ops = _act([("09:05", "Bob Ray", "tomorrow's five-a-side: the arena closes early"),
                ("09:06", "Bob Ray", "got us 10 in the morning, same court. who's in?"), ("09:30", "Cy Hunt", "in"),
                ("09:40", USER, "fine 👍")], members=(USER, "Bob Ray", "Cy Hunt"), kind="group", name="ball",
               timetable=(game, run))
    assert [(op["id"], op["attribute"], op["value"]) for op in ops] == [
        ("e1", "start", "2026-03-10T10:00"), ("e1", "end", "2026-03-10T11:00")]


def test_a_message_that_opens_with_cant_is_a_no_whatever_day_its_reason_names():
    members = (USER, "Bob Ray", "Cy Hunt")
    ops = _act([("09:00", "Bob Ray", "padel saturday 10?"),
                ("09:10", "Cy Hunt", "can't, at the beach with family, back sunday"),
                ("09:20", USER, "10 works")], members=members, kind="group", name="padel", timetable=())
    assert [(op["event"]["start"], op["event"]["participants"]) for op in ops] == [
        ("2026-03-14T10:00", [USER, "Bob Ray"])]


def test_a_plan_of_the_senders_own_that_moved_is_a_reason_and_the_cant_after_it_a_drop_out():
    trip = make_event("e1", start="2026-03-13T09:00", end=None, location="Gran's house",
                      participants=[USER, "Bob Ray", "Cy Hunt"], description="Lunch at Gran's")
    ops = _act([("13:40", "Bob Ray", "my exam got moved to friday 2pm. i can't go to gran's"),
                ("13:52", USER, "ugh ok, we'll bring you cake")], timetable=(trip,),
               members=(USER, "Bob Ray", "Cy Hunt"), kind="group", name="family")
    assert ops == [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Cy Hunt"]}]


def test_an_early_bare_hour_for_a_morning_event_stays_in_the_morning():
    hike = make_event("e1", start="2026-03-14T07:00", end=None, location="the station",
                      participants=[USER, "Bob Ray"], description="Hike")
    ops = _act([("20:30", "Bob Ray", "saturday's hike: can we meet at 6:30 instead? sunrise is early"),
                ("20:40", USER, "6:30 👍")], timetable=(hike,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T06:30"}]


def test_a_yes_answers_the_event_asked_about_though_it_names_another():
    hike = make_event("e1", start="2026-03-14T07:00", end="2026-03-14T19:00", location="the station",
                      participants=[USER, "Bob Ray"], description="Hike")
    yoga = make_event("e2", start="2026-03-15T10:00", end=None, location="Yoga loft",
                      participants=[USER, "Bob Ray"], description="Sunday yoga")
    ops = _act([("10:20", "Bob Ray", "sunday yoga still on? 10?"),
                ("10:45", USER, "yes but i'll be dead after the hike"),
                ("10:46", "Bob Ray", "move it to 11 then? so you can sleep"), ("10:50", USER, "11 👍")],
               timetable=(hike, yoga))
    assert ops == [{"op": "update", "id": "e2", "attribute": "start", "value": "2026-03-15T11:00"}]


def test_when_a_venue_closes_is_not_a_time_for_the_event():
    study = make_event("e1", start="2026-03-11T14:00", end="2026-03-11T16:00", location="Library room 5",
                       participants=[USER, "Bob Ray"], description="Study group")
    ops = _act([("09:13", "Bob Ray", "could we start wednesday's later? like 5"),
                ("09:31", "Bob Ray", "and doesn't the library close at 8?"), ("09:40", USER, "👍")],
               timetable=(study,))
    assert ops == [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-11T17:00"},
                   {"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-11T19:00"}]


def test_a_new_plans_bare_hour_takes_its_activitys_hours_not_another_events():
    pickup = make_event("e1", start="2026-03-09T09:00", end=None, location="the airport",
                        participants=[USER, "Bob Ray"], description="Pick Bob up at the airport")
    ops = _act([("18:31", "Bob Ray", "tmrw can we do dinner, just us?"),
                ("18:45", USER, "i'm at work till 6 tmrw. 7:30?"), ("18:50", "Bob Ray", "yesss")], timetable=(pickup,),
               day="2026-03-09")
    assert [(op["op"], op["event"]["start"]) for op in ops] == [("insert", "2026-03-10T19:30")]


@pytest.mark.parametrize(("text", "place"), [
    ("tomorrow i'll drive, we go to terra straight from mum's", "terra"),
    ("lunch tmrw? im stuck in a workshop till 1, at quarter past?", None),
])
def test_straight_ends_a_place_and_quarter_past_is_none(text, place):
    ops = _act([("12:05", "Bob Ray", text), ("12:06", USER, "👍")], timetable=())
    assert [op["event"]["location"] for op in ops] == [place]
