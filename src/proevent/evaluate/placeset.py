"""The labelled location pairs: loading, the fixed dev / held-out split, a judge's precision,
recall and F1 of "same place", and Cohen's kappa against a second annotator.

The set (``data/location_pairs.jsonl``) holds pairs of a gold and a predicted location with the
event's description, labelled by hand ("would the user show up at the right place?"), one
``category`` each. A pair is held out when ``sha256(id) mod 10 < 3``: fixed by the id, so the
split does not move when pairs are added. Judges are tuned on ``dev`` only.

A second annotator labels the pairs of ``data/location_pairs.blind.jsonl`` (ids, places and
descriptions, no labels) blind and saves them with a ``label`` field (``same`` / ``different``)
beside it as ``location_pairs.second.jsonl``; :func:`agreement` then gives Cohen's kappa.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from proevent.evaluate.judges import LocationJudge

LABELS = ("same", "different")
SPLITS = ("dev", "heldout", "all")
_FIELDS = ("id", "category", "gold", "pred", "description", "label")


def data_path(name: str = "location_pairs.jsonl") -> Path:
    """A file of the packaged set (``location_pairs.jsonl``, ``.blind.jsonl``, ``.second.jsonl``)."""
    return Path(str(resources.files("proevent.evaluate").joinpath("data", name)))


@dataclass(frozen=True)
class Pair:
    id: str
    category: str
    gold: str
    pred: str
    description: str
    same: bool

    @property
    def split(self) -> str:
        return split_of(self.id)


@dataclass(frozen=True)
class PairContext:
    """What a judge may know of the event: the shape the ``llm`` judge describes (no time, nobody)."""

    description: str
    start: str | None = None
    participants: tuple[str, ...] = ()


def split_of(pair_id: str) -> str:
    """``heldout`` for about 30% of ids (``sha256(id) mod 10 < 3``), else ``dev``."""
    return "heldout" if int(hashlib.sha256(pair_id.encode("utf-8")).hexdigest(), 16) % 10 < 3 else "dev"


def _read_jsonl(path: Path, required: Sequence[str]) -> list[dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    rows: list[dict[str, Any]] = []
    seen: set[str] = set()
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError as exc:
            raise ValueError(f"{path}:{n}: not JSON: {exc}") from None
        if not isinstance(row, dict):
            raise ValueError(f"{path}:{n}: a line must be a JSON object")
        for name in required:
            if not isinstance(row.get(name), str) or not row[name].strip():
                raise ValueError(f"{path}:{n}: field {name!r} must be a non-empty string")
        if "label" in required and row["label"] not in LABELS:
            raise ValueError(f"{path}:{n}: field 'label' must be 'same' or 'different', not {row['label']!r}")
        if row["id"] in seen:
            raise ValueError(f"{path}:{n}: field 'id': {row['id']!r} appears twice")
        seen.add(row["id"])
        rows.append(row)
    return rows


def load_pairs(path: Path | str | None = None) -> list[Pair]:
    """The labelled pairs of ``path`` (the packaged set by default); bad lines raise ``ValueError``
    naming the file, line and field."""
    rows = _read_jsonl(Path(path) if path else data_path(), _FIELDS)
    return [Pair(r["id"], r["category"], r["gold"], r["pred"], r["description"], r["label"] == "same") for r in rows]


def select(pairs: Iterable[Pair], split: str) -> list[Pair]:
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    return [p for p in pairs if split == "all" or p.split == split]


@dataclass
class JudgeScore:
    """Counts of "same place" against the labels; ``disagreements`` are the pairs decided wrongly."""

    judge: str
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    disagreements: list[tuple[Pair, bool]] = field(default_factory=list)

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p and r else (0.0 if p is not None and r is not None else None)

    def as_dict(self) -> dict[str, Any]:
        return {"judge": self.judge, "pairs": self.tp + self.fp + self.fn + self.tn, "tp": self.tp, "fp": self.fp,
                "fn": self.fn, "tn": self.tn, "precision": self.precision, "recall": self.recall, "f1": self.f1,
                "disagreements": [{"id": p.id, "category": p.category, "gold": p.gold, "pred": p.pred,
                                   "label": "same" if p.same else "different",
                                   "judge": "same" if said else "different"} for p, said in self.disagreements]}


def score_judge(judge: LocationJudge, pairs: Sequence[Pair]) -> JudgeScore:
    """Ask ``judge`` about every pair (prefetched first when the judge decides in batches)."""
    contexts = [PairContext(p.description) for p in pairs]
    if judge.needs_prefetch:
        judge.prefetch([(p.gold, p.pred, ctx) for p, ctx in zip(pairs, contexts)])
    score = JudgeScore(judge.name)
    for p, ctx in zip(pairs, contexts):
        said = judge.same(p.gold, p.pred, ctx)
        if said and p.same:
            score.tp += 1
        elif said:
            score.fp += 1
        elif p.same:
            score.fn += 1
        else:
            score.tn += 1
        if said != p.same:
            score.disagreements.append((p, said))
    return score


def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Cohen's kappa of two label sequences: (p_o - p_e) / (1 - p_e), with p_o the observed agreement
    and p_e the agreement expected from each annotator's label frequencies; ``None`` when empty or
    when p_e = 1 (both gave one and the same label throughout: kappa is undefined)."""
    if len(a) != len(b):
        raise ValueError("cohen_kappa needs two sequences of the same length")
    n = len(a)
    if n == 0:
        return None
    p_o = sum(x == y for x, y in zip(a, b)) / n
    labels = set(a) | set(b)
    p_e = sum((list(a).count(k) / n) * (list(b).count(k) / n) for k in labels)
    return None if p_e == 1 else (p_o - p_e) / (1 - p_e)


@dataclass
class Agreement:
    n: int
    observed: float | None
    kappa: float | None
    differ: list[str]
    """Ids the two annotators labelled differently."""


def load_second_labels(path: Path | str) -> dict[str, bool]:
    """A second annotator's labels: lines with ``id`` and ``label`` (``same`` / ``different``)."""
    return {r["id"]: r["label"] == "same" for r in _read_jsonl(Path(path), ("id", "label"))}


def agreement(pairs: Sequence[Pair], second: dict[str, bool], path: Path | str = "second labels") -> Agreement:
    """Cohen's kappa between the set's labels and ``second`` on the ids both have; an id of
    ``second`` that the set lacks is an error (a mislabelled file)."""
    by_id = {p.id: p for p in pairs}
    unknown = sorted(set(second) - set(by_id))
    if unknown:
        raise ValueError(f"{path}: field 'id': {len(unknown)} ids not in the set, e.g. {unknown[0]!r}")
    ids = sorted(second)
    mine = ["same" if by_id[i].same else "different" for i in ids]
    theirs = ["same" if second[i] else "different" for i in ids]
    observed = sum(x == y for x, y in zip(mine, theirs)) / len(ids) if ids else None
    return Agreement(len(ids), observed, cohen_kappa(mine, theirs), [i for i, x, y in zip(ids, mine, theirs) if x != y])


def blind_subset(pairs: Sequence[Pair], share: int = 4) -> list[Pair]:
    """The pairs for a second annotator: ``sha256("blind:" + id) mod share == 0`` (about a quarter),
    fixed by the id, drawn across both splits and every category."""
    return [p for p in pairs if int(hashlib.sha256(f"blind:{p.id}".encode()).hexdigest(), 16) % share == 0]
