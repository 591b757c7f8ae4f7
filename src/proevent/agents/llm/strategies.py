"""Factories of the paper's strategies (registered in :mod:`proevent.agents.registry`)."""

from __future__ import annotations

from typing import Any

from proevent.agents.llm.base import LLMAgent
from proevent.llm import LLMClient


def make_plain(client: LLMClient, **options: Any) -> LLMAgent:
    """The paper's base prompt: instructions, the operation format, the timetable and the messages."""
    return LLMAgent(client, "plain", **options)


def make_proactive(client: LLMClient, **options: Any) -> LLMAgent:
    """The paper's Proactive pipeline: the base prompt, encouraged to act."""
    return LLMAgent(client, "proactive", **options)


def make_procot(client: LLMClient, **options: Any) -> LLMAgent:
    """The paper's ProCoT: reason whether a response is needed, then answer."""
    return LLMAgent(client, "procot", **options)
