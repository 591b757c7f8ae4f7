"""Batch rounds of a run: what a question left pending in the batch file still needs at most.

A question asks its requests one after the other (a repair follows the first answer, a tool round
the tool calls, a multi-step case's step t the answer of step t-1), so a run through batch files
takes rounds: each exports the requests that can be asked now. The bounds come from the agent's
description: ``tools`` takes at most ``max_rounds`` requests a question, the prompt strategies one
plus one repair request (``repair``). Steps without new messages take none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from proevent.model import Case


def requests_per_question(description: dict[str, Any]) -> int:
    """The most requests one question can take with this agent (a repair or tool round included)."""
    if description.get("strategy") == "tools" or description.get("inner") == "tools":
        return max(1, int(description.get("max_rounds") or 6))
    return 2 if description.get("repair", True) else 1


@dataclass
class PendingWork:
    """Questions left pending in this round, and what they need at most from here on."""

    questions: int = 0
    max_requests: int = 0
    max_rounds: int = 0

    def add(self, per_question: int, answered: int, later_steps: int = 0) -> None:
        """A question pending after ``answered`` requests of it were answered, followed (multi-step
        mode) by ``later_steps`` steps with messages of the same case, asked after it."""
        bound = max(1, per_question - answered) + per_question * later_steps
        self.questions += 1 + later_steps
        self.max_requests += bound
        self.max_rounds = max(self.max_rounds, bound)


def later_steps_with_messages(case: Case, t: int) -> int:
    """Steps of ``case`` after step ``t`` that have new messages (the others take no request)."""
    return sum(1 for step in case.steps if step.t > t and step.messages)


__all__ = ["PendingWork", "later_steps_with_messages", "requests_per_question"]
