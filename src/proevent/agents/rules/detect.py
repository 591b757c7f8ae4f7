"""The step detector ``gated`` uses: does a step need the model at all?

It reads the step with the ``rules`` agent's own reading and negotiation state (kept per chat
across steps, as the agent keeps it), so it knows what the agent knows: a "yes" that answers an
open proposal moves the negotiation, a "yes" to a joke does not; a day named in small talk
("rain on saturday") proposes nothing. A step needs the model when the agent would change the
timetable, or when one of its messages moves a negotiation (opens, changes, settles or drops a
proposal), cancels or asks to cancel, drops out, joins, books or asks a service for something, or proposes with a
question or a clock time values the event it is about does not hold already ("still 9 on saturday?"
and "9 yes" re-mention it), even where the agent itself goes no further (it may have misread the
event, and the model decides).

Tuned on the tuning half of ``examples/handwritten`` (bench/bench_rules.py prints its figures
on the whole set).
"""

from __future__ import annotations

from proevent.agents.protocol import Observation
from proevent.agents.rules.agent import Played, RulesAgent
from proevent.agents.rules.moves import Booked, CancelAsked, Cancellation, Dropout, Join, Proposal, Request

_NOTICED = (Cancellation, CancelAsked, Dropout, Join, Booked, Request)


def _notices(p: Played) -> bool:
    move = p.move
    if p.changed or isinstance(move, _NOTICED):
        return True
    return isinstance(move, Proposal) and not move.repeats and (move.asks or move.values.clock is not None)


class StepDetector:
    """Whether a step needs the model; keeps its own ``rules`` agent (and its chats' state)."""

    def __init__(self) -> None:
        self.agent = RulesAgent()

    def __call__(self, obs: Observation) -> bool:
        work, played = self.agent.step(obs)
        return any(_notices(p) for p in played) or bool(work.ops())


__all__ = ["StepDetector"]
