"""Events and timetable operations (data format version 1)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from proevent.model.lean import Lean, build_full
from proevent.model.times import TimeOrDate, is_normal_time_or_date, normalize_time

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
_make_insert, _make_update, _make_delete, _make_data = map(build_full, (InsertOp, UpdateOp, DeleteOp, EventData))
OPERATION_ADAPTER: TypeAdapter[InsertOp | UpdateOp | DeleteOp] = TypeAdapter(Operation)


class InvalidOp(BaseModel):
    """A predicted operation that failed validation: kept for scoring, never applied."""

    model_config = ConfigDict(frozen=True)
    raw: Any
    reason: str
    op: str | None = None
    """The operation type when it is one of insert/update/delete, else ``None``."""


AnyOp = InsertOp | UpdateOp | DeleteOp | InvalidOp


_MISSING = object()


def _is_time_or_date(value: Any) -> bool:
    return value is None or (type(value) is str and is_normal_time_or_date(value) is not None)


def _is_text(value: Any) -> bool:
    return value is None or type(value) is str


def _is_names(value: Any) -> bool:
    return type(value) is list and all(type(v) is str for v in value)


_VALUE_CHECKS = {"start": _is_time_or_date, "end": _is_time_or_date, "location": _is_text,
                 "participants": _is_names, "description": _is_text}


def _plain_op(raw: Any) -> InsertOp | UpdateOp | DeleteOp | None:
    """The operation pydantic would make of ``raw`` when ``raw`` is plainly valid and already in normal
    form (every field present, times normalised), built without validating again; ``None`` otherwise.
    A run holds a hundred thousand operations, nearly all of this kind."""
    if type(raw) is not dict:
        return None
    op = raw.get("op")
    if op == "delete" and type(op) is str:
        if type(raw.get("id")) is str:
            return _make_delete({"op": "delete", "id": raw["id"]})
    elif op == "insert" and type(op) is str:
        ev = raw.get("event")
        if type(ev) is not dict:
            return None
        start, end = ev.get("start", _MISSING), ev.get("end", _MISSING)
        location, names, text = ev.get("location", _MISSING), ev.get("participants"), ev.get("description", _MISSING)
        if _is_time_or_date(start) and _is_time_or_date(end) and _is_text(location) and _is_names(names) \
                and _is_text(text):
            return _make_insert({"op": "insert", "event": _make_data(
                {"start": start, "end": end, "location": location, "participants": list(names), "description": text})})
    elif op == "update" and type(op) is str:
        eid, attribute, value = raw.get("id"), raw.get("attribute"), raw.get("value", _MISSING)
        check = _VALUE_CHECKS.get(attribute) if type(attribute) is str else None
        if type(eid) is str and check is not None and check(value):
            return _make_update({"op": "update", "id": eid, "attribute": attribute,
                                 "value": list(value) if type(value) is list else value})
    return None


def parse_op(raw: Any) -> InsertOp | UpdateOp | DeleteOp | InvalidOp:
    """Validate one operation; an invalid one comes back as :class:`InvalidOp` with the reason."""
    plain = _plain_op(raw)
    if plain is not None:
        return plain
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
