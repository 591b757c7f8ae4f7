"""What an import noticed: every line it could not read, skipped or changed, with file and line.

Nothing is dropped silently. A *problem* is a line that is not understood (a bad date, a line
before the first message, an unknown Telegram message type); a *note* is a line that was read but
deliberately left out of the messages (a system line such as "Messages and calls are end-to-end
encrypted", a Telegram service message). Strict mode turns any problem into an error.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["problem", "note"]


class ChatImportError(ValueError):
    """An export that cannot be imported (or, in strict mode, one with unreadable lines)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        super().__init__("\n".join(lines))


@dataclass(frozen=True)
class Notice:
    """One line of the report: ``FILE:LINE: kind: message``."""

    file: str
    line: int | None
    severity: Severity
    kind: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line is not None else self.file
        return f"{where}: {self.kind}: {self.message}"


@dataclass
class ImportReport:
    """The notices of one import, in the order they were found."""

    notices: list[Notice] = field(default_factory=list)

    def problem(self, file: str, line: int | None, kind: str, message: str) -> None:
        self.notices.append(Notice(file, line, "problem", kind, message))

    def note(self, file: str, line: int | None, kind: str, message: str) -> None:
        self.notices.append(Notice(file, line, "note", kind, message))

    @property
    def problems(self) -> list[Notice]:
        return [n for n in self.notices if n.severity == "problem"]

    @property
    def notes(self) -> list[Notice]:
        return [n for n in self.notices if n.severity == "note"]

    def counts(self) -> dict[str, int]:
        """``{"problem:bad_date": 2, "note:system": 5, ...}``, sorted by key."""
        return dict(sorted(Counter(f"{n.severity}:{n.kind}" for n in self.notices).items()))

    def raise_if_strict(self, strict: bool) -> None:
        """In strict mode, any problem fails the import (every problem is listed)."""
        if strict and self.problems:
            raise ChatImportError([str(n) for n in self.problems]
                                  + [f"{len(self.problems)} unreadable line(s); strict mode refuses the import"])

    def to_json(self) -> dict[str, object]:
        return {"counts": self.counts(), "notices": [
            {"file": n.file, "line": n.line, "severity": n.severity, "kind": n.kind, "message": n.message}
            for n in self.notices]}


__all__ = ["ChatImportError", "ImportReport", "Notice", "Severity"]
