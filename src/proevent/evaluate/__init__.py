"""Scoring: matching, location judges, counts, metrics, bootstrap, breakdowns, error categories and
the paired comparison (metrics spec).

Depends on ``proevent.model`` only, so saved predictions can always be re-scored without an LLM,
a server or a plotting library.
"""

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

__all__ = [
    "CATALOGUE", "JudgeFailed", "MetricInfo", "Metrics", "metric_info", "metric_value", "percent", "register_judge",
    "BREAKDOWN_KEYS", "JUDGES", "METRICS_VERSION", "METRIC_KEYS", "Category", "ErrorItem", "categories",
    "categorize", "category_label",
    "CaseDisagreement", "CaseRows", "CaseTrace", "Comparator", "Comparison", "EvaluationResult", "ExactJudge",
    "FuzzyJudge", "GroupValue", "LocationJudge", "MetricDiff", "People", "QuestionScore", "StepTrace",
    "bootstrap_intervals", "breakdown_labels", "canonical_name", "case_counts", "comparator_for",
    "compare_results", "disagreements", "evaluate", "event_matching", "gc_paused", "get_judge", "group_cases",
    "group_values", "is_cosmetic", "label_order", "line_ops", "max_matching", "mean_sd", "normalize_location",
    "percentile_interval", "question_counts", "repeat_stats", "replay_case", "replay_lines", "resample_weights",
    "resampled_ratios", "resampled_repeat_means", "score_line", "score_question", "subset_rows", "target_events",
]

