"""Observations and prompts read from a case's index (:class:`proevent.agents.protocol.CaseIndex`,
the rendered lines of :mod:`proevent.agents.llm.prompts`) equal the ones built step by step from
the case: on the packaged datasets, on random cases (senders who are no members, chats the case
does not list, quiet steps, several days), at random steps in random order, with the cache
evicting, and after an update is changed or copied."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import OrderedDict
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import proevent.agents.llm.prompts as prompts
import proevent.agents.protocol as protocol
from fixtures import EXAMPLES
from proevent.agents.llm.prompts import (
    PROMPT_VERSIONS,
    STRATEGY_TEMPLATES,
    build_messages,
    render_chats_v2,
    render_chats_v2_plain,
    render_timetable_v2,
    render_timetable_v2_plain,
)
from proevent.agents.protocol import build_observation, plain_observation, span_of
from proevent.io import load_dataset
from proevent.model import Case, Chat, Event, Message, Step, Timetable, make_event

KS = (0, 1, 2, 3, 5, 20)


@cache
def _packaged() -> list[Case]:
    return [c for name in ("tiny", "handwritten") for c in load_dataset(EXAMPLES / name).cases]


def _reference_messages(strategy: str, obs: protocol.Observation, version: str, update: bool,
                        monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """The prompt with every line rendered afresh: the chats of an observation without an index,
    the timetable without the events' lines kept."""
    with monkeypatch.context() as m:
        m.setattr(prompts, "render_timetable_v2", render_timetable_v2_plain)
        plain = dataclasses.replace(obs, chats=[dataclasses.replace(u) for u in obs.chats])  # no index: no span
        assert all(span_of(u) is None for u in plain.chats)
        return build_messages(strategy, plain, version, update)


def _timetable_before(case: Case, t: int) -> Timetable:
    return Timetable(case.timetable_before(t))


def test_every_step_of_the_packaged_datasets_is_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    for case in _packaged():
        for step in case.steps:
            for k in KS:
                for mode in ("single", "multi"):
                    timetable = _timetable_before(case, step.t)
                    fast = build_observation(case, step.t, timetable, mode=mode, context_messages=k)
                    assert fast == plain_observation(case, step.t, timetable, mode=mode, context_messages=k)
                    assert render_chats_v2(fast) == render_chats_v2_plain(fast)
                    assert render_timetable_v2(timetable, step.start) == \
                        render_timetable_v2_plain(timetable, step.start)
            timetable = _timetable_before(case, step.t)
            obs = build_observation(case, step.t, timetable, mode="single")
            for strategy in STRATEGY_TEMPLATES:
                for version in PROMPT_VERSIONS:
                    for update in (False, True):
                        assert build_messages(strategy, obs, version, update) == \
                            _reference_messages(strategy, obs, version, update, monkeypatch)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([1, 2, 4, 512]))
def test_random_steps_of_the_packaged_datasets_in_random_order(seed: int, size: int) -> None:
    rng = random.Random(seed)
    cases = _packaged()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(protocol, "_INDEX_SIZE", size)  # a small cache evicts between the steps of a case
        m.setattr(protocol, "_indexes", OrderedDict())
        for _ in range(40):
            case = rng.choice(cases)
            step = rng.choice(case.steps)
            k, mode, repeat = rng.choice(KS), rng.choice(["single", "multi"]), rng.randrange(3)
            timetable = _random_timetable(rng, case, step.t)
            fast = build_observation(case, step.t, timetable, mode=mode, repeat=repeat, context_messages=k)
            assert fast == plain_observation(case, step.t, timetable, mode=mode, repeat=repeat, context_messages=k)
            assert render_chats_v2(fast) == render_chats_v2_plain(fast)
            assert render_timetable_v2(timetable, step.start) == render_timetable_v2_plain(timetable, step.start)
            assert len(protocol._indexes) <= size


def _random_timetable(rng: random.Random, case: Case, t: int) -> Timetable:
    """Gold events of the case (shared objects, whose lines are kept) and new ones (an agent's own)."""
    events = [ev for ev in case.timetable_before(rng.randint(1, len(case.steps) + 1)) if rng.random() < 0.7]
    for n in range(rng.randrange(3)):
        day = f"2026-03-{rng.randint(1, 28):02d}"
        start = rng.choice([None, day, f"{day}T{rng.randint(0, 23):02d}:{rng.choice(['00', '30'])}"])
        end = rng.choice([None, day, f"{day}T23:59", "2026-04-02T10:00"]) if start else "2026-03-05T10:00"
        events.append(make_event(f"e{100 + n}", start=start, end=end, location=rng.choice([None, "Cafe"]),
                                 participants=rng.sample(["Ann Lee", "Bob", "Dr. Cho"], rng.randrange(3)),
                                 description=rng.choice([None, "Lunch", "x | y"])))
    return Timetable(events)


NAMES = ["Ann Lee", "Ann Ray", "Bob", "Dr. Cho", "Dr Cho Min", "Eve", "Ann Lee"]


@st.composite
def cases(draw: st.DrawFn) -> Case:
    """A case of random chats and steps: members named alike (aliases), senders outside the chat,
    messages in a chat the case does not list, quiet steps, and steps spanning several days."""
    chats = [Chat(chat_id=f"c{i}", name=f"chat {i}", type=draw(st.sampled_from(["direct", "group"])),
                  members=draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4)))
             for i in range(draw(st.integers(1, 3)))]
    chat_ids = [c.chat_id for c in chats] + ["unlisted"]
    steps, day = [], 1
    for t in range(1, draw(st.integers(1, 6)) + 1):
        messages = []
        for _ in range(draw(st.integers(0, 6))):
            day += draw(st.sampled_from([0, 0, 0, 1]))
            chat_id = draw(st.sampled_from(chat_ids))
            members = next((c.members for c in chats if c.chat_id == chat_id), NAMES)
            outsider = draw(st.integers(0, 9)) == 0  # one message in ten from someone outside the chat
            messages.append(Message(chat_id=chat_id, time=f"2026-03-{day:02d}T0{t}:00",
                                    sender=draw(st.sampled_from([*NAMES, "Stranger Danger"] if outsider else members)),
                                    text=draw(st.sampled_from(["hi", "see you 3pm", "", "a\nb", "$x ${y}"]))))
        steps.append(Step(t=t, start=f"2026-03-{day:02d}T00:00", end=f"2026-03-{day:02d}T23:00", messages=messages,
                          gold_ops=[], gold_timetable=[]))
    return Case(case_id="random", user="Ann Lee", start="2026-03-01T00:00", initial_timetable=[], chats=chats,
                steps=steps)


@settings(max_examples=150, deadline=None)
@given(case=cases(), k=st.sampled_from(KS), order=st.randoms(use_true_random=False))
def test_random_cases_at_every_step_in_any_order(case: Case, k: int, order: random.Random) -> None:
    steps = [s.t for s in case.steps] * 2  # each step twice: the second reads the kept blocks
    order.shuffle(steps)
    for t in steps:
        fast = build_observation(case, t, Timetable(), mode="single", context_messages=k)
        assert fast == plain_observation(case, t, Timetable(), mode="single", context_messages=k)
        assert render_chats_v2(fast) == render_chats_v2_plain(fast)


def test_an_update_changed_or_copied_is_rendered_as_it_now_is() -> None:
    case = load_dataset(EXAMPLES / "tiny").case("tiny-01")
    obs = build_observation(case, 2, Timetable(), mode="single", context_messages=2)
    (update,) = obs.chats
    assert span_of(update) is not None
    update.new.append(Message(chat_id="c1", time="2026-03-20T10:00", sender="Someone Else", text="late news"))
    assert span_of(update) is None  # it no longer holds what it was built with: rendered afresh
    assert render_chats_v2(obs) == render_chats_v2_plain(obs) and "late news" in render_chats_v2(obs)
    fresh = build_observation(case, 2, Timetable(), mode="single", context_messages=2)
    for other in (copy.copy(fresh), copy.deepcopy(fresh), dataclasses.replace(fresh)):
        assert other == fresh and render_chats_v2(other) == render_chats_v2(fresh)
    del update.context[0]
    assert span_of(update) is None


def test_the_index_is_kept_for_few_cases_and_follows_a_case_replaced() -> None:
    generated = [c.model_copy(update={"case_id": f"{c.case_id}-{i}"}) for i in range(13) for c in _packaged()]
    for case in generated:
        build_observation(case, 1, Timetable(), mode="single")
    assert len(generated) > protocol._INDEX_SIZE >= len(protocol._indexes)
    case = _packaged()[0]
    before = build_observation(case, 1, Timetable(), mode="single")
    other = case.model_copy(update={"steps": case.steps[:1]})  # a new case object: its own index
    assert build_observation(other, 1, Timetable(), mode="single") == before


def test_event_lines_are_kept_by_identity_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prompts, "_EVENT_LINES_SIZE", 3)
    events: list[Event] = [make_event(f"e{i}", start=f"2026-03-0{i}T10:00", end=None, location=None, participants=[],
                                      description=str(i)) for i in range(1, 8)]
    for start in ("2026-03-01T00:00", "2026-03-04T10:00", "2026-03-09T00:00"):
        assert render_timetable_v2(Timetable(events), start) == render_timetable_v2_plain(Timetable(events), start)
        assert len(prompts._EVENT_LINES) <= 3
