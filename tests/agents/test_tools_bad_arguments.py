"""A bad tool argument goes back to the model as the tool's answer; it never ends the question
(issue 12, finding 9: ``days=10**12``, arguments sent as an object instead of a JSON string)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures import load_tiny
from proevent.agents import build_observation, create_agent
from proevent.agents.llm.tools import TOOL_ARGS, run_tool
from proevent.agents.llm.tools_agent import call_arguments
from proevent.llm import LLMClient, LLMConfig, ToolCall
from proevent.model import Timetable
from support.scripted_server import Reply

SUBMIT = Reply(content=None, tool_calls=[("submit_operations", {"attendance_check": "Jerry said yes",
                                                               "ops": [{"op": "delete", "id": "e1"}]})])
OUTSIDE = {"error": "add_duration: the result lies outside the calendar (years 1 to 9999)"}


def _client(server) -> LLMClient:
    return LLMClient(LLMConfig(model="scripted", base_urls=[server.base_url], cache=False, backoff_s=0.01))


def _obs():
    case = load_tiny().case("tiny-01")
    return build_observation(case, 1, Timetable(case.initial_timetable), mode="single", repeat=0)


def _tool_answers(request: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(m["content"]) for m in request["messages"] if m["role"] == "tool"]


def test_days_ten_to_the_twelfth_is_an_answer_not_a_crash() -> None:
    assert run_tool("add_duration", {"time": "2026-03-12T12:30", "days": 10**12}, _obs()) == OUTSIDE
    assert run_tool("add_duration", {"time": "9999-12-31T23:00", "hours": 2}, _obs()) == OUTSIDE


async def test_the_model_reads_the_error_and_goes_on(scripted_server) -> None:
    scripted_server.script(
        Reply(content=None, tool_calls=[("add_duration", {"time": "2026-03-12T12:30", "days": 10**12})]),
        SUBMIT,
    )
    async with _client(scripted_server) as client:
        action = await create_agent("tools", client=client).act(_obs())
    assert action.error is None and action.ops == [{"op": "delete", "id": "e1"}]
    assert _tool_answers(scripted_server.requests[1]) == [OUTSIDE]


def _object_arguments_body() -> bytes:
    message = {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_0", "type": "function", "function": {"name": "weekday", "arguments": {"date": "2026-03-12"}}},
    ]}
    return json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": "scripted",
                       "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
                       "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}).encode()


async def test_arguments_sent_as_an_object_go_back_as_an_error(scripted_server) -> None:
    scripted_server.script(Reply(raw_body=_object_arguments_body()), SUBMIT)
    async with _client(scripted_server) as client:
        action = await create_agent("tools", client=client).act(_obs())
    assert action.error is None and action.ops == [{"op": "delete", "id": "e1"}]
    assert action.extra["tool_calls"] == ["weekday", "submit_operations"]
    second = scripted_server.requests[1]["messages"]
    assert _tool_answers(scripted_server.requests[1]) == [{
        "error": "arguments must be a JSON string holding an object (got the object itself); "
                 "call the tool again with the arguments as a string"}]
    echoed = next(m for m in second if m["role"] == "assistant")["tool_calls"][0]["function"]
    assert echoed["arguments"] == '{"date": "2026-03-12"}'  # the next request follows the format


def test_call_arguments_of_every_shape() -> None:
    def args(raw: Any) -> tuple[dict[str, Any] | None, str]:
        return call_arguments(ToolCall(id="c", name="weekday", arguments=raw))

    assert args('{"date": "2026-03-12"}') == ({"date": "2026-03-12"}, "")
    assert args("") == ({}, "")
    assert args("[1, 2]") == (None, "arguments are not a JSON object: got list")
    assert args(7) == (None, "arguments must be a JSON string holding an object, got int")
    assert args("[" * 100_000) == (None, "arguments are not a JSON object: nested too deeply")
    none, why = args('{"days": ' + "9" * 5000 + "}")
    assert none is None and why.startswith("arguments are not a JSON object: ")
    assert args("{nope")[0] is None


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                 max_size=3), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from([*TOOL_ARGS, "no_such_tool"]),
       arguments=st.dictionaries(st.sampled_from(["time", "date", "days", "hours", "minutes", "expression",
                                                  "said_at", "query", "x"]), _JSON, max_size=4))
def test_no_argument_makes_a_tool_raise(name: str, arguments: dict[str, Any]) -> None:
    """The invariant: whatever a model sends, a tool answers with a JSON object."""
    result = run_tool(name, arguments, _obs())
    assert isinstance(result, dict) and json.loads(json.dumps(result)) == result


@settings(max_examples=200, deadline=None)
@given(minutes=st.integers(), hours=st.integers(), days=st.integers())
def test_add_duration_answers_any_integers(minutes: int, hours: int, days: int) -> None:
    result = run_tool("add_duration", {"time": "2026-03-12T12:30", "minutes": minutes, "hours": hours,
                                       "days": days}, _obs())
    assert set(result) in ({"time"}, {"error"})
