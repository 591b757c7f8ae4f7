"""Scoring: matching, location judges, metrics, bootstrap and breakdowns (metrics spec version 1).

Depends on ``proevent.model`` (and the plain dataset/run containers of ``proevent.io``) only, so
saved predictions can always be re-scored without an LLM, a server or a plotting library.
"""

from proevent.evaluate.aggregate import (
    METRIC_KEYS,
    CaseRows,
    bootstrap_intervals,
    mean_sd,
    repeat_stats,
    resample_weights,
    resampled_ratios,
    resampled_repeat_means,
)
from proevent.evaluate.api import (
    BREAKDOWN_KEYS,
    METRICS_VERSION,
    EvaluationResult,
    evaluate,
    group_cases,
    label_order,
    line_ops,
)
from proevent.evaluate.compare import CaseDisagreement, Comparison, MetricDiff, compare_results, disagreements
from proevent.evaluate.equivalence import Comparator, is_cosmetic
from proevent.evaluate.judges import JUDGES, ExactJudge, FuzzyJudge, LocationJudge, get_judge
from proevent.evaluate.matching import event_matching, max_matching
from proevent.evaluate.multi import CaseTrace, StepTrace, replay_case, target_events
from proevent.evaluate.normalize import People, canonical_name, normalize_location
from proevent.evaluate.single import QuestionScore, score_question

__all__ = [
    "BREAKDOWN_KEYS", "CaseDisagreement", "CaseRows", "Comparison", "MetricDiff", "compare_results",
    "disagreements", "group_cases", "label_order", "repeat_stats", "resample_weights",
    "resampled_ratios", "resampled_repeat_means",
    "JUDGES", "METRICS_VERSION", "METRIC_KEYS", "CaseTrace", "Comparator", "EvaluationResult", "ExactJudge",
    "FuzzyJudge", "LocationJudge", "People", "QuestionScore", "StepTrace", "bootstrap_intervals",
    "canonical_name", "comparator_for", "evaluate", "event_matching", "get_judge", "is_cosmetic", "line_ops",
    "max_matching", "mean_sd", "normalize_location", "replay_case", "score_question",
    "target_events",
]


def comparator_for(case, judge: str | LocationJudge = "fuzzy") -> Comparator:
    """The comparator :func:`score_question` and :func:`replay_case` take, for one case."""
    return Comparator(People(case.people()), get_judge(judge))
