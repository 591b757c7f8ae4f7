"""Tiny builders for hand-made cases and runs in evaluator tests."""

from __future__ import annotations

from typing import Any

from proevent.io.dataset import Dataset
from proevent.io.run import Run
from proevent.model import Case, DatasetCounts, DatasetManifest, PredictionLine, RunManifest

USER = "Jerry Chen"
CHATS = [
    {"chat_id": "c1", "name": "Tom", "type": "direct", "members": [USER, "Tom Baker"]},
    {"chat_id": "c2", "name": "Hiking crew", "type": "group", "members": [USER, "Tom Baker", "Ana Ruiz"]},
]


def ev(eid: str | None = None, start: str | None = "2026-03-14T09:00", end: str | None = None,
       location: str | None = "Blue Ridge trailhead", participants: list[str] | None = None,
       description: str = "Hiking") -> dict[str, Any]:
    out = {"start": start, "end": end, "location": location,
           "participants": participants if participants is not None else [USER, "Tom Baker"],
           "description": description}
    if eid is not None:
        out["id"] = eid
    return out


def ins(**kw: Any) -> dict[str, Any]:
    return {"op": "insert", "event": ev(**kw)}


def upd(eid: str, attribute: str, value: Any) -> dict[str, Any]:
    return {"op": "update", "id": eid, "attribute": attribute, "value": value}


def dele(eid: str) -> dict[str, Any]:
    return {"op": "delete", "id": eid}


def case(case_id: str, initial: list[dict], steps: list[tuple[list[dict], list[dict]]],
         meta: dict | None = None) -> Case:
    """``steps``: (gold_ops, gold_timetable) per step; windows of 4 hours from 2026-03-09T08:00."""
    out = []
    for t, (ops, table) in enumerate(steps, start=1):
        out.append({"t": t, "start": f"2026-03-09T{4 * t + 4:02d}:00"[:16] if t < 5 else "2026-03-10T00:00",
                    "end": f"2026-03-09T{4 * t + 8:02d}:00" if t < 4 else "2026-03-10T00:00",
                    "messages": [], "gold_ops": ops, "gold_timetable": table})
    for s in out:  # keep windows valid-looking; times are not scored
        s["start"], s["end"] = "2026-03-09T08:00", "2026-03-09T12:00"
    return Case.model_validate({"case_id": case_id, "user": USER, "start": "2026-03-09T08:00",
                                "initial_timetable": initial, "chats": CHATS, "steps": out,
                                "meta": meta or {}})


def dataset(*cases: Case) -> Dataset:
    steps = sum(len(c.steps) for c in cases)
    manifest = DatasetManifest(name="hand", version="1", created="2026-11-29T12:00",
                               counts=DatasetCounts(cases=len(cases), steps=steps, single_step_questions=steps),
                               sha256={"cases.jsonl": "x"})
    return Dataset(manifest=manifest, cases=list(cases))


def run(lines: list[tuple[str, str, int, list[dict]] | dict]) -> Run:
    """Lines as (case_id, mode, t, ops) or full dicts (for repeat, error)."""
    parsed: dict = {}
    n = 0
    for item in lines:
        if isinstance(item, tuple):
            cid, mode, t, ops = item
            item = {"case_id": cid, "mode": mode, "t": t, "ops": ops}
        line = PredictionLine.model_validate(item)
        n += 1
        parsed.pop(line.key, None)
        parsed[line.key] = line
    manifest = RunManifest(created="2026-11-29T12:00", proevent_version="0", agent="test",
                           dataset={"name": "hand", "version": "1", "sha256": "x"})
    return Run(manifest=manifest, lines=parsed, duplicates=n - len(parsed), all_lines=n)
