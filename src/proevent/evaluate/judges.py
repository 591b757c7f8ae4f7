"""Location judges: decide whether two location strings name the same place (metrics spec).

``null`` equals only ``null`` under every judge, and every judge accepts normalised-equal strings;
a judge only decides the remaining pairs. A new judge subclasses :class:`LocationJudge` and is
added to :data:`JUDGES` as ``"module:Class"`` so that its dependencies load only when it is used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

from rapidfuzz.distance import OSA

from proevent.evaluate.normalize import normalize_location

JUDGES: dict[str, str | Callable[..., LocationJudge]] = {
    "exact": "proevent.evaluate.judges:ExactJudge",
    "fuzzy": "proevent.evaluate.judges:FuzzyJudge",
    "places": "proevent.evaluate.places:PlacesJudge",
}
"""Judges by name: this package's as ``"module:Class"`` (loaded on use), and those a stage above
registers with :func:`register_judge` (``llm``, by :mod:`proevent.llm.judge`)."""
PROVIDED_ELSEWHERE = {"llm": "proevent.llm.judge"}
"""Judges that live above the scorer, and the module that registers each."""


def register_judge(name: str, factory: Callable[..., LocationJudge]) -> None:
    """Make ``get_judge(name)`` build a judge with ``factory`` (keyword options passed on)."""
    JUDGES[name] = factory
DEFAULT_JUDGES: dict[int, str] = {1: "fuzzy", 2: "places"}
"""The judge each metrics version scores with unless another is chosen (version 1 figures reproduce
with ``metrics_version=1`` or ``judge="fuzzy"``)."""


def default_judge(metrics_version: int) -> str:
    """The location judge of a metrics version."""
    try:
        return DEFAULT_JUDGES[metrics_version]
    except KeyError:
        raise ValueError(
            f"unknown metrics version {metrics_version!r}; choose one of {', '.join(map(str, DEFAULT_JUDGES))}"
        ) from None


class LocationJudge:
    """Base judge: ``None`` only equals ``None``; equal normalised forms are the same place."""

    name: str = "base"
    can_fail: bool = False
    """True for judges whose decision can fail (a request, an unparseable verdict): the metrics then
    count :meth:`failures` as ``judge_errors``."""
    needs_prefetch: bool = False
    """True for judges that decide in batches (an LLM): the evaluator first collects every pair
    they will be asked about and hands them to :meth:`prefetch`."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], bool] = {}

    def same(self, a: str | None, b: str | None, context: Any = None) -> bool:
        if a is None or b is None:
            return a is None and b is None
        na, nb = normalize_location(a), normalize_location(b)
        if na == nb:
            return True
        key = (na, nb) if na <= nb else (nb, na)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self.decide(key[0], key[1], a, b, context)
        return hit

    def decide(self, na: str, nb: str, a: str, b: str, context: Any) -> bool:
        """Judge two locations whose normalised forms ``na`` and ``nb`` differ."""
        return False

    def prefetch(self, pairs: Iterable[tuple[str, str, Any]]) -> None:
        """Decide many pairs ``(a, b, context)`` at once; the default judges need not."""

    def decisions(self) -> list[dict[str, Any]]:
        """The pairs decided beyond normalised equality, for writing beside the metrics."""
        return [{"a": a, "b": b, "same": same} for (a, b), same in sorted(self._cache.items())]

    def failures(self) -> list[dict[str, Any]]:
        """The pairs the judge could not decide (each with its ``error``; scored as different places)."""
        return []


class ExactJudge(LocationJudge):
    name = "exact"


class FuzzyJudge(LocationJudge):
    """Same number of words; sorted word by word, each pair equal or, where both words have at
    least 5 characters, at optimal-string-alignment distance 1."""

    name = "fuzzy"

    def decide(self, na: str, nb: str, a: str, b: str, context: Any) -> bool:
        wa, wb = sorted(na.split(" ")), sorted(nb.split(" "))
        if len(wa) != len(wb):
            return False
        for x, y in zip(wa, wb):
            if x == y:
                continue
            if len(x) < 5 or len(y) < 5 or OSA.distance(x, y, score_cutoff=1) != 1:
                return False
        return True


LATEST_VERSION = max(DEFAULT_JUDGES)
OFFLINE_JUDGES = ("exact", "fuzzy", "places")
"""The judges that decide without a model (inspect's scorer and ``judge-check`` offer them always)."""


def get_judge(name: str | LocationJudge | None = None, *, metrics_version: int = LATEST_VERSION,
              **kwargs: Any) -> LocationJudge:
    """A judge by name (``exact``, ``fuzzy``, ``places``, ``llm``), the judge itself when one is
    given, or (``None``) the judge of ``metrics_version``: the one place a default judge is chosen."""
    if isinstance(name, LocationJudge):
        return name
    if name is None:
        name = default_judge(metrics_version)
    try:
        target = JUDGES[name]
    except KeyError:
        if name in PROVIDED_ELSEWHERE:
            raise ValueError(f"judge {name!r} is not loaded: import {PROVIDED_ELSEWHERE[name]} (it registers it), "
                             "or pass the judge object") from None
        known = ", ".join([*JUDGES, *(k for k in PROVIDED_ELSEWHERE if k not in JUDGES)])
        raise ValueError(f"unknown judge {name!r}; choose one of {known}") from None
    if callable(target):
        return target(**kwargs)
    module, _, attr = target.partition(":")
    try:
        cls = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"judge {name!r} is not available: {exc}") from None
    return cls(**kwargs)
