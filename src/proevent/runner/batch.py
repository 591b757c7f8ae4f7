"""The batch layer: work items, bounded workers, the append-only store, resume and progress."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from proevent.agents.protocol import QUIET, Agent
from proevent.agents.registry import create_agent, get_spec
from proevent.io import Dataset
from proevent.io.run import Key
from proevent.llm import LLMClient
from proevent.model import Case, PredictionLine
from proevent.runner.config import RunConfig, config_hash, public_config, run_identity
from proevent.runner.core import run_multi, run_single
from proevent.runner.progress import RunProgress
from proevent.runner.store import RunStore, make_manifest


@dataclass
class RunSummary:
    """What a call of the runner did."""

    path: Path
    written: int = 0
    skipped: int = 0
    errors: int = 0
    quiet: int = 0
    """Lines written for steps without new messages, answered without a request."""
    budget_reached: bool = False
    """The call stopped taking new work at ``max_cost_usd``; what is left is answered on resume."""
    usage: dict[str, Any] = field(default_factory=dict)


def select_cases(dataset: Dataset, config: RunConfig) -> list[Case]:
    cases = dataset.cases
    if config.cases:
        wanted = set(config.cases)
        unknown = wanted - {c.case_id for c in cases}
        if unknown:
            raise ValueError(f"unknown case ids: {', '.join(sorted(unknown))}")
        cases = [c for c in cases if c.case_id in wanted]
    if config.limit is not None:
        cases = cases[: config.limit]
    return cases


def _answered(existing: dict[Key, PredictionLine], retry_errors: bool) -> set[Key]:
    return {k for k, line in existing.items() if not (retry_errors and line.error)}


def plan(cases: list[Case], config: RunConfig, answered: set[Key]) -> tuple[list[tuple[Any, ...]], int, int]:
    """Work items still to do: ``("single", case, t, r)`` and ``("multi", case, r, done_lines)``.

    Returns (items, questions to answer, questions skipped). In multi-step mode a case resumes
    after its last answered step in a row; later lines of that case, if any, are answered again.
    """
    items: list[tuple[Any, ...]] = []
    todo = skipped = 0
    modes = config.modes()
    for r in range(config.repeats):
        for case in cases:
            if "single" in modes:
                for step in case.steps:
                    if (case.case_id, "single", step.t, r) in answered:
                        skipped += 1
                    else:
                        items.append(("single", case, step.t, r))
                        todo += 1
            if "multi" in modes:
                done: list[int] = []
                for step in case.steps:
                    if (case.case_id, "multi", step.t, r) not in answered:
                        break
                    done.append(step.t)
                skipped += len(done)
                if len(done) < len(case.steps):
                    items.append(("multi", case, r, done))
                    todo += len(case.steps) - len(done)
    return items, todo, skipped


async def execute(
    config: RunConfig,
    dataset: Dataset,
    out: Path,
    *,
    agent: Agent | None = None,
    client: LLMClient | None = None,
    progress: bool = True,
    force: bool = False,
    console: Console | None = None,
) -> RunSummary:
    """Run ``config`` on ``dataset`` into the folder ``out`` (created, or resumed)."""
    spec = get_spec(config.agent)
    own_client = False
    if agent is None:
        options = dict(config.agent_options)
        if spec.needs_llm:
            if config.llm is None:
                raise ValueError(f"agent {config.agent!r} needs a model: pass --model (and --base-url)")
            if client is None:
                client = LLMClient(config.llm)
                own_client = True
            options["client"] = client
        if spec.needs_gold:
            options["dataset"] = dataset
        agent = create_agent(config.agent, **options)
    description = agent.describe()
    identity = run_identity(config, description, dataset.sha256, uses_llm=spec.needs_llm)
    chash = config_hash(identity)
    manifest = make_manifest(
        agent=config.agent, description=description,
        model=config.llm.model if config.llm and spec.needs_llm else None,
        parameters=config.llm.request_params() if config.llm and spec.needs_llm else {},
        dataset=dataset.ref(Path(out)),
        extra={"config_hash": chash, "identity": identity, "config": public_config(config),
               "modes": config.modes(), "repeats": config.repeats,
               "context_messages": config.context_messages},
    )
    priced = client.priced if client is not None else True
    budget = config.max_cost_usd if client is not None else None
    if budget is not None and not priced:
        raise ValueError(f"a budget needs a priced model: {config.llm.model if config.llm else '?'} has no "
                         "price (--price-in/--price-out)")
    store = RunStore(out, manifest, identity, chash).open(force=force)
    summary = RunSummary(path=Path(out))
    try:
        cases = select_cases(dataset, config)
        items, todo, summary.skipped = plan(cases, config, _answered(store.existing, config.retry_errors))

        def over_budget() -> bool:
            spent = client.totals.cost_usd if client is not None else None
            return budget is not None and spent is not None and spent >= budget

        with RunProgress(todo, enabled=progress, console=console) as bar:

            def emit(line: PredictionLine) -> None:
                store.write(line)
                summary.written += 1
                summary.errors += line.error is not None
                summary.quiet += getattr(line, "skipped", None) == QUIET
                bar.add(line, priced=priced)

            queue: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
            for item in items:
                queue.put_nowait(item)

            async def worker() -> None:
                while True:
                    if over_budget():
                        summary.budget_reached |= not queue.empty()
                        return
                    try:
                        item = queue.get_nowait()
                    except asyncio.QueueEmpty:
                        return
                    if item[0] == "single":
                        _, case, t, r = item
                        emit(await run_single(agent, case, t, repeat=r,
                                              context_messages=config.context_messages))
                    else:
                        _, case, r, done = item
                        done_lines = {t: store.existing[(case.case_id, "multi", t, r)] for t in done}
                        await run_multi(agent, case, repeat=r, context_messages=config.context_messages,
                                        done=done_lines, emit=emit)

            await asyncio.gather(*(worker() for _ in range(min(config.concurrency, max(1, len(items))))))
    finally:
        if client is not None:
            summary.usage = client.totals.as_dict()
            if not client.priced:
                summary.usage["cost_usd"] = None
        store.write_manifest(usage=summary.usage or None)
        store.close()
        if own_client and client is not None:
            await client.aclose()
    return summary
