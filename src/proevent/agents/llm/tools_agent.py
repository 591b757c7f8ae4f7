"""``tools``: function calling with calendar tools and an explicit first-person check.

The model may call the calendar tools for several rounds, then must call ``submit_operations``
with its attendance check and the operations. A server without tool support gets the ``procot``
prompt instead (recorded as ``tools_fallback`` in the line).
"""

from __future__ import annotations

import json
from typing import Any

from proevent.agents.llm.base import LLMAgent, Tally
from proevent.agents.llm.parsing import extract_ops, validate_ops
from proevent.agents.llm.prompts import PROMPT_VERSION, build_messages, prompt_record
from proevent.agents.llm.tools import SUBMIT, run_tool, tool_schemas
from proevent.agents.protocol import Action, Observation, quiet_action
from proevent.llm import LLMClient, LLMError, ToolCall, UnsupportedFeature


class ToolsAgent:
    name = "tools"

    def __init__(self, client: LLMClient, *, prompt_version: str = PROMPT_VERSION, max_rounds: int = 6,
                 repair: bool = True, skip_quiet: bool = True, update_prompt: bool = False) -> None:
        self.client = client
        self.update_prompt = update_prompt
        self.prompt_version = prompt_version
        self.max_rounds = max_rounds
        self.repair = repair
        self.skip_quiet = skip_quiet
        self._fallback = LLMAgent(client, "procot", prompt_version=prompt_version, repair=repair,
                                  skip_quiet=skip_quiet, update_prompt=update_prompt)
        self._tools_ok = True

    def describe(self) -> dict[str, Any]:
        return {"strategy": "tools", "prompt_version": self.prompt_version, "max_rounds": self.max_rounds,
                "skip_quiet": self.skip_quiet,
                "tools": [t["function"]["name"] for t in tool_schemas(self.prompt_version)],
                "update_prompt": self.update_prompt,
                "prompt": prompt_record("tools", self.prompt_version, self.update_prompt), "fallback": "procot"}

    async def act(self, obs: Observation) -> Action:
        if self.skip_quiet and not obs.chats:
            return quiet_action()
        if not self._tools_ok:
            return await self._fall_back(obs)
        tally = Tally()
        try:
            return await self._loop(obs, tally)
        except UnsupportedFeature:
            self._tools_ok = False
            return await self._fall_back(obs)
        except LLMError as exc:
            return tally.action(None, f"request failed: {exc}")

    async def _fall_back(self, obs: Observation) -> Action:
        action = await self._fallback.act(obs)
        action.extra["tools_fallback"] = True
        return action

    async def _loop(self, obs: Observation, tally: Tally) -> Action:
        messages = build_messages("tools", obs, self.prompt_version, self.update_prompt)
        tools = tool_schemas(self.prompt_version)
        calls: list[str] = []
        repaired = False
        for _ in range(self.max_rounds):
            comp = await self.client.chat(messages, tools=tools, repeat=obs.repeat)
            tally.add(comp)
            if not comp.tool_calls:
                ops, error = extract_ops(comp.text)
                if ops is None:
                    return tally.action(None, f"no {SUBMIT} call and no operations in the text: {error}",
                                        tool_calls=calls)
                return tally.action(ops, None, tool_calls=calls)
            messages.append(_echo(comp.message))
            final: list[Any] | None = None
            check: str | None = None
            for call in comp.tool_calls:
                calls.append(call.name)
                args, problem = call_arguments(call)
                if args is None:
                    result: dict[str, Any] = {"error": problem}
                else:
                    if call.name == SUBMIT:
                        ops = args.get("ops")
                        problems = (validate_ops(ops, obs.timetable) if isinstance(ops, list)
                                    else ["ops must be a list of operations"])
                        if problems and self.repair and not repaired:
                            repaired = True
                            result = {"error": "; ".join(problems[:8]) + ". Call submit_operations again."}
                        else:
                            final = ops if isinstance(ops, list) else None
                            check = str(args.get("attendance_check", ""))
                            result = {"ok": True}
                    else:
                        result = run_tool(call.name, args, obs)
                messages.append({"role": "tool", "tool_call_id": call.id,
                                 "content": json.dumps(result, ensure_ascii=False)})
            if final is not None or check is not None:
                if final is None:
                    return tally.action(None, f"{SUBMIT}: ops must be a list", tool_calls=calls)
                return tally.action(final, None, tool_calls=calls, attendance_check=check, repaired=repaired)
        return tally.action(None, f"no {SUBMIT} call after {self.max_rounds} rounds", tool_calls=calls)


def call_arguments(call: ToolCall) -> tuple[dict[str, Any] | None, str]:
    """The arguments of a tool call as an object, or ``(None, why not)`` for the model to read.

    The format sends them as a JSON string holding an object; a server that sends the object
    itself, a list, invalid JSON, a number Python cannot read or JSON nested too deeply gets an
    error back as the tool's answer, never an exception that ends the question."""
    raw: Any = call.arguments
    if isinstance(raw, dict):
        return None, ("arguments must be a JSON string holding an object (got the object itself); "
                      "call the tool again with the arguments as a string")
    if not isinstance(raw, str):
        return None, f"arguments must be a JSON string holding an object, got {type(raw).__name__}"
    try:
        value = json.loads(raw or "{}")
    except RecursionError:
        return None, "arguments are not a JSON object: nested too deeply"
    except ValueError as exc:  # JSONDecodeError, or more digits than int() reads
        return None, f"arguments are not a JSON object: {str(exc)[:200]}"
    if not isinstance(value, dict):
        return None, f"arguments are not a JSON object: got {type(value).__name__}"
    return value, ""


def _echo(message: dict[str, Any]) -> dict[str, Any]:
    """The assistant message as it goes back into the conversation: tool arguments a server sent
    as an object are turned into the JSON string the format has, so the next request is well-formed."""
    tool_calls = message.get("tool_calls")
    if not isinstance(tool_calls, list):
        return message
    fixed = []
    for call in tool_calls:
        fn = call.get("function") if isinstance(call, dict) else None
        if isinstance(fn, dict) and not isinstance(fn.get("arguments"), str | None):
            try:
                text = json.dumps(fn["arguments"], ensure_ascii=False)
            except (TypeError, ValueError, RecursionError):
                text = "{}"
            call = {**call, "function": {**fn, "arguments": text}}
        fixed.append(call)
    return {**message, "tool_calls": fixed}


def make_tools(client: LLMClient, **options: Any) -> ToolsAgent:
    return ToolsAgent(client, **options)
