"""``evaluate(dataset, run)``: every metric of the spec for one run, with intervals and breakdowns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from proevent.evaluate.aggregate import (
    METRIC_KEYS,
    MULTI_FIELDS,
    SINGLE_FIELDS,
    CaseRows,
    bootstrap_intervals,
    multi_object,
    repeat_stats,
    single_object,
)
from proevent.evaluate.breakdowns import BREAKDOWN_KEYS, group_cases
from proevent.evaluate.counts import case_counts, line_row, multi_counts, question_counts, replay_lines, score_line
from proevent.evaluate.equivalence import Comparator
from proevent.evaluate.judges import LocationJudge, default_judge, get_judge
from proevent.evaluate.metrics import Metrics
from proevent.evaluate.multi import CaseTrace
from proevent.evaluate.normalize import People
from proevent.evaluate.single import QuestionScore
from proevent.model import METRICS_FORMAT, Case, Dataset, Run
from proevent.model.bulk import gc_paused

METRICS_VERSION = 2
"""Version 2 scores locations with the ``places`` judge by default; version 1 with ``fuzzy``."""


@dataclass
class EvaluationResult:
    """The metrics of one run, and the repeat-0 details that reports and the viewer read."""

    metrics: dict[str, Any]
    questions: list[QuestionScore] = field(default_factory=list)
    cases: list[CaseTrace] = field(default_factory=list)
    rows: CaseRows | None = None
    """Per-case counts of repeat 0 (in dataset order): any subset or resample of cases is scored from them."""
    repeat_rows: list[CaseRows] = field(default_factory=list)
    judge_decisions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def summary(self) -> Metrics:
        """The metrics, typed (what ``metrics.json`` holds)."""
        return Metrics.model_validate(self.metrics)


def _single_row(case: Case, run: Run, repeat: int, comp: Comparator, keep: list | None) -> list[int]:
    rows = []
    lines = run.lines
    for step in case.steps:
        line = lines.get((case.case_id, "single", step.t, repeat))
        if keep is not None:
            score = score_line(case, step.t, line, comp)
            keep.append(score)
            rows.append(list(question_counts(score).values()))  # keys in SINGLE_FIELDS order
        else:
            rows.append(line_row(case, step.t, line, comp))
    return [sum(column) for column in zip(*rows)] if rows else [0] * len(SINGLE_FIELDS)


def _multi_row(case: Case, run: Run, repeat: int, comp: Comparator, keep: list | None) -> list[int]:
    lines = {s.t: line for s in case.steps if (line := run.lines.get((case.case_id, "multi", s.t, repeat)))}
    if keep is not None:
        trace = replay_lines(case, lines, comp)
        keep.append(trace)
        counts = case_counts(trace)
    else:
        counts = multi_counts(case, lines, comp)  # the same counts, no per-step trace built
    return [counts[name] for name in MULTI_FIELDS]


_MODE_SCORERS = {"single": (_single_row, len(SINGLE_FIELDS)), "multi": (_multi_row, len(MULTI_FIELDS))}


def evaluate(
    dataset: Dataset,
    run: Run,
    *,
    judge: str | LocationJudge | None = None,
    metrics_version: int = METRICS_VERSION,
    ci: bool = True,
    n_boot: int = 1000,
    seed: int = 0,
    breakdowns: bool = True,
    only_answered: bool = False,
    allow_judge_errors: bool = False,
    details: bool = True,
    traces: bool = True,
) -> EvaluationResult:
    """Score a run against a dataset exactly as metrics spec version 1 defines.

    Args:
        dataset: the loaded dataset.
        run: the loaded run (the last line per key counts).
        judge: the location judge, by name (``exact``, ``fuzzy``, ``places``, ``llm``) or as an object;
            ``None`` takes the metrics version's judge (``fuzzy`` for 1, ``places`` for 2).
        metrics_version: the version the metrics file names (1 reproduces version-1 figures).
        ci: compute case-level bootstrap 95% intervals (on repeat 0).
        n_boot: bootstrap resamples.
        seed: bootstrap seed.
        breakdowns: compute the per-meta breakdowns.
        only_answered: score only the cases the run has a line for (a sampled human run, a run made
            with ``--limit``); by default a question without a line counts as missing, as the spec
            says. The metrics then carry ``dataset.scored_cases``.
        allow_judge_errors: accept metrics although the location judge could not decide some
            pairs (an LLM judge's failed request or unparseable verdict, scored as different
            places and counted as ``judge_errors``); by default they raise :class:`JudgeFailed`.
        details: keep every question's score and every case's trace (``questions``, ``cases``:
            what reports and the viewer read). Without them each case is scored and dropped and
            only its count vector stays (``rows``: all the metrics, intervals and breakdowns
            need), which is what ``proevent evaluate`` does on a large dataset.
        traces: with ``details``, keep every case's multi-step trace (``cases``) too; without,
            only the single-step questions are kept and multi-step mode is scored as without
            ``details`` (the same counts, no trace built): what ``proevent report`` reads.
    """
    version_judge = default_judge(metrics_version)  # an unknown version is an error
    if judge is None:
        judge = version_judge
    if only_answered:
        subset = dataset.subset(run.answered_cases())
        result = evaluate(subset, run, judge=judge, metrics_version=metrics_version, ci=ci, n_boot=n_boot, seed=seed,
                          breakdowns=breakdowns, allow_judge_errors=allow_judge_errors, details=details,
                          traces=traces)
        result.metrics["dataset"]["scored_cases"] = len(subset.cases)
        return result
    the_judge = get_judge(judge)
    with gc_paused():
        result = _evaluate(dataset, run, the_judge, ci=ci, n_boot=n_boot, seed=seed, breakdowns=breakdowns,
                           details=details, traces=traces)
    result.metrics["metrics_version"] = metrics_version
    if the_judge.can_fail:
        failures = the_judge.failures()
        result.metrics["judge_errors"] = len(failures)
        if failures and not allow_judge_errors:
            raise JudgeFailed(result, failures)
    return result


class JudgeFailed(ValueError):
    """The location judge could not decide some pairs; ``result`` holds the metrics all the same."""

    def __init__(self, result: EvaluationResult, failures: list[dict[str, Any]]) -> None:
        first = failures[0]
        super().__init__(
            f"the {result.metrics['judge']} location judge could not decide {len(failures)} location pair(s) "
            f"(first: {first['a']!r} / {first['b']!r}: {first.get('error')}); they would count as different "
            "places. Score again (decided pairs are cached), or accept them with --allow-judge-errors"
        )
        self.result = result
        self.failures = failures


def _evaluate(
    dataset: Dataset, run: Run, the_judge: LocationJudge, *, ci: bool, n_boot: int, seed: int, breakdowns: bool,
    details: bool = True, traces: bool = True,
) -> EvaluationResult:
    if the_judge.needs_prefetch:
        recorder = _RecordingJudge()
        evaluate(dataset, run, judge=recorder, ci=False, breakdowns=False, details=False)
        the_judge.prefetch(recorder.pairs)
    modes = [m for m in ("single", "multi") if any(k[1] == m for k in run.lines)]
    repeats = sorted({k[3] for k in run.lines}) or [0]
    cases = dataset.cases
    comps = [Comparator(People(c.people()), the_judge) for c in cases]
    questions: list[QuestionScore] = []
    case_traces: list[CaseTrace] = []
    kept = {"single": questions, "multi": case_traces} if details else {}  # what repeat 0 keeps, per mode
    if not traces:
        kept.pop("multi", None)
    repeat_rows = []
    for r in repeats:
        arrays: dict[str, np.ndarray | None] = {"single": None, "multi": None}
        for mode in modes:
            fn, width = _MODE_SCORERS[mode]
            sink = kept.get(mode) if r == repeats[0] else None
            rows = [fn(c, run, r, comp, sink) for c, comp in zip(cases, comps)]
            arrays[mode] = np.array(rows, dtype=np.int64).reshape(len(cases), width)
        repeat_rows.append(CaseRows([c.case_id for c in cases], arrays["single"], arrays["multi"]))

    def stats(idx: list[int] | None = None) -> dict[str, tuple[float | None, float | None]]:
        return repeat_stats(repeat_rows, idx)

    overall = stats()
    metrics: dict[str, Any] = {
        "format": METRICS_FORMAT,
        "metrics_version": METRICS_VERSION,
        "judge": the_judge.name,
        "dataset": {
            "name": dataset.manifest.name,
            "version": dataset.manifest.version,
            "sha256": dataset.sha256,
        },
        "run": {"agent": run.manifest.agent, "model": run.manifest.model},
        "single": None,
        "multi": None,
    }
    means = {k: v[0] for k, v in overall.items()}
    if "single" in modes:
        metrics["single"] = single_object(sum(rows.single.sum(axis=0) for rows in repeat_rows), means)
    if "multi" in modes:
        metrics["multi"] = multi_object(sum(rows.multi.sum(axis=0) for rows in repeat_rows), means)
    metrics["ci"] = bootstrap_intervals(repeat_rows[0], n_boot=n_boot, seed=seed) if ci and modes else None
    metrics["repeats"] = {"n": len(repeats), "sd": {k: overall[k][1] for k in METRIC_KEYS if k in overall}}
    metrics["breakdowns"] = (
        {
            key: {
                label: {"cases": len(idx), **{k: v[0] for k, v in stats(idx).items()}}
                for label, idx in group_cases(cases, key).items()
            }
            for key in BREAKDOWN_KEYS
        }
        if breakdowns
        else None
    )
    return EvaluationResult(
        metrics=metrics,
        questions=questions,
        cases=case_traces,
        rows=repeat_rows[0],
        repeat_rows=repeat_rows,
        judge_decisions=the_judge.decisions(),
    )


class _RecordingJudge(LocationJudge):
    """Answers "different" to every undecided pair and remembers it, to be prefetched."""

    name = "recording"

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[tuple[str, str, Any]] = []

    def decide(self, na: str, nb: str, a: str, b: str, context: Any) -> bool:
        self.pairs.append((a, b, context))
        return False
