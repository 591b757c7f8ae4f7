"""Errors that name the file, the line and the field."""

from __future__ import annotations

from pydantic import ValidationError


class FormatError(Exception):
    """A file (or several) does not follow the data format. ``problems`` holds every message."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


def describe_validation_error(where: str, exc: ValidationError) -> list[str]:
    """One ``where: field.path: what is wrong`` line per pydantic error."""
    out = []
    for err in exc.errors():
        path = ".".join(str(p) for p in err["loc"]) or "(line)"
        msg = err["msg"].removeprefix("Value error, ")
        out.append(f"{where}: {path}: {msg}")
    return out
