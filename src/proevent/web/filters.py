"""The case list's filters and search. Query values are matched against known values, never trusted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlencode

from proevent.evaluate import breakdown_labels
from proevent.model import Case
from proevent.web.params import ascii_int
from proevent.web.scoring import OUTCOMES, RunView

NOISE_KINDS: tuple[str, ...] = ("off_topic", "unrelated_event", "failed_planning")
FILTER_KEYS: tuple[str, ...] = ("q", "category", "turns", "chats", "noise", "run", "outcome", "error")


def meta_value(case: Case, key: str) -> str:
    """The breakdown group of a case for ``meta[key]``, as ``evaluate`` groups it."""
    return breakdown_labels(case, key)[0]


def noise_values(case: Case) -> list[str]:
    """The noise kinds a case lists, as the ``noise_content`` breakdown groups it."""
    return breakdown_labels(case, "noise_content")


@dataclass
class CaseFilter:
    q: str = ""
    category: str = ""
    turns: str = ""
    chats: str = ""
    noise: str = ""
    run: int | None = None
    outcome: str = ""
    error: str = ""
    run_name: str = ""
    """The run as URLs name it (its name, never its position: positions change with the command line)."""

    @classmethod
    def from_query(cls, params: Mapping[str, str], runs: Sequence[RunView]) -> CaseFilter:
        run = run_by_name(params.get("run", ""), runs)
        outcome = params.get("outcome", "")
        return cls(
            q=params.get("q", "").strip()[:200],
            category=params.get("category", "")[:200],
            turns=params.get("turns", "")[:50],
            chats=params.get("chats", "")[:50],
            noise=params.get("noise", "")[:50],
            run=run,
            outcome=outcome if outcome in OUTCOMES else "",
            error=params.get("error", "")[:100],
            run_name=runs[run].name if run is not None else "",
        )

    def query(self, **extra: object) -> str:
        """This filter as a query string (empty values left out), plus ``extra`` parameters."""
        items: list[tuple[str, str]] = []
        for key in FILTER_KEYS:
            value = self.run_name if key == "run" else getattr(self, key)
            if value not in ("", None):
                items.append((key, str(value)))
        items.extend((k, str(v)) for k, v in extra.items() if v not in ("", None))
        return urlencode(items)

    @property
    def active(self) -> bool:
        return any(getattr(self, k) not in ("", None) for k in FILTER_KEYS)

    def matches(self, case: Case, runs: Sequence[RunView], texts: dict[str, str] | None = None) -> bool:
        if self.category and meta_value(case, "category") != self.category:
            return False
        if self.turns and meta_value(case, "negotiation_turns") != self.turns:
            return False
        if self.chats and meta_value(case, "concurrent_chats") != self.chats:
            return False
        if self.noise and self.noise not in noise_values(case):
            return False
        if self.run is not None:
            view = runs[self.run]
            if self.outcome and view.outcome.get(case.case_id) != self.outcome:
                return False
            if self.error and self.error not in view.categories.get(case.case_id, {}):
                return False
        if not self.q:
            return True
        if texts is None:
            return matches_search(case, self.q)
        hay = texts.get(case.case_id)
        if hay is None:
            hay = texts[case.case_id] = search_text(case)
        return all(word in hay for word in self.q.casefold().split())

    def apply(self, cases: Sequence[Case], runs: Sequence[RunView],
              texts: dict[str, str] | None = None) -> list[Case]:
        """The cases that pass; ``texts`` caches each case's search text across requests."""
        return [c for c in cases if self.matches(c, runs, texts)]


def run_by_name(value: str, runs: Sequence[RunView]) -> int | None:
    """The index of the run called ``value``, else ``None`` (an old position URL: see the viewer's redirect)."""
    return next((r.index for r in runs if r.name == value), None)


def run_by_position(value: str, runs: Sequence[RunView]) -> int | None:
    """The index of the run at position ``value`` (ASCII digits) when no run has that name."""
    pos = ascii_int(value)
    if pos is None or pos >= len(runs) or run_by_name(value, runs) is not None:
        return None
    return pos


def matches_search(case: Case, query: str) -> bool:
    """Every word of the query occurs (case-insensitively) in the case id, a chat, a message or an event."""
    hay = search_text(case)
    return all(word in hay for word in query.casefold().split())


def search_text(case: Case) -> str:
    parts = [case.case_id, case.user, str(case.meta.get("category", "")),
             str(case.meta.get("subcategory", ""))]
    for chat in case.chats:
        parts.append(chat.name)
        parts.extend(chat.members)
    for step in case.steps:
        parts.extend(f"{m.sender} {m.text}" for m in step.messages)
        parts.extend(f"{e.description} {e.location}" for e in step.gold_timetable)
    parts.extend(f"{e.description} {e.location}" for e in case.initial_timetable)
    return "\n".join(parts).casefold()


@dataclass
class FacetValues:
    """The values each filter can take in this dataset (for the select boxes)."""

    category: list[str] = field(default_factory=list)
    turns: list[str] = field(default_factory=list)
    chats: list[str] = field(default_factory=list)
    noise: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _sort_key(value: str) -> tuple[int, int, str]:
    if value in ("unknown", "none"):
        return (2, 0, value)
    number = ascii_int(value)
    return (0, number, value) if number is not None else (1, 0, value)


def facet_values(cases: Sequence[Case], runs: Sequence[RunView]) -> FacetValues:
    noise = {v for c in cases for v in noise_values(c)} | {"none"}
    errors = {name for r in runs for counts in r.categories.values() for name in counts}
    return FacetValues(
        category=sorted({meta_value(c, "category") for c in cases}, key=_sort_key),
        turns=sorted({meta_value(c, "negotiation_turns") for c in cases}, key=_sort_key),
        chats=sorted({meta_value(c, "concurrent_chats") for c in cases}, key=_sort_key),
        noise=sorted(noise, key=_sort_key),
        errors=sorted(errors),
    )
