"""Requests answered elsewhere: OpenAI Batch API input files out, batch output files in.

A :class:`BatchRecorder` given to the client (or named by ``PROEVENT_BATCH_OUT``, so that every
client in the process records: a run, the ``llm`` judge, the ``llm`` realiser) makes it answer
nothing: a request that neither the response cache nor an imported answer covers is written as one
line of a Batch API input file, ``{"custom_id", "method", "url", "body"}`` with the very body the
live client would post, and the call raises :class:`RequestPending`. ``custom_id`` is the
request's cache key, so :func:`import_batch_files` can put each answer of the output file where a
later run with the same configuration looks for it.

Imported answers are used once, as a reply the server just sent (counted as a request, with its
usage and cost); only a usable one then stays in the cache, as with a live reply. An error line is
used once as the error the server would have answered, so the next batch file asks again.

A recorder starts a new part file (``FILE``, ``FILE.2``, ... with the suffix kept:
``requests.jsonl``, ``requests.2.jsonl``) when a part would pass the OpenAI Batch API's limits of
50,000 requests or 200 MB, so that every part can be sent as it is.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proevent.llm.cache import ResponseCache

BATCH_URL = "/v1/chat/completions"
ENV_BATCH_OUT = "PROEVENT_BATCH_OUT"
PENDING_TEXT = "not answered yet"
"""How the message of a request left in the batch file begins (:class:`~proevent.llm.client.PendingError`)."""
MAX_REQUESTS = 50_000
"""The most requests one OpenAI Batch API input file may hold."""
MAX_BYTES = 200 * 10**6
"""The largest OpenAI Batch API input file (200 MB)."""


class RequestPending(Exception):
    """The request is written to the batch file, not answered: the caller cannot go on with it.

    Agents see an ``LLMError`` (the client raises :class:`PendingError`, which is both), so they
    stop the question at once; the runner does not write that question's line (see
    :func:`track_pending`)."""


class RoundsPending(RequestPending):
    """A unit of work (a generated case) set aside because one of its requests waits in the batch
    file. ``rounds``: the most rounds its current try still takes, this one included;
    ``per_try``: the most rounds a further try takes (a rejected try is drawn again)."""

    def __init__(self, message: str, *, rounds: int, per_try: int) -> None:
        super().__init__(message)
        self.rounds = rounds
        self.per_try = per_try


@dataclass
class Tracker:
    """What the requests of one question (a context) did: answered ones, keys left pending, and
    keys of imported answers taken (kept in the cache until the question's line is written).

    ``ask_again_on_error``: an imported error line is not raised but dropped and its request
    written to the batch file again (the generator has no errored lines to write: its case waits)."""

    answered: int = 0
    pending: list[str] = field(default_factory=list)
    taken: list[str] = field(default_factory=list)
    ask_again_on_error: bool = False


_TRACKER: ContextVar[Tracker | None] = ContextVar("proevent_batch_tracker", default=None)


class track_pending:  # noqa: N801 - used as the function it was: ``with track_pending() as tracker``
    """Count, within the block (and tasks started in it), requests answered and left pending.

    A class, not a ``@contextmanager`` generator: the runner enters one per question, and the
    generator's frame and wrapper took 1.5 us of it against 0.9 us here."""

    __slots__ = ("tracker", "_token")

    def __init__(self, *, ask_again_on_error: bool = False) -> None:
        self.tracker = Tracker(ask_again_on_error=ask_again_on_error)

    def __enter__(self) -> Tracker:
        self._token = _TRACKER.set(self.tracker)
        return self.tracker

    def __exit__(self, *exc: object) -> None:
        _TRACKER.reset(self._token)


def current_tracker() -> Tracker | None:
    """The tracker of the enclosing :func:`track_pending` block, if any."""
    return _TRACKER.get()


def note_answered() -> None:
    tracker = _TRACKER.get()
    if tracker is not None:
        tracker.answered += 1


class BatchRecorder:
    """Writes the requests of a round as Batch API input lines to ``path``, each key once.

    The file is created on the first request (never one that exists and is not empty: each round
    gets a new file, so that nothing is overwritten) and every line is flushed as it is written, so
    a killed run leaves the requests it had recorded. A part that would pass ``max_requests`` lines
    or ``max_bytes`` is closed and the next one started (:func:`part_path`); :attr:`paths` lists them.

    Raises:
        FileExistsError: ``path`` (or a part of it) exists and is not empty (on the first request).
    """

    def __init__(self, path: str | Path, *, url: str = BATCH_URL, max_requests: int = MAX_REQUESTS,
                 max_bytes: int = MAX_BYTES) -> None:
        self.path = Path(path)
        self.url = url
        self.max_requests = max_requests
        self.max_bytes = max_bytes
        self.keys: set[str] = set()
        self.repeated = 0
        """Requests asked again with a key already written (one line serves them all)."""
        self.paths: list[Path] = []
        """The part files written so far (``path`` first)."""
        self._file: Any = None
        self._lines = self._bytes = 0
        self._lock = threading.Lock()
        self._check()

    def _check(self) -> None:
        if self.path.is_dir():
            raise ValueError(f"{self.path}: the batch file must be a file, not a folder")
        n = 1
        while (part := part_path(self.path, n)).exists() or n == 1:
            if part.exists() and part.stat().st_size > 0:
                raise FileExistsError(f"{part}: the batch file exists; give each round a new file "
                                      "(or delete this one once its answers are imported)")
            n += 1

    def _open(self, size: int) -> None:
        """The part the next line (``size`` bytes) goes to: the current one, or a new one."""
        if self._file is not None and self._lines < self.max_requests and (
                self._bytes + size <= self.max_bytes or not self._lines):
            return
        if self._file is None and not self.paths:
            self._check()
            self.path.parent.mkdir(parents=True, exist_ok=True)
        elif self._file is not None:
            self._file.close()
        part = part_path(self.path, len(self.paths) + 1)
        if self.paths and part.exists() and part.stat().st_size > 0:
            raise FileExistsError(f"{part}: the next part of the batch file exists; give the round a new file")
        self._file = part.open("ab")
        self.paths.append(part)
        self._lines = self._bytes = 0

    def record(self, key: str, body: dict[str, Any], encode: Any) -> None:
        """Write one request (``encode``: the client's body encoder, bytes out) unless its key is written."""
        with self._lock:
            if key in self.keys:
                self.repeated += 1
            else:
                line = encode({"custom_id": key, "method": "POST", "url": self.url, "body": body}) + b"\n"
                if self._file is None and self.paths:  # closed and asked again: go on in the last part
                    self._file = self.paths[-1].open("ab")
                self._open(len(line))
                self._file.write(line)
                self._file.flush()
                self._lines += 1
                self._bytes += len(line)
                self.keys.add(key)
        tracker = _TRACKER.get()
        if tracker is not None:
            tracker.pending.append(key)

    @property
    def count(self) -> int:
        return len(self.keys)

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None


def part_path(path: Path, n: int) -> Path:
    """Part ``n`` (from 1) of a batch file: ``path`` itself, then ``STEM.2.SUFFIX``, ``STEM.3.SUFFIX``..."""
    return path if n == 1 else path.with_name(f"{path.stem}.{n}{path.suffix}")


def files_text(paths: list[Path]) -> str:
    """The part files of a round in words: ``FILE`` or ``FILE, FILE.2 (2 files)``."""
    if len(paths) <= 1:
        return str(paths[0]) if paths else ""
    return f"{', '.join(map(str, paths))} ({len(paths)} files: send each, import every output)"


_SHARED: dict[str, BatchRecorder] = {}
_SHARED_LOCK = threading.Lock()
_ACTIVE: ContextVar[BatchRecorder | None] = ContextVar("proevent_batch_recorder", default=None)


@contextmanager
def recording(recorder: BatchRecorder) -> Iterator[BatchRecorder]:
    """Within the block, every client made without a ``recorder=`` argument records to ``recorder``
    (as with ``$PROEVENT_BATCH_OUT``, but for one command: ``generate --batch-out``)."""
    token = _ACTIVE.set(recorder)
    try:
        yield recorder
    finally:
        _ACTIVE.reset(token)
        recorder.close()


def recorder_from_env() -> BatchRecorder | None:
    """The recorder of the enclosing :func:`recording` block, else the process's recorder for
    ``$PROEVENT_BATCH_OUT`` (one per file, shared by every client)."""
    active = _ACTIVE.get()
    if active is not None:
        return active
    name = os.environ.get(ENV_BATCH_OUT)
    if not name:
        return None
    with _SHARED_LOCK:
        key = str(Path(name).resolve())
        if key not in _SHARED:
            _SHARED[key] = BatchRecorder(name)
        return _SHARED[key]


# -- import ------------------------------------------------------------------------------------
@dataclass
class ImportReport:
    """What :func:`import_batch_files` did."""

    lines: int = 0
    answers: int = 0
    """Answers stored (status 200 with a chat completion body)."""
    errors: int = 0
    """Error lines stored (used once as the server's error: the run writes an errored line)."""
    already: int = 0
    """Lines whose key the cache already answered (left out)."""
    problems: list[str] = field(default_factory=list)
    """Lines that could not be read: ``FILE:LINE: why`` (nothing stored for them)."""


def _error_text(value: Any) -> str:
    if isinstance(value, dict):
        inner = value.get("error", value)
        if isinstance(inner, dict):
            msg = inner.get("message") or inner.get("code") or json.dumps(inner, ensure_ascii=False)
            return str(msg)[:300]
        return str(inner)[:300]
    return str(value)[:300]


def parse_output_line(data: Any) -> tuple[str, int, str]:
    """``(custom_id, status, body)`` of one output line: a Batch API output line
    (``{"custom_id", "response": {"status_code", "body"}, "error"}``, as OpenAI and vLLM's
    ``run_batch`` write) or a plain ``{"custom_id", "response": <chat completion>}`` line. ``body``
    is the completion as JSON text for status 200, else the error message.

    Raises:
        ValueError: what is wrong with the line (no custom_id, neither a response nor an error).
    """
    from proevent.llm.client import shape_problem

    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        raise ValueError("custom_id: missing or not a string")
    response, error = data.get("response"), data.get("error")
    if isinstance(response, dict) and ("status_code" in response or "body" in response):
        status = response.get("status_code", 200)
        body = response.get("body")
        if not isinstance(status, int) or isinstance(status, bool):
            raise ValueError(f"response.status_code: not an integer: {status!r}")
        if status != 200:
            return custom_id, status, _error_text(body) or f"HTTP {status}"
        response = body
    if response is None or error:
        if not error:
            raise ValueError("neither a response nor an error")
        code = error.get("status_code") if isinstance(error, dict) else None
        return custom_id, code if isinstance(code, int) and code >= 400 else 500, _error_text(error)
    problem = shape_problem(response)
    if problem is not None:
        return custom_id, 502, f"malformed response body ({problem})"
    return custom_id, 200, json.dumps(response, ensure_ascii=False)


def import_batch_files(paths: Iterable[str | Path], cache: ResponseCache, *, price_factor: float = 1.0) -> ImportReport:
    """Read output files into ``cache`` (one transaction per file); ``price_factor`` scales the
    cost of their answers (0.5 for the OpenAI Batch API's half price).

    Raises:
        FileNotFoundError, IsADirectoryError: a path that is not a readable file.
    """
    report = ImportReport()
    for path in map(Path, paths):
        rows: list[tuple[str, str, int, str, float]] = []
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                if not raw.strip():
                    continue
                report.lines += 1
                try:
                    custom_id, status, body = parse_output_line(json.loads(raw.decode("utf-8", "replace")))
                except (ValueError, RecursionError) as exc:
                    report.problems.append(f"{path}:{number}: {str(exc)[:200]}")
                    continue
                rows.append((custom_id, f"{path.name}:{number}", status, body, price_factor))
        left_out = cache.put_imported(rows)
        report.already += len(left_out)
        for key, _, status, _, _ in rows:
            if key not in left_out:
                report.answers += status == 200
                report.errors += status != 200
    return report


__all__ = ["BATCH_URL", "ENV_BATCH_OUT", "MAX_BYTES", "MAX_REQUESTS", "PENDING_TEXT", "BatchRecorder", "ImportReport",
           "RequestPending", "RoundsPending", "Tracker", "current_tracker", "files_text", "import_batch_files",
           "note_answered", "parse_output_line", "part_path", "recorder_from_env", "recording", "track_pending"]
