"""The loaded dataset and run: plain containers, built by :mod:`proevent.io` and read by every stage.

They hold no file handles and read nothing: ``proevent.io`` loads and writes them, so scoring
(``proevent.evaluate``) needs the model only.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from proevent.model.case import Case, DatasetManifest, DatasetRef, PredictionLine, RunManifest

CASES_FILE = "cases.jsonl"
"""A dataset folder's cases (data format, "Dataset on disk"); ``dataset.json`` holds its checksum."""

Key = tuple[str, str, int, int]
"""A prediction line's key: (case_id, mode, t, repeat)."""


@dataclass
class Dataset:
    """A loaded dataset: its manifest, its cases in file order, and where it came from."""

    manifest: DatasetManifest
    cases: list[Case]
    path: Path | None = None
    lines: dict[str, int] = field(default_factory=dict, repr=False)
    """case_id -> its line in ``cases.jsonl`` (set by :func:`proevent.io.load_dataset`), for messages that name it."""
    _by_id: dict[str, Case] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._by_id = {c.case_id: c for c in self.cases}

    def case(self, case_id: str) -> Case:
        try:
            return self._by_id[case_id]
        except KeyError:
            raise KeyError(f"no case {case_id!r} in dataset {self.manifest.name!r}") from None

    @property
    def sha256(self) -> str:
        return self.manifest.sha256.get(CASES_FILE, "")

    def subset(self, case_ids: Iterable[str]) -> Dataset:
        """The same dataset (manifest and checksum kept) restricted to ``case_ids``, in file order."""
        wanted = set(case_ids)
        unknown = wanted - self._by_id.keys()
        if unknown:
            raise KeyError(f"no case {sorted(unknown)[0]!r} in dataset {self.manifest.name!r}")
        return Dataset(manifest=self.manifest, cases=[c for c in self.cases if c.case_id in wanted], path=self.path,
                       lines=self.lines)

    def ref(self, run_folder: Path | None = None) -> DatasetRef:
        """A reference to this dataset: name, version, checksum and, given the ``run_folder`` of a
        dataset loaded from a folder, its ``path`` relative to the run (absolute where no relative
        path exists), so that ``report``, ``compare`` and ``serve`` find it without ``--dataset``."""
        ref = DatasetRef(name=self.manifest.name, version=self.manifest.version, sha256=self.sha256)
        if self.path is not None and run_folder is not None:
            target = Path(self.path).resolve()
            try:
                ref.path = os.path.relpath(target, Path(run_folder).resolve())
            except ValueError:  # another drive
                ref.path = str(target)
        return ref

    def questions(self) -> Iterator[tuple[Case, int]]:
        """Every single-step question: ``(case, t)``."""
        for case in self.cases:
            for step in case.steps:
                yield case, step.t


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


def dataset_mismatch(run: Run, dataset: Dataset, where: str | Path | None = None) -> str | None:
    """Why ``run`` was not made on ``dataset`` (``where``: how to name it, e.g. the path it was read
    from): another checksum; ``None`` when it was (or the run does not say). The one wording of the
    checksum warning of every command and of the report."""
    ref = run.manifest.dataset
    if not ref.sha256 or ref.sha256 == dataset.sha256:
        return None
    ours = f"{dataset.manifest.name} {dataset.manifest.version}, checksum {dataset.sha256[:12]}…"
    return (f"the run was made on dataset {ref.name} {ref.version} (checksum {ref.sha256[:12]}…), not on "
            + (f"{where} ({ours})" if where is not None else f"{ours.replace(', ', ' (', 1)})"))

