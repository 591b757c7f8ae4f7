"""The step detector ``gated`` uses (agents/rules/detect.py), on hand-written steps: it reads with
the ``rules`` agent's kept state, so a "yes" needs the model only when it answers something."""

from __future__ import annotations

from proevent.agents.protocol import ChatUpdate, Observation
from proevent.agents.rules.detect import StepDetector
from proevent.model import Chat, Message, Timetable, make_event

USER = "Ann Lee"
DINNER = make_event("e1", start="2026-03-12T19:30", end=None, location="Dishoom",
                    participants=[USER, "Bob Ray"], description="Dinner with Bob")


def _obs(context, new, t):
    chat = Chat(chat_id="c1", name="Bob", type="direct", members=[USER, "Bob Ray"])
    msgs = lambda lines: [Message(chat_id="c1", time=f"2026-03-09T{hm}", sender=who, text=text)  # noqa: E731
                          for hm, who, text in lines]
    return Observation(case_id="x", t=t, mode="single", repeat=0, user=USER, now="2026-03-09T20:00",
                       window_start="2026-03-09T08:00", timetable=Timetable([DINNER]),
                       chats=[ChatUpdate(chat=chat, context=msgs(context), new=msgs(new))])


STEP1 = [("09:00", "Bob Ray", "did you see the match last night"), ("09:02", USER, "yes! unreal")]
STEP2 = [("10:00", "Bob Ray", "thursday, could we do 8 instead?")]
STEP3 = [("10:05", USER, "sure")]


def test_small_talk_is_skipped_a_proposal_is_sent_with_its_answer():
    detect = StepDetector()
    assert detect(_obs([], STEP1, 1)) is False  # a "yes" to nothing
    assert detect(_obs(STEP1, STEP2, 2)) is False  # a change asked, not answered yet: nothing settles
    assert detect(_obs(STEP1 + STEP2, STEP3, 3)) is True  # the yes settles it
    assert detect.agent.replays == 0  # each step read only its new messages
    assert StepDetector()(_obs(STEP1, STEP2 + [("10:20", USER, "hmm 8 is late, 7:45?")], 2)) is True  # answered


def test_a_plan_the_user_states_is_sent_unanswered():
    assert StepDetector()(_obs([], [("09:00", USER, "ill pick up the cake at bauer's sunday morning")], 1)) is True


def test_a_day_in_passing_is_skipped_and_a_step_read_out_of_order_is_replayed():
    detect = StepDetector()
    assert detect(_obs([], [("09:00", "Bob Ray", "forecast says rain on saturday, bring a coat"),
                            ("09:01", USER, "👍")], 1)) is False
    assert detect(_obs(STEP1 + STEP2, STEP3, 3)) is True  # no kept state ends there: the context is read
    assert detect.agent.replays == 1


def test_a_join_asked_is_sent_though_only_the_organiser_answers_it():
    chat = Chat(chat_id="c1", name="hike", type="group", members=[USER, "Bob Ray", "Cy Hunt"])
    hike = make_event("e1", start="2026-03-14T06:00", end=None, location="the trailhead",
                      participants=[USER, "Bob Ray"], description="Ajusco hike")
    msgs = [Message(chat_id="c1", time=f"2026-03-09T{hm}", sender=who, text=text) for hm, who, text in [
        ("09:00", "Cy Hunt", "is there space in the van? I haven't hiked in ages"),
        ("09:05", "Bob Ray", "claro, one seat left, it's yours")]]
    obs = Observation(case_id="x", t=1, mode="single", repeat=0, user=USER, now="2026-03-09T20:00",
                      window_start="2026-03-09T08:00", timetable=Timetable([hike]),
                      chats=[ChatUpdate(chat=chat, context=[], new=msgs)])
    assert StepDetector()(obs) is True


def test_a_change_asked_or_stated_is_sent_though_its_new_values_are_not_read():
    asked = [("09:00", "Bob Ray", "dishoom is closed thursday, private function 😑 what about Kin? same time"),
             ("09:05", USER, "kin works 😋")]
    assert StepDetector()(_obs([], asked, 1)) is True
    stated = [("09:00", "Bob Ray", "thursday's dinner moves to the office canteen, same 7:30. dishoom rebooked"),
              ("09:05", USER, "noted 👍")]
    assert StepDetector()(_obs([], stated, 1)) is True
