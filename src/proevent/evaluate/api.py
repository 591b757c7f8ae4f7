"""``evaluate(dataset, run)``: every metric of the spec for one run, with intervals and breakdowns."""

from __future__ import annotations

import gc
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
from proevent.evaluate.equivalence import Comparator
from proevent.evaluate.judges import LocationJudge, default_judge, get_judge
from proevent.evaluate.multi import CaseTrace, replay_case
from proevent.evaluate.normalize import People
from proevent.evaluate.single import QuestionScore, score_question
from proevent.model import METRICS_FORMAT, OP_TYPES, AnyOp, Case, Dataset, PredictionLine, Run, parse_ops

METRICS_VERSION = 2
"""Version 2 scores locations with the ``places`` judge by default; version 1 with ``fuzzy``."""
BREAKDOWN_KEYS: tuple[str, ...] = ("negotiation_turns", "concurrent_chats", "noise_content", "category")
_SI = {name: i for i, name in enumerate(SINGLE_FIELDS)}
_MI = {name: i for i, name in enumerate(MULTI_FIELDS)}
_QUESTIONS = _SI["questions"]
_P_TYPE = {t: _SI[f"p_{t}"] for t in OP_TYPES}
_G_TYPE = {t: _SI[f"g_{t}"] for t in OP_TYPES}
_M_TYPE = {t: _SI[f"m_{t}"] for t in OP_TYPES}


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


def line_ops(line: PredictionLine | None) -> list[AnyOp]:
    """The operations a line counts with: none for a missing or errored line."""
    if line is None or line.error is not None:
        return []
    return parse_ops(line.ops)


def _single_row(case: Case, run: Run, repeat: int, comp: Comparator, keep: list | None) -> np.ndarray:
    row = np.zeros(len(SINGLE_FIELDS), dtype=np.int64)
    for step in case.steps:
        line = run.lines.get((case.case_id, "single", step.t, repeat))
        score = score_question(
            case, step.t, line_ops(line), comp, missing=line is None, error=line.error if line else None
        )
        if keep is not None:
            keep.append(score)
        g, p, m = len(score.gold), len(score.pred), len(score.matches)
        row[_QUESTIONS] += 1
        if g == 0:
            row[_SI["empty"]] += 1
            row[_SI["fd"]] += p > 0
        else:
            row[_SI["need"]] += 1
            row[_SI["mn"]] += p == 0
        row[_SI["p"]] += p
        row[_SI["g"]] += g
        row[_SI["m"]] += m
        for op in score.pred:
            if op.op in _P_TYPE:
                row[_P_TYPE[op.op]] += 1
        for op in score.gold:
            row[_G_TYPE[op.op]] += 1
        for _, j in score.matches:
            row[_M_TYPE[score.gold[j].op]] += 1
        row[_SI["missing"]] += line is None
        row[_SI["errors"]] += line is not None and line.error is not None
        row[_SI["invalid_ops"]] += len(score.invalid)
    return row


def _multi_row(case: Case, run: Run, repeat: int, comp: Comparator, keep: list | None) -> np.ndarray:
    preds, missing, errors = {}, [], {}
    for step in case.steps:
        line = run.lines.get((case.case_id, "multi", step.t, repeat))
        if line is None:
            missing.append(step.t)
        elif line.error is not None:
            errors[step.t] = line.error
        preds[step.t] = line_ops(line)
    trace = replay_case(case, preds, comp, missing=missing, errors=errors)
    if keep is not None:
        keep.append(trace)
    row = np.zeros(len(MULTI_FIELDS), dtype=np.int64)
    row[_MI["cases"]] = 1
    row[_MI["targets"]] = len(trace.targets)
    row[_MI["successes"]] = sum(trace.event_success.values())
    row[_MI["tables_ok"]] = trace.timetable_success
    row[_MI["missing"]] = len(missing)
    row[_MI["errors"]] = len(errors)
    return row


_MODE_SCORERS = {"single": (_single_row, len(SINGLE_FIELDS)), "multi": (_multi_row, len(MULTI_FIELDS))}


def group_cases(cases: list[Case], key: str) -> dict[str, list[int]]:
    """Indices of the cases per value of ``meta[key]``, by the spec's breakdown rule: a missing or
    null value is ``unknown``; for ``noise_content`` a case joins each kind it lists (``none`` for
    an empty list). Numeric values sort numerically."""
    out: dict[str, list[int]] = {}
    for idx, case in enumerate(cases):
        value = case.meta.get(key)
        if key == "noise_content" and isinstance(value, list):
            labels = [str(v) for v in value] or ["none"]
        else:
            labels = ["unknown" if value is None else str(value)]
        for label in dict.fromkeys(labels):
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
    """
    version_judge = default_judge(metrics_version)  # an unknown version is an error
    if judge is None:
        judge = version_judge
    if only_answered:
        subset = dataset.subset(run.answered_cases())
        result = evaluate(subset, run, judge=judge, metrics_version=metrics_version, ci=ci, n_boot=n_boot, seed=seed,
                          breakdowns=breakdowns)
        result.metrics["dataset"]["scored_cases"] = len(subset.cases)
        return result
    gc_was_enabled = gc.isenabled()
    gc.disable()  # many short-lived objects beside large live data: collections cost more than they free
    try:
        result = _evaluate(dataset, run, get_judge(judge), ci=ci, n_boot=n_boot, seed=seed, breakdowns=breakdowns)
        result.metrics["metrics_version"] = metrics_version
        return result
    finally:
        if gc_was_enabled:
            gc.enable()


def _evaluate(
    dataset: Dataset, run: Run, the_judge: LocationJudge, *, ci: bool, n_boot: int, seed: int, breakdowns: bool
) -> EvaluationResult:
    if the_judge.needs_prefetch:
        recorder = _RecordingJudge()
        evaluate(dataset, run, judge=recorder, ci=False, breakdowns=False)
        the_judge.prefetch(recorder.pairs)
    modes = [m for m in ("single", "multi") if any(k[1] == m for k in run.lines)]
    repeats = sorted({k[3] for k in run.lines}) or [0]
    cases = dataset.cases
    comps = [Comparator(People(c.people()), the_judge) for c in cases]
    questions: list[QuestionScore] = []
    traces: list[CaseTrace] = []
    repeat_rows = []
    for r in repeats:
        keep = r == repeats[0]
        arrays: dict[str, np.ndarray | None] = {"single": None, "multi": None}
        for mode in modes:
            fn, width = _MODE_SCORERS[mode]
            sink = (questions if mode == "single" else traces) if keep else None
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
        cases=traces,
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
