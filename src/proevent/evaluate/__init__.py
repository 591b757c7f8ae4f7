"""Scoring: matching, location judges, counts, metrics, bootstrap, breakdowns, error categories and
the paired comparison (metrics spec).

Depends on ``proevent.model`` only, so saved predictions can always be re-scored without an LLM,
a server or a plotting library.

The names below load their module on first use (PEP 562): ``from proevent.evaluate.judges import
...`` or ``from proevent.evaluate.metrics import percent`` then imports that module alone, not
numpy and every scorer (what the CLI's command modules need at startup, and ``run --estimate``
needs nothing more).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, tuple[str, ...]] = {
    "aggregate": (
        "METRIC_KEYS", "CaseRows", "bootstrap_intervals", "mean_sd", "percentile_interval", "repeat_stats",
        "resample_weights", "resampled_ratios", "resampled_repeat_means", "shared_resamples",
    ),
    "api": ("METRICS_VERSION", "EvaluationResult", "JudgeFailed", "evaluate", "gc_paused"),
    "breakdowns": (
        "BREAKDOWN_KEYS", "GroupValue", "breakdown_labels", "group_cases", "group_values", "label_order",
        "subset_rows",
    ),
    "compare": ("CaseDisagreement", "Comparison", "MetricDiff", "compare_results", "disagreements"),
    "counts": ("case_counts", "line_ops", "question_counts", "replay_lines", "score_line"),
    "equivalence": ("Comparator", "comparator_for", "is_cosmetic"),
    "errors": ("Category", "ErrorItem", "categories", "categorize", "category_label"),
    "judges": ("JUDGES", "ExactJudge", "FuzzyJudge", "LocationJudge", "get_judge", "register_judge"),
    "matching": ("event_matching", "max_matching"),
    "metrics": ("CATALOGUE", "MetricInfo", "Metrics", "metric_info", "metric_value", "percent"),
    "multi": ("CaseTrace", "StepTrace", "replay_case", "target_events"),
    "normalize": ("People", "canonical_name", "normalize_location"),
    "single": ("QuestionScore", "score_question"),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
"""Where each public name lives (``__all__`` lists the same names; a test holds them equal)."""

__all__ = [
    "BREAKDOWN_KEYS", "CATALOGUE", "CaseDisagreement", "CaseRows", "CaseTrace", "Category", "Comparator",
    "Comparison", "ErrorItem", "EvaluationResult", "ExactJudge", "FuzzyJudge", "GroupValue", "JUDGES", "JudgeFailed",
    "LocationJudge", "METRICS_VERSION", "METRIC_KEYS", "MetricDiff", "MetricInfo", "Metrics", "People",
    "QuestionScore", "StepTrace", "bootstrap_intervals", "breakdown_labels", "canonical_name", "case_counts",
    "categories", "categorize", "category_label", "comparator_for", "compare_results", "disagreements", "evaluate",
    "event_matching", "gc_paused", "get_judge", "group_cases", "group_values", "is_cosmetic", "label_order",
    "line_ops", "max_matching", "mean_sd", "metric_info", "metric_value", "normalize_location", "percent",
    "percentile_interval", "question_counts", "register_judge", "repeat_stats", "replay_case", "replay_lines",
    "resample_weights", "resampled_ratios", "resampled_repeat_means", "score_line", "score_question",
    "shared_resamples", "subset_rows", "target_events",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # the next lookup finds it without this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # what type checkers and editors see: the names, eagerly
    from proevent.evaluate.aggregate import (
        METRIC_KEYS,
        CaseRows,
        bootstrap_intervals,
        mean_sd,
        percentile_interval,
        repeat_stats,
        resample_weights,
        resampled_ratios,
        resampled_repeat_means,
        shared_resamples,
    )
    from proevent.evaluate.api import METRICS_VERSION, EvaluationResult, JudgeFailed, evaluate, gc_paused
    from proevent.evaluate.breakdowns import (
        BREAKDOWN_KEYS,
        GroupValue,
        breakdown_labels,
        group_cases,
        group_values,
        label_order,
        subset_rows,
    )
    from proevent.evaluate.compare import CaseDisagreement, Comparison, MetricDiff, compare_results, disagreements
    from proevent.evaluate.counts import case_counts, line_ops, question_counts, replay_lines, score_line
    from proevent.evaluate.equivalence import Comparator, comparator_for, is_cosmetic
    from proevent.evaluate.errors import Category, ErrorItem, categories, categorize, category_label
    from proevent.evaluate.judges import JUDGES, ExactJudge, FuzzyJudge, LocationJudge, get_judge, register_judge
    from proevent.evaluate.matching import event_matching, max_matching
    from proevent.evaluate.metrics import CATALOGUE, MetricInfo, Metrics, metric_info, metric_value, percent
    from proevent.evaluate.multi import CaseTrace, StepTrace, replay_case, target_events
    from proevent.evaluate.normalize import People, canonical_name, normalize_location
    from proevent.evaluate.single import QuestionScore, score_question
