"""The one list of agent names: lazy ``"module:factory"`` entries, so that an optional dependency
of one agent never breaks ``import proevent`` or ``proevent agents``.

An agent of one's own needs no edit here: ``--agent package.module:factory`` names its factory
directly (the current folder is importable, as with ``python -m``), and an installed package can
register names in the ``proevent.agents`` entry-point group::

    [project.entry-points."proevent.agents"]
    mine = "my_package.agent:make_agent"

The factory's keyword parameters are the options ``--option KEY=VALUE`` may set (checked against
their annotations when they are ``str``, ``int``, ``float`` or ``bool``); a factory that reads
``client`` gets the LLM client (and the run needs ``--model``), one that reads ``dataset`` the
dataset (only an oracle should).
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from dataclasses import dataclass
from importlib.metadata import entry_points
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


_LLM_OPTIONS: tuple[tuple[str, type], ...] = (("prompt_version", str), ("repair", bool), ("skip_quiet", bool),
                                              ("update_prompt", bool))
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


ENTRY_POINT_GROUP = "proevent.agents"
_SIMPLE_TYPES: dict[Any, type] = {t: t for t in (str, int, float, bool)} | {
    t.__name__: t for t in (str, int, float, bool)}


def agent_names() -> list[str]:
    """The built-in agents; :func:`plugin_specs` lists the installed plug-ins."""
    return list(AGENTS)


def plugin_specs(*, resolve: bool = False) -> list[AgentSpec]:
    """The agents installed packages register in the ``proevent.agents`` entry-point group (a
    plug-in never shadows a built-in name). ``resolve`` imports each to read its options and
    summary; one that cannot be imported is listed with the reason."""
    specs = []
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if ep.name in AGENTS:
            continue
        dist = getattr(ep.dist, "name", None)
        summary = f"plug-in{f' from {dist}' if dist else ''}: {ep.value}"
        try:
            specs.append(_plugin_spec(ep.name, ep.value, summary) if resolve else AgentSpec(ep.name, ep.value, summary))
        except ValueError as exc:
            specs.append(AgentSpec(ep.name, ep.value, f"{summary} ({exc})"))
    return specs


def _load_factory(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())  # `--agent my_agent:make` from the folder that holds my_agent.py
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"agent {target!r}: cannot import {module_name!r} ({exc})") from None
    factory = module
    for part in attr.split("."):
        factory = getattr(factory, part, None)
        if factory is None:
            raise ValueError(f"agent {target!r}: module {module_name!r} has no {attr!r}")
    if not callable(factory):
        raise ValueError(f"agent {target!r}: {attr!r} is not callable")
    return factory


def _plugin_spec(name: str, target: str, summary: str) -> AgentSpec:
    """A spec from the factory's signature: its keyword parameters are its options."""
    factory = _load_factory(target)
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        params = []
    names = {p.name for p in params}
    options = tuple((p.name, _SIMPLE_TYPES.get(p.annotation, object)) for p in params
                    if p.name not in WIRING and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))
    doc = (inspect.getdoc(factory) or "").strip().splitlines()
    text = " ".join(x for x in (doc[0] if doc else "", f"({summary})" if summary else "") if x)
    return AgentSpec(name, target, text or target, needs_llm="client" in names,
                     needs_gold="dataset" in names, options=options)


def get_spec(name: str) -> AgentSpec:
    """A built-in agent, a plug-in of the ``proevent.agents`` group, or ``package.module:factory``."""
    if name in AGENTS:
        return AGENTS[name]
    if ":" in name:
        module_name, _, attr = name.partition(":")
        if not module_name or not attr:
            raise ValueError(f"agent {name!r}: give it as package.module:factory")
        return _plugin_spec(name, name, "")
    for spec in plugin_specs():
        if spec.name == name:
            return _plugin_spec(name, spec.target, spec.summary)
    known = [*AGENTS, *(s.name for s in plugin_specs())]
    raise ValueError(f"unknown agent {name!r}; known agents: {', '.join(known)} "
                     "(or an agent of your own as package.module:factory)") from None


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
        if kind is object:  # a plug-in's parameter without a simple annotation takes what it is given
            continue
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            continue
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ValueError(f"--option {key}: agent {name!r} takes a {kind.__name__} for {key!r}, "
                             f"got {value!r}")
        if kind is int and value < 1 and name in AGENTS:
            raise ValueError(f"--option {key}: agent {name!r} takes a positive {key!r}, got {value!r}")


def create_agent(name: str, **options: Any) -> Agent:
    """Import the agent's module only now and build it with ``options`` (checked first: see
    :func:`check_options`).

    LLM agents take ``client=`` (an :class:`~proevent.llm.LLMClient`); the oracle takes ``dataset=``.
    """
    spec = get_spec(name)
    check_options(name, options)
    if name in AGENTS:
        module_name, _, attr = spec.target.partition(":")
        return getattr(importlib.import_module(module_name), attr)(**options)
    agent = _load_factory(spec.target)(**options)
    if not isinstance(agent, Agent):
        raise ValueError(f"agent {name!r}: {spec.target} returned {type(agent).__name__}, which has no "
                         "name, async act(observation) and describe() (see proevent.agents.Agent)")
    return agent
