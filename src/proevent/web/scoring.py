"""Runs as the viewer shows them: loaded, scored once by the evaluator, indexed by case and step.

A run that cannot be read or scored does not stop the viewer: it keeps its error messages, which
the pages show as a banner, and takes no part in the filters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proevent.evaluate import (
    CaseTrace,
    Comparator,
    ErrorItem,
    Metrics,
    QuestionScore,
    categories,
    categorize,
    comparator_for,
    evaluate,
    get_judge,
)
from proevent.io import FormatError, load_run
from proevent.model import Case, Dataset, Run, dataset_mismatch

SOLVED = "solved"
FAILED = "failed"
UNANSWERED = "unanswered"
OUTCOMES: tuple[str, ...] = (SOLVED, FAILED, UNANSWERED)


@dataclass
class RunView:
    """One run given to ``proevent serve``: its scores per question and per case, or its errors."""

    index: int
    name: str
    run: Run | None = None
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    questions: dict[tuple[str, int], QuestionScore] = field(default_factory=dict)
    """(case_id, t) -> QuestionScore of single-step mode, repeat 0."""
    traces: dict[str, CaseTrace] = field(default_factory=dict)
    """case_id -> CaseTrace of multi-step mode, repeat 0."""
    outcome: dict[str, str] = field(default_factory=dict)
    categories: dict[str, dict[str, int]] = field(default_factory=dict)
    """case_id -> error category -> count."""
    errors: dict[tuple[str, int], list[ErrorItem]] = field(default_factory=dict)
    """(case_id, t) -> the error items of that single-step question."""
    metrics: Metrics | None = None

    @property
    def ok(self) -> bool:
        return self.run is not None and not self.problems

    @property
    def label(self) -> str:
        if self.run is None:
            return self.name
        m = self.run.manifest
        what = m.agent + (f" · {m.model}" if m.model else "")
        return self.name if what == self.name else f"{self.name} ({what})"

    def multi_ops(self, case_id: str, t: int) -> list[Any] | None:
        """The raw operations the run emitted at step ``t`` of a case in multi-step mode."""
        if self.run is None:
            return None
        line = self.run.lines.get((case_id, "multi", t, 0))
        return None if line is None else line.ops


def load_run_view(index: int, path: Path, dataset: Dataset, judge: str) -> RunView:
    """Load and score one run; every failure becomes a message on the view instead of an exception."""
    view = RunView(index=index, name=path.name or str(path))
    try:
        view.run = load_run(path)
    except FormatError as exc:
        view.problems = list(exc.problems)
        return view
    except OSError as exc:
        view.problems = [f"{path}: cannot read: {exc.strerror or exc}"]
        return view
    mismatch = dataset_mismatch(view.run, dataset, "the dataset served")
    if mismatch:
        view.warnings.append(f"{view.name}: {mismatch}")
    try:
        _score(view, dataset, judge)
    except Exception as exc:  # noqa: BLE001 - any scoring failure is shown, never a crash
        view.problems.append(f"cannot be scored: {type(exc).__name__}: {exc}")
        view.questions, view.traces = {}, {}
    view.outcome = {c.case_id: case_outcome(view, c) for c in dataset.cases}
    view.categories = categorize_run(view, dataset, judge)
    return view


def _score(view: RunView, dataset: Dataset, judge: str) -> None:
    assert view.run is not None
    res = evaluate(dataset, view.run, judge=judge, ci=False)
    view.metrics = res.summary
    view.questions = {(q.case_id, q.t): q for q in res.questions}
    view.traces = {c.case_id: c for c in res.cases}


def case_outcome(view: RunView, case: Case) -> str:
    """``solved``: every answered single step exact and the multi-step timetable right throughout;
    ``unanswered``: the run holds no line for this case in either mode; else ``failed``."""
    qs = [view.questions[(case.case_id, s.t)] for s in case.steps if (case.case_id, s.t) in view.questions]
    answered_single = [q for q in qs if not q.missing]
    trace = view.traces.get(case.case_id)
    answered_multi = trace is not None and trace.missing_steps < len(case.steps)
    if not answered_single and not answered_multi:
        return UNANSWERED
    if answered_single and any(not q.exact for q in qs):
        return FAILED
    if trace is not None and answered_multi and not trace.timetable_success:
        return FAILED
    return SOLVED


def category_labels() -> dict[str, str]:
    """Error category key -> label (:func:`proevent.evaluate.categories`)."""
    return {c.key: c.label for c in categories()}


def categorize_run(view: RunView, dataset: Dataset, judge: str) -> dict[str, dict[str, int]]:
    """Error categories per case (and the error items per question, on ``view.errors``)."""
    out: dict[str, dict[str, int]] = {}
    the_judge = get_judge(judge)
    comparators: dict[str, Comparator] = {}
    for (case_id, t), q in view.questions.items():
        if q.missing and not q.gold:
            continue
        case = dataset.case(case_id)
        if case_id not in comparators:
            comparators[case_id] = comparator_for(case, the_judge)
        items = categorize(case, q, comparator=comparators[case_id])
        view.errors[(case_id, t)] = items
        for item in items:
            counts = out.setdefault(case_id, {})
            counts[item.category] = counts.get(item.category, 0) + 1
    return out
