"""The LLM client: OpenAI-compatible, async, cached, rate-limited, with usage and cost."""

from proevent.llm.cache import ResponseCache, cache_key
from proevent.llm.client import Completion, LLMClient, LLMError, ToolCall, UnsupportedFeature
from proevent.llm.config import LLMConfig, Price, load_llm_config
from proevent.llm.pricing import UsageTotals, cost_usd, find_price, price_table
from proevent.llm.reasoning import split_reasoning

__all__ = [
    "Completion", "LLMClient", "LLMConfig", "LLMError", "Price", "ResponseCache", "ToolCall",
    "UnsupportedFeature", "UsageTotals", "cache_key", "cost_usd", "find_price", "load_llm_config",
    "price_table", "split_reasoning",
]

from proevent.llm import judge as _judge  # noqa: E402,F401 - registers the ``llm`` location judge
