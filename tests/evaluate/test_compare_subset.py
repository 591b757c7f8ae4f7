"""The paired comparison restricted to a list of cases (``case_ids``), as the ablations use it."""

from __future__ import annotations

import pytest

from fixtures import load_example_run, load_tiny
from proevent.evaluate import compare_results, evaluate

SUBSET = ["tiny-03", "tiny-01"]


def _results(ds):
    return evaluate(ds, load_example_run("perfect"), ci=False), evaluate(ds, load_example_run("flawed"), ci=False)


def test_a_subset_compares_as_the_runs_scored_on_those_cases_alone():
    ds = load_tiny()
    full = compare_results(ds, *_results(ds), n_boot=400, seed=5, case_ids=SUBSET)
    sub = ds.subset(SUBSET)
    alone = compare_results(sub, *_results(sub), n_boot=400, seed=5)
    assert full.cases == alone.cases == 2
    assert full.metrics == alone.metrics
    assert full.disagreements == alone.disagreements
    # hand-checked (examples/README.md): only tiny-01 and tiny-03 are listed, in dataset order
    assert [d.case_id for d in full.disagreements] == ["tiny-01", "tiny-03"]


def test_no_subset_is_every_case():
    ds = load_tiny()
    a, b = _results(ds)
    every = [c.case_id for c in ds.cases]
    assert compare_results(ds, a, b, n_boot=200, case_ids=every) == compare_results(ds, a, b, n_boot=200)


def test_an_unknown_case_id_is_refused_by_name():
    ds = load_tiny()
    with pytest.raises(ValueError, match="tiny-99"):
        compare_results(ds, *_results(ds), n_boot=10, case_ids=["tiny-01", "tiny-99"])
