"""Baselines without a model: ``null`` never acts; ``oracle`` returns the gold operations."""

from __future__ import annotations

from typing import Any

from proevent.agents.protocol import Action, Observation
from proevent.model import op_to_json


class NullAgent:
    """Never acts: every prediction is empty."""

    name = "null"
    reads_chats = False

    def __init__(self, **_options: Any) -> None:
        pass

    async def act(self, obs: Observation) -> Action:
        return Action(ops=[])

    def describe(self) -> dict[str, Any]:
        return {"strategy": "null"}


class OracleAgent:
    """Returns the gold operations G_t of the step.

    In multi-step mode its own timetable stays equal to the gold one (same history, so the id
    rule gives the same ids), so the gold operations apply there too. It must score 100% on
    every defined metric: anything less is a bug in the runner or the evaluator.
    """

    name = "oracle"
    reads_chats = False  # it reads the gold of the step it is asked about

    def __init__(self, dataset: Any, **_options: Any) -> None:
        self._dataset = dataset

    async def act(self, obs: Observation) -> Action:
        step = self._dataset.case(obs.case_id).steps[obs.t - 1]
        return Action(ops=[op_to_json(op) for op in step.gold_ops])

    def describe(self) -> dict[str, Any]:
        return {"strategy": "oracle"}
