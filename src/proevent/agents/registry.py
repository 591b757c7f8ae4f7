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
    options: tuple[tuple[str, type], ...] = ()
    """The options a user may set (``--option KEY=VALUE``) and their types; any other is refused."""


_LLM_OPTIONS: tuple[tuple[str, type], ...] = (("prompt_version", str), ("repair", bool), ("skip_quiet", bool))
_TOOLS_OPTIONS = (*_LLM_OPTIONS, ("max_rounds", int))
WIRING = frozenset({"client", "dataset"})
"""What the runner passes itself (the LLM client, the oracle's dataset): never a user option."""

AGENTS: dict[str, AgentSpec] = {
    spec.name: spec
    for spec in (
        AgentSpec("null", "proevent.agents.baselines:NullAgent", "never acts (FDR 0, MNR 1)"),
        AgentSpec("oracle", "proevent.agents.baselines:OracleAgent",
                  "returns the gold operations: a check of the whole pipeline", needs_gold=True),
        AgentSpec("rules", "proevent.agents.rules.agent:RulesAgent",
                  "offline extractor: dateparser and cue words, no model"),
        AgentSpec("plain", "proevent.agents.llm.strategies:make_plain",
                  "LLM, the paper's base prompt", needs_llm=True,
                  options=_LLM_OPTIONS),
        AgentSpec("proactive", "proevent.agents.llm.strategies:make_proactive",
                  "LLM, encouraged to act (paper's Proactive)", needs_llm=True,
                  options=_LLM_OPTIONS),
        AgentSpec("procot", "proevent.agents.llm.strategies:make_procot",
                  "LLM, reasons whether a response is needed first (paper's ProCoT)", needs_llm=True,
                  options=_LLM_OPTIONS),
        AgentSpec("tools", "proevent.agents.llm.tools_agent:make_tools",
                  "LLM with calendar tools (function calling) and a first-person check", needs_llm=True,
                  options=_TOOLS_OPTIONS),
        AgentSpec("gated", "proevent.agents.llm.gated:make_gated",
                  "the rules detector decides whether a step needs the model at all", needs_llm=True,
                  options=(*_TOOLS_OPTIONS, ("inner", str))),
    )
}


def agent_names() -> list[str]:
    return list(AGENTS)


def get_spec(name: str) -> AgentSpec:
    try:
        return AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(AGENTS)}") from None


def check_options(name: str, options: dict[str, Any]) -> None:
    """Refuse an option the agent does not have, or a value of the wrong type, with a message that
    lists what the agent takes (``--option frobnicate=1`` is a usage error, not a traceback).

    Raises:
        ValueError: naming the agent, the option and what is allowed.
    """
    spec = get_spec(name)
    allowed = dict(spec.options)
    if name == "gated" and options.get("inner", "procot") != "tools":
        allowed.pop("max_rounds")  # only the tools strategy has rounds
    for key, value in options.items():
        if key in WIRING:
            continue
        if key not in allowed:
            takes = (f"its options: {', '.join(allowed)}" if allowed else "it takes no options")
            raise ValueError(f"--option {key}: agent {name!r} has no option {key!r}; {takes}")
        kind = allowed[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ValueError(f"--option {key}: agent {name!r} takes a {kind.__name__} for {key!r}, "
                             f"got {value!r}")
        if kind is int and value < 1:
            raise ValueError(f"--option {key}: agent {name!r} takes a positive {key!r}, got {value!r}")


def create_agent(name: str, **options: Any) -> Agent:
    """Import the agent's module only now and build it with ``options`` (checked first: see
    :func:`check_options`).

    LLM agents take ``client=`` (an :class:`~proevent.llm.LLMClient`); the oracle takes ``dataset=``.
    """
    spec = get_spec(name)
    check_options(name, options)
    module_name, _, attr = spec.target.partition(":")
    factory = getattr(importlib.import_module(module_name), attr)
    return factory(**options)
