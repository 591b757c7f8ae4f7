"""The faster ways ``write_report`` takes give what the plain ways gave."""

from __future__ import annotations

import gc
from datetime import datetime

import numpy as np
import pytest

from fixtures import FLAWED_RUN, PERFECT_RUN, TINY
from proevent.evaluate import CaseRows, group_cases
from proevent.evaluate.aggregate import MULTI_FIELDS, SINGLE_FIELDS
from proevent.evaluate.breakdowns import group_values_of
from proevent.evaluate.groupboot import shared_group_values
from proevent.report import load_scored_runs, write_report
from proevent.report.plots import DIMENSIONS, METRICS


def test_write_report_gives_the_collector_back_as_it_was(tmp_path):
    runs = load_scored_runs([FLAWED_RUN, PERFECT_RUN], dataset=TINY, n_boot=50)
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    write_report(runs, tmp_path / "a", plots=False, n_boot=50)
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    gc.freeze()  # a caller's frozen objects stay frozen
    try:
        frozen = gc.get_freeze_count()
        write_report(runs, tmp_path / "b", plots=False, n_boot=50)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
    assert (tmp_path / "a" / "errors.json").read_bytes() == (tmp_path / "b" / "errors.json").read_bytes()


def _random_rows(rng: np.random.Generator, n: int, *, multi: bool) -> CaseRows:
    single = rng.integers(0, 3, size=(n, len(SINGLE_FIELDS)))
    single[rng.random(n) < 0.3] = 0  # cases with nothing to count: some groups get no denominator
    return CaseRows(
        case_ids=[f"c{i}" for i in range(n)],
        single=single,
        multi=rng.integers(0, 4, size=(n, len(MULTI_FIELDS))) if multi else None,
    )


@pytest.mark.parametrize("n_boot", [0, 7, 250])
def test_shared_group_values_equal_group_values_of(n_boot):
    rng = np.random.default_rng(n_boot)
    metrics = ["single.recall", "single.precision", "single.fdr", "multi.esr", "single.insert.recall", "nope"]
    for trial in range(4):
        n = int(rng.integers(1, 60))
        rows = [_random_rows(rng, n, multi=bool(k % 2)) for k in range(3)]
        labels = rng.integers(0, 5, size=n)
        groups = {str(g): [i for i in range(n) if labels[i] == g] for g in range(5)}
        groups = {g: idx for g, idx in groups.items() if idx}
        got = shared_group_values(rows, groups, metrics, n_boot=n_boot, seed=trial)
        for r, mine in zip(rows, got):
            assert mine == group_values_of(r, groups, metrics, n_boot=n_boot, seed=trial)


def test_robustness_values_equal_group_values_of_on_the_example_runs():
    runs = load_scored_runs([FLAWED_RUN, PERFECT_RUN], dataset=TINY, n_boot=50)
    keys = [m for m, _ in METRICS]
    for dim, _ in DIMENSIONS:
        groups = group_cases(runs[0].dataset.cases, dim)
        got = shared_group_values([sr.result.rows for sr in runs], groups, keys, n_boot=200, seed=3)
        assert got == [group_values_of(sr.result.rows, groups, keys, n_boot=200, seed=3) for sr in runs]


def test_load_scored_runs_gives_the_collector_back_as_it_was():
    assert gc.isenabled()
    first = load_scored_runs([FLAWED_RUN, PERFECT_RUN], dataset=TINY, n_boot=50)
    assert gc.isenabled()
    gc.disable()
    try:
        again = load_scored_runs([FLAWED_RUN, PERFECT_RUN], dataset=TINY, n_boot=50)
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert [sr.result.metrics for sr in again] == [sr.result.metrics for sr in first]


def test_a_report_scored_without_traces_is_the_same_report(tmp_path, monkeypatch):
    """``proevent report`` scores with ``traces=False`` (it reads no multi-step trace): every file
    but the images (the same data drawn) is byte for byte the report of runs scored with traces.
    (The page's creation minute is pinned: two writes may fall on either side of a minute.)"""
    import proevent.report.html as html

    class _Clock(datetime):
        @classmethod
        def now(cls, tz=None):  # noqa: ANN206
            return datetime(2026, 3, 1, 12, 0)

    monkeypatch.setattr(html, "datetime", _Clock)
    full = load_scored_runs([FLAWED_RUN, PERFECT_RUN], dataset=TINY, n_boot=50)
    lean = load_scored_runs([FLAWED_RUN, PERFECT_RUN], dataset=TINY, n_boot=50, traces=False)
    assert all(sr.result.cases for sr in full) and not any(sr.result.cases for sr in lean)
    assert [sr.result.questions for sr in lean] == [sr.result.questions for sr in full]
    a = write_report(full, tmp_path / "a", plots=False, n_boot=50)
    b = write_report(lean, tmp_path / "b", plots=False, n_boot=50)
    names = [p.relative_to(a.out).as_posix() for p in a.files]
    assert names == [p.relative_to(b.out).as_posix() for p in b.files] and "errors.json" in names
    for name in names:
        assert (a.out / name).read_bytes() == (b.out / name).read_bytes(), name
