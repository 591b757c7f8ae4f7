"""Hand-made cases and runs for the report tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from proevent.evaluate import QuestionScore, comparator_for, score_question
from proevent.model import Case, Timetable, make_event, parse_ops

USER = "Jerry Chen"
HIKE = make_event(
    "e1",
    start="2026-03-14T09:00",
    end="2026-03-14T13:00",
    location="Blue Ridge trailhead",
    participants=[USER, "Tom Baker", "Ana Ruiz"],
    description="Hiking",
)
LUNCH = make_event(
    "e2",
    start="2026-03-12T12:30",
    end="2026-03-12T13:30",
    location="Cafe Nero",
    participants=[USER, "Maria Lopez"],
    description="Lunch",
)
NEW_DINNER = {
    "op": "insert",
    "event": {
        "start": "2026-03-13T19:00",
        "end": "2026-03-13T21:00",
        "location": "Luigi's",
        "participants": [USER, "Tom Baker"],
        "description": "Dinner",
    },
}


def one_step_case(
    gold_ops: list[dict[str, Any]], *, case_id: str = "h-1", meta: dict | None = None, text: str = "news?"
) -> Case:
    """A one-step case on the timetable [HIKE, LUNCH] whose step applies ``gold_ops``."""
    initial = [HIKE, LUNCH]
    after = Timetable(initial).apply(parse_ops(gold_ops))
    assert not after.errors, after.errors
    return Case.model_validate(
        {
            "case_id": case_id,
            "user": USER,
            "start": "2026-03-09T08:00",
            "initial_timetable": [e.model_dump() for e in initial],
            "chats": [
                {"chat_id": "c1", "name": "Hiking crew", "type": "group", "members": [USER, "Tom Baker", "Ana Ruiz"]},
                {"chat_id": "c2", "name": "Maria Lopez", "type": "direct", "members": [USER, "Maria Lopez"]},
            ],
            "steps": [
                {
                    "t": 1,
                    "start": "2026-03-09T08:00",
                    "end": "2026-03-09T12:00",
                    "messages": [
                        {"chat_id": "c1", "time": "2026-03-09T08:05", "sender": "Tom Baker", "text": text},
                    ],
                    "gold_ops": gold_ops,
                    "gold_timetable": [e.model_dump() for e in after.timetable.events],
                }
            ],
            "meta": meta or {},
        }
    )


def score(case: Case, pred: list[Any], *, t: int = 1, missing: bool = False, error: str | None = None) -> QuestionScore:
    ops = [] if error else parse_ops(pred)
    return score_question(case, t, ops, comparator_for(case), missing=missing, error=error)


def write_dataset_dir(path: Path, cases: list[Case], *, name: str = "hand", version: str = "1"):
    """Write and return the loaded :class:`~proevent.io.Dataset`."""
    from proevent.io import write_dataset

    return write_dataset(path, cases, name=name, version=version, generator={"seed": 0, "config": {}})


def write_run_dir(
    path: Path, dataset, lines: list[dict[str, Any]], *, agent: str = "hand", extra: dict | None = None
) -> Path:
    """A run folder on ``dataset`` with these prediction lines (dicts, completed with defaults)."""
    path.mkdir(parents=True, exist_ok=True)
    manifest = {
        "format": "proevent.run/1",
        "created": "2026-11-29T12:00",
        "proevent_version": "0.1.0",
        "agent": agent,
        "model": None,
        "parameters": {},
        "prompt": None,
        "dataset": {"name": dataset.manifest.name, "version": dataset.manifest.version, "sha256": dataset.sha256},
        **(extra or {}),
    }
    (path / "run.json").write_text(json.dumps(manifest), encoding="utf-8")
    with (path / "predictions.jsonl").open("w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(json.dumps({"repeat": 0, "error": None, **line}) + "\n")
    return path
