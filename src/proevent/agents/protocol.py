"""What an agent sees (:class:`Observation`) and returns (:class:`Action`), and the :class:`Agent` protocol."""

from __future__ import annotations

import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, runtime_checkable

from proevent.model import Case, Chat, Message, Timetable

DEFAULT_CONTEXT_MESSAGES = 20
"""K: how many earlier messages of each chat with news an observation carries by default."""


@dataclass(frozen=True)
class ChatUpdate:
    """One chat with new messages in this step, with up to K earlier messages as context."""

    chat: Chat
    context: list[Message]
    new: list[Message]

    def __getstate__(self) -> dict[str, Any]:
        """A copy or a pickle holds the fields only, not the handle on the case's index (``_span``)."""
        return {k: v for k, v in self.__dict__.items() if k != "_span"}


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


class CaseIndex:
    """What every observation of one case reads, computed once per case: each chat's messages in
    order (``messages[chat_id]``) and, per step, the chats with news in the order of their first new
    message, with where the step's messages of each start and end in that chat's list. Step ``t``'s
    new messages of a chat are then ``messages[chat_id][s:e]`` and its K earlier ones
    ``messages[chat_id][max(0, s - K):s]``: two slices instead of a walk back through the steps.

    ``memo`` holds what a renderer derives from the case once (:mod:`proevent.agents.llm.prompts`:
    each message's rendered line, each chat block), keyed by the renderer. The index reads the case
    as data: a case whose steps, chats or messages are changed in place after its first observation
    would be seen as it was (nothing in proevent changes a loaded case)."""

    __slots__ = ("case_ref", "steps_ref", "messages", "steps", "memo")

    def __init__(self, case: Case) -> None:
        self.case_ref = weakref.ref(case)
        self.steps_ref = case.steps
        chats = {c.chat_id: c for c in case.chats}
        self.messages: dict[str, list[Message]] = {}
        self.steps: list[list[tuple[Chat, list[Message], int, int]]] = []
        for step in case.steps:
            new: dict[str, int] = {}  # chat id -> where its messages of this step start
            for m in step.messages:
                msgs = self.messages.get(m.chat_id)
                if msgs is None:
                    msgs = self.messages[m.chat_id] = []
                if m.chat_id not in new:
                    new[m.chat_id] = len(msgs)
                msgs.append(m)
            groups = []
            for chat_id, start in new.items():
                chat = chats.get(chat_id)
                if chat is None:  # a chat the case does not list: one stand-in per case, equal to the old one per step
                    chat = chats[chat_id] = Chat(chat_id=chat_id, name=chat_id, type="group", members=[])
                groups.append((chat, self.messages[chat_id], start, len(self.messages[chat_id])))
            self.steps.append(groups)
        self.memo: dict[Any, Any] = {}


class ChatSpan(NamedTuple):
    """Where a :class:`ChatUpdate` built from a :class:`CaseIndex` comes from: its context is
    ``index.messages[chat_id][a:s]`` and its new messages ``[s:e]``. A renderer that reuses the
    index's memo checks first that the update still holds those messages (:func:`span_of`)."""

    index: CaseIndex
    chat: Chat
    a: int
    s: int
    e: int


def span_of(update: ChatUpdate) -> ChatSpan | None:
    """The :class:`ChatSpan` of an update built by :func:`build_observation`, when the update still
    holds the chat and the messages it was built with (equal ones: a copy of the observation, or
    an update changed in place, is checked against its source); else ``None``."""
    span = update.__dict__.get("_span")
    if span is None:
        return None
    msgs = span.index.messages[span.chat.chat_id]
    if (update.chat is not span.chat and update.chat != span.chat) or update.new != msgs[span.s:span.e] \
            or update.context != msgs[span.a:span.s]:
        return None
    return span


_INDEX_SIZE = 512
"""Cases whose :class:`CaseIndex` is kept (least recently used dropped): more than the cases a run
at concurrency 256 has in flight, and a bounded part of a 10,000-case dataset."""
_indexes: OrderedDict[int, CaseIndex] = OrderedDict()


def case_index(case: Case) -> CaseIndex:
    """The :class:`CaseIndex` of ``case``, from a small cache keyed by the case's identity (a case
    object that replaced its steps list gets a new index)."""
    key = id(case)
    index = _indexes.get(key)
    if index is not None and index.case_ref() is case and index.steps_ref is case.steps \
            and len(index.steps) == len(case.steps):
        try:
            _indexes.move_to_end(key)
        except KeyError:  # dropped by another thread meanwhile
            pass
        return index
    index = CaseIndex(case)
    _indexes[key] = index
    while len(_indexes) > _INDEX_SIZE:
        try:
            _indexes.popitem(last=False)
        except KeyError:
            break
    return index


_new, _put = object.__new__, object.__setattr__
""":func:`build_observation` makes its frozen dataclasses with their fields' values as their
``__dict__``: the objects their generated ``__init__`` makes with one ``object.__setattr__`` per
field, in half the time (an observation: 4.1 -> 1.8 us measured on a loaded 2-core machine)."""


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
    The chats are read from the case's :class:`CaseIndex` (each update gets lists of its own);
    :func:`plain_observation` builds the same observation without it.
    """
    step = case.steps[t - 1]
    if step.t != t:
        raise ValueError(f"case {case.case_id}: steps are not numbered 1..n (index {t - 1} holds t={step.t})")
    updates: list[ChatUpdate] = []
    if with_chats:
        index = case_index(case)
        for chat, msgs, s, e in index.steps[t - 1]:
            a = max(0, s - context_messages) if context_messages > 0 else s
            update = _new(ChatUpdate)
            _put(update, "__dict__", {"chat": chat, "context": msgs[a:s], "new": msgs[s:e],
                                      "_span": ChatSpan(index, chat, a, s, e)})
            updates.append(update)
    obs = _new(Observation)
    _put(obs, "__dict__", {"case_id": case.case_id, "t": t, "mode": mode, "repeat": repeat, "user": case.user,
                           "now": step.end, "window_start": step.start, "timetable": timetable, "chats": updates})
    return obs


def plain_observation(
    case: Case,
    t: int,
    timetable: Timetable,
    *,
    mode: str,
    repeat: int = 0,
    context_messages: int = DEFAULT_CONTEXT_MESSAGES,
    with_chats: bool = True,
) -> Observation:
    """:func:`build_observation` read from the case directly, with no index (the reference the
    indexed path is tested against)."""
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
