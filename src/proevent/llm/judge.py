"""The ``llm`` location judge of the metrics spec: a language model decides whether two location
strings name the same place, in the context of the event. Decisions are cached (the client's
SQLite cache, and in memory per evaluation) and listed by :meth:`decisions` for writing beside
the metrics.

It lives above the scorer: :class:`LLMJudge` takes an :class:`LLMConfig` and reads nothing
itself; :func:`llm_judge` builds one with :func:`~proevent.llm.config.load_llm_config` for the
judge's role (which reads ``PROEVENT_JUDGE_MODEL`` / ``PROEVENT_JUDGE_BASE_URL`` /
``PROEVENT_JUDGE_PROFILE``, else ``PROEVENT_MODEL`` / ``PROEVENT_BASE_URL`` as for runs). Importing this
module registers it as ``get_judge("llm")``. A failed request or an unparseable verdict is scored
as "different places" and counted (:meth:`LLMJudge.failures`, ``judge_errors`` in the metrics):
``evaluate`` refuses such metrics unless ``allow_judge_errors``.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Coroutine, Iterable, Mapping
from importlib import resources
from string import Template
from typing import Any, TypeVar

from proevent.evaluate.judges import LocationJudge, register_judge
from proevent.evaluate.normalize import normalize_location
from proevent.llm.client import LLMClient, LLMError
from proevent.llm.config import LLMConfig, load_llm_config

T = TypeVar("T")
PROMPT_VERSION = "v1"


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to completion from sync code, even when this thread already runs a loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def describe_context(context: Any) -> str:
    """A short text of the event(s) a location belongs to (the evaluator passes two events)."""
    events = context if isinstance(context, tuple) else (context,)
    for ev in events:
        if ev is not None and hasattr(ev, "participants"):
            who = ", ".join(ev.participants) or "unknown people"
            return f"{ev.description or 'an event'} starting {ev.start or 'at an unknown time'} with {who}"
    return "unknown"


def parse_verdict(text: str) -> bool | None:
    """``{"same": true}`` (or a bare yes/no); ``None`` when the answer says neither."""
    try:
        value = json.loads(text)
        if isinstance(value, dict) and isinstance(value.get("same"), bool):
            return value["same"]
    except ValueError:
        pass
    head = text.strip().lower()
    if head.startswith(("yes", "true", "same")):
        return True
    if head.startswith(("no", "false", "different")):
        return False
    return None


class LLMJudge(LocationJudge):
    name = "llm"
    can_fail = True
    needs_prefetch = True

    def __init__(self, config: LLMConfig) -> None:
        super().__init__()
        self.config = config
        self.template = Template(
            resources.files("proevent.llm").joinpath(f"data/judge_location.{PROMPT_VERSION}.txt")
            .read_text(encoding="utf-8")
        )
        self.notes: dict[tuple[str, str], str] = {}

    def _messages(self, a: str, b: str, context: Any) -> list[dict[str, str]]:
        text = self.template.substitute(a=a, b=b, context=describe_context(context))
        return [{"role": "user", "content": text}]

    async def _ask(self, client: LLMClient, a: str, b: str, context: Any) -> tuple[bool, str | None]:
        try:
            out = await client.chat(self._messages(a, b, context), json_mode=True)
        except LLMError as exc:
            return False, f"request failed: {exc}"
        verdict = parse_verdict(out.text)
        if verdict is None:
            return False, f"unparseable verdict: {out.text[:200]!r}"
        return verdict, None

    async def _ask_all(self, todo: list[tuple[tuple[str, str], str, str, Any]]) -> None:
        async with LLMClient(self.config) as client:
            results = await asyncio.gather(*(self._ask(client, a, b, ctx) for _, a, b, ctx in todo))
        for (key, _, _, _), (same, note) in zip(todo, results):
            self._cache[key] = same
            if note:
                self.notes[key] = note

    def prefetch(self, pairs: Iterable[tuple[str, str, Any]]) -> None:
        todo: dict[tuple[str, str], tuple[tuple[str, str], str, str, Any]] = {}
        for a, b, context in pairs:
            if a is None or b is None:
                continue
            na, nb = normalize_location(a), normalize_location(b)
            key = (na, nb) if na <= nb else (nb, na)
            if na != nb and key not in self._cache and key not in todo:
                todo[key] = (key, a, b, context)
        if todo:
            _run(self._ask_all(list(todo.values())))

    def decide(self, na: str, nb: str, a: str, b: str, context: Any) -> bool:
        key = (na, nb)
        _run(self._ask_all([(key, a, b, context)]))
        return self._cache[key]

    def decisions(self) -> list[dict[str, Any]]:
        out = super().decisions()
        for d in out:
            note = self.notes.get((d["a"], d["b"]))
            if note:
                d["error"] = note
        return out

    def failures(self) -> list[dict[str, Any]]:
        return [d for d in self.decisions() if "error" in d]


def llm_judge(config: LLMConfig | None = None, *, model: str | None = None, base_url: str | None = None,
              profile: str | None = None, concurrency: int = 16, environ: Mapping[str, str] | None = None) -> LLMJudge:
    """The ``llm`` judge with its config from :func:`load_llm_config` (``role="judge"``: the
    ``PROEVENT_JUDGE_*`` variables); the arguments are its overrides."""
    if config is None:
        config = load_llm_config(
            role="judge", profile=profile, environ=environ,
            overrides={"model": model, "base_urls": base_url, "concurrency": concurrency},
        )
    return LLMJudge(config)


register_judge("llm", llm_judge)
