"""Scoring without details keeps only count vectors and gives the same metrics; the bootstrap drawn
a block at a time gives the same resamples as drawn at once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from proevent.evaluate import CaseRows, bootstrap_intervals, evaluate, multi, resample_weights
from proevent.evaluate.aggregate import SINGLE_FIELDS, weight_blocks
from proevent.evaluate.counts import line_row, replay_lines, score_line
from proevent.evaluate.equivalence import comparator_for
from proevent.evaluate.single import COUNT_KEYS
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


@pytest.mark.parametrize("name", ["flawed", "perfect"])
def test_a_question_row_is_the_scores_counts(name):
    """The count vector scored without a QuestionScore is the score's counts, in SINGLE_FIELDS order."""
    ds = load_dataset(EXAMPLES / "tiny")
    run = load_run(EXAMPLES / "runs" / name)
    assert COUNT_KEYS == SINGLE_FIELDS
    n = 0
    for case in ds.cases:
        comp = comparator_for(case, "fuzzy")
        for step in case.steps:
            line = run.lines.get((case.case_id, "single", step.t, 0))
            assert line_row(case, step.t, line, comp) == list(score_line(case, step.t, line, comp).counts().values())
            n += 1
    assert n == sum(len(c.steps) for c in ds.cases) > 0


@pytest.mark.parametrize("name", ["flawed", "perfect"])
def test_an_unchanged_step_keeps_the_matching_it_would_compute(name, monkeypatch):
    """replay_case takes M_{t-1} again when neither timetable changed; matching anew gives the same traces."""
    ds = load_dataset(EXAMPLES / "tiny")
    run = load_run(EXAMPLES / "runs" / name)

    def traces():
        out = []
        for case in ds.cases:
            lines = {s.t: ln for s in case.steps if (ln := run.lines.get((case.case_id, "multi", s.t, 0)))}
            out.append(replay_lines(case, lines, comparator_for(case, "fuzzy")))
        return out

    calls = []
    real = multi._same_objects
    monkeypatch.setattr(multi, "_same_objects", lambda a, b: calls.append(real(a, b)) or calls[-1])
    shortcut = traces()
    assert any(calls)  # some step was taken over unchanged
    monkeypatch.setattr(multi, "_same_objects", lambda a, b: False)
    assert traces() == shortcut


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


@pytest.mark.parametrize("name", ["flawed", "perfect"])
def test_without_traces_the_questions_are_kept_and_the_metrics_are_the_same(name):
    """``traces=False`` (what the report scores with): the single-step questions as with details,
    no multi-step trace, every metric, interval and count the same."""
    ds = load_dataset(EXAMPLES / "tiny")
    run = load_run(EXAMPLES / "runs" / name)
    full = evaluate(ds, run, judge="places", n_boot=200)
    lean = evaluate(ds, run, judge="places", n_boot=200, traces=False)
    assert lean.metrics == full.metrics and lean.judge_decisions == full.judge_decisions
    assert lean.questions == full.questions and lean.questions
    assert lean.cases == [] and full.cases
    assert (lean.rows.single == full.rows.single).all() and (lean.rows.multi == full.rows.multi).all()
    answered = evaluate(ds, run, judge="places", n_boot=200, traces=False, only_answered=True)
    assert answered.cases == [] and answered.questions
    assert evaluate(ds, run, judge="places", n_boot=200, traces=False, details=False).questions == []
