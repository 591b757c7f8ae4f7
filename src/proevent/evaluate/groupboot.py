"""The robustness plot's group intervals of several runs, each group's resamples drawn once for all
(the report's plots call it; it scores, so it lives here).

:func:`proevent.evaluate.breakdowns.group_values_of` draws a group's resamples from ``seed`` and
its size alone, so the runs of one report on one dataset draw the very same weights for a group:
three runs drew them three times (most of the plot's bootstrap). Here each block of weights is
drawn once and multiplied once, by one matrix of every run's count columns that the plotted
metrics divide (two a metric of the thirty-odd, not every column). The sums are exact (integer counts in
float64, far below 2**53, whatever the order of the additions), so every value and interval is
the one ``group_values_of`` gives; a test holds them equal.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from proevent.evaluate.aggregate import (
    _M,
    _S,
    MULTI_RATIOS,
    SINGLE_RATIOS,
    CaseRows,
    divide_counts,
    percentile_interval,
    resample_blocks,
    weighted_sums,
)
from proevent.evaluate.breakdowns import GroupValue, subset_rows

_MODES: dict[str, tuple[dict[str, tuple[str, str]], dict[str, int]]] = {
    "single": (SINGLE_RATIOS, _S),
    "multi": (MULTI_RATIOS, _M),
}


def _columns(metric: str) -> tuple[str, int, int] | None:
    """The mode of ``metric`` and the columns of its numerator and denominator; ``None`` for a key
    that names no ratio (``group_values_of`` gives it no interval either)."""
    prefix, _, key = metric.partition(".")
    if prefix not in _MODES or key not in _MODES[prefix][0]:
        return None
    ratios, index = _MODES[prefix]
    num, den = ratios[key]
    return prefix, index[num], index[den]


def shared_group_values(
    rows: Sequence[CaseRows], groups: dict[str, list[int]], metrics: Sequence[str], *, n_boot: int = 1000,
    seed: int = 0,
) -> list[dict[str, list[GroupValue]]]:
    """Per run of ``rows`` (all on the cases ``groups`` indexes), what
    ``group_values_of(rows[i], groups, metrics, n_boot=n_boot, seed=seed)`` gives."""
    out: list[dict[str, list[GroupValue]]] = [{m: [] for m in metrics} for _ in rows]
    where = {m: _columns(m) for m in metrics}
    for label, idx in groups.items():
        subs = [subset_rows(r, idx) for r in rows]
        values = [sub.ratios() for sub in subs]
        # (run, metric) -> where the metric's numerator and denominator columns stand in one
        # matrix of all of them, for the metrics that have a value (the others get no interval, as
        # in group_values_of): one product a block for every run and metric
        wanted: dict[tuple[int, str], int] = {}
        columns: list[np.ndarray] = []
        if n_boot > 0:
            for r, (sub, vals) in enumerate(zip(subs, values)):
                for m in metrics:
                    spot = where[m]
                    if vals.get(m) is None or spot is None:
                        continue
                    prefix, num, den = spot
                    counts = sub.single if prefix == "single" else sub.multi
                    if counts is not None:
                        wanted[(r, m)] = 2 * len(columns)
                        columns.append(counts[:, [num, den]])
        if wanted:
            matrix = np.hstack(columns).astype(np.float64)
            sums = np.vstack([weighted_sums(block, matrix) for block in resample_blocks(len(idx), n_boot, seed)])
        for r, vals in enumerate(values):
            for m in metrics:
                value = vals.get(m)
                ci = None
                if value is not None and n_boot > 0:
                    at = wanted.get((r, m))
                    ci = percentile_interval(_ratios(sums[:, at:at + 2]) if at is not None else np.array([]))
                out[r][m].append(GroupValue(group=label, cases=len(idx), value=value, ci=ci))
    return out


def _ratios(sums: np.ndarray) -> np.ndarray:
    """The plotted metric per resample from its (numerator, denominator) sums: the one division of
    :func:`~proevent.evaluate.aggregate.resampled_ratios`."""
    return divide_counts(sums[:, 0], sums[:, 1])


__all__ = ["shared_group_values"]
