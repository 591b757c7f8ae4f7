"""The run folder: ``run.json`` and the append-only ``predictions.jsonl``; resume and drift refusal."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from proevent import __version__
from proevent.io import PREDICTIONS_FILE, RUN_FILE, PredictionWriter, load_run, write_run_manifest
from proevent.io.run import Key, RunWriteError, line_bytes, os_error_text
from proevent.model import DatasetRef, PredictionLine, PromptRecord, RunManifest
from proevent.runner.config import RunConfig, config_hash, public_config, run_identity

if TYPE_CHECKING:
    from proevent.io import Dataset


class RunDriftError(ValueError):
    """The run folder holds a run made with another configuration: resuming would mix them."""


class RunLockedError(ValueError):
    """Another process is writing to the same run folder."""


LOCK_FILE = ".lock"


def _lock(folder: Path) -> int:
    """Take the run folder's lock (``flock`` on ``.lock``, released when the process ends, even by
    ``kill -9``); a second process is refused at once with the first one's pid."""
    path = folder / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise RunWriteError(os_error_text(path, exc)) from None
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
        os.close(fd)
        raise RunLockedError(
            f"{folder}: another process (pid {holder}) is writing to this run folder; wait for it to "
            "finish (or stop it), or use another --out folder"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


class _Appender(PredictionWriter):
    """:class:`PredictionWriter` that also appends a line already encoded (:meth:`write_bytes`), and
    knows the file's size from the one it found and the lines it wrote (the folder is locked: no
    one else writes), instead of asking the file system before every line. A failed write cuts
    the file back to that size, as the writer does."""

    def __init__(self, path: str | Path, *, fsync: bool = False) -> None:
        super().__init__(path, fsync=fsync)
        try:
            self._size = os.fstat(self._fd).st_size
        except OSError as exc:
            self.close()
            raise RunWriteError(os_error_text(self.path, exc)) from None

    def write(self, line: PredictionLine) -> None:
        self.write_bytes(line_bytes(line))

    def write_bytes(self, data: bytes) -> None:
        """Append ``data``, whole lines (see :meth:`PredictionWriter.write`)."""
        self._append(data, self._size)
        self._size += len(data)


def _diff_keys(a: Any, b: Any, prefix: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for k in sorted(set(a) | set(b)):
            out += _diff_keys(a.get(k), b.get(k), f"{prefix}{k}.")
        return out
    return [] if a == b else [prefix.rstrip(".")]


class RunStore:
    """Opens (or creates) a run folder for writing.

    On opening an existing run, the stored config hash must equal ours (else
    :class:`RunDriftError` names the fields that differ); its lines are read so that the runner
    skips answered keys. A torn last line (a killed writer) is cut off first.
    """

    def __init__(self, path: str | Path, manifest: RunManifest, identity: dict[str, Any], chash: str, *,
                 fsync: bool = False) -> None:
        self.path = Path(path)
        self.fsync = fsync
        """fsync every line (a person's answers: each one is minutes of work)."""
        self.manifest = manifest
        self.identity = identity
        self.config_hash = chash
        self.existing: dict[Key, PredictionLine] = {}
        self.writer: _Appender | None = None
        self._lock_fd = -1

    def open(self, *, force: bool = False) -> RunStore:
        """Lock the folder, check drift, cut a torn tail, read the answered lines.

        Raises:
            RunLockedError: another process has the folder open.
            RunDriftError: the folder holds a run with another configuration.
            RunWriteError: the folder or a file in it cannot be written (the message names it).
        """
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RunWriteError(os_error_text(self.path, exc)) from None
        self._lock_fd = _lock(self.path)
        try:
            return self._open(force)
        except BaseException:
            self.close()
            raise

    def _open(self, force: bool) -> RunStore:
        run_file = self.path / RUN_FILE
        if run_file.exists():
            try:
                old = json.loads(run_file.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                if force:
                    old = {}
                else:
                    raise RunWriteError(f"{run_file}: not a readable run.json ({exc}); use another --out "
                                        "folder, or --force to overwrite") from None
            if not isinstance(old, dict):
                old = {}
            if old.get("config_hash") != self.config_hash and not force:
                fields = _diff_keys(old.get("identity") or {}, self.identity) or ["config_hash"]
                raise RunDriftError(
                    f"{run_file}: the run was made with another configuration "
                    f"(differs in: {', '.join(fields)}); use a new --out folder, or --force to overwrite"
                )
            if force and old.get("config_hash") != self.config_hash:
                try:
                    (self.path / PREDICTIONS_FILE).unlink(missing_ok=True)
                except OSError as exc:
                    raise RunWriteError(os_error_text(self.path / PREDICTIONS_FILE, exc, "cannot remove")) from None
            else:
                self.manifest.created = old.get("created", self.manifest.created)
        self.writer = _Appender(self.path / PREDICTIONS_FILE, fsync=self.fsync)  # cuts a torn tail
        self.write_manifest()
        self.existing = load_run(self.path).lines
        return self

    def write_manifest(self, **extra: Any) -> None:
        for k, v in extra.items():
            setattr(self.manifest, k, v)
        write_run_manifest(self.path, self.manifest)

    def write(self, line: PredictionLine, data: bytes | None = None) -> None:
        """Append ``line``; ``data``, when given, is its encoded line (:func:`proevent.io.run.line_bytes`)."""
        assert self.writer is not None, "RunStore.open() first"
        self.writer.write_bytes(line_bytes(line) if data is None else data)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        if self._lock_fd >= 0:
            os.close(self._lock_fd)  # releases the flock
            self._lock_fd = -1


def make_manifest(
    *,
    agent: str,
    description: dict[str, Any],
    model: str | None,
    parameters: dict[str, Any],
    dataset: DatasetRef,
    extra: dict[str, Any],
) -> RunManifest:
    """``run.json`` per the data format, with our extra fields (strategy, config hash, prompt...)."""
    prompt = description.get("prompt")
    record = PromptRecord(**prompt) if isinstance(prompt, dict) else None
    return RunManifest(
        created=datetime.now().strftime("%Y-%m-%dT%H:%M"),
        proevent_version=__version__,
        agent=agent,
        model=model,
        parameters=parameters,
        prompt=record,
        dataset=dataset,
        strategy=description.get("strategy", agent),
        **extra,
    )


def open_store(
    config: RunConfig,
    description: dict[str, Any],
    dataset: Dataset,
    out: str | Path,
    *,
    uses_llm: bool,
    agent: str | None = None,
    parameters: dict[str, Any] | None = None,
    force: bool = False,
    fsync: bool = False,
) -> RunStore:
    """Open the run folder ``out`` for ``config`` (an agent's run, or a person's in human mode).

    The identity (:func:`~proevent.runner.config.run_identity`) and its hash decide whether an
    existing folder is resumed or refused; ``run.json`` records them with the public config.
    ``agent`` is the name written to ``run.json`` (default ``config.agent``); ``parameters`` the
    sampling parameters (default those of the model, when the agent uses one).
    """
    identity = run_identity(config, description, dataset.sha256, uses_llm=uses_llm)
    chash = config_hash(identity)
    llm = config.llm if uses_llm else None
    manifest = make_manifest(
        agent=agent or config.agent, description=description,
        model=llm.model if llm else None,
        parameters=parameters if parameters is not None else (llm.request_params() if llm else {}),
        dataset=dataset.ref(Path(out)),
        extra={"config_hash": chash, "identity": identity, "config": public_config(config),
               "modes": config.modes(), "repeats": config.repeats,
               "context_messages": config.context_messages},
    )
    return RunStore(out, manifest, identity, chash, fsync=fsync).open(force=force)
