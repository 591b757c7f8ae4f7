"""From per-case counts to the spec's ratios, bootstrap intervals and breakdowns.

Every metric is a ratio of sums over questions (single) or cases (multi), so a case is summarised
by a vector of counts; a subset of cases, a bootstrap resample or a breakdown group is then just a
(weighted) sum of rows. Ratios with a zero denominator are ``None``, never 0 or 1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

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


def bootstrap_intervals(
    single: np.ndarray | None,
    multi: np.ndarray | None,
    *,
    n_boot: int = 1000,
    seed: int = 0,
) -> dict[str, list[float] | None]:
    """Case-level bootstrap 95% intervals (2.5th and 97.5th percentiles, linear interpolation).

    ``single`` and ``multi`` hold one row of counts per case (same case order). Each resample
    draws cases with replacement (``numpy.random.default_rng(seed)``); resamples where a metric is
    undefined are left out for it, and an interval is ``None`` when all are.
    """
    n = (single if single is not None else multi).shape[0]  # type: ignore[union-attr]
    out: dict[str, list[float] | None] = {}
    if n == 0:
        return out
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n, size=(n_boot, n))
    weights = np.zeros((n_boot, n), dtype=np.int64)
    rows = np.repeat(np.arange(n_boot), n)
    np.add.at(weights, (rows, draws.ravel()), 1)
    for prefix, counts, ratios, index in (
        ("single", single, SINGLE_RATIOS, _S),
        ("multi", multi, MULTI_RATIOS, _M),
    ):
        if counts is None:
            continue
        sums = weights @ counts
        for key, (a, b) in ratios.items():
            num, den = sums[:, index[a]].astype(float), sums[:, index[b]].astype(float)
            with np.errstate(invalid="ignore", divide="ignore"):
                vals = np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)
            vals = vals[~np.isnan(vals)]
            if vals.size == 0:
                out[f"{prefix}.{key}"] = None
            else:
                out[f"{prefix}.{key}"] = [float(np.percentile(vals, 2.5)), float(np.percentile(vals, 97.5))]
    return out
