"""Per-case count rows rebuilt from an :class:`~proevent.evaluate.EvaluationResult` (repeat 0).

Every metric is a ratio of sums of per-case counts (see ``proevent.evaluate.aggregate``), so with
these rows a report can bootstrap any subset of cases -- a breakdown group for the robustness plots,
or the same resample of cases for two runs in a paired comparison -- without re-scoring.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from proevent.evaluate import EvaluationResult
from proevent.evaluate.aggregate import (
    MULTI_FIELDS,
    MULTI_RATIOS,
    SINGLE_FIELDS,
    SINGLE_RATIOS,
    multi_ratios,
    single_ratios,
)
from proevent.io import Dataset
from proevent.model import OP_TYPES

_S = {name: i for i, name in enumerate(SINGLE_FIELDS)}
_M = {name: i for i, name in enumerate(MULTI_FIELDS)}


@dataclass
class CaseRows:
    """One row of counts per case of the dataset, in dataset order; ``None`` for a mode the run lacks."""

    case_ids: list[str]
    single: np.ndarray | None
    multi: np.ndarray | None

    def ratios(self, idx: np.ndarray | list[int] | None = None) -> dict[str, float | None]:
        """Every metric (dotted keys) over the cases ``idx`` (all when ``None``)."""
        out: dict[str, float | None] = {}
        if self.single is not None:
            rows = self.single if idx is None else self.single[idx]
            out.update(single_ratios(rows.sum(axis=0)))
        if self.multi is not None:
            rows = self.multi if idx is None else self.multi[idx]
            out.update(multi_ratios(rows.sum(axis=0)))
        return out


def case_rows(dataset: Dataset, result: EvaluationResult) -> CaseRows:
    """Count rows from ``result.questions`` and ``result.cases`` (repeat 0 of the run)."""
    ids = [c.case_id for c in dataset.cases]
    pos = {cid: k for k, cid in enumerate(ids)}
    single = multi = None
    if result.metrics.get("single") is not None:
        single = np.zeros((len(ids), len(SINGLE_FIELDS)), dtype=np.int64)
        for q in result.questions:
            row = single[pos[q.case_id]]
            g, p, m = len(q.gold), len(q.pred), len(q.matches)
            row[_S["questions"]] += 1
            if g == 0:
                row[_S["empty"]] += 1
                row[_S["fd"]] += p > 0
            else:
                row[_S["need"]] += 1
                row[_S["mn"]] += p == 0
            row[_S["p"]] += p
            row[_S["g"]] += g
            row[_S["m"]] += m
            for op in q.pred:
                if op.op in OP_TYPES:
                    row[_S[f"p_{op.op}"]] += 1
            for op in q.gold:
                row[_S[f"g_{op.op}"]] += 1
            for _, j in q.matches:
                row[_S[f"m_{q.gold[j].op}"]] += 1
            row[_S["missing"]] += q.missing
            row[_S["errors"]] += q.error is not None
            row[_S["invalid_ops"]] += len(q.invalid)
    if result.metrics.get("multi") is not None:
        multi = np.zeros((len(ids), len(MULTI_FIELDS)), dtype=np.int64)
        for trace in result.cases:
            row = multi[pos[trace.case_id]]
            row[_M["cases"]] = 1
            row[_M["targets"]] = len(trace.targets)
            row[_M["successes"]] = sum(trace.event_success.values())
            row[_M["tables_ok"]] = trace.timetable_success
            row[_M["missing"]] = trace.missing_steps
            row[_M["errors"]] = trace.errors
    return CaseRows(case_ids=ids, single=single, multi=multi)


def resample_weights(n_cases: int, n_boot: int, seed: int) -> np.ndarray:
    """``(n_boot, n_cases)`` multiplicities of a case-level bootstrap (``numpy.random.default_rng(seed)``)."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n_cases, size=(n_boot, n_cases))
    weights = np.zeros((n_boot, n_cases), dtype=np.int64)
    np.add.at(weights, (np.repeat(np.arange(n_boot), n_cases), draws.ravel()), 1)
    return weights


def resampled_ratios(rows: CaseRows, weights: np.ndarray) -> dict[str, np.ndarray]:
    """Per metric, its value in each resample (``nan`` where undefined)."""
    out: dict[str, np.ndarray] = {}
    for prefix, counts, ratios, index in (
        ("single", rows.single, SINGLE_RATIOS, _S),
        ("multi", rows.multi, MULTI_RATIOS, _M),
    ):
        if counts is None:
            continue
        sums = weights @ counts
        for key, (a, b) in ratios.items():
            num, den = sums[:, index[a]].astype(float), sums[:, index[b]].astype(float)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[f"{prefix}.{key}"] = np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)
    return out
