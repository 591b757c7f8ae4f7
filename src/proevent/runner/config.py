"""The run configuration: one pydantic model (``extra="forbid"``) that the CLI and the API build.

Its *identity* — what determines the predictions — is hashed; resuming into a run folder whose
hash differs is refused (see :mod:`proevent.runner.store`). Concurrency, limits, case selection,
base URLs and the number of repeats are not part of the identity: changing them and resuming is
safe (more repeats or more cases simply add lines).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from proevent.agents.protocol import DEFAULT_CONTEXT_MESSAGES
from proevent.llm.config import LLMConfig
from proevent.runner.secrets import redact_url

RunMode = Literal["single", "multi", "both"]


class RunConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    agent: str
    mode: RunMode = "both"
    repeats: int = Field(default=1, ge=1)
    limit: int | None = Field(default=None, ge=1)
    """Run only the first N cases (after ``cases`` selection)."""
    cases: list[str] | None = None
    concurrency: int = Field(default=16, ge=1)
    context_messages: int = Field(default=DEFAULT_CONTEXT_MESSAGES, ge=0)
    agent_options: dict[str, Any] = Field(default_factory=dict)
    llm: LLMConfig | None = None
    retry_errors: bool = True
    """On resume, answer again the questions whose line has an error (the last line counts)."""
    max_cost_usd: float | None = Field(default=None, gt=0)
    """A budget for the whole run (a priced model only): what earlier calls spent counts. New work
    stops once the run has spent this many dollars; the work in flight finishes, and running again
    with a higher budget resumes."""
    max_errors: int | None = Field(default=None, ge=0)
    """The run fails (``RunSummary.failed``) when more of its lines than this are errored; ``None``:
    it fails on any line whose request failed (answers the agent could not parse do not count)."""
    max_consecutive_failures: int = Field(default=8, ge=1)
    """The circuit breaker: stop the run after this many failed requests in a row."""
    preflight: bool = True
    """Ask each base URL for its models list before the run: a dead or refusing endpoint stops it at once."""

    def modes(self) -> list[str]:
        return ["single", "multi"] if self.mode == "both" else [self.mode]


def run_identity(
    config: RunConfig, agent_description: dict[str, Any], dataset_sha256: str, *, uses_llm: bool = True
) -> dict[str, Any]:
    """What determines the predictions of a run (and nothing that only changes how fast it goes).

    The model and its parameters count only for agents that use a model (``uses_llm``).
    """
    description = dict(agent_description)
    if isinstance(description.get("prompt"), dict):  # the text is in run.json's "prompt"; its hash suffices
        description["prompt"] = description["prompt"].get("sha256")
    identity: dict[str, Any] = {
        "agent": config.agent,
        "agent_options": config.agent_options,
        "context_messages": config.context_messages,
        "dataset_sha256": dataset_sha256,
        "agent_description": description,
    }
    if config.llm is not None and uses_llm:
        identity["llm"] = {
            "model": config.llm.model,
            "parameters": config.llm.request_params(),
            "json_mode": config.llm.json_mode,
        }
    return identity


def config_hash(identity: dict[str, Any]) -> str:
    blob = json.dumps(identity, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def public_config(config: RunConfig) -> dict[str, Any]:
    """The config as recorded in ``run.json``: JSON, paths as strings, no key (it is never in it)."""
    data = config.model_dump(mode="json")
    if isinstance(data.get("llm"), dict) and data["llm"].get("cache_path") is not None:
        data["llm"]["cache_path"] = str(Path(data["llm"]["cache_path"]))
    if isinstance(data.get("llm"), dict) and isinstance(data["llm"].get("base_urls"), list):
        data["llm"]["base_urls"] = [redact_url(str(u)) for u in data["llm"]["base_urls"]]
    return data
