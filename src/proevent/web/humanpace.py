"""What the human form says besides the question: the questions left and about how long they take
at the person's own pace, and which events a draft has already deleted (never offered again)."""

from __future__ import annotations

import json
import statistics
from typing import Any

from proevent.io import PREDICTIONS_FILE

MIN_TIMED = 1
"""Answers timed before an estimate is given (the person's own median; no guessed default)."""


def answer_seconds(session: Any) -> list[float]:
    """The time each shown question took (the seconds between showing it and its submission), from the run file."""
    path = session.folder / PREDICTIONS_FILE
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        value = rec.get("latency_s") if isinstance(rec, dict) else None
        if isinstance(value, int | float) and value >= 0 and not rec.get("skipped"):  # not a quiet step's
            out.append(float(value))
    return out


def pace(session: Any) -> dict[str, Any]:
    """``remaining``: questions still to be shown (steps without a message are answered without
    being shown, so they do not count); ``per_question_s`` and ``minutes_left``: the median time
    of this person's answers so far and the estimate it gives (``None`` before the first answer)."""
    remaining = sum(1 for it in session.items
                    if it not in session.answers and session.cases[it.case_id].steps[it.t - 1].messages)
    seconds = answer_seconds(session)
    per = statistics.median(seconds) if len(seconds) >= MIN_TIMED else None
    return {"remaining": remaining, "per_question_s": per,
            "minutes_left": None if per is None else max(1, round(remaining * per / 60))}


def deleted_in_draft(draft: list[Any]) -> set[str]:
    """Ids of the events the draft already deletes: the update and delete forms no longer offer them."""
    return {op["id"] for op in draft
            if isinstance(op, dict) and op.get("op") == "delete" and isinstance(op.get("id"), str)}
