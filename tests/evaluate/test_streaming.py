"""Scoring without details keeps only count vectors and gives the same metrics; the bootstrap drawn
a block at a time gives the same resamples as drawn at once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from proevent.evaluate import CaseRows, bootstrap_intervals, evaluate, resample_weights
from proevent.evaluate.aggregate import weight_blocks
from proevent.io import load_dataset, load_run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"



def test_without_details_the_metrics_are_the_same_and_no_score_is_kept():
    ds = load_dataset(EXAMPLES / "tiny")
    run = load_run(EXAMPLES / "runs" / "flawed")
    full = evaluate(ds, run, judge="fuzzy", n_boot=200)
    lean = evaluate(ds, run, judge="fuzzy", n_boot=200, details=False)
    assert lean.metrics == full.metrics
    assert lean.questions == [] and lean.cases == []
    assert full.questions and full.cases
    assert (lean.rows.single == full.rows.single).all() and (lean.rows.multi == full.rows.multi).all()


@pytest.mark.parametrize(("n", "n_boot"), [(1, 5), (7, 250), (1279, 1000)])
def test_blocks_of_resamples_are_the_resamples_drawn_at_once(n, n_boot):
    rng = np.random.default_rng(3)
    draws = rng.integers(0, n, size=(n_boot, n))
    at_once = np.zeros((n_boot, n), dtype=np.int64)
    np.add.at(at_once, (np.repeat(np.arange(n_boot), n), draws.ravel()), 1)  # the former formula
    assert (resample_weights(n, n_boot, 3) == at_once).all()
    assert (np.vstack(list(weight_blocks(n, n_boot, 3, block=64))) == at_once).all()


def test_intervals_from_blocks_equal_intervals_from_the_whole_matrix():
    counts = np.random.default_rng(0).integers(0, 4, size=(40, 22))
    rows = CaseRows([f"c{i}" for i in range(40)], counts, None)
    by_blocks = bootstrap_intervals(rows, n_boot=300, seed=2)
    sums = resample_weights(40, 300, 2) @ counts  # integer arithmetic, for the check
    recall = sums[:, 7] / sums[:, 6]  # m / g
    assert by_blocks["single.recall"] == [float(np.percentile(recall, 2.5)), float(np.percentile(recall, 97.5))]
