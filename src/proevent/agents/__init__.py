"""Agents: the protocol, the registry (one list of names), baselines and LLM strategies."""

from proevent.agents.protocol import (
    DEFAULT_CONTEXT_MESSAGES,
    Action,
    Agent,
    ChatUpdate,
    Observation,
    build_observation,
)
from proevent.agents.registry import AGENTS, AgentSpec, agent_names, create_agent, get_spec

__all__ = [
    "AGENTS", "DEFAULT_CONTEXT_MESSAGES", "Action", "Agent", "AgentSpec", "ChatUpdate", "Observation",
    "agent_names", "build_observation", "create_agent", "get_spec",
]
