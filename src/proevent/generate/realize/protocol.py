"""What a realiser is: it turns the planned chats of a case into message texts, nothing more.

The pipeline (:mod:`proevent.generate.pipeline`) owns everything around it: it plans each case
attempt, hands the plan to the realiser with the attempt's text stream, finishes and checks the
case, and counts and retries rejected attempts. A realiser fills ``texts`` of every
:class:`~proevent.generate.assemble.PlannedChat` of the plan (it may split a line into a burst of
messages sent in the same minute, see :func:`split_line`), or raises
:class:`~proevent.generate.assemble.CaseRejected` with the reason when it cannot.

``realize`` is a coroutine so that one loop serves both kinds: the template realiser never
waits, the ``llm`` realiser waits on the model while the pipeline keeps other cases in flight.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from proevent.generate.realize.template import realize_chat_template

if TYPE_CHECKING:
    from proevent.generate.assemble import CasePlan, PlannedChat


class Realizer(Protocol):
    name: str
    """What ``meta.realizer`` records (``template``, ``llm:<model>``)."""
    retried: Counter[str]
    """Texts the realiser rejected itself and asked for again, by reason (the template realiser has none)."""

    async def realize(self, plan: CasePlan, rng: random.Random) -> None:
        """Fill ``texts`` of every chat of ``plan``; raise ``CaseRejected`` when that fails."""
        ...


class TemplateRealizer:
    """The offline realiser (:mod:`proevent.generate.realize.template`) behind the protocol."""

    name = "template"

    def __init__(self) -> None:
        self.retried: Counter[str] = Counter()

    async def realize(self, plan: CasePlan, rng: random.Random) -> None:
        for pc in plan.chats:
            pc.texts = realize_chat_template(pc.lines, pc.times, pc.ctx, rng)


def split_line(pc: PlannedChat, parts: list[list[str]]) -> None:
    """Set ``pc.texts`` from one list of messages per line; a line of several messages (a burst)
    becomes several lines of the same intent and send time, and only the last one carries the
    line's effect (the change is settled once the whole burst is sent)."""
    lines, times, texts = [], [], []
    for line, at, msgs in zip(pc.lines, pc.times, parts, strict=True):
        for k, text in enumerate(msgs):
            last = k == len(msgs) - 1
            lines.append(line if last else replace(line, effect=False, state=None))
            times.append(at)
            texts.append(text)
    pc.lines, pc.times, pc.texts = lines, times, texts


__all__ = ["Realizer", "TemplateRealizer", "split_line"]
