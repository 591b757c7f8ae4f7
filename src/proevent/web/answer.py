"""What a model answered at a step, for the case page: the raw answer, the ProCoT analysis and
the reasoning a server returned, beside the operations taken from it (why a model acted is the
first question a reader of a run asks)."""

from __future__ import annotations

import json
from typing import Any

from proevent.model import PredictionLine

RAW_LIMIT = 20_000
"""Characters of a raw answer shown (the page stays light; the run file holds all of it)."""


def _first_object(text: str) -> dict[str, Any] | None:
    """The answer's JSON object: the whole text, else the span from its first ``{`` to its last ``}``."""
    for candidate in (text, text[text.find("{"): text.rfind("}") + 1] if "{" in text else ""):
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def answer_view(line: PredictionLine | None) -> dict[str, Any] | None:
    """The answer of one prediction line as the page shows it, ``None`` when there is nothing to show
    (no line, or a model-free agent's line without a raw answer or notes)."""
    if line is None:
        return None
    extra = line.model_extra or {}
    raw = line.raw or ""
    obj = _first_object(raw) if raw else None
    analysis = obj.get("analysis") if obj else None
    needs = obj.get("needs_action") if obj else None
    view = {
        "raw": raw[:RAW_LIMIT] + ("…" if len(raw) > RAW_LIMIT else ""),
        "analysis": analysis if isinstance(analysis, str) and analysis.strip() else None,
        "needs_action": needs if isinstance(needs, bool) else None,
        "reasoning": extra.get("reasoning") if isinstance(extra.get("reasoning"), str) else None,
        "skipped": extra.get("skipped") if isinstance(extra.get("skipped"), str) else None,
        "requests": extra.get("requests") if isinstance(extra.get("requests"), int) else None,
    }
    if not any(view[k] for k in ("raw", "analysis", "reasoning", "skipped")):
        return None
    return view


def run_answers(run: Any, case_id: str, t: int) -> dict[str, dict[str, Any] | None]:
    """``{"single": ..., "multi": ...}``: the answer views of a run's lines at a step (repeat 0)."""
    lines = run.run.lines if getattr(run, "run", None) is not None else {}
    return {mode: answer_view(lines.get((case_id, mode, t, 0))) for mode in ("single", "multi")}
