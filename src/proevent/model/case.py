"""Chats, messages, steps, cases, manifests and prediction lines (data format version 1)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from proevent.model.events import Event, Operation
from proevent.model.lean import Lean, build_full
from proevent.model.ondemand import OnDemand, build_pending, on_demand, pending_records
from proevent.model.times import Time

CASE_FORMAT = "proevent.case/1"
DATASET_FORMAT = "proevent.dataset/1"
RUN_FORMAT = "proevent.run/1"
METRICS_FORMAT = "proevent.metrics/1"

Mode = Literal["single", "multi"]
MODES: tuple[str, ...] = ("single", "multi")

_DATA = ConfigDict(extra="ignore")
"""Data files: readers ignore fields they do not know (the format allows extra optional fields)."""


class Chat(Lean):
    model_config = _DATA
    chat_id: str
    name: str
    type: Literal["direct", "group"]
    members: list[str]


class Message(Lean):
    model_config = _DATA
    chat_id: str
    time: Time
    sender: str
    text: str


class Step(OnDemand):
    # One window of a case. A step read by the fast reader builds its ``messages`` on the first read
    # (:mod:`proevent.model.ondemand`): scoring and the structural check never build them. (A
    # comment, not a docstring: the JSON Schema would carry it.)
    model_config = _DATA
    t: int = Field(ge=1)
    start: Time
    end: Time
    messages: list[Message]
    gold_ops: list[Operation]
    gold_timetable: list[Event]

    def message_records(self) -> Sequence[Any]:
        """The step's messages for a reader of their fields (``chat_id``, ``time``, ``sender``,
        ``text``): the :class:`Message` objects, or, while a step read by the fast reader has not
        built them, the checked records they will be built from (a pass over every message of a
        dataset then builds none)."""
        records = pending_records(self)
        return self.messages if records is None else records


on_demand(Step, "messages")
_make_step, _make_message = build_full(Step), build_full(Message)


def _messages_of(records: Sequence[Any]) -> list[Message]:
    """The :class:`Message` objects of checked records (names held once, as pydantic shares them)."""
    name = sys.intern
    return [_make_message({"chat_id": name(r.chat_id), "time": r.time, "sender": name(r.sender), "text": r.text})
            for r in records]


def step_with_message_records(fields: dict[str, Any], records: Sequence[Any]) -> Step:
    """A :class:`Step` of data validated elsewhere (``fields``: every field but ``messages``, in
    declaration order) whose messages are built from ``records`` when first read. Each record has
    ``chat_id``, ``time``, ``sender`` and ``text``, already valid for :class:`Message`; nothing is
    checked here."""
    return build_pending(_make_step, fields, "messages", _messages_of, records)


class Case(Lean):
    """One multi-step scenario."""

    model_config = _DATA
    format: Literal["proevent.case/1"] = CASE_FORMAT
    case_id: str
    user: str
    timezone: str | None = None
    start: Time
    initial_timetable: list[Event]
    chats: list[Chat]
    steps: list[Step]
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _share_events(self) -> Case:
        """One object per distinct event of the case: every gold timetable repeats the events that
        did not change, and holding each once more than halves a loaded dataset (events are frozen,
        so a shared one cannot change under another step)."""
        seen: dict[tuple[Any, ...], Event] = {}
        for events in (self.initial_timetable, *(step.gold_timetable for step in self.steps)):
            for i, ev in enumerate(events):
                key = (ev.id, ev.start, ev.end, ev.location, tuple(ev.participants), ev.description)
                events[i] = seen.setdefault(key, ev)
        return self

    def people(self) -> list[str]:
        """The user and every member of the case's chats, in first-seen order."""
        seen: dict[str, None] = {self.user: None}
        for chat in self.chats:
            for m in chat.members:
                seen.setdefault(m, None)
        return list(seen)

    def timetable_before(self, t: int) -> list[Event]:
        """The gold timetable S_{t-1} that step ``t`` (1-based) starts from: the initial timetable
        for ``t = 1``; ``t = len(steps) + 1`` gives the final gold timetable."""
        if not 1 <= t <= len(self.steps) + 1:
            raise ValueError(f"case {self.case_id}: no step {t} (steps 1 to {len(self.steps)})")
        return self.initial_timetable if t == 1 else self.steps[t - 2].gold_timetable


class _OwnFields(BaseModel):
    """A manifest with proevent's own optional fields declared beside the format's.

    The format lets writers add fields; ours are declared (typed, no ``getattr(..., None)``) but,
    like the extras they were, written only when set, so that files keep their bytes.
    """

    _OWN: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _drop_unset_own(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        data = handler(self)
        for name in self._OWN:
            if name not in self.model_fields_set:
                data.pop(name, None)
        return data


class DatasetCounts(BaseModel):
    model_config = ConfigDict(extra="allow")
    cases: int
    steps: int
    single_step_questions: int


class DatasetManifest(BaseModel):
    model_config = ConfigDict(extra="allow")
    format: Literal["proevent.dataset/1"] = DATASET_FORMAT
    name: str
    version: str
    created: str
    generator: dict[str, Any] = Field(default_factory=dict)
    counts: DatasetCounts
    sha256: dict[str, str]


class DatasetRef(_OwnFields):
    model_config = ConfigDict(extra="allow")
    _OWN = ("path",)
    name: str
    version: str
    sha256: str
    path: str | None = None
    """Where the dataset lay, relative to the run folder (or absolute): proevent's own field."""

    def key(self) -> tuple[str, str, str]:
        """What makes two references the same data (an extra ``path`` only says where it lies)."""
        return (self.name, self.version, self.sha256)


class PromptRecord(BaseModel):
    model_config = ConfigDict(extra="allow")
    sha256: str
    text: str


class RunManifest(_OwnFields):
    """``run.json``: the format's fields, then proevent's own (written by the runner, ``import-inspect``)."""

    model_config = ConfigDict(extra="allow")
    _OWN = ("strategy", "config_hash", "identity", "config", "modes", "repeats", "context_messages", "usage",
            "last_call", "source")
    format: Literal["proevent.run/1"] = RUN_FORMAT
    created: str
    proevent_version: str
    agent: str
    model: str | None = None
    parameters: dict[str, Any] = Field(default_factory=dict)
    prompt: PromptRecord | None = None
    dataset: DatasetRef
    strategy: str | None = None
    """The agent's strategy (its name for agents without one)."""
    config_hash: str | None = None
    """sha256 of ``identity``: a resume with another hash is refused."""
    identity: dict[str, Any] | None = None
    """What decides whether two runs are the same run (agent, options, context, dataset checksum...)."""
    config: dict[str, Any] | None = None
    """The public run configuration (never a key)."""
    modes: list[str] | None = None
    repeats: int | None = None
    context_messages: int | None = None
    usage: dict[str, Any] | None = None
    """Requests, tokens and ``cost_usd`` summed over every line written (``None``: no model used)."""
    last_call: dict[str, Any] | None = None
    """The client's totals of the last invocation."""
    source: dict[str, Any] | None = None
    """Where an imported run came from (``import-inspect``: the logs)."""


class Usage(Lean):
    model_config = ConfigDict(extra="allow")
    prompt_tokens: int = 0
    completion_tokens: int = 0


class PredictionLine(Lean):
    """One answered question of a run. ``ops`` is kept raw: invalid operations are predictions too."""

    model_config = ConfigDict(extra="allow")
    case_id: str
    mode: Mode
    t: int = Field(ge=1)
    repeat: int = Field(default=0, ge=0)
    ops: list[Any]
    error: str | None = None
    raw: str | None = None
    usage: Usage | None = None
    latency_s: float | None = None

    @property
    def key(self) -> tuple[str, str, int, int]:
        return (self.case_id, self.mode, self.t, self.repeat)
