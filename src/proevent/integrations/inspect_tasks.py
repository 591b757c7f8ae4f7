"""inspect_ai tasks ``proevent_single`` and ``proevent_multi`` (extra ``proevent[inspect]``).

Registered through the ``inspect_ai`` entry point of the package, so, with proevent installed::

    inspect eval proevent/proevent_single -T dataset=path/to/dataset --model openai/gpt-4o-mini
    inspect eval proevent/proevent_multi -T dataset=path/to/dataset -T agent=procot --model ...

and usable as a file too: ``inspect eval src/proevent/integrations/inspect_tasks.py@proevent_single``.

Samples: ``proevent_single`` has one sample per single-step question (id ``<case>/<t>``),
``proevent_multi`` one per case (id ``<case>``); inspect epochs are proevent repeats. The solver
is a proevent agent (:mod:`~proevent.integrations.inspect_solver`), the scorer proevent's
evaluator (:mod:`~proevent.integrations.inspect_scorer`). ``proevent import-inspect LOG --out RUN``
turns the log into a run folder that ``proevent evaluate`` scores to the same figures.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample

from proevent.agents import build_observation
from proevent.agents.llm.prompts import build_messages
from proevent.evaluate.judges import LATEST_VERSION, default_judge
from proevent.integrations.inspect_scorer import multi_metrics, proevent_epochs, proevent_scorer, single_metrics
from proevent.integrations.inspect_solver import cached_dataset, proevent_agent
from proevent.io import Dataset
from proevent.model import Timetable, op_to_json

TASK_FORMAT = "proevent.inspect/1"


def _select(ds: Dataset, cases: str | list[str] | None) -> list[Any]:
    if cases is None:
        return list(ds.cases)
    ids = [c for item in ([cases] if isinstance(cases, str) else cases) for c in str(item).split(",") if c]
    return [ds.case(c) for c in ids]


def _question_text(case: Any, t: int, context_messages: int) -> str:
    obs = build_observation(case, t, Timetable(case.timetable_before(t)), mode="single",
                            context_messages=context_messages)
    return build_messages("plain", obs)[-1]["content"]


def single_samples(ds: Dataset, cases: str | list[str] | None = None, context_messages: int = 20) -> list[Sample]:
    """One sample per single-step question; the input is the question as the user prompt shows it."""
    out = []
    for case in _select(ds, cases):
        for step in case.steps:
            out.append(Sample(
                id=f"{case.case_id}/{step.t}",
                input=_question_text(case, step.t, context_messages),
                target=[json_text(step.gold_ops)],
                metadata={"case_id": case.case_id, "t": step.t, "mode": "single",
                          "category": case.meta.get("category")},
            ))
    return out


def multi_samples(ds: Dataset, cases: str | list[str] | None = None) -> list[Sample]:
    """One sample per case; the agent runs every step on its own timetable."""
    out = []
    for case in _select(ds, cases):
        final = case.timetable_before(len(case.steps) + 1)
        out.append(Sample(
            id=case.case_id,
            input=(f"Case {case.case_id}: keep {case.user}'s timetable up to date over {len(case.steps)} "
                   f"steps from {case.start}."),
            target=[json_text([e.model_dump(mode="json") for e in final])],
            metadata={"case_id": case.case_id, "mode": "multi", "steps": len(case.steps),
                      "category": case.meta.get("category")},
        ))
    return out


def json_text(items: Any) -> str:
    import json

    return json.dumps([op_to_json(x) if hasattr(x, "op") else x for x in items], ensure_ascii=False)


def _metadata(ds: Dataset, mode: str, agent: str, judge: str, context_messages: int,
              agent_options: dict[str, Any] | None) -> dict[str, Any]:
    return {
        "format": TASK_FORMAT, "mode": mode, "agent": agent, "judge": judge,
        "context_messages": context_messages, "agent_options": agent_options or {},
        "dataset": {"name": ds.manifest.name, "version": ds.manifest.version, "sha256": ds.sha256,
                    "path": str(ds.path)},
    }


def resolve_dataset_path(dataset: str) -> str:
    """The dataset folder as an absolute path, fixed when the task is created.

    inspect creates a task given as a file inside that file's folder, so a relative path is
    looked up there first (inspect's convention), then in the folder the command was started
    from (``$PWD``), so that ``-T dataset=data/small`` works both ways.
    """
    path = Path(dataset).expanduser()
    if path.is_absolute():
        return str(path)
    candidates = [Path.cwd() / path]
    if os.environ.get("PWD"):
        candidates.append(Path(os.environ["PWD"]) / path)
    for candidate in candidates:
        if candidate.is_dir():
            return str(candidate.resolve())
    return str(candidates[0])


def _task(mode: str, dataset: str, agent: str, judge: str | None, context_messages: int,
          cases: str | list[str] | None, agent_options: dict[str, Any] | None) -> Task:
    judge = judge or default_judge(LATEST_VERSION)
    dataset = resolve_dataset_path(str(dataset))
    ds = cached_dataset(dataset)
    samples = (single_samples(ds, cases, context_messages) if mode == "single" else multi_samples(ds, cases))
    return Task(
        dataset=MemoryDataset(samples, name=ds.manifest.name, location=str(ds.path)),
        solver=proevent_agent(str(dataset), agent=agent, context_messages=context_messages,
                              agent_options=agent_options),
        scorer=proevent_scorer(str(dataset), judge=judge),
        metrics=single_metrics() if mode == "single" else multi_metrics(),
        epochs=Epochs(1, proevent_epochs()),
        metadata=_metadata(ds, mode, agent, judge, context_messages, agent_options),
        version=1,
    )


@task
def proevent_single(
    dataset: str,
    agent: str = "plain",
    judge: str | None = None,
    context_messages: int = 20,
    cases: str | None = None,
    agent_options: dict[str, Any] | None = None,
) -> Task:
    """Single-step (teacher-forced) questions of a proevent dataset.

    Args:
        dataset: path of the dataset folder (cases.jsonl + dataset.json).
        agent: a proevent agent (``plain``, ``proactive``, ``procot``; ``null`` or ``oracle`` need no model).
        judge: offline location judge, ``exact``, ``fuzzy`` or ``places`` (default: the metrics version's).
        context_messages: earlier messages of each chat shown as context (K).
        cases: only these case ids (comma-separated).
        agent_options: keyword options of the agent.
    """
    return _task("single", dataset, agent, judge, context_messages, cases, agent_options)


@task
def proevent_multi(
    dataset: str,
    agent: str = "plain",
    judge: str | None = None,
    context_messages: int = 20,
    cases: str | None = None,
    agent_options: dict[str, Any] | None = None,
) -> Task:
    """Multi-step (free-running) cases: the agent's own timetable is carried from step to step.

    Args: as :func:`proevent_single`.
    """
    return _task("multi", dataset, agent, judge, context_messages, cases, agent_options)


__all__ = ["TASK_FORMAT", "multi_samples", "proevent_multi", "proevent_single", "single_samples"]
