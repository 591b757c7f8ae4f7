"""The one list of agent names: lazy ``"module:factory"`` entries, so that an optional dependency
of one agent never breaks ``import proevent`` or ``proevent agents``."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from proevent.agents.protocol import Agent


@dataclass(frozen=True)
class AgentSpec:
    name: str
    target: str
    """``"module:factory"``; the factory takes keyword options and returns an :class:`Agent`."""
    summary: str
    needs_llm: bool = False
    needs_gold: bool = False
    """Only the ``oracle``: the runner hands it the dataset."""


AGENTS: dict[str, AgentSpec] = {
    spec.name: spec
    for spec in (
        AgentSpec("null", "proevent.agents.baselines:NullAgent", "never acts (FDR 0, MNR 1)"),
        AgentSpec("oracle", "proevent.agents.baselines:OracleAgent",
                  "returns the gold operations: a check of the whole pipeline", needs_gold=True),
        AgentSpec("rules", "proevent.agents.rules.agent:RulesAgent",
                  "offline extractor: dateparser and cue words, no model"),
        AgentSpec("plain", "proevent.agents.llm.strategies:make_plain",
                  "LLM, the paper's base prompt", needs_llm=True),
        AgentSpec("proactive", "proevent.agents.llm.strategies:make_proactive",
                  "LLM, encouraged to act (paper's Proactive)", needs_llm=True),
        AgentSpec("procot", "proevent.agents.llm.strategies:make_procot",
                  "LLM, reasons whether a response is needed first (paper's ProCoT)", needs_llm=True),
        AgentSpec("tools", "proevent.agents.llm.tools_agent:make_tools",
                  "LLM with calendar tools (function calling) and a first-person check", needs_llm=True),
        AgentSpec("gated", "proevent.agents.llm.gated:make_gated",
                  "the rules detector decides whether a step needs the model at all", needs_llm=True),
    )
}


def agent_names() -> list[str]:
    return list(AGENTS)


def get_spec(name: str) -> AgentSpec:
    try:
        return AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(AGENTS)}") from None


def create_agent(name: str, **options: Any) -> Agent:
    """Import the agent's module only now and build it with ``options``.

    LLM agents take ``client=`` (an :class:`~proevent.llm.LLMClient`); the oracle takes ``dataset=``.
    """
    spec = get_spec(name)
    module_name, _, attr = spec.target.partition(":")
    factory = getattr(importlib.import_module(module_name), attr)
    return factory(**options)
