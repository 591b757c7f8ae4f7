"""JSON Schemas of the data format, derived from the pydantic models (``proevent schema``).

The models are the single source of truth; this module only adds what pydantic cannot see:
the string patterns of times and dates (hidden in before-validators), the per-attribute type of
an update's ``value``, the operation discriminator ``op`` being required, and a versioned
``$id``/``title`` per file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from proevent.model import (
    Case,
    Chat,
    DatasetManifest,
    Event,
    Message,
    PredictionLine,
    RunManifest,
    Step,
)
from proevent.model.events import OPERATION_ADAPTER
from proevent.model.times import _strict_time, normalize_time

FORMAT_VERSION = 1
"""The data format version these schemas describe (``proevent.<kind>/1``)."""
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
ID_PREFIX = "https://proevent.invalid/schema/v1/"
"""Base of every ``$id``: a stable, non-resolvable name (schemas ship with the package, not a server)."""

TIME_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?$"
DATE_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
_TIME = {"type": "string", "pattern": TIME_PATTERN, "description": "local time YYYY-MM-DDTHH:MM"}
_DATE = {"type": "string", "pattern": DATE_PATTERN, "description": "date YYYY-MM-DD (time of day unknown)"}
_TIME_OR_DATE = {"anyOf": [_TIME, _DATE, {"type": "null"}]}
_UPDATE_VALUE_TYPES: dict[str, dict[str, Any]] = {
    "start": _TIME_OR_DATE,
    "end": _TIME_OR_DATE,
    "location": {"type": ["string", "null"]},
    "participants": {"type": "array", "items": {"type": "string"}},
    "description": {"type": ["string", "null"]},
}


class _FormatSchemaGenerator(GenerateJsonSchema):
    """Turns the format's time validators into string patterns."""

    def function_before_schema(self, schema: core_schema.BeforeValidatorFunctionSchema) -> JsonSchemaValue:
        func = schema["function"]["function"]
        if func is normalize_time:
            return dict(_TIME_OR_DATE)
        if func is _strict_time:
            return dict(_TIME)
        return super().function_before_schema(schema)


@dataclass(frozen=True)
class SchemaSpec:
    """One schema file: its file stem, the title and how to build the raw schema."""

    stem: str
    title: str
    build: Callable[[], dict[str, Any]]
    description: str


def _model(model: type[BaseModel]) -> Callable[[], dict[str, Any]]:
    return lambda: model.model_json_schema(schema_generator=_FormatSchemaGenerator)


def _operation() -> dict[str, Any]:
    return OPERATION_ADAPTER.json_schema(schema_generator=_FormatSchemaGenerator)


SCHEMAS: tuple[SchemaSpec, ...] = (
    SchemaSpec("case", "proevent.case/1", _model(Case), "One line of cases.jsonl: a multi-step scenario."),
    SchemaSpec("operation", "proevent operation (format 1)", _operation,
               "A timetable operation: insert, update or delete."),
    SchemaSpec("event", "proevent event (format 1)", _model(Event), "One entry of the user's timetable."),
    SchemaSpec("chat", "proevent chat (format 1)", _model(Chat), "A direct or group chat of a case."),
    SchemaSpec("message", "proevent message (format 1)", _model(Message), "One chat message."),
    SchemaSpec("step", "proevent step (format 1)", _model(Step), "One time window of a case."),
    SchemaSpec("dataset", "proevent.dataset/1", _model(DatasetManifest), "The manifest dataset.json."),
    SchemaSpec("run", "proevent.run/1", _model(RunManifest), "The manifest run.json."),
    SchemaSpec("prediction", "proevent prediction line (format 1)", _model(PredictionLine),
               "One line of predictions.jsonl; ops are kept raw (invalid operations are predictions too)."),
)


def _patch_defs(schema: dict[str, Any]) -> None:
    """Add what the models enforce in code: ``op`` required, the type of an update's value."""
    defs = schema.get("$defs", {})
    nodes = [*defs.items()]
    if "title" in schema:
        nodes.append((schema["title"], schema))
    for name, node in nodes:
        if name in ("InsertOp", "UpdateOp", "DeleteOp"):
            node["required"] = ["op", *[r for r in node.get("required", []) if r != "op"]]
        if name == "UpdateOp":
            node["allOf"] = [
                {
                    "if": {"properties": {"attribute": {"const": attr}}},
                    "then": {"properties": {"value": value_schema}},
                }
                for attr, value_schema in _UPDATE_VALUE_TYPES.items()
            ]


def build_schema(spec: SchemaSpec) -> dict[str, Any]:
    """The complete JSON Schema document of one model."""
    raw = spec.build()
    _patch_defs(raw)
    raw.pop("title", None)
    doc: dict[str, Any] = {
        "$schema": SCHEMA_DIALECT,
        "$id": f"{ID_PREFIX}{spec.stem}.schema.json",
        "title": spec.title,
        "description": f"{spec.description} proevent data format version {FORMAT_VERSION}.",
    }
    raw.pop("description", None)
    doc.update(raw)
    return doc


def all_schemas() -> dict[str, dict[str, Any]]:
    """Every schema, keyed by file name (``case.schema.json``, ...)."""
    return {f"{spec.stem}.schema.json": build_schema(spec) for spec in SCHEMAS}


def write_schemas(out: str | Path) -> list[Path]:
    """Write one ``<name>.schema.json`` per model into ``out`` (created if needed); return the paths."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, doc in all_schemas().items():
        path = folder / name
        path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


__all__ = ["FORMAT_VERSION", "SCHEMAS", "SchemaSpec", "all_schemas", "build_schema", "write_schemas"]
