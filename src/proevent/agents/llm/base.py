"""The prompt-answer-parse loop shared by the LLM strategies, with one repair request."""

from __future__ import annotations

from typing import Any

from proevent.agents.llm.parsing import extract_ops, validate_ops
from proevent.agents.llm.prompts import PROMPT_VERSION, build_messages, prompt_record, repair_message
from proevent.agents.protocol import Action, Observation, quiet_action
from proevent.llm import Completion, LLMClient, LLMError


class Tally:
    """Usage of the requests one answer took (an answer may take several: repair, tool rounds)."""

    def __init__(self) -> None:
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.cached_prompt_tokens = 0
        self.cost: float | None = 0.0
        self.latency = 0.0
        self.requests = 0
        self.cached = 0
        self.raws: list[str] = []
        self.reasoning: list[str] = []

    def add(self, c: Completion) -> None:
        self.prompt_tokens += c.prompt_tokens
        self.completion_tokens += c.completion_tokens
        self.cached_prompt_tokens += c.cached_prompt_tokens
        self.cost = None if self.cost is None or c.cost_usd is None else self.cost + c.cost_usd
        self.latency += c.latency_s
        self.requests += 1
        self.cached += c.cached
        if c.raw:
            self.raws.append(c.raw)
        if c.reasoning and c.reasoning not in c.raw:
            self.reasoning.append(c.reasoning)

    def action(self, ops: list[Any] | None, error: str | None, **extra: Any) -> Action:
        meta: dict[str, Any] = {"requests": self.requests, "cached": self.cached, **extra}
        if self.reasoning:
            meta["reasoning"] = "\n\n".join(self.reasoning)
        return Action(
            ops=ops or [], error=error, raw="\n\n--- next reply ---\n\n".join(self.raws) or None,
            prompt_tokens=self.prompt_tokens, completion_tokens=self.completion_tokens,
            cached_prompt_tokens=self.cached_prompt_tokens,
            cost_usd=self.cost if self.requests else None, latency_s=self.latency, extra=meta,
        )


class LLMAgent:
    """``plain``, ``proactive`` and ``procot``: one prompt, a JSON answer, one repair on failure."""

    def __init__(self, client: LLMClient, strategy: str, *, prompt_version: str = PROMPT_VERSION,
                 repair: bool = True, skip_quiet: bool = True, update_prompt: bool = False) -> None:
        self.client = client
        self.update_prompt = update_prompt
        self.name = strategy
        self.strategy = strategy
        self.prompt_version = prompt_version
        self.repair = repair
        self.skip_quiet = skip_quiet

    def describe(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "prompt_version": self.prompt_version, "repair": self.repair,
                "skip_quiet": self.skip_quiet, "update_prompt": self.update_prompt,
                "prompt": prompt_record(self.strategy, self.prompt_version, self.update_prompt)}

    async def act(self, obs: Observation) -> Action:
        if self.skip_quiet and not obs.chats:
            return quiet_action()
        messages = build_messages(self.strategy, obs, self.prompt_version, self.update_prompt)
        tally = Tally()
        try:
            return await self.answer(obs, messages, tally)
        except LLMError as exc:
            return tally.action(None, f"request failed: {exc}")

    async def answer(self, obs: Observation, messages: list[dict[str, Any]], tally: Tally) -> Action:
        first = await self.client.chat(messages, repeat=obs.repeat)
        tally.add(first)
        ops, error = extract_ops(first.text)
        problems = [error] if error else validate_ops(ops or [], obs.timetable)
        if problems and self.repair:
            retry = [*messages, {"role": "assistant", "content": first.text}, repair_message(problems)]
            second = await self.client.chat(retry, repeat=obs.repeat)
            tally.add(second)
            ops2, error2 = extract_ops(second.text)
            if ops2 is not None:
                return tally.action(ops2, None, repaired=True)
            if ops is None:
                return tally.action(None, f"unparseable answer after a repair request: {error2}")
        if ops is None:
            return tally.action(None, f"unparseable answer: {error}")
        return tally.action(ops, None)
