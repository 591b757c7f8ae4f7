"""The ``llm`` realiser: an OpenAI-compatible model rewrites each chat skeleton into natural text.

The model gets the skeleton (speakers, intents, send times, the exact values each line must
express and a template draft) and answers JSON. Every reply is checked on its text with the
validator's own reading of dates, times, places and names: each required value must be
expressed and no other day or time may be mentioned. A failing reply is retried with the
problems listed; after ``llm.retries`` retries the chat, and with it the case attempt, is dropped
(counted as ``llm_check_failed``).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from datetime import date
from importlib import resources
from typing import Any

from proevent.generate.assemble import CasePlan, CaseRejected, PlannedChat, finish_case, plan_case
from proevent.generate.config import GeneratorConfig
from proevent.generate.contacts import contact_pool
from proevent.generate.realize.template import realize_chat_template
from proevent.generate.timeexpr import date_mentions, time_mentions
from proevent.generate.validate import _norm

_INTENT_WORDS = {
    "cancel_implicit": "cancel (implicit)", "accept_later": "accept (after checking)",
    "interjection": "small talk", "user_dropout": "user drops out", "self_dropout": "drops out",
}


def system_prompt() -> str:
    return resources.files("proevent.generate").joinpath("data").joinpath("llm_prompt.txt").read_text("utf-8")


def _required(pc: PlannedChat, i: int) -> dict[str, str]:
    s = pc.lines[i].slots
    need: dict[str, str] = {}
    when = s.get("when") or s.get("time")
    if pc.lines[i].intent in ("accept", "accept_later") or s.get("ref") is not None:
        return need  # an echo is optional; a reference ("same place as last time") carries the value
    if when:
        start, end = when  # type: ignore[misc]
        if pc.lines[i].intent != "fill_time":  # the day was settled before; only the time is new
            need["day"] = f"{start[:10]} ({date.fromisoformat(start[:10]).strftime('%A')})"
        need["start"] = start[11:16]
        if end:
            need["end"] = end[11:16] if end[:10] == start[:10] else end.replace("T", " ")
    elif s.get("day"):
        d = str(s["day"])
        need["day"] = f"{d} ({date.fromisoformat(d).strftime('%A')})"
    if s.get("place"):
        need["place"] = str(s["place"])
    if s.get("person") and pc.lines[i].intent == "add_person":
        need["person"] = str(s["person"])
    return need


def skeleton_request(plan: CasePlan, pc: PlannedChat, drafts: list[str]) -> dict[str, Any]:
    profiles = {p.name: p for p in contact_pool().profiles}
    people = []
    for m in pc.chat.members:
        p = profiles.get(m)
        people.append({"name": m, "is_user": m == plan.user,
                       "relation": "the user" if m == plan.user else (p.relation if p else "acquaintance"),
                       "voice": pc.ctx.voice(m)})
    lines = []
    for i, (ln, at) in enumerate(zip(pc.lines, pc.times)):
        item = {"i": i + 1, "time": at.strftime("%Y-%m-%d %a %H:%M"), "speaker": ln.speaker,
                "intent": _INTENT_WORDS.get(ln.intent, ln.intent.replace("_", " ")),
                "must_express": _required(pc, i), "draft": drafts[i]}
        if ln.slots.get("ref") is not None:
            ref = pc.ctx.refs[int(ln.slots["ref"])]  # type: ignore[arg-type]
            item["refers_to"] = f"{ref.state.description} ({ref.state.start}, {ref.state.location})"
        lines.append(item)
    return {"chat": {"name": pc.chat.name, "type": pc.chat.type}, "people": people, "lines": lines}


def _places(pc: PlannedChat) -> list[str]:
    names = {str(ln.slots["place"]) for ln in pc.lines if ln.slots.get("place")}
    names |= {r.state.location for r in pc.ctx.refs if r.state.location}
    return sorted(names, key=len, reverse=True)


def _mask(text: str, places: list[str]) -> str:
    """Hide place names before looking for dates ("the Sports Bar on 4th" is not the 4th)."""
    for place in places:
        text = re.sub(re.escape(place), "<place>", text, flags=re.I)
    return text


def _allowed(pc: PlannedChat) -> tuple[set[date], set[tuple[int, int]]]:
    days: set[date] = set()
    times: set[tuple[int, int]] = set()
    values: list[str] = []
    for ln in pc.lines:
        for key in ("when", "time"):
            if ln.slots.get(key):
                values += [v for v in ln.slots[key] if v]  # type: ignore[union-attr]
        if ln.slots.get("day"):
            values.append(str(ln.slots["day"]))
        if ln.slots.get("ref") is not None:
            ref = pc.ctx.refs[int(ln.slots["ref"])]  # type: ignore[arg-type]
            values += [v for v in (ref.state.start, ref.state.end) if v]
    days |= {at.date() for at in pc.times}  # "I'll tell you tonight" is about the send day
    for v in values:
        days.add(date.fromisoformat(v[:10]))
        if len(v) == 16:
            h, m = int(v[11:13]), int(v[14:16])
            times |= {(h, m), ((h + 12) % 24, m)}
    return days, times


def check_reply(pc: PlannedChat, texts: list[str]) -> list[str]:
    """Problems of a realised chat: missing values, other days or times, wrong line count."""
    if len(texts) != len(pc.lines):
        return [f"expected {len(pc.lines)} messages, got {len(texts)}"]
    problems: list[str] = []
    days, times = _allowed(pc)
    places = _places(pc)
    for i, (at, text) in enumerate(zip(pc.times, texts)):
        masked = _mask(text, places)
        day_mentions = date_mentions(masked, at)
        hm_mentions = time_mentions(masked)
        found_days = set().union(*day_mentions)
        found_times = set().union(*hm_mentions)
        need = _required(pc, i)
        if "day" in need and date.fromisoformat(need["day"][:10]) not in found_days:
            problems.append(f"line {i + 1}: the day {need['day']} is not expressed")
        for key in ("start", "end"):
            if key in need and len(need[key]) == 5:
                hm = (int(need[key][:2]), int(need[key][3:]))
                if hm not in found_times:
                    problems.append(f"line {i + 1}: the {key} time {need[key]} is not expressed")
        if "place" in need and f" {_norm(need['place'])} " not in f" {_norm(text)} ":
            problems.append(f"line {i + 1}: the place {need['place']!r} is not named exactly")
        if "person" in need and not any(t in _norm(text).split() for t in _norm(need["person"]).split()):
            problems.append(f"line {i + 1}: {need['person']} is not named")
        other_days = sorted(min(c).isoformat() for c in day_mentions if not c & days)
        other_times = sorted(f"{h:02d}:{m:02d}" for c in hm_mentions if not c & times for h, m in [min(c)])
        if other_days or other_times:
            problems.append(f"line {i + 1}: mentions a day or time that contradicts the plan "
                            f"({', '.join(other_days + other_times)})")
    return problems


def parse_reply(text: str) -> list[str]:
    start, end = text.find("{"), text.rfind("}")
    data = json.loads(text[start:end + 1] if start >= 0 else text)
    items = data["messages"]
    items = sorted(items, key=lambda m: int(m["i"]))
    return [str(m["text"]).strip() for m in items]


async def realize_chat_llm(client: Any, plan: CasePlan, pc: PlannedChat, drafts: list[str], retries: int,
                           attempt: int) -> bool:
    """Fill ``pc.texts`` from the model; ``False`` when no reply passed the check."""
    request = json.dumps(skeleton_request(plan, pc, drafts), ensure_ascii=False)
    messages: list[dict[str, Any]] = [{"role": "system", "content": system_prompt()},
                                      {"role": "user", "content": request}]
    for k in range(retries + 1):
        try:
            reply = await client.chat(messages, json_mode=True, repeat=attempt * 100 + k)
            texts = parse_reply(reply.text)
            problems = check_reply(pc, texts)
        except (ValueError, KeyError, TypeError) as exc:
            problems, reply = [f"the answer is not the JSON asked for: {exc}"], None
        if not problems:
            pc.texts = texts
            return True
        messages = [*messages[:2], {"role": "assistant", "content": reply.text if reply else ""},
                    {"role": "user", "content": "Fix these problems and answer the whole chat again as JSON:\n- "
                     + "\n- ".join(problems[:12])}]
    return False


def _client(config: GeneratorConfig) -> Any:
    from proevent.llm import LLMClient
    from proevent.llm import LLMConfig as ClientConfig

    cfg = config.llm
    base = cfg.base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    return LLMClient(ClientConfig(model=cfg.model, base_urls=[base], api_key_env=cfg.api_key_env,
                                  temperature=cfg.temperature, seed=config.seed, max_tokens=cfg.max_tokens,
                                  concurrency=cfg.concurrency, timeout_s=cfg.timeout_s, cache=cfg.cache,
                                  max_retries=cfg.request_retries))


async def _generate(config: GeneratorConfig, progress: Any) -> Any:
    from collections import Counter

    from proevent.generate.pipeline import GenerationResult, checked, text_rng

    rejected: Counter[str] = Counter()
    done = 0

    async def one(client: Any, index: int) -> Any:
        nonlocal done
        try:
            for attempt in range(config.max_attempts):
                try:
                    plan = plan_case(index, attempt, config)
                except CaseRejected as exc:
                    rejected[exc.reason] += 1
                    continue
                rng = text_rng(config, index, attempt)
                drafts = [realize_chat_template(pc.lines, pc.times, pc.ctx, rng) for pc in plan.chats]
                oks = await asyncio.gather(*(realize_chat_llm(client, plan, pc, d, config.llm.retries, attempt)
                                             for pc, d in zip(plan.chats, drafts)))
                if not all(oks):
                    rejected["llm_check_failed"] += 1
                    continue
                plan.meta["realizer"] = f"llm:{config.llm.model}"
                try:
                    return checked(finish_case(plan))
                except CaseRejected as exc:
                    rejected[exc.reason] += 1
            return None
        finally:
            done += 1
            if progress:
                progress(done, config.cases)

    async with _client(config) as client:
        results = await asyncio.gather(*(one(client, i) for i in range(config.cases)))
    cases = [c for c in results if c is not None]
    return GenerationResult(cases, dict(sorted(rejected.items())), sum(1 for c in results if c is None))


def generate_llm(config: GeneratorConfig, progress: Any = None) -> Any:
    """Generate with the ``llm`` realiser (runs its own event loop)."""
    return asyncio.run(_generate(config, progress))


__all__ = ["check_reply", "generate_llm", "parse_reply", "skeleton_request", "system_prompt"]
