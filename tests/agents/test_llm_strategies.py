"""The LLM strategies end to end against the scripted server (real HTTP)."""

from __future__ import annotations

import json

import pytest

from fixtures import load_tiny
from proevent.agents import build_observation, create_agent
from proevent.agents.llm.prompts import prompt_record
from proevent.llm import LLMClient, LLMConfig
from proevent.model import Timetable
from support.scripted_server import Reply

DELETE_E1 = json.dumps({"ops": [{"op": "delete", "id": "e1"}]})


def client_for(server, **kw) -> LLMClient:
    return LLMClient(LLMConfig(model="scripted", base_urls=[server.base_url], cache=False, backoff_s=0.01, **kw))


def obs_of(case_id="tiny-01", t=1, repeat=0):
    case = load_tiny().case(case_id)
    before = case.initial_timetable if t == 1 else case.steps[t - 2].gold_timetable
    return build_observation(case, t, Timetable(before), mode="single", repeat=repeat)


@pytest.mark.parametrize("strategy", ["plain", "proactive", "procot", "tools", "gated"])
async def test_each_strategy_prompt_holds_timetable_and_messages(scripted_server, strategy):
    obs = obs_of()
    async with client_for(scripted_server) as client:
        agent = create_agent(strategy, client=client)
        scripted_server.script(Reply(content=None, tool_calls=[("submit_operations", {
            "attendance_check": "Jerry agreed to both", "ops": []})]) if strategy == "tools"
            else Reply(content='{"ops": []}'))
        action = await agent.act(obs)
    assert action.error is None and action.ops == []
    (req,) = scripted_server.requests
    text = "\n".join(m["content"] for m in req["messages"])
    for ev in obs.timetable:  # the timetable, one line per event (v2)
        assert f"\n{ev.id} | " in text and ev.location in text
    assert "Smile Dental" in text
    for msg in obs.new_messages:  # every new message, with its time and sender (first name, v2)
        assert f"{msg.time[11:16]} {msg.sender.split()[0]}: {msg.text}" in text
    assert "Jerry Chen" in req["messages"][0]["content"]
    record = agent.describe()["prompt"]
    assert record == prompt_record("procot" if strategy == "gated" else strategy)


async def test_strategies_differ_in_instructions(scripted_server):
    texts = {s: prompt_record(s)["text"] for s in ("plain", "proactive", "procot", "tools")}
    assert len({t for t in texts.values()}) == 4
    assert "proactive" in texts["proactive"].lower() and "needs_action" in texts["procot"]
    assert "is ${user} attending" in texts["tools"]


async def test_malformed_answer_gets_one_repair_request(scripted_server):
    scripted_server.script(Reply(content="I think the dentist is off"), Reply(content=f"```json\n{DELETE_E1}\n```"))
    async with client_for(scripted_server) as client:
        action = await create_agent("plain", client=client).act(obs_of())
    assert action.ops == [{"op": "delete", "id": "e1"}] and action.error is None
    assert action.extra["requests"] == 2 and action.extra["repaired"] is True
    repair = scripted_server.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": "I think the dentist is off"}
    assert "no JSON found" in repair[-1]["content"]
    assert "I think the dentist is off" in action.raw and "delete" in action.raw


async def test_still_malformed_after_repair_is_an_error_with_raw_text(scripted_server):
    scripted_server.script(Reply(content="no idea"), Reply(content='{"ops": [oops]}'))
    async with client_for(scripted_server) as client:
        action = await create_agent("procot", client=client).act(obs_of())
    assert action.ops == [] and action.error.startswith("unparseable answer after a repair request")
    assert "no idea" in action.raw and "oops" in action.raw


async def test_invalid_ops_are_repaired_else_kept_as_predictions(scripted_server):
    bad = json.dumps({"ops": [{"op": "delete", "id": "e9"}]})
    scripted_server.script(Reply(content=bad), Reply(content=bad))
    async with client_for(scripted_server) as client:
        action = await create_agent("plain", client=client).act(obs_of())
    assert "unknown id 'e9'" in scripted_server.requests[1]["messages"][-1]["content"]
    assert action.ops == [{"op": "delete", "id": "e9"}] and action.error is None  # invalid, still a prediction


async def test_think_block_is_kept_in_raw_not_parsed(scripted_server):
    scripted_server.script(Reply(content='<think>{"ops": [{"op": "delete", "id": "e1"}]}? no.</think>{"ops": []}'))
    async with client_for(scripted_server) as client:
        action = await create_agent("plain", client=client).act(obs_of())
    assert action.ops == [] and "<think>" in action.raw


async def test_request_failure_is_an_errored_action(scripted_server):
    scripted_server.script(Reply(status=500), Reply(status=500))
    async with client_for(scripted_server, max_retries=1) as client:
        action = await create_agent("plain", client=client).act(obs_of())
    assert action.ops == [] and action.error.startswith("request failed: request failed after 2 attempts")


async def test_tools_loop_runs_calendar_tools_then_submits(scripted_server):
    scripted_server.script(
        Reply(content=None, tool_calls=[("resolve_date", {"expression": "saturday", "said_at": "2026-03-09T08:05"}),
                                        ("weekday", {"date": "2026-03-12"})]),
        Reply(content=None, tool_calls=[("find_events", {"query": "dental"}),
                                        ("add_duration", {"time": "2026-03-12T12:30", "hours": 1})]),
        Reply(content=None, tool_calls=[("submit_operations", {"attendance_check": "Jerry said yes",
                                                               "ops": [{"op": "delete", "id": "e1"}]})]),
    )
    async with client_for(scripted_server) as client:
        action = await create_agent("tools", client=client).act(obs_of())
    assert action.ops == [{"op": "delete", "id": "e1"}]
    assert action.extra["tool_calls"] == ["resolve_date", "weekday", "find_events", "add_duration",
                                          "submit_operations"]
    assert action.extra["attendance_check"] == "Jerry said yes"
    second = scripted_server.requests[1]["messages"]
    results = [json.loads(m["content"]) for m in second if m["role"] == "tool"]
    assert results == [{"date": "2026-03-14", "weekday": "Saturday"}, {"date": "2026-03-12", "weekday": "Thursday"}]
    third = scripted_server.requests[2]["messages"]
    results = [json.loads(m["content"]) for m in third if m["role"] == "tool"][2:]
    assert results[0]["events"][0]["id"] == "e1" and results[1] == {"time": "2026-03-12T13:30"}
    assert scripted_server.requests[0]["tools"][0]["function"]["name"] == "weekday"


async def test_tools_falls_back_to_text_when_the_server_has_no_tools(scripted_server):
    scripted_server.script(Reply(status=400, raw_body=b'{"error": {"message": "tool use is not supported"}}'),
                           Reply(content=DELETE_E1), Reply(content='{"ops": []}'))
    async with client_for(scripted_server) as client:
        agent = create_agent("tools", client=client)
        first = await agent.act(obs_of())
        second = await agent.act(obs_of(t=2))
    assert first.ops == [{"op": "delete", "id": "e1"}] and first.extra["tools_fallback"] is True
    assert second.extra["tools_fallback"] is True
    assert "tools" not in scripted_server.requests[2]  # not asked again


@pytest.mark.parametrize("strategy", ["plain", "proactive", "procot", "tools"])
async def test_a_step_without_messages_is_answered_without_a_request(scripted_server, strategy):
    case = load_tiny().case("tiny-01")  # step 3 has no message and no gold operation
    quiet = build_observation(case, 3, Timetable(case.steps[1].gold_timetable), mode="single")
    assert quiet.chats == [] and case.steps[2].gold_ops == []
    async with client_for(scripted_server) as client:
        skipped = await create_agent(strategy, client=client).act(quiet)
        assert (skipped.ops, skipped.prompt_tokens, skipped.cost_usd) == ([], 0, None)
        assert skipped.extra == {"requests": 0, "skipped": "no new messages"}
        assert scripted_server.requests == []
        asking = create_agent(strategy, client=client, skip_quiet=False)
        assert asking.describe()["skip_quiet"] is False
        scripted_server.script(Reply(content=DELETE_E1))
        asked = await asking.act(quiet)  # a model that over-reacts: a false detection
    (request,) = scripted_server.requests
    assert "(no new messages)" in request["messages"][1]["content"]
    assert asked.ops == [{"op": "delete", "id": "e1"}]


async def test_gated_skips_steps_without_scheduling_content(scripted_server):
    case = load_tiny().case("tiny-01")
    quiet = build_observation(case, 3, Timetable(case.steps[1].gold_timetable), mode="single")
    async with client_for(scripted_server) as client:
        agent = create_agent("gated", client=client, inner="plain")
        skipped = await agent.act(quiet)
        assert skipped.ops == [] and skipped.extra == {"gate": "skipped"}
        assert scripted_server.requests == []
        scripted_server.script(Reply(content=DELETE_E1))
        asked = await agent.act(obs_of())
    assert asked.extra["gate"] == "model" and len(scripted_server.requests) == 1
    with pytest.raises(ValueError, match="inner must be one of"):
        create_agent("gated", client=None, inner="gated")


async def test_prompt_version_v1_is_still_selectable(scripted_server):
    obs = obs_of()
    scripted_server.script(Reply(content='{"ops": []}'))
    async with client_for(scripted_server) as client:
        agent = create_agent("plain", client=client, prompt_version="v1")
        await agent.act(obs)
    text = "\n".join(m["content"] for m in scripted_server.requests[0]["messages"])
    assert '"id": "e1"' in text and "Smile Dental" in text  # v1: one JSON object per event
    for msg in obs.new_messages:
        assert f"{msg.sender}: {msg.text}" in text
    assert agent.describe()["prompt"]["version"] == "v1"


def test_unknown_prompt_version_is_refused():
    with pytest.raises(ValueError, match="unknown prompt version 'v9'"):
        prompt_record("plain", "v9")
