"""From per-case counts to the spec's ratios, bootstrap intervals and breakdowns.

Every metric is a ratio of sums over questions (single) or cases (multi), so a case is summarised
by a vector of counts; a subset of cases, a bootstrap resample or a breakdown group is then just a
(weighted) sum of rows. Ratios with a zero denominator are ``None``, never 0 or 1.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import numpy as np

from proevent.model import OP_TYPES

SINGLE_FIELDS: tuple[str, ...] = (
    "questions", "empty", "fd", "need", "mn", "p", "g", "m",
    *(f"{x}_{t}" for t in OP_TYPES for x in ("p", "g", "m")),
    "missing", "errors", "invalid_ops",
)
MULTI_FIELDS: tuple[str, ...] = ("cases", "targets", "successes", "tables_ok", "missing", "errors")
_S = {name: i for i, name in enumerate(SINGLE_FIELDS)}
_M = {name: i for i, name in enumerate(MULTI_FIELDS)}

SINGLE_RATIOS: dict[str, tuple[str, str]] = {
    "fdr": ("fd", "empty"),
    "mnr": ("mn", "need"),
    "precision": ("m", "p"),
    "recall": ("m", "g"),
    **{
        f"{t}.{name}": (f"m_{t}", f"{side}_{t}")
        for t in OP_TYPES
        for name, side in (("precision", "p"), ("recall", "g"))
    },
}
MULTI_RATIOS: dict[str, tuple[str, str]] = {"esr": ("successes", "targets"), "tsr": ("tables_ok", "cases")}

METRIC_KEYS: tuple[str, ...] = (
    *(f"single.{k}" for k in SINGLE_RATIOS),
    *(f"multi.{k}" for k in MULTI_RATIOS),
)
"""Every metric, as the dotted keys of ``metrics.json``'s ``ci``, ``repeats.sd`` and breakdowns."""


def _ratio(num: float, den: float) -> float | None:
    return None if den == 0 else float(num) / float(den)


def single_ratios(row: np.ndarray) -> dict[str, float | None]:
    return {f"single.{k}": _ratio(row[_S[a]], row[_S[b]]) for k, (a, b) in SINGLE_RATIOS.items()}


def multi_ratios(row: np.ndarray) -> dict[str, float | None]:
    return {f"multi.{k}": _ratio(row[_M[a]], row[_M[b]]) for k, (a, b) in MULTI_RATIOS.items()}


def single_object(totals: np.ndarray, values: dict[str, float | None]) -> dict:
    """The ``single`` object of metrics.json from summed counts and the reported values."""
    out: dict = {
        "questions": int(totals[_S["questions"]]),
        "missing": int(totals[_S["missing"]]),
        "errors": int(totals[_S["errors"]]),
        "invalid_ops": int(totals[_S["invalid_ops"]]),
    }
    for k in ("fdr", "mnr", "precision", "recall"):
        out[k] = values[f"single.{k}"]
    for t in OP_TYPES:
        out[t] = {"precision": values[f"single.{t}.precision"], "recall": values[f"single.{t}.recall"]}
    return out


def multi_object(totals: np.ndarray, values: dict[str, float | None]) -> dict:
    return {
        "cases": int(totals[_M["cases"]]),
        "missing": int(totals[_M["missing"]]),
        "errors": int(totals[_M["errors"]]),
        "target_events": int(totals[_M["targets"]]),
        "esr": values["multi.esr"],
        "tsr": values["multi.tsr"],
    }


def mean_sd(values: Sequence[float | None]) -> tuple[float | None, float | None]:
    """Mean and sample standard deviation over the defined values (``None`` where too few)."""
    xs = [v for v in values if v is not None]
    if not xs:
        return None, None
    mean = math.fsum(xs) / len(xs)
    if len(xs) < 2:
        return mean, None
    var = math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
    return mean, math.sqrt(var)


@dataclass
class CaseRows:
    """One row of counts per case, in dataset order; ``None`` for a mode the run lacks.

    Every metric is a ratio of sums of these rows, so any subset of cases (a breakdown group) or a
    resample of cases (a bootstrap, or the same resample for two runs in a paired comparison) is
    scored without scoring again.
    """

    case_ids: list[str]
    single: np.ndarray | None
    multi: np.ndarray | None

    def ratios(self, idx: np.ndarray | list[int] | None = None) -> dict[str, float | None]:
        """Every metric (dotted keys) over the cases ``idx`` (all when ``None``)."""
        out: dict[str, float | None] = {}
        if self.single is not None:
            out.update(single_ratios((self.single if idx is None else self.single[idx]).sum(axis=0)))
        if self.multi is not None:
            out.update(multi_ratios((self.multi if idx is None else self.multi[idx]).sum(axis=0)))
        return out


def repeat_stats(
    repeat_rows: Sequence[CaseRows], idx: np.ndarray | list[int] | None = None
) -> dict[str, tuple[float | None, float | None]]:
    """Every metric over the cases ``idx`` as (mean, sample sd) over the repeats where it is defined:
    the reported value of a run with repeats."""
    per = [rows.ratios(idx) for rows in repeat_rows]
    return {k: mean_sd([p[k] for p in per]) for k in per[0]}


BLOCK = 100
"""Resamples drawn and summed at a time: the weights of a block of 100 resamples of 10,000 cases
take 8 MB, where all 1,000 at once took 80 MB (and as much again for the draws)."""


def weight_blocks(n_cases: int, n_boot: int, seed: int, block: int = BLOCK) -> Iterator[np.ndarray]:
    """The rows of :func:`resample_weights`, ``block`` at a time (float64, for a BLAS product):
    drawing the resamples a block at a time from the one generator gives the same draws."""
    rng = np.random.default_rng(seed)
    for start in range(0, n_boot, block):
        rows = min(block, n_boot - start)
        draws = rng.integers(0, n_cases, size=(rows, n_cases))
        draws += np.arange(rows)[:, None] * n_cases  # one bincount for the block: row r counts in r*n ...
        yield np.bincount(draws.ravel(), minlength=rows * n_cases).reshape(rows, n_cases).astype(np.float64)


_SHARED: ContextVar[dict[tuple[int, int, int], list[np.ndarray]] | None] = ContextVar("shared_resamples",
                                                                                    default=None)


@contextmanager
def shared_resamples() -> Iterator[None]:
    """Within the block, the resamples of one (cases, resamples, seed) are drawn once and kept: the
    runs of a report, scored one after another on one dataset, drew the very same weights each
    (they follow from the seed and the number of cases alone), so every interval is the same
    with or without the block. The weights are kept in the smallest integer type that holds them
    (a byte each: 1.3 MB for 1,000 resamples of 1,279 cases) and forgotten when the block ends;
    a block inside another shares the outer one's."""
    if _SHARED.get() is not None:
        yield
        return
    token = _SHARED.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)


def resample_blocks(n_cases: int, n_boot: int, seed: int) -> Iterator[np.ndarray]:
    """The blocks of :func:`weight_blocks`, drawn once per (cases, resamples, seed) within
    :func:`shared_resamples` and drawn here otherwise."""
    memo = _SHARED.get()
    if memo is None:
        yield from weight_blocks(n_cases, n_boot, seed)
        return
    key = (n_cases, n_boot, seed)
    kept = memo.get(key)
    if kept is None:
        kept = memo[key] = [b.astype(np.min_scalar_type(int(b.max(initial=0)))) for b in
                            weight_blocks(n_cases, n_boot, seed)]
    for block in kept:
        yield block.astype(np.float64)


def weighted_sums(weights: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``weights @ counts`` (both float64) by numpy's own loop (``einsum``), not BLAS: OpenBLAS
    runs a product of this size on every core and its threads then spin for a while waiting for
    the next one, so that a bootstrap (ten products a run, between the draws) cost the process
    more CPU spinning than multiplying, and more the more cores the machine has. The sums are the
    same: integers in float64, far below 2**53, exact whatever the order of the additions. (The
    counts are read a column at a time, contiguous: each sum is then one dot product of two rows,
    a quarter to a half faster than walking down the columns.)"""
    return np.einsum("rc,kc->rk", weights, np.ascontiguousarray(counts.T))


def resample_weights(n_cases: int, n_boot: int, seed: int) -> np.ndarray:
    """``(n_boot, n_cases)`` multiplicities of a case-level bootstrap: each resample draws cases
    with replacement from ``numpy.random.default_rng(seed)``."""
    if n_boot == 0 or n_cases == 0:
        return np.zeros((n_boot, n_cases), dtype=np.int64)
    return np.vstack(list(weight_blocks(n_cases, n_boot, seed))).astype(np.int64)


def _sums(counts: list[np.ndarray], weights: np.ndarray | Iterable[np.ndarray]) -> list[np.ndarray]:
    """Per resample, the weighted sum of the case rows of each matrix of ``counts`` (the blocks
    of weights are read once for all). The product runs in float64 (:func:`weighted_sums`) and is
    exact: every term and partial sum is an integer far below 2**53."""
    matrices = [c.astype(np.float64) for c in counts]
    if isinstance(weights, np.ndarray):
        w = weights.astype(np.float64)
        return [weighted_sums(w, m) for m in matrices]
    parts: list[list[np.ndarray]] = [[] for _ in matrices]
    for block in weights:
        for part, m in zip(parts, matrices):
            part.append(weighted_sums(block, m))
    return [np.vstack(p) if p else np.zeros((0, m.shape[1])) for p, m in zip(parts, matrices)]


def divide_counts(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Numerator over denominator per resample, ``nan`` where the denominator is 0 (undefined)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def _sum_ratios(prefix: str, sums: np.ndarray, ratios: dict[str, tuple[str, str]], index: dict[str, int]
                ) -> dict[str, np.ndarray]:
    return {f"{prefix}.{key}": divide_counts(sums[:, index[a]], sums[:, index[b]]) for key, (a, b) in ratios.items()}


def resampled_ratios(rows: CaseRows, weights: np.ndarray | Callable[[], Iterable[np.ndarray]]
                     ) -> dict[str, np.ndarray]:
    """Per metric, its value in each resample (``nan`` where undefined). ``weights``: the matrix of
    :func:`resample_weights`, or a function giving its blocks (:func:`weight_blocks`)."""
    modes = [(prefix, counts, ratios, index) for prefix, counts, ratios, index in (
        ("single", rows.single, SINGLE_RATIOS, _S),
        ("multi", rows.multi, MULTI_RATIOS, _M),
    ) if counts is not None]
    if not modes:
        return {}
    sums = _sums([m[1] for m in modes], weights if isinstance(weights, np.ndarray) else weights())
    out: dict[str, np.ndarray] = {}
    for (prefix, _, ratios, index), mode_sums in zip(modes, sums):
        out.update(_sum_ratios(prefix, mode_sums, ratios, index))
    return out


def resampled_repeat_means(repeat_rows: Sequence[CaseRows], weights: np.ndarray) -> dict[str, np.ndarray]:
    """Per metric, the mean over repeats of its value in each resample (every repeat is scored on
    the same resampled cases; ``nan`` where no repeat defines it), as :func:`repeat_stats` reports it."""
    per = [resampled_ratios(rows, weights) for rows in repeat_rows]
    out: dict[str, np.ndarray] = {}
    for key in per[0]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a resample undefined in every repeat
            out[key] = np.nanmean(np.vstack([p[key] for p in per]), axis=0)
    return out


_BOUNDS = (2.5, 97.5)
"""The percentiles of a 95% interval."""


def percentile_interval(values: np.ndarray) -> tuple[float, float] | None:
    """The 2.5th and 97.5th percentiles (linear interpolation) of the defined (non-NaN) resampled
    values; ``None`` when none is defined. Both in one call: the same order statistics and the same
    interpolation as one call each (a test holds them equal), half the time (a report of three runs
    asks for 236 intervals)."""
    values = values[~np.isnan(values)]
    if values.size == 0:
        return None
    low, high = np.percentile(values, _BOUNDS)
    return (float(low), float(high))


def bootstrap_intervals(rows: CaseRows, *, n_boot: int = 1000, seed: int = 0) -> dict[str, list[float] | None]:
    """Case-level bootstrap 95% intervals (2.5th and 97.5th percentiles, linear interpolation).

    Resamples where a metric is undefined are left out for it; an interval is ``None`` when all are.
    The resamples are drawn and summed a block at a time (:data:`BLOCK`): memory stays flat in
    the number of cases.
    """
    n = len(rows.case_ids)
    if n == 0:
        return {}
    out: dict[str, list[float] | None] = {}
    for key, vals in resampled_ratios(rows, lambda: resample_blocks(n, n_boot, seed)).items():
        ci = percentile_interval(vals)
        out[key] = None if ci is None else list(ci)
    return out
