"""Events and timetable operations (data format version 1)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from proevent.model.lean import Lean
from proevent.model.times import TimeOrDate, normalize_time

SCORED_ATTRIBUTES: tuple[str, ...] = ("start", "end", "location", "participants")
"""The attributes the evaluation compares; ``description`` is informational."""
ATTRIBUTES: tuple[str, ...] = (*SCORED_ATTRIBUTES, "description")
OP_TYPES: tuple[str, ...] = ("insert", "update", "delete")


class EventData(Lean):
    """The five attributes of an event, as an ``insert`` carries them (an id given is ignored)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    start: TimeOrDate
    end: TimeOrDate
    location: str | None
    participants: list[str]
    description: str | None

    def scored(self) -> tuple[Any, ...]:
        return tuple(getattr(self, a) for a in SCORED_ATTRIBUTES)


class Event(EventData):
    """One entry of the user's timetable."""

    id: str


class InsertOp(Lean):
    model_config = ConfigDict(extra="ignore", frozen=True)
    op: Literal["insert"] = "insert"
    event: EventData


_VALUE_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "start": TypeAdapter(TimeOrDate),
    "end": TypeAdapter(TimeOrDate),
    "location": TypeAdapter(str | None),
    "participants": TypeAdapter(list[str]),
    "description": TypeAdapter(str | None),
}


class UpdateOp(Lean):
    model_config = ConfigDict(extra="ignore", frozen=True)
    op: Literal["update"] = "update"
    id: str
    attribute: Literal["start", "end", "location", "participants", "description"]
    value: Any = Field(...)

    @model_validator(mode="after")
    def _value_has_attribute_type(self) -> UpdateOp:
        try:
            value = _VALUE_ADAPTERS[self.attribute].validate_python(self.value)
        except ValidationError as exc:
            msg = exc.errors()[0]["msg"].removeprefix("Value error, ")
            raise ValueError(f"value is not a valid {self.attribute}: {msg}") from None
        object.__setattr__(self, "value", value)
        return self

    @property
    def cosmetic(self) -> bool:
        return self.attribute == "description"


class DeleteOp(Lean):
    model_config = ConfigDict(extra="ignore", frozen=True)
    op: Literal["delete"] = "delete"
    id: str


Operation = Annotated[InsertOp | UpdateOp | DeleteOp, Field(discriminator="op")]
OPERATION_ADAPTER: TypeAdapter[InsertOp | UpdateOp | DeleteOp] = TypeAdapter(Operation)


class InvalidOp(BaseModel):
    """A predicted operation that failed validation: kept for scoring, never applied."""

    model_config = ConfigDict(frozen=True)
    raw: Any
    reason: str
    op: str | None = None
    """The operation type when it is one of insert/update/delete, else ``None``."""


AnyOp = InsertOp | UpdateOp | DeleteOp | InvalidOp


def parse_op(raw: Any) -> InsertOp | UpdateOp | DeleteOp | InvalidOp:
    """Validate one operation; an invalid one comes back as :class:`InvalidOp` with the reason."""
    try:
        return OPERATION_ADAPTER.validate_python(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"] if p not in OP_TYPES)
        msg = err["msg"].removeprefix("Value error, ")
        reason = f"{loc}: {msg}" if loc else msg
        op = raw.get("op") if isinstance(raw, dict) else None
        return InvalidOp(raw=raw, reason=reason, op=op if op in OP_TYPES else None)


def parse_ops(raw: Any) -> list[InsertOp | UpdateOp | DeleteOp | InvalidOp]:
    """Validate a list of operations (a non-list becomes one invalid operation)."""
    if not isinstance(raw, list):
        return [InvalidOp(raw=raw, reason="ops must be a list")]
    return [parse_op(item) for item in raw]


def op_to_json(op: AnyOp) -> Any:
    """The JSON form of an operation as the data format writes it."""
    if isinstance(op, InvalidOp):
        return op.raw
    return op.model_dump(mode="json")


def make_event(
    id: str | None = None,
    *,
    start: str | None = None,
    end: str | None = None,
    location: str | None = None,
    participants: list[str] | tuple[str, ...] = (),
    description: str | None = "",
) -> Event | EventData:
    """Build an event with defaults for the attributes not given (a convenience for code and tests)."""
    data = {
        "start": normalize_time(start),
        "end": normalize_time(end),
        "location": location,
        "participants": list(participants),
        "description": description,
    }
    return Event(id=id, **data) if id is not None else EventData(**data)
