"""Token usage and cost. An unpriced model has cost ``None`` ("unknown"), never 0."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from proevent.llm.config import Price


@lru_cache(maxsize=1)
def price_table() -> dict[str, Price]:
    """The packaged table ``proevent/llm/data/prices.json`` (dollars per million tokens)."""
    text = resources.files("proevent.llm").joinpath("data/prices.json").read_text(encoding="utf-8")
    return {name: Price.model_validate(p) for name, p in json.loads(text)["models"].items()}


def find_price(model: str, table: dict[str, Price] | None = None) -> Price | None:
    """Exact name, else without a ``provider/`` prefix, else the longest table name that prefixes it
    followed by ``-`` (dated snapshots such as ``gpt-4o-2024-08-06``)."""
    table = price_table() if table is None else table
    for name in (model, model.rsplit("/", 1)[-1]):
        if name in table:
            return table[name]
    short = model.rsplit("/", 1)[-1]
    best = max((n for n in table if short.startswith(n + "-")), key=len, default=None)
    return table[best] if best else None


def cost_usd(price: Price | None, prompt_tokens: int, completion_tokens: int,
             cached_prompt_tokens: int = 0) -> float | None:
    """Dollars for one request; ``cached_prompt_tokens`` (a part of ``prompt_tokens``) are charged
    at ``price.cached_input`` where the table has one."""
    if price is None:
        return None
    hit = min(cached_prompt_tokens, prompt_tokens) if price.cached_input is not None else 0
    cached_rate = price.cached_input or 0.0
    return ((prompt_tokens - hit) * price.input + hit * cached_rate + completion_tokens * price.output) / 1_000_000


def cached_prompt_tokens(usage: dict[str, Any]) -> int:
    """Prompt tokens served from the server's prompt cache, as OpenAI (and vLLM, SGLang) report them
    (``prompt_tokens_details.cached_tokens``) or as DeepSeek does (``prompt_cache_hit_tokens``)."""
    details = usage.get("prompt_tokens_details")
    value = details.get("cached_tokens") if isinstance(details, dict) else None
    if value is None:
        value = usage.get("prompt_cache_hit_tokens")
    try:
        return max(0, int(value or 0))
    except (TypeError, ValueError):
        return 0


@dataclass
class UsageTotals:
    """Running totals of one client: requests sent, cache hits, tokens and cost (``None`` = unknown)."""

    requests: int = 0
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    cost_usd: float | None = 0.0
    priced: bool = True

    def add(self, prompt_tokens: int, completion_tokens: int, cost: float | None,
            cached_prompt_tokens: int = 0) -> None:
        self.prompt_tokens += prompt_tokens
        self.completion_tokens += completion_tokens
        self.cached_prompt_tokens += cached_prompt_tokens
        if cost is None:
            self.priced = False
            self.cost_usd = None
        elif self.priced and self.cost_usd is not None:
            self.cost_usd += cost

    def as_dict(self) -> dict[str, object]:
        return {
            "requests": self.requests, "cache_hits": self.cache_hits, "retries": self.retries,
            "failures": self.failures, "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens, "cached_prompt_tokens": self.cached_prompt_tokens,
            "cost_usd": round(self.cost_usd, 6) if self.cost_usd is not None else None,
        }
