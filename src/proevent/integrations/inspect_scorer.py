"""The inspect_ai scorer and metrics: proevent's own evaluator, so inspect reports the same numbers.

Each sample's :class:`~inspect_ai.scorer.Score` holds

- ``value``: the sample's counts (single: |G_t|, |P_t|, |P_t ∩ G_t| ...; multi: target events,
  successes, whether the timetable stayed right) — readable per sample in the log viewer;
- ``metadata``: the sample's proevent prediction lines, the dataset path and the judge.

The metrics (FDR, MNR, precision, recall, per-type precision/recall, ESR, TSR) do not average
per-sample values: they gather every prediction line of the scores they are given and call
:func:`proevent.evaluate.evaluate`, so each one equals what ``proevent evaluate`` prints for the
same predictions, repeats (inspect epochs, reduced by :func:`proevent_epochs`) included. When
``--limit`` cut a case's questions, the sums run over the sampled questions only. When the
lines are not available (another epochs reducer dropped the metadata), they fall back to ratios
of the summed counts, which equal the spec's figures for one epoch. An undefined metric (zero
denominator) is NaN.
"""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    ScoreReducer,
    Target,
    metric,
    score_reducer,
    scorer,
)
from inspect_ai.solver import TaskState

from proevent.evaluate import case_counts, comparator_for, evaluate, question_counts, replay_lines, score_line
from proevent.evaluate.aggregate import MULTI_RATIOS, SINGLE_RATIOS, mean_sd
from proevent.evaluate.judges import LATEST_VERSION, OFFLINE_JUDGES, default_judge
from proevent.integrations.inspect_solver import LINES_KEY, cached_dataset
from proevent.io import Dataset, Run
from proevent.model import PredictionLine, RunManifest

_last: tuple[str, dict[str, Any]] | None = None
REDUCED_KEY = "proevent_epochs"
"""Set by :func:`proevent_epochs` in a reduced score's metadata: its ``lines`` hold every epoch's."""


def single_counts(dataset: Dataset, case_id: str, t: int, line: PredictionLine | None, judge: str) -> dict[str, int]:
    """The counts of one single-step question (the terms of the spec's sums)."""
    case = dataset.case(case_id)
    return question_counts(score_line(case, t, line, comparator_for(case, judge)))


def multi_counts(dataset: Dataset, case_id: str, lines: list[PredictionLine], judge: str) -> dict[str, int]:
    """The counts of one case in multi-step mode."""
    case = dataset.case(case_id)
    return case_counts(replay_lines(case, {line.t: line for line in lines}, comparator_for(case, judge)))


@scorer(metrics=[])
def proevent_scorer(dataset: str, judge: str | None = None) -> Scorer:
    """Score a sample with proevent's evaluator and an offline location judge (``exact``, ``fuzzy``,
    ``places``; ``None``: the current metrics version's)."""
    judge = judge or default_judge(LATEST_VERSION)
    if judge not in OFFLINE_JUDGES:
        raise ValueError(f"judge {judge!r} is not available in inspect; use one of {', '.join(OFFLINE_JUDGES)}")

    async def score(state: TaskState, target: Target) -> Score:
        ds = cached_dataset(dataset)
        lines = [PredictionLine.model_validate(x) for x in state.store.get(LINES_KEY, [])]
        case_id, mode = state.metadata["case_id"], state.metadata["mode"]
        if mode == "single":
            value = single_counts(ds, case_id, int(state.metadata["t"]), lines[-1] if lines else None, judge)
            explanation = f"|G|={value['g']} |P|={value['p']} matched={value['m']}"
        else:
            value = multi_counts(ds, case_id, lines, judge)
            table = "right at every step" if value["tables_ok"] else "wrong at some step"
            explanation = f"{value['successes']}/{value['targets']} target events right; timetable {table}"
        return Score(value=value, answer=json.dumps([x.ops for x in lines], ensure_ascii=False)[:2000],
                     explanation=explanation,
                     metadata={"lines": [x.model_dump(mode="json") for x in lines], "dataset": dataset,
                               "judge": judge, "mode": mode, "case_id": case_id, "t": state.metadata.get("t")})

    return score


@score_reducer(name="proevent_epochs")
def proevent_epochs() -> ScoreReducer:
    """Keep every epoch's prediction lines (so the metrics can score each repeat exactly as
    ``proevent evaluate`` does) and show the mean counts as the value."""

    def reduce(scores: list[Score]) -> Score:
        keys = list(scores[0].value) if isinstance(scores[0].value, dict) else []
        value = {k: sum(float(s.value[k]) for s in scores) / len(scores) for k in keys}  # type: ignore[index]
        meta = dict(scores[0].metadata or {})
        meta["lines"] = [line for s in scores for line in (s.metadata or {}).get("lines", [])]
        meta[REDUCED_KEY] = len(scores)
        return Score(value=value, metadata=meta, explanation=scores[0].explanation)

    return reduce


def _nan(value: float | None) -> float:
    return math.nan if value is None else float(value)


def _lines_by_repeat(metas: list[dict[str, Any]]) -> dict[int, dict[tuple[str, str, int, int], PredictionLine]]:
    """Every prediction line of the scores, the last per key, grouped by repeat."""
    out: dict[int, dict[tuple[str, str, int, int], PredictionLine]] = {}
    for m in metas:
        for raw in m["lines"]:
            line = PredictionLine.model_validate(raw)
            per = out.setdefault(line.repeat, {})
            per.pop(line.key, None)
            per[line.key] = line
    return out


def _complete_cases(metas: list[dict[str, Any]], dataset: Dataset) -> bool:
    """True when the samples hold every step of each case they touch (no ``--limit`` cut a case)."""
    if any(m["mode"] != "single" for m in metas):
        return True
    asked = {(m["case_id"], m.get("t")) for m in metas}
    return all((c, s.t) in asked for c in {m["case_id"] for m in metas} for s in dataset.case(c).steps)


def _proevent_metrics(scores: list[SampleScore]) -> dict[str, Any] | None:
    """The ``single`` and ``multi`` metric values for ``scores``, or ``None`` without the lines.

    Whole cases (the usual run): :func:`proevent.evaluate.evaluate` on the samples' cases and lines.
    A ``--limit`` that cut a case's questions: the same sums per repeat over the sampled questions
    only (the cut questions are not counted as missing), the mean over repeats where defined.
    """
    global _last
    metas = [s.score.metadata or {} for s in scores]
    if not metas or any("lines" not in m or "dataset" not in m or REDUCED_KEY not in m for m in metas):
        return None  # e.g. another epochs reducer kept only the first epoch's metadata
    blob = json.dumps([[m["dataset"], m["judge"], m["case_id"], m["mode"], m.get("t"), m["lines"]] for m in metas],
                      sort_keys=True, ensure_ascii=False)
    key = hashlib.sha256(blob.encode("utf-8")).hexdigest()
    if _last is not None and _last[0] == key:
        return _last[1]
    full = cached_dataset(metas[0]["dataset"])
    judge = metas[0]["judge"]
    by_repeat = _lines_by_repeat(metas)
    if _complete_cases(metas, full):
        wanted = list(dict.fromkeys(m["case_id"] for m in metas))
        ds = full.subset(wanted)
        lines = {k: v for per in by_repeat.values() for k, v in per.items()}
        manifest = RunManifest(created="", proevent_version="", agent="inspect", dataset=full.ref())
        metrics = evaluate(ds, Run(manifest=manifest, lines=lines), judge=judge, ci=False, breakdowns=False).metrics
        values = {"single": metrics.get("single") or {}, "multi": metrics.get("multi") or {}}
    else:
        values = {"single": _sampled_single(metas, full, by_repeat or {0: {}}, judge), "multi": {}}
    _last = (key, values)
    return values


def _sampled_single(metas: list[dict[str, Any]], dataset: Dataset,
                    by_repeat: dict[int, dict[tuple[str, str, int, int], PredictionLine]], judge: str) -> dict:
    """Single-step figures over exactly the sampled questions, per repeat, then the mean."""
    per_repeat: list[dict[str, float | None]] = []
    for repeat, lines in by_repeat.items():
        totals: dict[str, int] = {}
        for m in metas:
            t = int(m["t"])
            counts = single_counts(dataset, m["case_id"], t, lines.get((m["case_id"], "single", t, repeat)), judge)
            for k, v in counts.items():
                totals[k] = totals.get(k, 0) + v
        per_repeat.append({name: (None if totals.get(den, 0) == 0 else totals.get(num, 0) / totals[den])
                           for name, (num, den) in SINGLE_RATIOS.items()})
    out: dict[str, Any] = {}
    for name in SINGLE_RATIOS:
        value = mean_sd([r[name] for r in per_repeat])[0]
        if "." in name:
            op_type, which = name.split(".")
            out.setdefault(op_type, {})[which] = value
        else:
            out[name] = value
    return out


def _pooled(scores: list[SampleScore], num: str, den: str) -> float:
    values = [s.score.value for s in scores if isinstance(s.score.value, dict)]
    d = sum(float(v.get(den, 0)) for v in values)
    return math.nan if d == 0 else sum(float(v.get(num, 0)) for v in values) / d


def _single_metric(name: str) -> Metric:
    num, den = SINGLE_RATIOS[name.replace("_", ".")]

    def compute(scores: list[SampleScore]) -> float:
        metrics = _proevent_metrics(scores)
        if metrics is None:
            return _pooled(scores, num, den)
        single = metrics["single"]
        if "_" in name:
            op_type, which = name.split("_", 1)
            return _nan((single.get(op_type) or {}).get(which))
        return _nan(single.get(name))

    return compute


def _multi_metric(name: str) -> Metric:
    num, den = MULTI_RATIOS[name]

    def compute(scores: list[SampleScore]) -> float:
        metrics = _proevent_metrics(scores)
        if metrics is None:
            return _pooled(scores, num, den)
        return _nan(metrics["multi"].get(name))

    return compute


@metric
def fdr() -> Metric:
    """False detection rate: questions without gold operations where the agent acted."""
    return _single_metric("fdr")


@metric
def mnr() -> Metric:
    """Missed need rate: questions with gold operations where the agent did nothing."""
    return _single_metric("mnr")


@metric
def precision() -> Metric:
    """Σ|P ∩ G| / Σ|P| over single-step questions."""
    return _single_metric("precision")


@metric
def recall() -> Metric:
    """Σ|P ∩ G| / Σ|G| over single-step questions."""
    return _single_metric("recall")


@metric
def insert_precision() -> Metric:
    return _single_metric("insert_precision")


@metric
def insert_recall() -> Metric:
    return _single_metric("insert_recall")


@metric
def update_precision() -> Metric:
    return _single_metric("update_precision")


@metric
def update_recall() -> Metric:
    return _single_metric("update_recall")


@metric
def delete_precision() -> Metric:
    return _single_metric("delete_precision")


@metric
def delete_recall() -> Metric:
    return _single_metric("delete_recall")


@metric
def esr() -> Metric:
    """Event success rate: target events right at every step, over target events."""
    return _multi_metric("esr")


@metric
def tsr() -> Metric:
    """Timetable success rate: cases whose timetable was right at every step."""
    return _multi_metric("tsr")


def single_metrics() -> list[Metric]:
    return [fdr(), mnr(), precision(), recall(), insert_precision(), insert_recall(), update_precision(),
            update_recall(), delete_precision(), delete_recall()]


def multi_metrics() -> list[Metric]:
    return [esr(), tsr()]


__all__ = ["multi_counts", "multi_metrics", "proevent_epochs", "proevent_scorer", "single_counts",
           "single_metrics"]
