"""The ``llm`` realiser: an OpenAI-compatible model rewrites each chat skeleton into natural text.

The model gets the skeleton (speakers, intents, send times, the values each line must express,
what an acceptance accepts, the user's timetable events that matter, and a template draft) and
answers JSON, one message per line or a short burst of them. Every reply goes through
:func:`~proevent.generate.realize.llm_check.check_reply`, which accepts the forms people use
(bare hours, parts of the day, times relative to another event, short place names, "the usual
spot", self-corrections, reactions) and rejects a changed intent or value. A failing reply is
asked for again with the problems listed (``llm.retries`` times, each counted by reason in
``realizer.retried``); when the last reply still fails, :meth:`LLMRealizer.realize` rejects the
case attempt (``CaseRejected("llm:<reason>")``) and the pipeline's attempt loop takes over.

Batch mode (a client with a recorder: ``generate --batch-out``, ``$PROEVENT_BATCH_OUT``): a request
the cache cannot answer goes into the batch file, and once every chat of the attempt has gone as
far as the answers allow, the attempt raises :class:`~proevent.llm.batchfile.RoundsPending`; the
pipeline sets the case aside. The next round asks the case again from its start: every answer it
had is in the cache (imported answers are kept until the whole generation is complete, see
:meth:`LLMRealizer.finish`), so the same texts come back and the case goes on where it stopped. An
imported error line is asked again in the next file (the generator has no errored case to write).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any

from proevent.generate.assemble import CasePlan, CaseRejected, PlannedChat
from proevent.generate.config import GeneratorConfig, LLMRealizerConfig
from proevent.generate.contacts import contact_pool
from proevent.generate.realize.llm_check import Problem, check_reply, intent_kind, required
from proevent.generate.realize.protocol import split_line
from proevent.generate.realize.template import realize_chat_template
from proevent.llm.batchfile import RequestPending, RoundsPending, track_pending

_INTENT_WORDS = {
    "cancel_implicit": "cancel (implicit)", "accept_later": "accept (after checking)",
    "interjection": "small talk", "user_dropout": "user drops out", "self_dropout": "drops out",
}
MAX_BURST = 4
"""The most messages one line may become."""


def system_prompt() -> str:
    return resources.files("proevent.generate").joinpath("data").joinpath("llm_prompt.txt").read_text("utf-8")


def _values_words(pc: PlannedChat, i: int) -> str | None:
    """What an acceptance accepts, in words: its echo, else the proposal before it."""
    for line in [pc.lines[i], *reversed(pc.lines[:i])]:
        if intent_kind(line.intent) == "acceptance" and line is not pc.lines[i]:
            continue
        when = line.slots.get("when") or line.slots.get("time") or line.slots.get("choice")
        parts = []
        if when:
            parts.append(" to ".join(v.replace("T", " ") for v in when if v))  # type: ignore[union-attr]
        elif line.slots.get("options"):
            parts.append(" or ".join(str(o[0]).replace("T", " ") for o in line.slots["options"]))  # type: ignore[union-attr]
        elif line.slots.get("day"):
            parts.append(str(line.slots["day"]))
        if line.slots.get("place"):
            parts.append(str(line.slots["place"]))
        if parts:
            return ", ".join(parts)
    return None


def _timetable(plan: CasePlan, pc: PlannedChat) -> list[dict[str, Any]]:
    """The user's timetable events a line may refer to: those with the chat's people or on its days."""
    members = set(pc.chat.members) - {plan.user}
    days = {str(v)[:10] for ln in pc.lines for k in ("when", "time", "day") if ln.slots.get(k)
            for v in (ln.slots[k] if isinstance(ln.slots[k], (tuple, list)) else [ln.slots[k]]) if v}
    return [{"event": ev.description, "start": ev.start, "end": ev.end, "place": ev.location}
            for ev in plan.initial if members & set(ev.participants) or (ev.start and ev.start[:10] in days)]


def skeleton_request(plan: CasePlan, pc: PlannedChat, drafts: list[str]) -> dict[str, Any]:
    """The user message of the request for one chat (JSON)."""
    profiles = {p.name: p for p in contact_pool().profiles}
    people = []
    for m in pc.chat.members:
        p = profiles.get(m)
        people.append({"name": m, "is_user": m == plan.user,
                       "relation": "the user" if m == plan.user else (p.relation if p else "acquaintance"),
                       "voice": pc.ctx.voice(m)})
    lines = []
    for i, (ln, at) in enumerate(zip(pc.lines, pc.times)):
        item: dict[str, Any] = {"i": i + 1, "time": at.strftime("%Y-%m-%d %a %H:%M"), "speaker": ln.speaker,
                                "intent": _INTENT_WORDS.get(ln.intent, ln.intent.replace("_", " ")),
                                "must_express": required(pc, i).for_request(), "draft": drafts[i]}
        if intent_kind(ln.intent) == "acceptance" and (accepts := _values_words(pc, i)):
            item["accepts"] = accepts
        if ln.slots.get("ref") is not None:
            ref = pc.ctx.refs[int(ln.slots["ref"])]  # type: ignore[arg-type]
            item["refers_to"] = f"{ref.state.description} ({ref.state.start}, {ref.state.location})"
        lines.append(item)
    out: dict[str, Any] = {"chat": {"name": pc.chat.name, "type": pc.chat.type}, "people": people}
    if timetable := _timetable(plan, pc):
        out["timetable"] = timetable
    out["lines"] = lines
    return out


def parse_reply(text: str) -> list[list[str]]:
    """The messages of a reply, one list per line (a burst has several); raises ``ValueError``,
    ``KeyError`` or ``TypeError`` on anything but the JSON asked for."""
    start, end = text.find("{"), text.rfind("}")
    data = json.loads(text[start:end + 1] if start >= 0 else text)
    items = sorted(data["messages"], key=lambda m: int(m["i"]))
    out: list[list[str]] = []
    for m in items:
        raw = m["text"]
        parts = [str(t).strip() for t in raw] if isinstance(raw, list) else [str(raw).strip()]
        parts = [p for p in parts if p]
        if not parts or len(parts) > MAX_BURST:
            raise ValueError(f"message {m['i']}: give one message or a burst of 2 to {MAX_BURST}")
        out.append(parts)
    return out


@dataclass(frozen=True)
class _Waiting:
    """A chat whose request waits in the batch file; ``rounds``: the most requests (one a round) it
    still takes, that one included."""

    rounds: int


class LLMRealizer:
    """The realiser behind :class:`~proevent.generate.realize.protocol.Realizer`: one request per
    chat, all chats of a case (and the cases the pipeline keeps in flight) concurrently, bounded by
    the client's ``concurrency``."""

    def __init__(self, client: Any, config: LLMRealizerConfig) -> None:
        self.client = client
        self.retries = config.retries
        self.name = f"llm:{config.model}"
        self.retried: Counter[str] = Counter()
        self.batch = getattr(client, "recorder", None) is not None
        """Batch mode: requests go to a batch file, attempts wait for their answers."""
        self.set_aside = 0
        """Case attempts set aside in this round (a request of theirs waits in the batch file)."""
        self._taken: set[str] = set()

    async def realize(self, plan: CasePlan, rng: random.Random) -> None:
        drafts = [realize_chat_template(pc.lines, pc.times, pc.ctx, rng) for pc in plan.chats]
        if not self.batch:
            results = await asyncio.gather(*(self._chat(plan, pc, d) for pc, d in zip(plan.chats, drafts)))
        else:
            with track_pending(ask_again_on_error=True) as tracker:
                results = await asyncio.gather(*(self._chat(plan, pc, d) for pc, d in zip(plan.chats, drafts)))
            self._taken.update(tracker.taken)
            waiting = [r for r in results if isinstance(r, _Waiting)]
            if waiting:  # live, every chat's answer would be known before the attempt is judged
                self.set_aside += 1
                raise RoundsPending(f"{plan.case_id}: {len(tracker.pending)} requests wait in the batch file",
                                    rounds=max(w.rounds for w in waiting), per_try=self.retries + 1)
        for result in results:
            if isinstance(result, Problem):
                raise CaseRejected(f"llm:{result.reason}")
        for pc, result in zip(plan.chats, results):
            split_line(pc, result)  # type: ignore[arg-type]

    async def finish(self) -> None:
        """At the end of a generation: once no case waits, drop the imported answers it took (they
        are in the cache now, those an agent can use); while one waits, keep them for the next round."""
        cache = getattr(self.client, "cache", None)
        if self.batch and not self.set_aside and self._taken and cache is not None:
            await cache.aforget_imported(sorted(self._taken))

    async def _chat(self, plan: CasePlan, pc: PlannedChat, drafts: list[str]) -> list[list[str]] | Problem | _Waiting:
        """The messages of one chat, or the first problem of its last reply (or, in batch mode,
        the request it waits for)."""
        request = json.dumps(skeleton_request(plan, pc, drafts), ensure_ascii=False)
        messages: list[dict[str, Any]] = [{"role": "system", "content": system_prompt()},
                                          {"role": "user", "content": request}]
        problems: list[tuple[int, Problem]] = []
        for k in range(self.retries + 1):
            try:
                reply = await self.client.chat(messages, json_mode=True, repeat=k)
            except RequestPending:
                return _Waiting(self.retries + 1 - k)
            try:
                parts = parse_reply(reply.text)
                problems = check_reply(plan, pc, [" ".join(p) for p in parts])
            except (ValueError, KeyError, TypeError) as exc:
                problems = [(0, Problem("not_json", f"the answer is not the JSON asked for: {exc}"))]
            if not problems:
                return parts
            if k < self.retries:
                self.retried.update(p.reason for _, p in problems[:1])
            listed = "\n- ".join((f"line {n}: " if n else "") + p.message for n, p in problems[:12])
            messages = [*messages[:2], {"role": "assistant", "content": reply.text},
                        {"role": "user", "content": "Fix these problems and answer the whole chat again as JSON:\n- "
                         + listed}]
        return problems[0][1]


def client_config(config: GeneratorConfig, environ: Mapping[str, str] | None = None) -> Any:
    """The client's config, resolved as for ``proevent run`` (:func:`proevent.llm.load_llm_config`):
    the generator config's ``llm`` fields that differ from their defaults > ``PROEVENT_*`` variables
    > ``llm.profile`` of ``proevent.toml`` > the realiser's defaults (a warmer temperature)."""
    from proevent.llm import load_llm_config

    def fields(cfg: LLMRealizerConfig) -> dict[str, Any]:
        return {"model": cfg.model, "base_urls": cfg.base_urls, "api_key_env": cfg.api_key_env,
                "temperature": cfg.temperature, "max_tokens": cfg.max_tokens, "concurrency": cfg.concurrency,
                "timeout_s": cfg.timeout_s, "cache": cfg.cache, "max_retries": cfg.request_retries}

    given, defaults = fields(config.llm), fields(LLMRealizerConfig())
    explicit = {k: v for k, v in given.items() if v != defaults[k]}
    return load_llm_config(profile=config.llm.profile, overrides={**explicit, "seed": config.seed},
                           defaults=defaults, environ=environ)


def _client(config: GeneratorConfig) -> Any:
    from proevent.llm import LLMClient

    return LLMClient(client_config(config))


@asynccontextmanager
async def open_llm_realizer(config: GeneratorConfig) -> AsyncIterator[LLMRealizer]:
    """The realiser with its client open for the whole generation."""
    async with _client(config) as client:
        realizer = LLMRealizer(client, config.llm)
        yield realizer
        await realizer.finish()


__all__ = ["LLMRealizer", "open_llm_realizer", "parse_reply", "skeleton_request", "system_prompt"]
