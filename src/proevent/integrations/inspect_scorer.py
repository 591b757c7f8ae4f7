"""The inspect_ai scorer and metrics: proevent's own evaluator, so inspect reports the same numbers.

Each sample's :class:`~inspect_ai.scorer.Score` holds

- ``value``: the sample's counts (single: |G_t|, |P_t|, |P_t ∩ G_t| ...; multi: target events,
  successes, whether the timetable stayed right) — readable per sample in the log viewer;
- ``metadata``: the sample's proevent prediction lines, the dataset path and the judge.

The metrics (FDR, MNR, precision, recall, per-type precision/recall, ESR, TSR) do not average
per-sample values: they gather every prediction line of the scores they are given and make the
sums :func:`proevent.evaluate.evaluate` makes, so each one equals what ``proevent evaluate`` prints
for the same predictions, repeats (inspect epochs, reduced by :func:`proevent_epochs`) included.
Each question and each multi-step case is scored once, by the scorer or at the first computation
that sees it, and its counts kept: inspect computes the metrics over all finished samples again
and again while a task runs, and would otherwise score every sample each time. When ``--limit``
cut a case's questions, the sums run over the sampled questions only. When the lines are not
available (another epochs reducer dropped the metadata), they fall back to ratios of the summed
counts, which equal the spec's figures for one epoch. An undefined metric (zero denominator) is NaN.
"""

from __future__ import annotations

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

from proevent.evaluate import case_counts, comparator_for, question_counts, replay_lines, score_line
from proevent.evaluate.aggregate import MULTI_RATIOS, SINGLE_RATIOS, mean_sd
from proevent.evaluate.judges import LATEST_VERSION, OFFLINE_JUDGES, default_judge
from proevent.integrations.inspect_solver import LINES_KEY, cached_dataset
from proevent.io import Dataset
from proevent.model import PredictionLine

REDUCED_KEY = "proevent_epochs"
"""Set by :func:`proevent_epochs` in a reduced score's metadata: its ``lines`` hold every epoch's."""

Counts = dict[str, int]
_counted: dict[tuple[Any, ...], Counts] = {}
"""What each question (dataset, judge, case, t, repeat, its line) and each multi-step case (the same
with its lines) counts for, scored once: inspect recomputes the metrics over every finished sample
every second or so, and each time only the samples not seen before are scored."""
_read: dict[str, PredictionLine] = {}
_memo: tuple[list[Any], dict[str, Any]] | None = None
"""The values of the last list of scores (its objects held, compared by identity): the dozen metrics
of one computation read the same list."""


def _line_key(raw: dict[str, Any]) -> str:
    return json.dumps(raw, sort_keys=True, ensure_ascii=False)


def _single(dataset: Dataset, source: str, judge: str, case_id: str, t: int, repeat: int,
            line: tuple[str, PredictionLine] | None) -> Counts:
    key = ("single", source, judge, case_id, t, repeat, line and line[0])
    hit = _counted.get(key)
    if hit is None:
        hit = _counted[key] = single_counts(dataset, case_id, t, line and line[1], judge)
    return hit


def _multi(dataset: Dataset, source: str, judge: str, case_id: str, repeat: int,
           lines: list[tuple[str, PredictionLine]]) -> Counts:
    key = ("multi", source, judge, case_id, repeat, tuple(k for k, _ in lines))
    hit = _counted.get(key)
    if hit is None:
        hit = _counted[key] = multi_counts(dataset, case_id, [line for _, line in lines], judge)
    return hit


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
        raws = [PredictionLine.model_validate(x).model_dump(mode="json") for x in state.store.get(LINES_KEY, [])]
        lines = [_read_line(raw) for raw in raws]
        case_id, mode = state.metadata["case_id"], state.metadata["mode"]
        if mode == "single":
            t = int(state.metadata["t"])
            last = lines[-1] if lines else None
            value = _single(ds, dataset, judge, case_id, t, last[1].repeat if last else 0, last)
            explanation = f"|G|={value['g']} |P|={value['p']} matched={value['m']}"
        else:
            value = _multi(ds, dataset, judge, case_id, lines[0][1].repeat if lines else 0, lines)
            table = "right at every step" if value["tables_ok"] else "wrong at some step"
            explanation = f"{value['successes']}/{value['targets']} target events right; timetable {table}"
        return Score(value=dict(value), answer=json.dumps([x.ops for _, x in lines], ensure_ascii=False)[:2000],
                     explanation=explanation,
                     metadata={"lines": raws, "dataset": dataset, "judge": judge, "mode": mode, "case_id": case_id,
                               "t": state.metadata.get("t")})

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


def _read_line(raw: dict[str, Any]) -> tuple[str, PredictionLine]:
    """A line of a score's metadata, with the key it is remembered by (read once)."""
    key = _line_key(raw)
    line = _read.get(key)
    if line is None:
        line = _read[key] = PredictionLine.model_validate(raw)
    return key, line


Lines = dict[tuple[str, str, int, int], tuple[str, PredictionLine]]


def _lines_by_repeat(metas: list[dict[str, Any]]) -> dict[int, Lines]:
    """Every prediction line of the scores, the last per key, grouped by repeat."""
    out: dict[int, Lines] = {}
    for m in metas:
        for raw in m["lines"]:
            keyed = _read_line(raw)
            line = keyed[1]
            per = out.setdefault(line.repeat, {})
            per.pop(line.key, None)
            per[line.key] = keyed
    return out


def _complete_cases(metas: list[dict[str, Any]], dataset: Dataset) -> bool:
    """True when the samples hold every step of each case they touch (no ``--limit`` cut a case)."""
    if any(m["mode"] != "single" for m in metas):
        return True
    asked = {(m["case_id"], m.get("t")) for m in metas}
    return all((c, s.t) in asked for c in {m["case_id"] for m in metas} for s in dataset.case(c).steps)


def _ratios(totals: Counts, ratios: dict[str, tuple[str, str]]) -> dict[str, float | None]:
    """As :func:`proevent.evaluate.aggregate.single_ratios` reads summed counts."""
    return {name: (None if totals.get(den, 0) == 0 else float(totals.get(num, 0)) / float(totals[den]))
            for name, (num, den) in ratios.items()}


def _add(totals: Counts, counts: Counts) -> None:
    for k, v in counts.items():
        totals[k] = totals.get(k, 0) + v


def _nested(per_repeat: list[dict[str, float | None]], ratios: dict[str, tuple[str, str]]) -> dict[str, Any]:
    """The mean over repeats where defined, shaped as ``metrics.json``'s ``single``/``multi`` objects."""
    out: dict[str, Any] = {}
    for name in ratios:
        value = mean_sd([r[name] for r in per_repeat])[0]
        if "." in name:
            op_type, which = name.split(".")
            out.setdefault(op_type, {})[which] = value
        else:
            out[name] = value
    return out


def _proevent_metrics(scores: list[SampleScore]) -> dict[str, Any] | None:
    """The ``single`` and ``multi`` metric values for ``scores``, or ``None`` without the lines.

    Whole cases (the usual run): the sums :func:`proevent.evaluate.evaluate` makes on the samples'
    cases and lines (every mode the lines hold, over every case, per repeat; a question without a
    line counts as missing), the mean over repeats. A ``--limit`` that cut a case's questions: the
    same sums over the sampled questions only (the cut questions are not counted as missing). Each
    question and case is scored once (``_counted``), so a computation costs the new samples only.
    """
    global _memo
    if _memo is not None and len(_memo[0]) == len(scores) and all(a is b for a, b in zip(_memo[0], scores)):
        return _memo[1]
    metas = [s.score.metadata or {} for s in scores]
    if not metas or any("lines" not in m or "dataset" not in m or REDUCED_KEY not in m for m in metas):
        return None  # e.g. another epochs reducer kept only the first epoch's metadata
    source, judge = metas[0]["dataset"], metas[0]["judge"]
    full = cached_dataset(source)
    by_repeat = _lines_by_repeat(metas)
    if _complete_cases(metas, full):
        wanted = list(dict.fromkeys(m["case_id"] for m in metas))
        modes = {k[1] for per in by_repeat.values() for k in per}
        single_rows, multi_rows = [], []
        for repeat in sorted(by_repeat) or [0]:
            lines = by_repeat.get(repeat, {})
            single: Counts = {}
            multi: Counts = {}
            for case_id in wanted:
                steps = full.case(case_id).steps
                if "single" in modes:
                    for step in steps:
                        _add(single, _single(full, source, judge, case_id, step.t, repeat,
                                             lines.get((case_id, "single", step.t, repeat))))
                if "multi" in modes:
                    mine = [lines[k] for s in steps if (k := (case_id, "multi", s.t, repeat)) in lines]
                    _add(multi, _multi(full, source, judge, case_id, repeat, mine))
            single_rows.append(_ratios(single, SINGLE_RATIOS))
            multi_rows.append(_ratios(multi, MULTI_RATIOS))
        values = {"single": _nested(single_rows, SINGLE_RATIOS) if "single" in modes else {},
                  "multi": _nested(multi_rows, MULTI_RATIOS) if "multi" in modes else {}}
    else:
        values = {"single": _sampled_single(metas, full, source, by_repeat or {0: {}}, judge), "multi": {}}
    _memo = (list(scores), values)
    return values


def _sampled_single(metas: list[dict[str, Any]], dataset: Dataset, source: str, by_repeat: dict[int, Lines],
                    judge: str) -> dict:
    """Single-step figures over exactly the sampled questions, per repeat, then the mean."""
    per_repeat: list[dict[str, float | None]] = []
    for repeat, lines in by_repeat.items():
        totals: Counts = {}
        for m in metas:
            t = int(m["t"])
            _add(totals, _single(dataset, source, judge, m["case_id"], t, repeat,
                                 lines.get((m["case_id"], "single", t, repeat))))
        per_repeat.append(_ratios(totals, SINGLE_RATIOS))
    return _nested(per_repeat, SINGLE_RATIOS)


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
