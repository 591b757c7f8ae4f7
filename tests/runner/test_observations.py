"""What the runner shows an agent: the K earlier messages of each chat with news (read backwards,
the same as every earlier step's messages filtered and cut), and no chats for an agent that reads none."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from fixtures import load_tiny
from proevent.agents.protocol import Action, Observation, build_observation
from proevent.model import Timetable
from proevent.runner.core import run_single


@pytest.mark.parametrize("k", [0, 1, 2, 3, 20])
def test_context_is_each_chats_last_k_earlier_messages(k):
    for case in load_tiny().cases:
        for step in case.steps:
            obs = build_observation(case, step.t, Timetable(), mode="single", context_messages=k)
            for update in obs.chats:
                earlier = [m for s in case.steps[: step.t - 1] for m in s.messages if m.chat_id == update.chat.chat_id]
                assert update.context == (earlier[-k:] if k else [])


def test_without_chats_the_observation_is_the_same_but_its_chats():
    case = load_tiny().case("tiny-01")
    full = build_observation(case, 2, Timetable(case.steps[0].gold_timetable), mode="multi", repeat=1)
    bare = build_observation(case, 2, Timetable(case.steps[0].gold_timetable), mode="multi", repeat=1,
                             with_chats=False)
    assert full.chats and bare.chats == []
    assert dataclasses.replace(full, chats=[]) == bare


class _Recorder:
    name = "recorder"

    def __init__(self, reads_chats: bool) -> None:
        self.reads_chats = reads_chats
        self.seen: list[Observation] = []

    async def act(self, obs: Observation) -> Action:
        self.seen.append(obs)
        return Action(ops=[])

    def describe(self) -> dict:
        return {}


def test_an_agent_that_reads_no_chats_is_given_none():
    case = load_tiny().case("tiny-01")
    for reads in (True, False):
        agent = _Recorder(reads)
        asyncio.run(run_single(agent, case, 2, repeat=0, context_messages=20))
        (obs,) = agent.seen
        assert bool(obs.chats) is reads
