"""``run_agent``: the one-call Python API (the quickstart uses it)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from proevent.io import Dataset, load_dataset
from proevent.llm.config import LLMConfig, load_llm_config
from proevent.runner.batch import RunSummary, execute
from proevent.runner.config import RunConfig, RunMode


async def run_agent_async(
    dataset: Dataset | str | Path,
    agent_name: str,
    out_dir: str | Path,
    mode: RunMode = "both",
    *,
    model: str | None = None,
    base_url: str | list[str] | None = None,
    llm: LLMConfig | None = None,
    repeats: int = 1,
    concurrency: int = 16,
    limit: int | None = None,
    cases: list[str] | None = None,
    context_messages: int | None = None,
    agent_options: dict[str, Any] | None = None,
    max_cost_usd: float | None = None,
    progress: bool = False,
    force: bool = False,
) -> RunSummary:
    """Async form of :func:`run_agent`."""
    ds = dataset if isinstance(dataset, Dataset) else load_dataset(dataset)
    if llm is None and (model is not None or base_url is not None):
        llm = load_llm_config(overrides={"model": model, "base_urls": base_url, "concurrency": concurrency})
    kwargs: dict[str, Any] = {}
    if context_messages is not None:
        kwargs["context_messages"] = context_messages
    config = RunConfig(
        agent=agent_name, mode=mode, repeats=repeats, concurrency=concurrency, limit=limit, cases=cases,
        agent_options=agent_options or {}, llm=llm, max_cost_usd=max_cost_usd, **kwargs,
    )
    return await execute(config, ds, Path(out_dir), progress=progress, force=force)


def run_agent(
    dataset: Dataset | str | Path,
    agent_name: str,
    out_dir: str | Path,
    mode: RunMode = "both",
    **kwargs: Any,
) -> RunSummary:
    """Run an agent on a dataset into ``out_dir`` (``run.json`` + ``predictions.jsonl``); resumes.

    Args:
        dataset: a loaded :class:`~proevent.io.Dataset` or the path of a dataset folder.
        agent_name: a name from ``proevent agents`` (``null``, ``oracle``, ``rules``, ``plain``, ...).
        out_dir: the run folder; an existing run with the same configuration is resumed.
        mode: ``"single"``, ``"multi"`` or ``"both"``.
        **kwargs: see :func:`run_agent_async` (``model=``, ``base_url=``, ``llm=``, ``repeats=``,
            ``concurrency=``, ``limit=``, ``cases=``, ``context_messages=``, ``agent_options=``,
            ``max_cost_usd=``, ``progress=``, ``force=``).

    Returns:
        A :class:`~proevent.runner.RunSummary` (lines written, skipped, errors, usage summed from
        the lines, ``failed`` when errored lines exceed ``max_errors``, ``budget_reached``).

    Raises:
        RunStopped: the endpoint is unreachable or refuses, or kept failing (the lines written are
            kept; the same call resumes). RunLockedError: another process writes to ``out_dir``.
    """
    return asyncio.run(run_agent_async(dataset, agent_name, out_dir, mode, **kwargs))
