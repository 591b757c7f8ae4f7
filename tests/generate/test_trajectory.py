from __future__ import annotations

import random
from datetime import date

import pytest

from proevent.generate import GeneratorConfig
from proevent.generate.contacts import contact_pool
from proevent.generate.trajectory import build_trajectory

DAY0 = date(2026, 3, 2)  # a Monday


def profile(pid: str):
    return next(p for p in contact_pool().profiles if p.id == pid)


def cfg(**kw) -> GeneratorConfig:
    base = {"turns": {"min": 1, "max": 1, "success_rate": 1.0}, "endings": {"keep": 1}}
    base.update(kw)
    return GeneratorConfig.model_validate(base)


def test_a_successful_location_change():
    c = cfg(atomic_ops={"simple_modification": 1}, attributes={"location": 1})
    t = build_trajectory(random.Random(0), c, profile("dining/dinner"), "Jerry Chen", DAY0)
    assert t.pattern == "P>SM:location+"
    first, last = t.turns[0].state, t.turns[-1].state
    assert first is not None and last is not None and first.location != last.location
    assert last.location in profile("dining/dinner").places
    assert (first.start, first.end, first.participants) == (last.start, last.end, last.participants)
    assert t.atomic_ops == ["simple_modification"] and t.negotiation_turns == 1


def test_a_rejected_proposal_changes_nothing():
    c = cfg(atomic_ops={"simple_modification": 1}, attributes={"time": 1},
            turns={"min": 2, "max": 2, "success_rate": 0.0})
    t = build_trajectory(random.Random(1), c, profile("work/one_on_one"), "Jerry Chen", DAY0)
    assert t.pattern == "P>SM:time->SM:time-"
    assert t.turns[0].state == t.turns[1].state == t.turns[2].state


def test_detail_removal_makes_the_event_tentative():
    c = cfg(atomic_ops={"detail_removal": 1}, attributes={"time": 1})
    for seed in range(20):
        t = build_trajectory(random.Random(seed), c, profile("sports/tennis"), "Jerry Chen", DAY0)
        if t.turns[0].intent == "propose" and t.turns[-1].kind == "modify":
            st = t.turns[-1].state
            assert st is not None and len(st.start) == 10 and st.end is None
            return
    pytest.fail("no detail removal drawn")


def test_failed_planning_never_has_a_state():
    t = build_trajectory(random.Random(2), cfg(endings={"fail": 1}), profile("ent/movie"), "Jerry Chen", DAY0)
    assert all(turn.state is None for turn in t.turns)
    assert t.pattern.endswith("FAIL") and t.turns[0].success is False


def test_dropout_needs_a_group():
    direct = build_trajectory(random.Random(3), cfg(endings={"dropout": 1}), profile("dining/dinner"), "J K", DAY0)
    assert direct.turns[-1].intent in ("cancel", "cancel_implicit") and direct.turns[-1].state is None
    group = build_trajectory(random.Random(3), cfg(endings={"dropout": 1}), profile("sports/hiking"), "J K", DAY0)
    assert group.turns[-1].intent == "user_dropout" and group.pattern.endswith("DROP")
    assert len(group.members) >= 4 and group.members[0] == "J K"


def test_linking_puts_the_referenced_event_in_the_timetable():
    c = cfg(atomic_ops={"timetable_linking": 1}, attributes={"location": 1})
    t = build_trajectory(random.Random(4), c, profile("dining/brunch"), "Jerry Chen", DAY0)
    assert len(t.refs) == 1 and t.refs[0].historical
    ref = t.refs[0].state
    assert ref.start < "2026-03-02" and t.turns[-1].state.location == ref.location
    c = cfg(atomic_ops={"timetable_linking": 1}, attributes={"time": 1})
    t = build_trajectory(random.Random(4), c, profile("dining/brunch"), "Jerry Chen", DAY0)
    ref = t.refs[0].state
    assert not t.refs[0].historical and t.turns[-1].state.start == ref.end and t.turns[-1].by == "USER"


def test_events_lie_after_the_chat_and_on_the_profiles_days():
    c = GeneratorConfig()
    for seed in range(40):
        t = build_trajectory(random.Random(seed), c, profile("dining/brunch"), "Jerry Chen", DAY0)
        for turn in t.turns:
            if turn.state and turn.state.start:
                d = date.fromisoformat(turn.state.start[:10])
                assert (d - DAY0).days > t.horizon_days


def test_content_files_are_consistent():
    """Small talk never names a day or a time (it would be a distractor tied to no date)."""
    from datetime import datetime

    from proevent.generate.contacts import noise_content, templates
    from proevent.timeexpr import date_mentions, time_mentions

    nc = noise_content()
    ref = datetime(2026, 3, 2, 12)
    for line in [*nc.interjections["casual"], *nc.interjections["formal"], *(t for tp in nc.topics for t in tp)]:
        days = [d for d in date_mentions(line, ref) if d != {ref.date()}]
        assert not days and not time_mentions(line), line
    assert templates().formal.keys() >= templates().required.keys()
    assert len(contact_pool().profiles) == 56
    assert all(len(v) == 8 for v in contact_pool().subcategories().values())


@pytest.mark.parametrize("pid", ["dining/brunch", "sports/hiking", "work/project"])
def test_a_plan_that_fails_has_no_one_joining_or_leaving(pid):
    # "oh im free now, in" reads as a yes to the plan whatever becomes of it: a group plan that
    # fails draws its turns from the other modifications
    c = cfg(endings={"fail": 1}, attributes={"participants": 1}, turns={"min": 3, "max": 3, "success_rate": 1.0})
    intents = [turn.intent for seed in range(30)
               for turn in build_trajectory(random.Random(seed), c, profile(pid), "Jerry Chen", DAY0).turns]
    assert intents and not {"join", "self_dropout", "remove_person"} & set(intents)
    assert intents.count("abandon") == 30
