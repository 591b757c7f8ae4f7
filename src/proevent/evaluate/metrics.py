"""What ``metrics.json`` holds, typed (:class:`Metrics`), and the one catalogue of its metrics.

``evaluate`` writes the metrics as plain JSON-ready data (``EvaluationResult.metrics``);
:class:`Metrics` reads that data back with every field declared, so consumers read attributes
instead of digging into dicts. :data:`CATALOGUE` names each metric once (its key, label, table
group and direction): the CLI table, the report's Markdown, LaTeX and CSV, and anything else
that shows metrics read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from proevent.model import METRICS_FORMAT, OP_TYPES

_JSON = ConfigDict(extra="forbid")


class _Typed(BaseModel):
    model_config = _JSON


class TypeScores(_Typed):
    precision: float | None
    recall: float | None


class SingleMetrics(_Typed):
    """Single-step (teacher-forced) figures, pooled over repeats."""

    questions: int
    missing: int
    errors: int
    invalid_ops: int
    fdr: float | None
    mnr: float | None
    precision: float | None
    recall: float | None
    insert: TypeScores
    update: TypeScores
    delete: TypeScores


class MultiMetrics(_Typed):
    """Multi-step (free-running) figures, pooled over repeats."""

    cases: int
    missing: int
    errors: int
    target_events: int
    esr: float | None
    tsr: float | None


class DatasetInfo(_Typed):
    name: str
    version: str
    sha256: str
    scored_cases: int | None = None
    """Only with ``only_answered``: the cases scored."""
    of_cases: int | None = None
    """Only in a report scored on the cases every run answered: the dataset's cases."""


class RunInfo(_Typed):
    agent: str
    model: str | None


class Repeats(_Typed):
    n: int
    sd: dict[str, float | None]
    """Per dotted metric key, the sample sd over repeats (``None`` with one repeat)."""


class Metrics(_Typed):
    """``metrics.json`` (format ``proevent.metrics/1``; ``metrics_version`` names the scoring rules)."""

    format: Literal["proevent.metrics/1"] = METRICS_FORMAT
    metrics_version: int
    judge: str
    dataset: DatasetInfo
    run: RunInfo
    single: SingleMetrics | None
    multi: MultiMetrics | None
    ci: dict[str, list[float] | None] | None
    """Per dotted key, the case-level bootstrap 95% interval (repeat 0); ``None`` without intervals."""
    repeats: Repeats
    breakdowns: dict[str, dict[str, dict[str, float | int | None]]] | None
    """Per meta key, per group: ``cases`` and every dotted metric key."""
    judge_errors: int | None = None
    """Pairs the location judge could not decide (an LLM judge's failed request or unparseable
    verdict); written only for a judge that can fail."""

    def value(self, key: str) -> float | None:
        """A metric by its dotted key (``single.insert.recall``); ``None`` when undefined or absent."""
        return metric_value(self.to_json(), key)

    def to_json(self) -> dict[str, Any]:
        """The JSON object, with exactly the keys it was read with."""
        return self.model_dump(mode="json", exclude_unset=True)


def metric_value(metrics: dict[str, Any], key: str) -> float | None:
    """``single.insert.recall`` -> ``metrics["single"]["insert"]["recall"]`` (``None`` when absent)."""
    node: Any = metrics
    for part in key.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node if isinstance(node, int | float) and not isinstance(node, bool) else None


@dataclass(frozen=True)
class MetricInfo:
    """One metric as every table shows it."""

    key: str
    """Dotted key, as in ``metrics.json``'s ``ci``, ``repeats.sd`` and breakdowns."""
    label: str
    """Its name in a list of metrics (``insert recall``, ``event success (ESR)``)."""
    group: str
    """The paper's table 1 column group (``Timing``, ``Insert``, ... ``Success rate``)."""
    short: str
    """Its column title within the group (``FDR``, ``R``, ``Event``)."""
    lower_is_better: bool = False

    @property
    def arrow(self) -> str:
        """`` ↓`` for a metric where lower is better, else nothing."""
        return " ↓" if self.lower_is_better else ""

    @property
    def heading(self) -> str:
        """Its column title under the group's title, with the arrow (``R``, ``FDR ↓``)."""
        return self.short + self.arrow

    @property
    def title(self) -> str:
        """Its title standing alone, where there is no group row (``Insert R``, ``FDR ↓``): the
        group, then the heading; the timing metrics are named by their heading alone."""
        return self.heading if self.group == "Timing" else f"{self.group} {self.heading}"


CATALOGUE: tuple[MetricInfo, ...] = (
    MetricInfo("single.fdr", "FDR", "Timing", "FDR", lower_is_better=True),
    MetricInfo("single.mnr", "MNR", "Timing", "MNR", lower_is_better=True),
    *(
        MetricInfo(f"single.{t}.{m}", f"{t} {m}", t.capitalize(), m[0].upper())
        for t in OP_TYPES
        for m in ("recall", "precision")
    ),
    MetricInfo("single.recall", "overall recall", "Overall", "R"),
    MetricInfo("single.precision", "overall precision", "Overall", "P"),
    MetricInfo("multi.esr", "event success (ESR)", "Success rate", "Event"),
    MetricInfo("multi.tsr", "timetable success (TSR)", "Success rate", "Table"),
)
"""Every metric in the order tables show them."""


def metric_info(key: str) -> MetricInfo:
    for info in CATALOGUE:
        if info.key == key:
            return info
    raise KeyError(f"unknown metric {key!r}")


def catalogue_groups() -> tuple[tuple[str, int], ...]:
    """The column groups in table order, with how many metrics each holds."""
    out: dict[str, int] = {}
    for info in CATALOGUE:
        out[info.group] = out.get(info.group, 0) + 1
    return tuple(out.items())


def percent(value: float | None) -> str:
    """A fraction as a percentage with one decimal, or "–" when undefined."""
    return "–" if value is None else f"{100 * value:.1f}%"


__all__ = ["CATALOGUE", "DatasetInfo", "MetricInfo", "Metrics", "MultiMetrics", "Repeats", "RunInfo",
           "SingleMetrics", "TypeScores", "catalogue_groups", "metric_info", "metric_value", "percent"]
