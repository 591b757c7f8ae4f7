"""Datasets on disk: ``cases.jsonl`` plus ``dataset.json`` (data format, "Dataset on disk")."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from proevent.io.errors import FormatError
from proevent.io.fastcase import FastCases
from proevent.io.jsonl import dumps_line, iter_jsonl, read_json
from proevent.model import CASES_FILE, Case, Dataset, DatasetCounts, DatasetManifest
from proevent.model.bulk import gc_paused

__all__ = ["CASES_FILE", "MANIFEST_FILE", "Dataset", "dataset_counts", "iter_cases", "iter_numbered_cases",
           "load_dataset", "sha256_file", "write_dataset"]
MANIFEST_FILE = "dataset.json"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def iter_cases(path: Path, problems: list[str]) -> Iterator[Case]:
    """Stream the cases of a ``cases.jsonl``; bad lines are appended to ``problems``."""
    for _, case in iter_numbered_cases(path, problems):
        yield case


MAX_META_DEPTH = 32
"""``meta`` is the one free-form field of a case; deeper values load but cannot be written back
(pydantic's serializer stops at a few hundred levels), so a reader refuses them with the line."""


def _shallow(value: Any, limit: int = MAX_META_DEPTH) -> bool:
    """True when ``value`` is surely at most ``limit`` deep, read off its JSON: every list or dict
    writes one opening bracket, so a text with at most ``limit`` of them (those inside strings count
    too: never a wrong answer) holds no deeper value. One encoding and two byte counts, where the
    walk of :func:`_depth` touched every value of every case's ``meta``."""
    try:
        text = _encode(value)
    except (msgspec.MsgspecError, RecursionError, TypeError, UnicodeError, OverflowError):
        return False
    return text.count(b"[") + text.count(b"{") <= limit


_encode = msgspec.json.encode


def _depth(value: Any, limit: int = MAX_META_DEPTH) -> int:
    """Nesting depth of a JSON value (a scalar 0, ``[]`` and ``{}`` 1, ``[[1]]`` 2), counted up to ``limit + 1``."""
    depth, level = 0, [value]
    while depth <= limit:
        containers = [node for node in level if isinstance(node, dict | list)]
        if not containers:
            return depth
        depth += 1
        level = [v for node in containers for v in (node.values() if isinstance(node, dict) else node)]
    return depth


def iter_numbered_cases(path: Path, problems: list[str]) -> Iterator[tuple[int, Case]]:
    """``(line number, case)`` of every line that is a case; what the format forbids beyond the
    line's schema is a problem too: a case without steps, steps not numbered 1, 2, 3, ... in order."""
    for lineno, case in iter_jsonl(path, Case, problems, strict=True, fast=FastCases().case):
        where = f"{path.name}:{lineno}"
        if not _shallow(case.meta) and _depth(case.meta) > MAX_META_DEPTH:
            problems.append(f"{where}: meta: nested more than {MAX_META_DEPTH} levels deep")
            continue
        if not case.steps:
            problems.append(f"{where}: steps: a case has at least one step")
            continue
        wrong = next((i for i, step in enumerate(case.steps) if step.t != i + 1), None)
        if wrong is not None:
            got = [step.t for step in case.steps]
            what = "duplicate step numbers" if len(set(got)) < len(got) else "steps are numbered 1, 2, 3, ... in order"
            shown = ", ".join(map(str, got[:8])) + (", ..." if len(got) > 8 else "")
            problems.append(f"{where}: steps.{wrong}.t: {what}: expected {wrong + 1}, got {case.steps[wrong].t} "
                            f"(t = {shown})")
            continue
        yield lineno, case


def load_dataset(path: str | Path, *, verify_checksum: bool = True) -> Dataset:
    """Load a dataset folder, checking format strings, the checksum and every line.

    Raises:
        FormatError: with one ``file:line: field.path: what is wrong`` message per problem.
    """
    folder = Path(path)
    if not folder.is_dir():
        raise FormatError([f"{folder}: not a dataset folder"])
    manifest = read_json(folder / MANIFEST_FILE, DatasetManifest, strict=True)
    cases_path = folder / CASES_FILE
    if not cases_path.exists():
        raise FormatError([f"{cases_path}: file not found"])
    if not cases_path.is_file():
        raise FormatError([f"{cases_path}: is a folder, not a file"])
    problems: list[str] = []
    if verify_checksum:
        expected = manifest.sha256.get(CASES_FILE)
        try:
            actual = sha256_file(cases_path)
        except OSError as exc:
            raise FormatError([f"{cases_path}: cannot read: {exc.strerror or exc}"]) from None
        if expected is None:
            problems.append(f"{MANIFEST_FILE}: sha256.{CASES_FILE}: missing checksum")
        elif expected != actual:
            problems.append(
                f"{MANIFEST_FILE}: sha256.{CASES_FILE}: checksum mismatch "
                f"(manifest {expected[:12]}…, file {actual[:12]}…)"
            )
    cases: list[Case] = []
    first_line: dict[str, int] = {}
    with gc_paused():  # every case stays alive: collections would only walk them again and again
        for lineno, case in iter_numbered_cases(cases_path, problems):
            if case.case_id in first_line:
                problems.append(f"{CASES_FILE}:{lineno}: case_id: duplicate case id {case.case_id!r} "
                                f"(first on line {first_line[case.case_id]})")
                continue
            first_line[case.case_id] = lineno
            cases.append(case)
    if not cases and not problems:
        problems.append(f"{CASES_FILE}: (file): no cases (the file holds no line)")
    if problems:
        raise FormatError(problems)
    return Dataset(manifest=manifest, cases=cases, path=folder, lines=first_line)


def dataset_counts(cases: Iterable[Case]) -> DatasetCounts:
    cases = list(cases)
    steps = sum(len(c.steps) for c in cases)
    return DatasetCounts(cases=len(cases), steps=steps, single_step_questions=steps)


def write_dataset(
    path: str | Path,
    cases: Iterable[Case],
    *,
    name: str,
    version: str,
    generator: dict[str, Any] | None = None,
    created: str | None = None,
    extra: dict[str, Any] | None = None,
    overwrite: bool = False,
) -> Dataset:
    """Write ``cases.jsonl`` and ``dataset.json``; the same cases and arguments give the same bytes.

    Refuses to replace an existing dataset unless ``overwrite`` is set.
    """
    folder = Path(path)
    if (folder / CASES_FILE).exists() and not overwrite:
        raise FileExistsError(f"{folder / CASES_FILE} exists; pass overwrite=True (--force) to replace it")
    folder.mkdir(parents=True, exist_ok=True)
    cases = list(cases)
    with (folder / CASES_FILE).open("w", encoding="utf-8", newline="\n") as fh:
        for case in cases:
            fh.write(dumps_line(case.model_dump(mode="json")))
    manifest = DatasetManifest(
        name=name,
        version=version,
        created=created or datetime.now().strftime("%Y-%m-%dT%H:%M"),
        generator=generator or {},
        counts=dataset_counts(cases),
        sha256={CASES_FILE: sha256_file(folder / CASES_FILE)},
        **(extra or {}),
    )
    (folder / MANIFEST_FILE).write_text(
        manifest.model_dump_json(indent=2, exclude_none=False) + "\n", encoding="utf-8"
    )
    return Dataset(manifest=manifest, cases=cases, path=folder)
