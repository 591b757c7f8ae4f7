"""Observations, the registry and the baselines."""

from __future__ import annotations

import asyncio

import pytest
from typer.testing import CliRunner

from fixtures import load_tiny
from proevent.agents import AGENTS, agent_names, build_observation, create_agent
from proevent.cli import app
from proevent.model import Timetable


def test_observation_of_a_step_groups_new_messages_by_chat_with_k_earlier_ones():
    case = load_tiny().case("tiny-01")
    obs = build_observation(case, 2, Timetable(case.steps[0].gold_timetable), mode="single", context_messages=2)
    assert obs.now == case.steps[1].end and obs.user == "Jerry Chen"
    assert [u.chat.chat_id for u in obs.chats] == ["c1"]  # only the chat with news in step 2
    (upd,) = obs.chats
    assert [m.text for m in upd.new] == [m.text for m in case.steps[1].messages]
    # step 1 had three c1 messages; K=2 keeps the last two, in order
    c1_before = [m for m in case.steps[0].messages if m.chat_id == "c1"]
    assert upd.context == c1_before[-2:]
    assert [e.id for e in obs.timetable] == ["e1", "e2", "e3"]
    none = build_observation(case, 2, Timetable(), mode="multi", context_messages=0)
    assert none.chats[0].context == [] and len(none.timetable) == 0


def test_step_without_messages_has_no_chats():
    case = load_tiny().case("tiny-01")
    obs = build_observation(case, 3, Timetable(), mode="single")
    assert obs.chats == [] and obs.new_messages == []


def test_registry_is_the_one_list_and_cli_lists_it():
    assert agent_names() == ["null", "oracle", "rules", "plain", "proactive", "procot", "tools", "gated"]
    result = CliRunner().invoke(app, ["agents"])
    assert result.exit_code == 0
    for name in AGENTS:
        assert name in result.output
    with pytest.raises(ValueError, match="unknown agent 'nope'; known agents: null, oracle"):
        create_agent("nope")


def test_null_and_oracle_answers():
    ds = load_tiny()
    case = ds.case("tiny-02")
    obs = build_observation(case, 1, Timetable(case.initial_timetable), mode="single")
    assert asyncio.run(create_agent("null").act(obs)).ops == []
    oracle = asyncio.run(create_agent("oracle", dataset=ds).act(obs))
    assert oracle.ops == [op.model_dump(mode="json") for op in case.steps[0].gold_ops]
