"""The step detector ``gated`` uses: does a step need the model at all?

It reads the step with the ``rules`` agent's own reading and negotiation state (kept per chat
across steps, as the agent keeps it), so it knows what the agent knows: a "yes" that answers an
open proposal moves the negotiation, a "yes" to a joke does not; a day named in small talk
("rain on saturday") proposes nothing. A step needs the model when the agent would change the
timetable, or when one of its messages moves a negotiation (opens, changes, settles or drops a
proposal), cancels or asks to cancel, drops out, joins, books or asks a service for something, or
proposes with a question or a clock time values the event it is about does not hold already
("still 9 on saturday?" and "9 yes" re-mention it), even where the agent itself goes no further (it
may have misread the event, and the model decides). A proposal the other side has not answered by
the end of the step (the user, for another's; anyone, for the user's) settles nothing yet and is
left for the step that answers it, unless it is a fact stated, a yes, or a plan the user states.

Tuned on the tuning half of ``examples/handwritten``, then checked on every hand-written set
(bench/bench_rules.py prints its figures on each).
"""

from __future__ import annotations

from proevent.agents.protocol import Observation
from proevent.agents.rules.agent import Played, RulesAgent
from proevent.agents.rules.cues import Cues, fold
from proevent.agents.rules.moves import Booked, CancelAsked, Cancellation, Dropout, Join, Proposal, Request
from proevent.model import Message

_NOTICED = (Cancellation, CancelAsked, Dropout, Join, Booked, Request)


def _notices(p: Played) -> bool:
    move = p.move
    if p.changed or isinstance(move, _NOTICED):
        return True
    return isinstance(move, Proposal) and (move.change and (move.asks or move.fact) or not move.repeats and (
        move.asks or move.values.clock is not None))  # (a change asked or stated whose new values were not read)


def _answered(messages: list[Message], user: str) -> list[bool]:
    """Per message of the step: whether the other side answers it in its chat later in the step
    (the user, for another's message; anyone else, for the user's). A proposal the other side has
    not answered yet settles nothing now (only a stated fact would, and it changes the timetable
    itself)."""
    out = []
    for i, msg in enumerate(messages):
        later = [m.sender for m in messages[i + 1:] if m.chat_id == msg.chat_id and m.sender != msg.sender]
        out.append(any(who != user for who in later) if msg.sender == user else user in later)
    return out


def _only_opens(p: Played, user: str, cues: Cues) -> bool:
    """A proposal that opens or changes a plan and waits for the other side: not a fact stated, which
    settles itself, nor a plan the user states ("ill pick one up at bauer's sunday morning"), nor a
    join asked ("is there space in the van?"), which anyone of the plan may answer."""
    move = p.move
    return isinstance(move, Proposal) and not move.fact and not move.agrees and (
        move.asks or move.sender != user) and not cues.has("join", fold(move.text))


class StepDetector:
    """Whether a step needs the model; keeps its own ``rules`` agent (and its chats' state)."""

    def __init__(self) -> None:
        self.agent = RulesAgent()

    def __call__(self, obs: Observation) -> bool:
        work, played = self.agent.step(obs)
        if work.ops():
            return True
        messages = sorted((m for u in obs.chats for m in u.new), key=lambda m: m.time)
        answered = _answered(messages, obs.user) if len(messages) == len(played) else [True] * len(played)
        cues = self.agent.cues
        return any(_notices(p) and (answered[i] or not _only_opens(p, obs.user, cues)) for i, p in enumerate(played))


__all__ = ["StepDetector"]
