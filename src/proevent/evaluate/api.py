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
    bootstrap_intervals,
    mean_sd,
    multi_object,
    multi_ratios,
    single_object,
    single_ratios,
)
from proevent.evaluate.equivalence import Comparator
from proevent.evaluate.judges import LocationJudge, get_judge
from proevent.evaluate.multi import CaseTrace, replay_case
from proevent.evaluate.normalize import People
from proevent.evaluate.single import QuestionScore, score_question
from proevent.io.dataset import Dataset
from proevent.io.run import Run
from proevent.model import METRICS_FORMAT, OP_TYPES, AnyOp, Case, PredictionLine, parse_ops

METRICS_VERSION = 1
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


def _groups(cases: list[Case]) -> dict[str, dict[str, list[int]]]:
    """Breakdown key -> value -> indices of the cases in that group."""
    out: dict[str, dict[str, list[int]]] = {k: {} for k in BREAKDOWN_KEYS}
    for idx, case in enumerate(cases):
        for key in BREAKDOWN_KEYS:
            value = case.meta.get(key)
            if key == "noise_content" and isinstance(value, list):
                labels = [str(v) for v in value] or ["none"]
            else:
                labels = ["unknown" if value is None else str(value)]
            for label in dict.fromkeys(labels):
                out[key].setdefault(label, []).append(idx)
    return {k: dict(sorted(v.items(), key=lambda kv: _sort_key(kv[0]))) for k, v in out.items()}


def _sort_key(label: str) -> tuple[int, float, str]:
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


def evaluate(
    dataset: Dataset,
    run: Run,
    *,
    judge: str | LocationJudge = "fuzzy",
    ci: bool = True,
    n_boot: int = 1000,
    seed: int = 0,
    breakdowns: bool = True,
) -> EvaluationResult:
    """Score a run against a dataset exactly as metrics spec version 1 defines.

    Args:
        dataset: the loaded dataset.
        run: the loaded run (the last line per key counts).
        judge: the location judge, by name (``exact``, ``fuzzy``, ``llm``) or as an object.
        ci: compute case-level bootstrap 95% intervals (on repeat 0).
        n_boot: bootstrap resamples.
        seed: bootstrap seed.
        breakdowns: compute the per-meta breakdowns.
    """
    gc_was_enabled = gc.isenabled()
    gc.disable()  # many short-lived objects beside large live data: collections cost more than they free
    try:
        return _evaluate(dataset, run, get_judge(judge), ci=ci, n_boot=n_boot, seed=seed, breakdowns=breakdowns)
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
    per_repeat: dict[str, list[np.ndarray]] = {}
    for mode in modes:
        if mode == "single":
            fn, width, keep = _single_row, len(SINGLE_FIELDS), questions
        else:
            fn, width, keep = _multi_row, len(MULTI_FIELDS), traces
        per_repeat[mode] = [
            np.array(
                [fn(c, run, r, comp, keep if r == repeats[0] else None) for c, comp in zip(cases, comps)],
                dtype=np.int64,
            ).reshape(len(cases), width)
            for r in repeats
        ]

    def values_for(rows: list[np.ndarray] | None, ratio_fn, idx: list[int] | None = None):
        if rows is None:
            return None
        per = [ratio_fn(r[idx].sum(axis=0) if idx is not None else r.sum(axis=0)) for r in rows]
        keys = per[0].keys()
        stats = {k: mean_sd([p[k] for p in per]) for k in keys}
        return stats

    single_stats = values_for(per_repeat.get("single"), single_ratios)
    multi_stats = values_for(per_repeat.get("multi"), multi_ratios)
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
    sd: dict[str, float | None] = {}
    if single_stats is not None:
        totals = sum(r.sum(axis=0) for r in per_repeat["single"])
        metrics["single"] = single_object(totals, {k: v[0] for k, v in single_stats.items()})
        sd.update({k: v[1] for k, v in single_stats.items()})
    if multi_stats is not None:
        totals = sum(r.sum(axis=0) for r in per_repeat["multi"])
        metrics["multi"] = multi_object(totals, {k: v[0] for k, v in multi_stats.items()})
        sd.update({k: v[1] for k, v in multi_stats.items()})
    metrics["ci"] = (
        bootstrap_intervals(
            per_repeat["single"][0] if "single" in per_repeat else None,
            per_repeat["multi"][0] if "multi" in per_repeat else None,
            n_boot=n_boot,
            seed=seed,
        )
        if ci and modes and cases
        else None
    )
    metrics["repeats"] = {"n": len(repeats), "sd": {k: sd[k] for k in METRIC_KEYS if k in sd}}
    if breakdowns:
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for key, groups in _groups(cases).items():
            out[key] = {}
            for label, idx in groups.items():
                entry: dict[str, Any] = {"cases": len(idx)}
                for stats in (
                    values_for(per_repeat.get("single"), single_ratios, idx),
                    values_for(per_repeat.get("multi"), multi_ratios, idx),
                ):
                    if stats:
                        entry.update({k: v[0] for k, v in stats.items()})
                out[key][label] = entry
        metrics["breakdowns"] = out
    else:
        metrics["breakdowns"] = None
    return EvaluationResult(
        metrics=metrics, questions=questions, cases=traces, judge_decisions=the_judge.decisions()
    )


class _RecordingJudge(LocationJudge):
    name = "recording"

    """Answers "different" to every undecided pair and remembers it, to be prefetched."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[tuple[str, str, Any]] = []

    def decide(self, na: str, nb: str, a: str, b: str, context: Any) -> bool:
        self.pairs.append((a, b, context))
        return False
