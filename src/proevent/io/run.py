"""Runs on disk: ``run.json`` plus the append-only ``predictions.jsonl`` (data format, "Run on disk")."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from proevent.io.errors import FormatError
from proevent.io.jsonl import dumps_line, iter_jsonl, read_json
from proevent.model import PredictionLine, RunManifest

RUN_FILE = "run.json"
PREDICTIONS_FILE = "predictions.jsonl"
METRICS_FILE = "metrics.json"

Key = tuple[str, str, int, int]


@dataclass
class Run:
    """A loaded run. ``lines`` keeps, per key (case_id, mode, t, repeat), the last line written."""

    manifest: RunManifest
    lines: dict[Key, PredictionLine]
    path: Path | None = None
    duplicates: int = 0
    """How many lines were superseded by a later line with the same key."""
    all_lines: int = field(default=0)

    @property
    def name(self) -> str:
        return self.path.name if self.path else self.manifest.agent

    def modes(self) -> set[str]:
        return {k[1] for k in self.lines}

    def answered_cases(self) -> list[str]:
        """Ids of the cases with at least one prediction line, in first-seen order."""
        return list(dict.fromkeys(k[0] for k in self.lines))

    def repeats(self, mode: str) -> list[int]:
        return sorted({k[3] for k in self.lines if k[1] == mode})


def load_run(path: str | Path) -> Run:
    """Load a run folder; every bad line of ``predictions.jsonl`` is reported.

    Raises:
        FormatError: with one ``file:line: field.path: what is wrong`` message per problem.
    """
    folder = Path(path)
    if not folder.is_dir():
        raise FormatError([f"{folder}: not a run folder"])
    manifest = read_json(folder / RUN_FILE, RunManifest)
    pred_path = folder / PREDICTIONS_FILE
    lines: dict[Key, PredictionLine] = {}
    problems: list[str] = []
    n = 0
    if pred_path.exists():
        for _, line in iter_jsonl(pred_path, PredictionLine, problems):
            n += 1
            lines.pop(line.key, None)
            lines[line.key] = line
    if problems:
        raise FormatError(problems)
    return Run(manifest=manifest, lines=lines, path=folder, duplicates=n - len(lines), all_lines=n)


def write_run_manifest(path: str | Path, manifest: RunManifest) -> None:
    folder = Path(path)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / RUN_FILE).write_text(manifest.model_dump_json(indent=2) + "\n", encoding="utf-8")


class PredictionWriter:
    """Appends prediction lines, each in a single ``write`` of a whole line, flushed and fsynced.

    A line is written whole or not at all: if a previous process died mid-line, the torn tail is
    cut off when the writer opens the file, so no later reader sees half a line.
    """

    def __init__(self, path: str | Path, *, fsync: bool = False) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        _truncate_torn_tail(self.path)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._fsync = fsync

    def write(self, line: PredictionLine) -> None:
        data = dumps_line(line.model_dump(mode="json")).encode("utf-8")
        os.write(self._fd, data)
        if self._fsync:
            os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> PredictionWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _truncate_torn_tail(path: Path) -> None:
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb+") as fh:
        data = fh.read()
        if data.endswith(b"\n"):
            return
        cut = data.rfind(b"\n") + 1
        fh.truncate(cut)
