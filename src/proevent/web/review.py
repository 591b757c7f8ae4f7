"""Review mode: one verdict per case per annotator in ``annotations.jsonl``, and their agreement.

The file is append-only, like a run's predictions: each saved verdict is one whole line, and the
last line for a case is the annotator's verdict. Two annotators' files give percent agreement,
Cohen's kappa and the list of disputed cases (:func:`agreement`).

The cases come in dataset order, or (``flagged_first``, the server's default) the cases the
validator flagged first, most flags first: the paper's quality control sends exactly those to
human review. Each case page lists its flags.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from proevent.io import Dataset, FormatError, dumps_line
from proevent.io.jsonl import iter_jsonl
from proevent.model import DatasetRef
from proevent.web.render import load_data

ANNOTATION_FORMAT = "proevent.annotation/1"
VERDICTS: tuple[str, ...] = ("valid", "invalid")


def review_reasons() -> list[dict[str, str]]:
    """The reasons an annotator can give for an invalid case (package data)."""
    return list(load_data("review_reasons.json")["reasons"])


class Annotation(BaseModel):
    """One verdict on one case."""

    model_config = ConfigDict(extra="ignore")
    format: Literal["proevent.annotation/1"] = ANNOTATION_FORMAT
    case_id: str
    annotator: str
    verdict: Literal["valid", "invalid"]
    reason: str | None = None
    note: str = Field(default="", max_length=4000)
    created: str
    dataset: DatasetRef | None = None

    @model_validator(mode="after")
    def _reason_when_invalid(self) -> Annotation:
        if self.verdict == "invalid" and not self.reason:
            raise ValueError("an invalid verdict needs a reason")
        return self


def load_annotations(path: str | Path) -> dict[str, Annotation]:
    """The last annotation per case of an ``annotations.jsonl``.

    Raises:
        FormatError: naming the file, line and field of every bad line.
    """
    path = Path(path)
    if not path.is_file():
        raise FormatError([f"{path}: file not found"])
    problems: list[str] = []
    out: dict[str, Annotation] = {}
    for _, ann in iter_jsonl(path, Annotation, problems):
        out.pop(ann.case_id, None)
        out[ann.case_id] = ann
    if problems:
        # Both annotators' files are usually called annotations.jsonl: name them by their path.
        raise FormatError([f"{path}{p[len(path.name):]}" if p.startswith(path.name) else p for p in problems])
    return out


@dataclass
class ReviewStore:
    """The annotations of one annotator on one dataset, kept in memory and appended to disk."""

    path: Path
    annotator: str
    dataset: Dataset
    latest_by_case: dict[str, Annotation] = field(default_factory=dict)
    reasons: list[dict[str, str]] = field(default_factory=review_reasons)
    flags: dict[str, list[Any]] = field(default_factory=dict)
    """case_id -> the validator's review flags on it (:class:`proevent.generate.validate.Issue`)."""
    order: list[str] = field(default_factory=list)
    """The case ids in the order they are reviewed."""

    @classmethod
    def open(cls, path: Path, annotator: str, dataset: Dataset, flagged_first: bool = False,
             sample: int | None = None, seed: int = 0) -> ReviewStore:
        """Open (resume) an annotations file; refuse one written by another annotator or dataset.

        The dataset is validated once to list each case's flags; with ``flagged_first`` the
        flagged cases come first (most flags first, then dataset order). ``sample`` keeps that many
        cases: the flagged ones first (with ``flagged_first``), the rest drawn at random (``seed``),
        so a reviewer with an hour judges the cases the validator doubts and a fair share of the
        others; the same seed gives the same sample, also after a restart."""
        store = cls(path=path, annotator=annotator, dataset=dataset, flags=case_flags(dataset))
        ids = [c.case_id for c in dataset.cases]
        if sample is not None:
            first = {cid for cid in ids if flagged_first and cid in store.flags}
            rest = [cid for cid in ids if cid not in first]
            drawn = set(random.Random(seed).sample(rest, min(len(rest), max(0, sample - len(first)))))
            ids = [cid for cid in ids if cid in drawn or cid in first]
        if flagged_first:
            ids = sorted(ids, key=lambda cid: -len(store.flags.get(cid, ())))  # stable: dataset order within
        store.order = ids[:sample] if sample is not None else ids
        if path.exists():
            store.latest_by_case = load_annotations(path)
            for ann in store.latest_by_case.values():
                if ann.annotator != annotator:
                    raise ValueError(f"{path} holds annotations by {ann.annotator!r}, not {annotator!r}")
                if ann.dataset and dataset.sha256 and ann.dataset.sha256 != dataset.sha256:
                    raise ValueError(f"{path} was written for dataset {ann.dataset.name} "
                                     f"{ann.dataset.version}, not the one served")
        return store

    @property
    def path_display(self) -> str:
        return str(self.path)

    def latest(self, case_id: str) -> Annotation | None:
        return self.latest_by_case.get(case_id)

    def count(self) -> int:
        """Verdicts given on the cases under review."""
        return sum(1 for cid in self.order if cid in self.latest_by_case)

    def flags_for(self, case_id: str) -> list[Any]:
        return self.flags.get(case_id, [])

    def next_unreviewed(self, after: str | None = None) -> str | None:
        """The first case without a verdict in review order, looking after ``after`` first, then
        from the start."""
        ids = self.order or [c.case_id for c in self.dataset.cases]
        start = ids.index(after) + 1 if after in ids else 0
        for cid in ids[start:] + ids[:start]:
            if cid not in self.latest_by_case:
                return cid
        return None

    def save(self, case_id: str, verdict: str, reason: str | None, note: str) -> Annotation:
        """Validate and append one verdict (the reason must be one of :func:`review_reasons`)."""
        self.dataset.case(case_id)
        known = {r["id"] for r in self.reasons}
        if reason and reason not in known:
            raise ValueError(f"unknown reason {reason!r}")
        ann = Annotation(
            case_id=case_id, annotator=self.annotator, verdict=verdict,  # type: ignore[arg-type]
            reason=reason or None, note=note.strip(),
            created=datetime.now().strftime("%Y-%m-%dT%H:%M"),
            dataset=self.dataset.ref(),
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, dumps_line(ann.model_dump(mode="json")).encode("utf-8"))
        finally:
            os.close(fd)
        self.latest_by_case[case_id] = ann
        return ann


def case_flags(dataset: Dataset) -> dict[str, list[Any]]:
    """case_id -> the review flags :func:`proevent.generate.validate.validate_dataset` gives it."""
    from proevent.generate.validate import validate_dataset

    out: dict[str, list[Any]] = {}
    for issue in validate_dataset(dataset).flags:
        out.setdefault(issue.case_id, []).append(issue)
    return out


@dataclass
class Agreement:
    """Agreement of two annotators on the cases both judged."""

    annotators: tuple[str, str]
    n: int
    agreed: int
    percent: float | None
    kappa: float | None
    """Cohen's kappa; ``None`` when undefined (no case, or chance agreement is 1)."""
    disputed: list[tuple[str, Annotation, Annotation]]
    only_first: list[str]
    only_second: list[str]
    table: dict[tuple[str, str], int]
    """(first's verdict, second's verdict) -> number of cases."""


def cohen_kappa(pairs: list[tuple[str, str]], labels: tuple[str, ...] = VERDICTS) -> float | None:
    """(p_o - p_e) / (1 - p_e) over paired labels; ``None`` when undefined."""
    n = len(pairs)
    if n == 0:
        return None
    p_o = sum(a == b for a, b in pairs) / n
    p_e = sum((sum(a == lab for a, _ in pairs) / n) * (sum(b == lab for _, b in pairs) / n) for lab in labels)
    if p_e >= 1.0:
        return None
    return (p_o - p_e) / (1.0 - p_e)


def agreement(first: dict[str, Annotation], second: dict[str, Annotation]) -> Agreement:
    """Percent agreement and Cohen's kappa on verdicts, over the cases both annotators judged."""
    common = [cid for cid in first if cid in second]
    pairs = [(first[c].verdict, second[c].verdict) for c in common]
    agreed = sum(a == b for a, b in pairs)
    table = {(a, b): sum(1 for p in pairs if p == (a, b)) for a in VERDICTS for b in VERDICTS}
    names = (_annotator(first), _annotator(second))
    return Agreement(
        annotators=names,
        n=len(common),
        agreed=agreed,
        percent=agreed / len(common) if common else None,
        kappa=cohen_kappa(pairs),
        disputed=[(c, first[c], second[c]) for c in common if first[c].verdict != second[c].verdict],
        only_first=[c for c in first if c not in second],
        only_second=[c for c in second if c not in first],
        table=table,
    )


def _annotator(anns: dict[str, Annotation]) -> str:
    names = sorted({a.annotator for a in anns.values()})
    return ", ".join(names) if names else "(empty)"
