"""Breakdowns: the spec's rule for grouping cases by a ``meta`` field, and a metric per group with
its bootstrap interval (the robustness plots draw them; ``metrics.json`` holds the values)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from proevent.evaluate.aggregate import CaseRows, percentile_interval, resample_blocks, resampled_ratios
from proevent.model import Case

BREAKDOWN_KEYS: tuple[str, ...] = ("negotiation_turns", "concurrent_chats", "noise_content", "category")


def breakdown_labels(case: Case, key: str) -> list[str]:
    """The groups a case joins for ``meta[key]``: a missing or null value is ``unknown``; for
    ``noise_content`` a case joins each kind it lists (``none`` for an empty list)."""
    value = case.meta.get(key)
    if key == "noise_content" and isinstance(value, list):
        return list(dict.fromkeys(str(v) for v in value)) or ["none"]
    return ["unknown" if value is None else str(value)]


def group_cases(cases: list[Case], key: str) -> dict[str, list[int]]:
    """Indices of the cases per value of ``meta[key]`` (:func:`breakdown_labels`); numeric values
    sort numerically (:func:`label_order`)."""
    out: dict[str, list[int]] = {}
    for idx, case in enumerate(cases):
        for label in breakdown_labels(case, key):
            out.setdefault(label, []).append(idx)
    return dict(sorted(out.items(), key=lambda kv: label_order(kv[0])))


def label_order(label: str) -> tuple[int, float, str]:
    """Sort key for breakdown labels: numbers by value first, then words, ``unknown`` last."""
    if label == "unknown":
        return (2, 0.0, label)
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


@dataclass
class GroupValue:
    """A metric within one breakdown group."""

    group: str
    cases: int
    value: float | None
    ci: tuple[float, float] | None


def subset_rows(rows: CaseRows, idx: list[int]) -> CaseRows:
    """The rows of the cases ``idx`` only."""
    return CaseRows(
        case_ids=[rows.case_ids[i] for i in idx],
        single=None if rows.single is None else rows.single[idx],
        multi=None if rows.multi is None else rows.multi[idx],
    )


def group_values(
    rows: CaseRows, groups: dict[str, list[int]], metric: str, *, n_boot: int = 1000, seed: int = 0
) -> list[GroupValue]:
    """``metric`` and its case-level bootstrap 95% interval (``seed`` in every group; none when
    ``n_boot`` is 0) within each group of cases."""
    return group_values_of(rows, groups, [metric], n_boot=n_boot, seed=seed)[metric]


def group_values_of(
    rows: CaseRows, groups: dict[str, list[int]], metrics: list[str], *, n_boot: int = 1000, seed: int = 0
) -> dict[str, list[GroupValue]]:
    """:func:`group_values` of several metrics, each group's resamples drawn once for all of them."""
    out: dict[str, list[GroupValue]] = {m: [] for m in metrics}
    for label, idx in groups.items():
        sub = subset_rows(rows, idx)
        values = sub.ratios()
        boot: dict[str, np.ndarray] | None = None
        for metric in metrics:
            value = values.get(metric)
            ci = None
            if value is not None and n_boot > 0:
                if boot is None:
                    boot = resampled_ratios(sub, lambda n=len(idx): resample_blocks(n, n_boot, seed))
                vals = boot.get(metric)
                ci = percentile_interval(vals if vals is not None else np.array([]))
            out[metric].append(GroupValue(group=label, cases=len(idx), value=value, ci=ci))
    return out


__all__ = ["BREAKDOWN_KEYS", "GroupValue", "breakdown_labels", "group_cases", "group_values", "group_values_of",
           "label_order", "subset_rows"]
