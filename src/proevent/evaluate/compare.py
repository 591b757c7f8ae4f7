"""Paired comparison of two runs on one dataset: a case-level bootstrap of every metric's difference.

Both runs are resampled with the *same* cases in each resample, so what the cases have in common
(some are simply harder) cancels out, and the interval of A - B is much narrower than the two
separate intervals suggest. The p-value is the two-sided bootstrap test of "no difference": the
share of resampled differences at least as far from the observed one as the observed one is from
zero, ``(1 + #{|d* - d| >= |d|}) / (1 + B)`` (Efron and Tibshirani's shifted bootstrap; B counts
the resamples where the metric is defined for both runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from proevent.evaluate.aggregate import (
    METRIC_KEYS,
    percentile_interval,
    repeat_stats,
    resample_weights,
    resampled_repeat_means,
)
from proevent.evaluate.breakdowns import subset_rows

if TYPE_CHECKING:
    from proevent.evaluate.api import EvaluationResult
    from proevent.model import Dataset


@dataclass
class MetricDiff:
    key: str
    a: float | None
    b: float | None
    diff: float | None
    ci: tuple[float, float] | None
    p_value: float | None
    resamples: int


@dataclass
class CaseDisagreement:
    """Where the two runs' outcomes on a case differ."""

    case_id: str
    single_steps: list[tuple[int, bool, bool]] = field(default_factory=list)
    """(t, A exact, B exact) for each single-step question answered exactly by one run only."""
    tsr: tuple[bool, bool] | None = None
    """(A, B) timetable success, when it differs."""
    esr: tuple[int, int, int] | None = None
    """(A successes, B successes, target events), when the successes differ."""


@dataclass
class Comparison:
    metrics: list[MetricDiff]
    disagreements: list[CaseDisagreement]
    n_boot: int
    seed: int
    cases: int
    repeats: tuple[int, int] = (1, 1)
    """Repeats of A and of B: values are means over repeats, as ``evaluate`` reports them."""


def _case_indices(dataset: Dataset, case_ids: Sequence[str] | None) -> list[int] | None:
    """Indices (dataset order) of ``case_ids``; ``None`` for every case."""
    if case_ids is None:
        return None
    wanted = set(case_ids)
    known = {c.case_id for c in dataset.cases}
    unknown = sorted(wanted - known)
    if unknown:
        raise ValueError(f"case ids not in the dataset: {', '.join(unknown[:10])}"
                         + (f" (and {len(unknown) - 10} more)" if len(unknown) > 10 else ""))
    return [i for i, c in enumerate(dataset.cases) if c.case_id in wanted]


def compare_results(
    dataset: Dataset,
    a: EvaluationResult,
    b: EvaluationResult,
    *,
    n_boot: int = 1000,
    seed: int = 0,
    case_ids: Sequence[str] | None = None,
) -> Comparison:
    """Paired case-level bootstrap of A - B for every metric both runs define, and the disagreeing cases.

    With repeats, each value is the mean over the run's repeats (as ``evaluate`` reports it), and a
    resample scores every repeat of both runs on the same cases. The disagreements are those of
    repeat 0. ``case_ids`` restricts the comparison (values, resamples and disagreements) to those
    cases, taken in dataset order (an ablation's cases that carry a phenomenon, say); an id the
    dataset lacks is a ``ValueError``.
    """
    rows_a, rows_b = a.repeat_rows, b.repeat_rows
    idx = _case_indices(dataset, case_ids)
    if idx is not None:
        rows_a = [subset_rows(r, idx) for r in rows_a]
        rows_b = [subset_rows(r, idx) for r in rows_b]
    n = len(dataset.cases) if idx is None else len(idx)
    weights = resample_weights(n, n_boot, seed) if n else np.zeros((0, 0), dtype=np.int64)
    boot_a, boot_b = (resampled_repeat_means(r, weights) for r in (rows_a, rows_b)) if n else ({}, {})
    obs_a, obs_b = ({k: v[0] for k, v in repeat_stats(r).items()} for r in (rows_a, rows_b))
    metrics: list[MetricDiff] = []
    for key in METRIC_KEYS:
        if key not in obs_a or key not in obs_b:
            continue
        va, vb = obs_a[key], obs_b[key]
        diff = None if va is None or vb is None else va - vb
        ci = p = None
        used = 0
        if diff is not None and key in boot_a and key in boot_b:
            d = boot_a[key] - boot_b[key]
            d = d[~np.isnan(d)]
            used = int(d.size)
            ci = percentile_interval(d)
            if used:
                extreme = int(np.sum(np.abs(d - diff) >= abs(diff) - 1e-12))
                p = min(1.0, (1 + extreme) / (1 + used))
        metrics.append(MetricDiff(key=key, a=va, b=vb, diff=diff, ci=ci, p_value=p, resamples=used))
    return Comparison(metrics=metrics, disagreements=disagreements(dataset, a, b, case_ids=case_ids),
                      n_boot=n_boot, seed=seed, cases=n, repeats=(len(rows_a), len(rows_b)))


def disagreements(
    dataset: Dataset, a: EvaluationResult, b: EvaluationResult, *, case_ids: Sequence[str] | None = None
) -> list[CaseDisagreement]:
    """Cases where one run gets a single-step question exactly right and the other does not, or
    where their multi-step outcomes (timetable success, event successes) differ; in dataset order,
    among ``case_ids`` when given."""
    wanted = None if case_ids is None else set(case_ids)
    qa = {(q.case_id, q.t): q.exact for q in a.questions}
    qb = {(q.case_id, q.t): q.exact for q in b.questions}
    ta = {c.case_id: c for c in a.cases}
    tb = {c.case_id: c for c in b.cases}
    out: list[CaseDisagreement] = []
    for case in dataset.cases:
        if wanted is not None and case.case_id not in wanted:
            continue
        d = CaseDisagreement(case_id=case.case_id)
        for step in case.steps:
            key = (case.case_id, step.t)
            if key in qa and key in qb and qa[key] != qb[key]:
                d.single_steps.append((step.t, qa[key], qb[key]))
        ca, cb = ta.get(case.case_id), tb.get(case.case_id)
        if ca is not None and cb is not None:
            if ca.timetable_success != cb.timetable_success:
                d.tsr = (ca.timetable_success, cb.timetable_success)
            sa, sb = sum(ca.event_success.values()), sum(cb.event_success.values())
            if ca.event_success != cb.event_success:
                d.esr = (sa, sb, len(ca.targets))
        if d.single_steps or d.tsr or d.esr:
            out.append(d)
    return out


__all__ = ["CaseDisagreement", "Comparison", "MetricDiff", "compare_results", "disagreements"]
