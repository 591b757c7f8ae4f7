"""Streaming JSON Lines with per-line validation that collects every error of a file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from proevent.io.errors import FormatError, describe_validation_error

M = TypeVar("M", bound=BaseModel)


def iter_jsonl(path: Path, model: type[M], problems: list[str]) -> Iterator[tuple[int, M]]:
    """Yield ``(line_number, item)`` for every valid line; append a message per bad line.

    Blank lines are skipped. The caller raises :class:`FormatError` when ``problems`` is not
    empty after the loop, so a file reports all its errors, not only the first.
    """
    name = path.name
    with path.open("r", encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                msg = exc.msg.removesuffix(" at")  # "Unterminated string starting at" + " at column N"
                problems.append(f"{name}:{lineno}: (line): not valid JSON: {msg} at column {exc.colno}")
                continue
            if not isinstance(data, dict):
                problems.append(f"{name}:{lineno}: (line): expected a JSON object, got {type(data).__name__}")
                continue
            try:
                yield lineno, model.model_validate(data)
            except ValidationError as exc:
                problems.extend(describe_validation_error(f"{name}:{lineno}", exc))


def load_jsonl(path: Path, model: type[M]) -> list[M]:
    problems: list[str] = []
    items = [item for _, item in iter_jsonl(path, model, problems)]
    if problems:
        raise FormatError(problems)
    return items


def dumps_line(data: object) -> str:
    """One compact JSON line (UTF-8 kept readable), newline included."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def read_json(path: Path, model: type[M]) -> M:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FormatError([f"{path}: file not found"]) from None
    except json.JSONDecodeError as exc:
        raise FormatError([f"{path.name}:{exc.lineno}: (file): not valid JSON: {exc.msg}"]) from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise FormatError(describe_validation_error(path.name, exc)) from None
