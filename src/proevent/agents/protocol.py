"""What an agent sees (:class:`Observation`) and returns (:class:`Action`), and the :class:`Agent` protocol."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from proevent.model import Case, Chat, Message, Timetable

DEFAULT_CONTEXT_MESSAGES = 20
"""K: how many earlier messages of each chat with news an observation carries by default."""


@dataclass(frozen=True)
class ChatUpdate:
    """One chat with new messages in this step, with up to K earlier messages as context."""

    chat: Chat
    context: list[Message]
    new: list[Message]


@dataclass(frozen=True)
class Observation:
    """One step as the agent sees it.

    ``timetable`` is the gold S_{t-1} in single-step mode and the agent's own timetable in
    multi-step mode; ``now`` is the end of the step's window. ``case_id``, ``t``, ``mode`` and
    ``repeat`` identify the question (a model-free agent must not use them to read gold data,
    except the ``oracle``, which exists to check the pipeline).
    """

    case_id: str
    t: int
    mode: str
    repeat: int
    user: str
    now: str
    window_start: str
    timetable: Timetable
    chats: list[ChatUpdate]

    @property
    def new_messages(self) -> list[Message]:
        return sorted((m for c in self.chats for m in c.new), key=lambda m: m.time)


@dataclass
class Action:
    """What an agent answered. ``ops`` are raw JSON operations (invalid ones included, they are
    predictions too); ``error`` set means the answer could not be used (ops then empty)."""

    ops: list[Any] = field(default_factory=list)
    raw: str | None = None
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    """Of ``prompt_tokens``, those the server read from its prompt cache."""
    cost_usd: float | None = None
    latency_s: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Recorded in the prediction line (e.g. reasoning, requests made, cache hits)."""


QUIET = "no new messages"


def quiet_action() -> Action:
    """The answer to a step without new messages, made without a request.

    The timetable changes only through what the chats settle (S_t = f(S_{t-1}, D_t) with D_t
    empty is S_{t-1}), so such a step has no gold operation and the model has nothing to read;
    asking it anyway costs the instructions and the timetable and can only add false detections.
    ``--option skip_quiet=false`` asks it anyway.
    """
    return Action(ops=[], latency_s=0.0, extra={"requests": 0, "skipped": QUIET})


@runtime_checkable
class Agent(Protocol):
    """An agent: ``await agent.act(observation) -> Action``. ``describe()`` goes into ``run.json``."""

    name: str
    # An agent may set ``reads_chats = False`` (the oracle, null): it is then given observations
    # without their chats (``chats == []``), which it does not read, and the run skips gathering them.

    async def act(self, obs: Observation) -> Action: ...

    def describe(self) -> dict[str, Any]: ...


def _last_messages(case: Case, t: int, chat_id: str, n: int) -> list[Message]:
    """The last ``n`` messages of chat ``chat_id`` before step ``t``, oldest first: read backwards from
    step ``t - 1`` and stopped once ``n`` are found (a long case would otherwise be walked whole at
    every step, for every chat)."""
    found: list[Message] = []
    for s in reversed(case.steps[: t - 1]):
        for m in reversed(s.messages):
            if m.chat_id == chat_id:
                found.append(m)
                if len(found) == n:
                    return found[::-1]
    return found[::-1]


def build_observation(
    case: Case,
    t: int,
    timetable: Timetable,
    *,
    mode: str,
    repeat: int = 0,
    context_messages: int = DEFAULT_CONTEXT_MESSAGES,
    with_chats: bool = True,
) -> Observation:
    """The observation of step ``t`` of ``case`` given the timetable the agent holds.

    Chats appear in the order of their first new message; each carries the last
    ``context_messages`` messages it received before this step (all earlier steps count).
    ``with_chats=False`` leaves them out (for an agent that reads none: ``reads_chats = False``).
    """
    step = case.steps[t - 1]
    if step.t != t:
        raise ValueError(f"case {case.case_id}: steps are not numbered 1..n (index {t - 1} holds t={step.t})")
    if not with_chats:
        return Observation(case_id=case.case_id, t=t, mode=mode, repeat=repeat, user=case.user, now=step.end,
                           window_start=step.start, timetable=timetable, chats=[])
    chats = {c.chat_id: c for c in case.chats}
    new: dict[str, list[Message]] = {}
    for m in step.messages:
        new.setdefault(m.chat_id, []).append(m)
    updates = []
    for chat_id, msgs in new.items():
        chat = chats.get(chat_id) or Chat(chat_id=chat_id, name=chat_id, type="group", members=[])
        context = _last_messages(case, t, chat_id, context_messages) if context_messages > 0 else []
        updates.append(ChatUpdate(chat=chat, context=context, new=msgs))
    return Observation(
        case_id=case.case_id, t=t, mode=mode, repeat=repeat, user=case.user, now=step.end,
        window_start=step.start, timetable=timetable, chats=updates,
    )
