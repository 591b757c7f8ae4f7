"""Pure run logic: answer one question, run one case step by step. No files, no progress, no logging."""

from __future__ import annotations

import math
import time
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

from proevent.agents.protocol import Action, Agent, build_observation
from proevent.model import Case, PredictionLine, Timetable, Usage, parse_ops
from proevent.model.lean import build_full


def usage_problem(action: Action) -> str | None:
    """Token counts or a cost that are negative or not finite (a misbehaving server): such usage
    would lower the run's totals and slip past a budget, so the answer is refused."""
    for name in ("prompt_tokens", "completion_tokens", "cached_prompt_tokens", "cost_usd"):
        value = getattr(action, name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
            return f"{name} {value!r}"
    return None


def action_to_line(case_id: str, mode: str, t: int, repeat: int, action: Action) -> PredictionLine:
    """The prediction line of an action: an errored action keeps its raw text and has no ops. An
    action with negative or non-finite usage becomes an errored line without usage (asked again on
    resume)."""
    if type(case_id) is str and mode in ("single", "multi") and type(t) is int and t >= 1 and type(repeat) is int \
            and repeat >= 0:
        if _plain_action(action):
            return _make_line({"case_id": case_id, "mode": mode, "t": t, "repeat": repeat, "ops": list(action.ops),
                               "error": None, "raw": action.raw, "usage": None,
                               "latency_s": None if action.latency_s is None else round(action.latency_s, 4)})
        if _typed_action(action):
            return _typed_line(case_id, mode, t, repeat, action)
    return validated_line(case_id, mode, t, repeat, action)


def validated_line(case_id: str, mode: str, t: int, repeat: int, action: Action) -> PredictionLine:
    """:func:`action_to_line` the long way: every field validated by pydantic."""
    problem = usage_problem(action)
    if problem is not None:
        action = Action(error=f"the server reported invalid usage ({problem}): the answer is not used",
                        raw=action.raw, latency_s=action.latency_s, cost_usd=0.0,
                        extra={**action.extra, "usage_refused": problem})
    extra: dict[str, Any] = {}
    if action.cost_usd is not None:
        extra["cost_usd"] = round(action.cost_usd, 8)
    extra.update(action.extra)
    usage = None
    if action.prompt_tokens or action.completion_tokens:
        hits = {"cached_prompt_tokens": action.cached_prompt_tokens} if action.cached_prompt_tokens else {}
        usage = Usage(prompt_tokens=action.prompt_tokens, completion_tokens=action.completion_tokens, **hits)
    return PredictionLine(
        case_id=case_id, mode=mode, t=t, repeat=repeat,  # type: ignore[arg-type]
        ops=[] if action.error else action.ops, error=action.error, raw=action.raw, usage=usage,
        latency_s=None if action.latency_s is None else round(action.latency_s, 4), **extra,
    )


_make_line = build_full(PredictionLine)
_make_usage = build_full(Usage)
_LINE_FIELDS = frozenset(PredictionLine.model_fields)
_USAGE_FIELDS = frozenset(Usage.model_fields)
_put = object.__setattr__


def _count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _typed_action(action: Action) -> bool:
    """A model agent's answer whose line needs no validation: every field of the exact type the line
    holds, usage that :func:`usage_problem` accepts, a finite float cost and latency, and extra
    fields of plain names that are not the line's own."""
    cost, latency, extra = action.cost_usd, action.latency_s, action.extra
    return (type(action.ops) is list and (action.error is None or type(action.error) is str)
            and (action.raw is None or type(action.raw) is str)
            and _count(action.prompt_tokens) and _count(action.completion_tokens)
            and _count(action.cached_prompt_tokens)
            and (cost is None or type(cost) is float and math.isfinite(cost) and cost >= 0)
            and (latency is None or type(latency) is float and math.isfinite(latency))
            and type(extra) is dict
            and all(type(k) is str and k not in _LINE_FIELDS and k[:1] != "_" for k in extra))


def _typed_line(case_id: str, mode: str, t: int, repeat: int, action: Action) -> PredictionLine:
    """The line :func:`validated_line` makes of a :func:`_typed_action`, built without validating:
    the same fields, extra fields, field sets and usage (a model agent's every answer went through
    pydantic, a tenth of the runner's CPU per request)."""
    usage = None
    if action.prompt_tokens or action.completion_tokens:
        usage = _make_usage({"prompt_tokens": action.prompt_tokens, "completion_tokens": action.completion_tokens})
        if action.cached_prompt_tokens:
            _put(usage, "__pydantic_extra__", {"cached_prompt_tokens": action.cached_prompt_tokens})
            _put(usage, "__pydantic_fields_set__", {*_USAGE_FIELDS, "cached_prompt_tokens"})
    extra: dict[str, Any] = {}
    if action.cost_usd is not None:
        extra["cost_usd"] = round(action.cost_usd, 8)
    extra.update(action.extra)
    line = _make_line({"case_id": case_id, "mode": mode, "t": t, "repeat": repeat,
                       "ops": [] if action.error else list(action.ops), "error": action.error, "raw": action.raw,
                       "usage": usage, "latency_s": None if action.latency_s is None else round(action.latency_s, 4)})
    _put(line, "__pydantic_extra__", extra)
    if extra:
        _put(line, "__pydantic_fields_set__", {*_LINE_FIELDS, *extra})
    return line


def _plain_action(action: Action) -> bool:
    """An offline agent's answer (no usage, no cost, no extra, no error), whose line needs no
    validation: what :func:`action_to_line` would validate is already of the line's types."""
    return (type(action.ops) is list and action.error is None and not action.extra and action.cost_usd is None
            and not action.prompt_tokens and not action.completion_tokens and not action.cached_prompt_tokens
            and (action.raw is None or type(action.raw) is str)
            and (action.latency_s is None or type(action.latency_s) is float and math.isfinite(action.latency_s)))


async def answer(
    agent: Agent, case: Case, t: int, timetable: Timetable, *, mode: str, repeat: int, context_messages: int
) -> PredictionLine:
    """Ask the agent about step ``t`` given ``timetable``; an exception becomes an errored line."""
    obs = build_observation(case, t, timetable, mode=mode, repeat=repeat, context_messages=context_messages,
                            with_chats=getattr(agent, "reads_chats", True))
    start = time.perf_counter()
    try:
        action = await agent.act(obs)
    except Exception as exc:  # an agent bug or a failed request must not stop the run
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        action = Action(error=f"agent failed: {tb}")
    if action.latency_s is None:
        action.latency_s = time.perf_counter() - start
    return action_to_line(case.case_id, mode, t, repeat, action)


async def run_single(
    agent: Agent, case: Case, t: int, *, repeat: int, context_messages: int
) -> PredictionLine:
    """A single-step question: the agent gets the gold S_{t-1}."""
    return await answer(
        agent, case, t, Timetable(case.timetable_before(t)), mode="single", repeat=repeat,
        context_messages=context_messages,
    )


def advance(own: Timetable, ops: list[Any]) -> Timetable:
    """The multi-step rule: the agent's own timetable after it answered ``ops`` (raw JSON, as in its
    prediction line) at one step; invalid operations are not applied."""
    return own.apply(parse_ops(ops)).timetable


async def run_multi(
    agent: Agent,
    case: Case,
    *,
    repeat: int,
    context_messages: int,
    done: dict[int, PredictionLine],
    emit: Callable[[PredictionLine], Awaitable[None] | None],
) -> Timetable:
    """Run the steps of ``case`` in order on the agent's own timetable.

    Steps already answered (``done``, from a resumed run) are not asked again: their operations are
    replayed, so the agent continues from exactly the timetable it had. Invalid operations are not
    applied (:meth:`Timetable.apply`). Returns the final timetable Ŝ_T.
    """
    own = Timetable(case.initial_timetable)
    for step in case.steps:
        line = done.get(step.t)
        if line is None:
            line = await answer(
                agent, case, step.t, own, mode="multi", repeat=repeat, context_messages=context_messages
            )
            result = emit(line)
            if result is not None:
                await result
        own = advance(own, line.ops)
    return own
