"""``gated``: the ``rules`` step detector decides whether a step needs the model at all.

A step whose new messages move no negotiation, as the ``rules`` agent reads them with its kept
per-chat state (:mod:`proevent.agents.rules.detect`), gets an empty answer without a request:
fewer false detections (the paper's LLMs over-react) and a lower cost.
"""

from __future__ import annotations

from typing import Any

from proevent.agents.llm.base import LLMAgent
from proevent.agents.llm.tools_agent import ToolsAgent
from proevent.agents.protocol import Action, Observation
from proevent.agents.rules.cues import load_cues
from proevent.agents.rules.detect import StepDetector
from proevent.llm import LLMClient

INNER = ("plain", "proactive", "procot", "tools")


class GatedAgent:
    name = "gated"

    def __init__(self, client: LLMClient, *, inner: str = "procot", **options: Any) -> None:
        if inner not in INNER:
            raise ValueError(f"gated: inner must be one of {', '.join(INNER)}, not {inner!r}")
        self.inner_name = inner
        self.detector = StepDetector()
        self.inner = ToolsAgent(client, **options) if inner == "tools" else LLMAgent(client, inner, **options)

    def describe(self) -> dict[str, Any]:
        inner = self.inner.describe()
        return {**inner, "strategy": "gated", "inner": self.inner_name, "cues_version": load_cues().version}

    async def act(self, obs: Observation) -> Action:
        if not self.detector(obs):
            return Action(ops=[], latency_s=0.0, extra={"gate": "skipped"})
        action = await self.inner.act(obs)
        action.extra["gate"] = "model"
        return action


def make_gated(client: LLMClient, **options: Any) -> GatedAgent:
    return GatedAgent(client, **options)
