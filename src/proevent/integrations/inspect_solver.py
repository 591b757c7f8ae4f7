"""The inspect_ai solver: proevent's own agents (prompts, parsing, repair) answering through
inspect's model.

:class:`InspectClient` gives inspect's active model the interface proevent's LLM agents expect
(``await client.chat(messages) -> Completion``), so the very same :class:`~proevent.agents.llm.base.LLMAgent`
code builds the prompt, parses the answer and sends the repair request. The answers are kept in
the sample's store as proevent prediction lines (``proevent:lines``); in multi-step mode the
agent's own timetable lives in the store too (``proevent:timetable``, ``proevent:max_id``) and each
step starts from what the store holds.
"""

from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    ModelOutput,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolCall as InspectToolCall
from inspect_ai.tool import ToolInfo, ToolParams
from inspect_ai.util import LimitExceededError

from proevent.agents import create_agent, get_spec
from proevent.io import Dataset, load_dataset
from proevent.llm import Completion, ToolCall, split_reasoning
from proevent.llm.text import well_formed
from proevent.model import Event, PredictionLine, Timetable, parse_ops
from proevent.runner.core import answer
from proevent.runner.secrets import environment_secrets, install_log_redaction, redact, redact_line

LINES_KEY = "proevent:lines"
TIMETABLE_KEY = "proevent:timetable"
MAX_ID_KEY = "proevent:max_id"


@lru_cache(maxsize=8)
def cached_dataset(path: str) -> Dataset:
    """Datasets are loaded once per process (tasks, solver and scorer share them)."""
    return load_dataset(Path(path))


def _arguments(text: Any) -> dict[str, Any]:
    if isinstance(text, dict):
        return text
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _to_inspect(messages: list[dict[str, Any]]) -> list[ChatMessage]:
    """OpenAI-style chat messages (what proevent's agents build) as inspect's messages, tool calls
    and tool results included."""
    out: list[ChatMessage] = []
    functions: dict[str, str] = {}
    for m in messages:
        role, content = m.get("role"), str(m.get("content") or "")
        if role == "system":
            out.append(ChatMessageSystem(content=content))
        elif role == "assistant":
            calls = [InspectToolCall(id=c["id"], function=c["function"]["name"],
                                     arguments=_arguments(c["function"].get("arguments")))
                     for c in m.get("tool_calls") or []]
            functions.update((c.id, c.function) for c in calls)
            out.append(ChatMessageAssistant(content=content, tool_calls=calls or None))
        elif role == "user":
            out.append(ChatMessageUser(content=content))
        elif role == "tool":
            call_id = m.get("tool_call_id")
            out.append(ChatMessageTool(content=content, tool_call_id=call_id, function=functions.get(call_id or "")))
        else:
            raise ValueError(f"message role {role!r} is not supported through inspect")
    return out


def _tool_infos(tools: list[dict[str, Any]]) -> list[ToolInfo]:
    """OpenAI function schemas as inspect's tool descriptions."""
    return [
        ToolInfo(name=f["name"], description=f.get("description", ""),
                 parameters=ToolParams.model_validate(f.get("parameters") or {}))
        for f in (t["function"] for t in tools)
    ]


def _from_inspect(calls: list[InspectToolCall]) -> tuple[list[ToolCall], list[dict[str, Any]]]:
    """inspect's tool calls as proevent's, and as the assistant message's OpenAI-style ``tool_calls``.
    A call inspect could not parse keeps its error as unparseable arguments, which the agent reports
    back to the model."""
    ours, raw = [], []
    for c in calls:
        text = json.dumps(c.arguments, ensure_ascii=False) if c.parse_error is None else c.parse_error
        ours.append(ToolCall(id=c.id, name=c.function, arguments=text))
        raw.append({"id": c.id, "type": "function", "function": {"name": c.function, "arguments": text}})
    return ours, raw


def _reasoning(output: ModelOutput) -> str | None:
    if not output.choices:
        return None
    content = output.choices[0].message.content
    if isinstance(content, str):
        return None
    parts = [getattr(c, "reasoning", None) for c in content if getattr(c, "type", None) == "reasoning"]
    return "\n\n".join(p for p in parts if p) or None


class ModelCallFailed(RuntimeError):
    """A model call through inspect that failed, its message redacted of the environment's secrets."""


class InspectClient:
    """proevent's LLM client interface on top of inspect's active model (``get_model()``)."""

    def __init__(self) -> None:
        self.model = get_model()
        self.limit_error: LimitExceededError | None = None
        """An inspect limit (tokens, time, messages) hit inside a request: the agent code turns every
        exception into an errored answer, so the solver re-raises this one to end the sample."""
        self.call_error: Exception | None = None
        """A model call that failed (refused key, unreachable endpoint, retries spent): re-raised by
        the solver so that inspect records a sample error, never an empty answer scored as silence."""

    async def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        json_mode: bool | None = None,
        repeat: int = 0,
    ) -> Completion:
        start = time.perf_counter()
        try:
            output = await self.model.generate(_to_inspect(messages), tools=_tool_infos(tools or []))
        except LimitExceededError as exc:
            self.limit_error = exc
            raise
        except Exception as exc:
            # inspect writes a sample error's message and traceback into its log: a server that echoes
            # the key must not put it there, so the error goes on redacted and without its chain
            self.call_error = ModelCallFailed(redact(f"{type(exc).__name__}: {exc}", environment_secrets()))
            raise self.call_error from None
        latency = output.time if output.time is not None else time.perf_counter() - start
        raw = well_formed(output.completion or "")  # a lone surrogate must not break the prediction writer
        text, think = split_reasoning(raw)
        extra = _reasoning(output)
        reasoning = f"{extra}\n\n{think}" if extra and think else (extra or think)
        usage = output.usage
        calls, raw_calls = _from_inspect(list(output.message.tool_calls or []) if output.choices else [])
        message: dict[str, Any] = {"role": "assistant", "content": raw}
        if raw_calls:
            message["tool_calls"] = raw_calls
        return Completion(
            text=text, raw=raw, reasoning=reasoning, tool_calls=calls, message=message,
            prompt_tokens=usage.input_tokens if usage else 0, completion_tokens=usage.output_tokens if usage else 0,
            cost_usd=None, latency_s=latency, cached=False,
        )


def build_agent(name: str, dataset: Dataset, options: dict[str, Any] | None = None) -> tuple[Any, InspectClient | None]:
    """A proevent agent by registry name, and the client through which it talks to inspect's model
    (``None`` for agents without a model)."""
    spec = get_spec(name)
    kwargs: dict[str, Any] = dict(options or {})
    client = InspectClient() if spec.needs_llm else None
    if client is not None:
        kwargs["client"] = client
    if spec.needs_gold:
        kwargs["dataset"] = dataset
    return create_agent(name, **kwargs), client


async def _answer(agent: Any, client: InspectClient | None, case: Any, t: int, timetable: Timetable, *,
                  mode: str, repeat: int, context_messages: int) -> PredictionLine:
    line = await answer(agent, case, t, timetable, mode=mode, repeat=repeat, context_messages=context_messages)
    if client is not None and client.limit_error is not None:
        raise client.limit_error
    if client is not None and client.call_error is not None:
        raise client.call_error
    return redact_line(line, environment_secrets())


def _record(state: TaskState, line: dict[str, Any]) -> None:
    lines = list(state.store.get(LINES_KEY, []))
    lines.append(line)
    state.store.set(LINES_KEY, lines)
    shown = line.get("raw") or (f"error: {line['error']}" if line.get("error") else str(line.get("ops")))
    state.messages.append(ChatMessageAssistant(content=f"[step {line['t']}] {shown}"))
    state.output = ModelOutput.from_content(model=str(state.model), content=line.get("raw") or "")


@solver
def proevent_agent(
    dataset: str,
    agent: str = "plain",
    context_messages: int = 20,
    agent_options: dict[str, Any] | None = None,
) -> Solver:
    """Answer a proevent sample with a proevent agent.

    A ``single`` sample (one question) gets the gold S_{t-1}; a ``multi`` sample (one case) runs
    every step on the agent's own timetable, kept in the store between steps.
    """
    install_log_redaction()  # inspect keeps this process's log records in its log files

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        ds = cached_dataset(dataset)
        the_agent, client = build_agent(agent, ds, agent_options)
        case = ds.case(state.metadata["case_id"])
        repeat = state.epoch - 1
        if state.metadata["mode"] == "single":
            t = int(state.metadata["t"])
            line = await _answer(the_agent, client, case, t, Timetable(case.timetable_before(t)), mode="single",
                                 repeat=repeat, context_messages=context_messages)
            _record(state, line.model_dump(mode="json"))
            return state
        state.store.set(TIMETABLE_KEY, [e.model_dump(mode="json") for e in case.initial_timetable])
        state.store.set(MAX_ID_KEY, Timetable(case.initial_timetable).max_id)
        for step in case.steps:
            own = Timetable([Event.model_validate(e) for e in state.store.get(TIMETABLE_KEY)],
                            max_id=state.store.get(MAX_ID_KEY))
            line = await _answer(the_agent, client, case, step.t, own, mode="multi", repeat=repeat,
                                 context_messages=context_messages)
            own = own.apply(parse_ops(line.ops)).timetable
            state.store.set(TIMETABLE_KEY, [e.model_dump(mode="json") for e in own])
            state.store.set(MAX_ID_KEY, own.max_id)
            _record(state, line.model_dump(mode="json"))
        return state

    return solve


__all__ = ["LINES_KEY", "MAX_ID_KEY", "TIMETABLE_KEY", "InspectClient", "build_agent", "cached_dataset",
           "proevent_agent"]
