"""The example runs score exactly what examples/README.md computes by hand from the metrics spec.

The expectations below are copied from the README's tables (fractions as written there); they
were not produced by running the evaluator. If one disagrees with ``evaluate()``, recheck the hand
computation against ``shared/spec/metrics.md`` before touching either side.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from typer.testing import CliRunner

from fixtures import TINY, TINY_CASE_IDS, copy_run, load_example_run, load_tiny
from proevent.cli import app
from proevent.evaluate import evaluate

# (judge) -> the counts and ratios of metrics.json, run "flawed".
FLAWED_SINGLE_COUNTS = {"questions": 14, "missing": 1, "errors": 0, "invalid_ops": 2}
FLAWED_SINGLE = {
    "exact": {
        "fdr": F(2, 3), "mnr": F(1, 11), "precision": F(7, 16), "recall": F(7, 13),
        "insert": {"precision": F(5, 7), "recall": F(5, 5)},
        "update": {"precision": F(1, 6), "recall": F(1, 6)},
        "delete": {"precision": F(1, 2), "recall": F(1, 2)},
    },
    "fuzzy": {
        "fdr": F(2, 3), "mnr": F(1, 11), "precision": F(8, 16), "recall": F(8, 13),
        "insert": {"precision": F(5, 7), "recall": F(5, 5)},
        "update": {"precision": F(2, 6), "recall": F(2, 6)},
        "delete": {"precision": F(1, 2), "recall": F(1, 2)},
    },
}
FLAWED_MULTI_COUNTS = {"cases": 5, "missing": 0, "errors": 0, "target_events": 9}
FLAWED_MULTI = {"exact": {"esr": F(6, 9), "tsr": F(2, 5)}, "fuzzy": {"esr": F(7, 9), "tsr": F(2, 5)}}

PERFECT_SINGLE = {
    "fdr": F(0, 3), "mnr": F(0, 11), "precision": F(13, 13), "recall": F(13, 13),
    "insert": {"precision": F(5, 5), "recall": F(5, 5)},
    "update": {"precision": F(6, 6), "recall": F(6, 6)},
    "delete": {"precision": F(2, 2), "recall": F(2, 2)},
}
PERFECT_MULTI = {"esr": F(9, 9), "tsr": F(5, 5)}

# Breakdown by meta.category of run "flawed" (README, last table); None = undefined.
FLAWED_BY_CATEGORY = {
    "exact": {
        "leisure": {"single.fdr": F(2, 2), "single.mnr": F(1, 4), "single.precision": F(4, 6),
                    "single.recall": F(4, 5), "multi.esr": F(3, 3), "multi.tsr": F(1, 2)},
        "work": {"single.fdr": F(0, 1), "single.mnr": F(0, 5), "single.precision": F(2, 8),
                 "single.recall": F(2, 6), "multi.esr": F(2, 4), "multi.tsr": F(1, 2)},
        "social": {"single.fdr": None, "single.mnr": F(0, 2), "single.precision": F(1, 2),
                   "single.recall": F(1, 2), "multi.esr": F(1, 2), "multi.tsr": F(0, 1)},
    },
    "fuzzy": {
        "leisure": {"single.fdr": F(2, 2), "single.mnr": F(1, 4), "single.precision": F(4, 6),
                    "single.recall": F(4, 5), "multi.esr": F(3, 3), "multi.tsr": F(1, 2)},
        "work": {"single.fdr": F(0, 1), "single.mnr": F(0, 5), "single.precision": F(3, 8),
                 "single.recall": F(3, 6), "multi.esr": F(3, 4), "multi.tsr": F(1, 2)},
        "social": {"single.fdr": None, "single.mnr": F(0, 2), "single.precision": F(1, 2),
                   "single.recall": F(1, 2), "multi.esr": F(1, 2), "multi.tsr": F(0, 1)},
    },
}

JUDGES = ("exact", "fuzzy")


def _assert_ratios(actual: dict, expected: dict, where: str) -> None:
    for key, want in expected.items():
        got = actual[key]
        if isinstance(want, dict):
            _assert_ratios(got, want, f"{where}.{key}")
        elif want is None:
            assert got is None, f"{where}.{key}: expected undefined (null), got {got}"
        else:
            assert got == pytest.approx(float(want), abs=1e-12), f"{where}.{key}: expected {want}, got {got}"


@pytest.fixture(scope="module")
def results() -> dict[tuple[str, str], dict]:
    dataset = load_tiny()
    return {
        (run, judge): evaluate(dataset, load_example_run(run), judge=judge, ci=False).metrics
        for run in ("perfect", "flawed")
        for judge in JUDGES
    }


def test_example_dataset_shape() -> None:
    dataset = load_tiny()
    assert tuple(c.case_id for c in dataset.cases) == TINY_CASE_IDS
    assert dataset.manifest.counts.steps == 14
    gold = [op.op for case in dataset.cases for step in case.steps for op in step.gold_ops]
    assert (gold.count("insert"), gold.count("update"), gold.count("delete")) == (5, 6, 2)


def test_flawed_run_has_one_superseded_line() -> None:
    run = load_example_run("flawed")
    assert run.duplicates == 1
    line = run.lines[("tiny-05", "single", 1, 0)]
    assert line.error is None and line.ops[0]["event"]["description"] == "Climbing"


@pytest.mark.parametrize("judge", JUDGES)
def test_perfect_run(results: dict, judge: str) -> None:
    m = results[("perfect", judge)]
    assert m["judge"] == judge
    single, multi = m["single"], m["multi"]
    assert {k: single[k] for k in FLAWED_SINGLE_COUNTS} == {
        "questions": 14, "missing": 0, "errors": 0, "invalid_ops": 0}
    assert {k: multi[k] for k in FLAWED_MULTI_COUNTS} == FLAWED_MULTI_COUNTS
    _assert_ratios(single, PERFECT_SINGLE, "single")
    _assert_ratios(multi, PERFECT_MULTI, "multi")
    social = m["breakdowns"]["category"]["social"]
    assert social["single.fdr"] is None


@pytest.mark.parametrize("judge", JUDGES)
def test_flawed_run_single(results: dict, judge: str) -> None:
    single = results[("flawed", judge)]["single"]
    assert {k: single[k] for k in FLAWED_SINGLE_COUNTS} == FLAWED_SINGLE_COUNTS
    _assert_ratios(single, FLAWED_SINGLE[judge], "single")


@pytest.mark.parametrize("judge", JUDGES)
def test_flawed_run_multi(results: dict, judge: str) -> None:
    multi = results[("flawed", judge)]["multi"]
    assert {k: multi[k] for k in FLAWED_MULTI_COUNTS} == FLAWED_MULTI_COUNTS
    _assert_ratios(multi, FLAWED_MULTI[judge], "multi")


@pytest.mark.parametrize("judge", JUDGES)
def test_flawed_run_breakdown_by_category(results: dict, judge: str) -> None:
    by_category = results[("flawed", judge)]["breakdowns"]["category"]
    assert set(by_category) == {"leisure", "work", "social"}
    for category, expected in FLAWED_BY_CATEGORY[judge].items():
        _assert_ratios(by_category[category], expected, f"breakdowns.category.{category}")


def test_flawed_run_per_case_multi_outcomes() -> None:
    """The README's multi-step walk-through, case by case (fuzzy judge)."""
    res = evaluate(load_tiny(), load_example_run("flawed"), judge="fuzzy", ci=False)
    traces = {c.case_id: c for c in res.cases}
    assert {cid: traces[cid].timetable_success for cid in TINY_CASE_IDS} == {
        "tiny-01": True, "tiny-02": True, "tiny-03": False, "tiny-04": False, "tiny-05": False}
    assert traces["tiny-03"].event_success == {"e1": False, "e2": True}
    assert traces["tiny-04"].event_success == {"e1": False, "e2": True}
    assert traces["tiny-05"].event_success == {"e1": True}


def test_example_dataset_passes_validate() -> None:
    result = CliRunner().invoke(app, ["validate", str(TINY)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("judge", JUDGES)
def test_evaluate_command_on_the_flawed_run(tmp_path, results: dict, judge: str) -> None:
    run = copy_run("flawed", tmp_path / "flawed")
    result = CliRunner().invoke(app, ["evaluate", str(TINY), str(run), "--judge", judge, "--no-ci"])
    assert result.exit_code == 0, result.output
    written = json.loads((run / "metrics.json").read_text())
    assert written["single"] == results[("flawed", judge)]["single"]
    assert written["multi"] == results[("flawed", judge)]["multi"]
