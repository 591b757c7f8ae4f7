"""Runs on disk: ``run.json`` plus the append-only ``predictions.jsonl`` (data format, "Run on disk")."""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec
from pydantic import BaseModel

from proevent.io.errors import FormatError
from proevent.io.fastcase import fast_line, fast_lines
from proevent.io.jsonl import dumps_line, iter_jsonl, read_json
from proevent.model import Key, PredictionLine, Run, RunManifest
from proevent.model.bulk import gc_paused

RUN_FILE = "run.json"
PREDICTIONS_FILE = "predictions.jsonl"
METRICS_FILE = "metrics.json"
JUDGE_DECISIONS_FILE = "judge_decisions.jsonl"

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
        with gc_paused():
            for line in _read_lines(pred_path, problems):
                n += 1
                key = (line.case_id, line.mode, line.t, line.repeat)  # PredictionLine.key
                lines.pop(key, None)
                lines[key] = line
    if problems:
        raise FormatError(problems)
    return Run(manifest=manifest, lines=lines, path=folder, duplicates=n - len(lines), all_lines=n)


def _read_lines(path: Path, problems: list[str]) -> Iterable[PredictionLine]:
    """The valid lines of ``predictions.jsonl`` in file order: the whole file at once where every line
    is plain (:func:`~proevent.io.fastcase.fast_lines`), else line by line, each bad line a problem."""
    try:
        data = path.read_bytes()
    except OSError:
        data = None  # the line reader words it
    if data is not None and (fast := fast_lines(data)) is not None:
        return fast
    return (line for _, line in iter_jsonl(path, PredictionLine, problems, fast=fast_line))


class RunWriteError(ValueError):
    """A run file could not be written (disk full, read-only folder...); the message names the path."""


def metrics_text(metrics: dict[str, Any] | BaseModel) -> str:
    """``metrics.json``'s text: the metrics object (``EvaluationResult.metrics`` or a
    :class:`proevent.evaluate.Metrics`) indented by 2, non-ASCII kept, one final newline."""
    data = metrics.model_dump(mode="json", exclude_unset=True) if isinstance(metrics, BaseModel) else metrics
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_metrics(path: str | Path, metrics: dict[str, Any] | BaseModel) -> Path:
    """Write the metrics to the file ``path`` (a run's is ``RUN/metrics.json``, :data:`METRICS_FILE`).

    Raises:
        RunWriteError: naming the path, when it cannot be written (a folder in the way, no
            permission, a full disk).
    """
    target = Path(path)
    _write_text(target, metrics_text(metrics))
    return target


def write_judge_decisions(run_folder: str | Path, decisions: list[dict[str, Any]]) -> Path:
    """Write an LLM judge's decisions (one JSON object a line) to the run's ``judge_decisions.jsonl``."""
    target = Path(run_folder) / JUDGE_DECISIONS_FILE
    _write_text(target, "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in decisions))
    return target


def _write_text(target: Path, text: str) -> None:
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise RunWriteError(os_error_text(target, exc)) from None


def os_error_text(path: str | Path, exc: OSError, what: str = "cannot write") -> str:
    reason = exc.strerror or type(exc).__name__
    return f"{exc.filename or path}: {what}: {reason}"


def write_run_manifest(path: str | Path, manifest: RunManifest) -> None:
    """Write ``run.json`` whole or not at all: a temporary file in the folder, fsynced, then renamed
    over the old one, so that a failed write (disk full) leaves the previous ``run.json`` intact.

    Raises:
        RunWriteError: naming the path, when the folder or the file cannot be written.
    """
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunWriteError(os_error_text(folder / RUN_FILE, exc)) from None
    write_atomic(folder / RUN_FILE, (manifest.model_dump_json(indent=2) + "\n").encode("utf-8"))


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``target`` whole or not at all (a temporary file beside it, fsynced, then renamed over it).

    Raises:
        RunWriteError: naming the path, when it cannot be written.
    """
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            os.fchmod(fd, 0o644)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise RunWriteError(os_error_text(target, exc)) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is written; a short write that makes no progress raises."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:
            raise OSError(28, "no space left on device (short write)")
        view = view[n:]


_ENCODE = msgspec.json.encode


_LEAVES = frozenset({str, int, bool, type(None)})
"""The values msgspec and ``json`` write alike whatever they hold (exact types, not subclasses)."""


def _plain_json(value: Any) -> bool:
    """``value`` holds only what msgspec writes exactly as ``json.dumps`` does: strings, ints, bools,
    ``None``, lists, dicts with string keys, and floats that Python writes without an exponent
    (msgspec writes ``1e16`` where ``json`` writes ``1e+16``). Leaves inside a list or dict are
    tested in place, without a call each (most of an operation's values are strings)."""
    kind = type(value)
    if kind in _LEAVES:
        return True
    if kind is float:
        return value == 0.0 or 1e-4 <= abs(value) < 1e16  # NaN and infinities fail both tests
    leaves = _LEAVES
    if kind is list:
        for v in value:
            if type(v) not in leaves and not _plain_json(v):
                return False
        return True
    if kind is dict:
        for k, v in value.items():
            if type(k) is not str or (type(v) not in leaves and not _plain_json(v)):
                return False
        return True
    return False


def line_bytes(line: BaseModel) -> bytes:
    """The bytes of one line of ``predictions.jsonl``: :func:`~proevent.io.jsonl.dumps_line` of its
    JSON dump. A line without usage or extra field whose values are plain JSON (an offline agent's)
    is encoded from its fields directly by msgspec, to the same bytes (field order, compact
    separators, UTF-8 kept, the same string escapes). Other models written through the writer (the
    annotation tool's gold lines, the human mode's drafts) take the general path."""
    if type(line) is PredictionLine and not line.__pydantic_extra__ and line.usage is None:
        fields = line.__dict__
        if _plain_json(fields):  # a dict of string keys: every field's value tested
            try:
                return _ENCODE(fields) + b"\n"
            except (msgspec.MsgspecError, UnicodeError, TypeError, OverflowError):
                pass  # the general path below raises what it raises
    return dumps_line(line.model_dump(mode="json")).encode("utf-8")


class PredictionWriter:
    """Appends prediction lines, each in a single ``write`` of a whole line, flushed and fsynced.

    A line is written whole or not at all: if a previous process died mid-line, the torn tail is
    cut off when the writer opens the file, so no later reader sees half a line.
    """

    def __init__(self, path: str | Path, *, fsync: bool = False) -> None:
        self.path = Path(path)
        self._fd = -1
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _truncate_torn_tail(self.path)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise RunWriteError(os_error_text(self.path, exc)) from None
        self._fsync = fsync

    def write(self, line: PredictionLine) -> None:
        """Append one line. A short write or an ``OSError`` (disk full) cuts the file back to where
        it was, so no torn line is left, and raises :class:`RunWriteError` naming the file."""
        data = line_bytes(line)
        try:
            start = os.fstat(self._fd).st_size
        except OSError as exc:
            raise RunWriteError(os_error_text(self.path, exc)) from None
        self._append(data, start)

    def _append(self, data: bytes, start: int) -> None:
        """Write ``data`` at the end of the file (``start`` bytes long), fsynced if asked; on a short
        write or an ``OSError`` cut the file back to ``start`` and raise :class:`RunWriteError`."""
        try:
            _write_all(self._fd, data)
            if self._fsync:
                os.fsync(self._fd)
        except OSError as exc:
            try:
                os.ftruncate(self._fd, start)
            except OSError:
                pass  # the torn tail is cut when the file is opened next
            raise RunWriteError(os_error_text(self.path, exc)) from None

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


USAGE_FIELDS = ("requests", "cache_hits", "prompt_tokens", "completion_tokens", "cached_prompt_tokens")


def _count(value: Any) -> int:
    """A token or request count as written in a line; negative, NaN or non-numbers count as 0."""
    if type(value) is int:  # the usual count (five a line of a model agent): the same answer, sooner
        return value if value >= 0 else 0
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return 0
    return max(0, int(value))


def line_usage(line: dict[str, Any] | PredictionLine) -> dict[str, Any]:
    """What one prediction line took: requests sent to the server and answered from the response
    cache, tokens, and the dollars spent (``None``: a request was made but its price is unknown).

    A line answered wholly from the response cache cost nothing; its tokens still count (they are
    what the answer took). A line that mixes cache hits and requests is charged in full.
    """
    if isinstance(line, PredictionLine) and line.usage is None and not line.__pydantic_extra__:
        return empty_usage()  # an offline agent's line: no request, no token, no cost
    if isinstance(line, PredictionLine):  # read as its JSON would be, without dumping the operations
        usage_model = line.usage.model_dump(mode="json") if line.usage is not None else None
        d: dict[str, Any] = {**(line.__pydantic_extra__ or {}), "usage": usage_model}
    else:
        d = line
    usage = d.get("usage") if isinstance(d.get("usage"), dict) else {}
    made = _count(d.get("requests"))
    cached = min(made, _count(d.get("cached")))
    out: dict[str, Any] = {
        "requests": made - cached, "cache_hits": cached,
        "prompt_tokens": _count(usage.get("prompt_tokens")),
        "completion_tokens": _count(usage.get("completion_tokens")),
        "cached_prompt_tokens": _count(usage.get("cached_prompt_tokens")),
    }
    cost = d.get("cost_usd")
    if made and cached == made:
        out["cost_usd"] = 0.0
    elif isinstance(cost, int | float) and not isinstance(cost, bool) and math.isfinite(cost):
        out["cost_usd"] = max(0.0, float(cost))
    elif made or usage:
        out["cost_usd"] = None
    else:
        out["cost_usd"] = 0.0
    return out


def add_usage(total: dict[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """``total`` += ``part`` (in place); an unknown cost makes the total unknown."""
    if part == _NOTHING and total.keys() >= _TOTAL_KEYS and type(total["cost_usd"]) is not int:
        return total  # an offline agent's line adds nothing: every sum stays as it is (a float cost stays float)
    for key in USAGE_FIELDS:
        total[key] = total.get(key, 0) + part.get(key, 0)
    if "cost_usd" not in total:
        total["cost_usd"] = 0.0
    if total["cost_usd"] is not None:
        total["cost_usd"] = None if part.get("cost_usd") is None else total["cost_usd"] + part["cost_usd"]
    return total


def empty_usage() -> dict[str, Any]:
    return {**dict.fromkeys(USAGE_FIELDS, 0), "cost_usd": 0.0}


_NOTHING = empty_usage()
_TOTAL_KEYS = _NOTHING.keys()


def run_usage(path: str | Path) -> dict[str, Any]:
    """The usage of a run, summed over every line of ``predictions.jsonl`` (superseded lines too:
    they were paid for). This is the truth ``run.json``'s ``usage`` is written from, so that resumes
    add up. A torn last line is not counted (it is cut on resume)."""
    total = empty_usage()
    pred = Path(path) / PREDICTIONS_FILE
    if not pred.exists():
        return total
    with pred.open("rb") as fh:
        for raw in fh:
            if not raw.endswith(b"\n"):
                break
            try:
                d = json.loads(raw)
            except ValueError:
                continue
            if isinstance(d, dict):
                add_usage(total, line_usage(d))
    return total


def rounded_usage(usage: dict[str, Any]) -> dict[str, Any]:
    cost = usage.get("cost_usd")
    return {**usage, "cost_usd": None if cost is None else round(cost, 8)}
