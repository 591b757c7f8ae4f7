"""Benchmark the evaluator: 100,000 single-step questions and 10,000 multi-step cases.

Builds a synthetic dataset and a noisy run in memory (not timed), then scores them with the
``fuzzy`` judge and no intervals, and prints questions per second, the total time and peak memory.
Target on a 2-core machine: under 10 s in all, under 1 GB.

    python bench/bench_evaluate.py [--questions 100000] [--multi-cases 10000] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import resource
import time

from proevent.evaluate import evaluate
from proevent.io.dataset import Dataset
from proevent.io.run import Run
from proevent.model import (
    Case,
    DatasetCounts,
    DatasetManifest,
    DeleteOp,
    InsertOp,
    PredictionLine,
    RunManifest,
    Step,
    Timetable,
    UpdateOp,
    make_event,
    op_to_json,
)

PEOPLE = ["Jerry Chen", "Tom Baker", "Ana Ruiz", "Li Wei", "Sam Okafor"]
PLACES = ["Blue Ridge trailhead", "Cafe Nero", "Conference Room A", "Conference Room B", "City Gym", "Main Library"]


def _event(rng: random.Random) -> dict:
    day = rng.randint(10, 28)
    return {
        "start": f"2026-03-{day:02d}T{rng.randint(8, 20):02d}:00",
        "end": None if rng.random() < 0.5 else f"2026-03-{day:02d}T21:00",
        "location": rng.choice(PLACES),
        "participants": ["Jerry Chen", *rng.sample(PEOPLE[1:], rng.randint(1, 3))],
        "description": "event",
    }


def make_case(idx: int, n_steps: int, rng: random.Random) -> Case:
    table = Timetable([make_event(f"e{i}", **_event(rng)) for i in range(1, rng.randint(2, 4))])
    initial = table.events
    steps = []
    for t in range(1, n_steps + 1):
        ops = []
        if rng.random() < 0.6:
            ids = [e.id for e in table]
            kind = rng.choice(["insert", "insert", "update", "delete"]) if ids else "insert"
            if kind == "insert":
                ops.append(InsertOp.model_validate({"event": _event(rng)}))
            elif kind == "update":
                attr = rng.choice(["start", "location", "participants"])
                ops.append(UpdateOp(id=rng.choice(ids), attribute=attr, value=_event(rng)[attr]))
            else:
                ops.append(DeleteOp(id=rng.choice(ids)))
        table = table.apply(ops).timetable
        steps.append(Step(t=t, start="2026-03-09T08:00", end="2026-03-09T12:00", messages=[], gold_ops=ops,
                          gold_timetable=table.events))
    return Case(case_id=f"b-{idx:06d}", user="Jerry Chen", start="2026-03-09T08:00", initial_timetable=initial,
                chats=[{"chat_id": "c1", "name": "g", "type": "group", "members": PEOPLE}], steps=steps,
                meta={"negotiation_turns": rng.randint(1, 5), "category": rng.choice(["dining", "work"])})


def noisy(ops: list, rng: random.Random) -> list:
    """The gold operations, sometimes dropped, mistyped or joined by a spurious insert."""
    out = []
    for op in ops:
        raw = op_to_json(op)
        r = rng.random()
        if r < 0.15:
            continue
        if r < 0.3 and raw["op"] == "insert":
            loc = raw["event"]["location"]
            raw["event"]["location"] = loc[:-2] + loc[-1] + loc[-2]  # a typo for the fuzzy judge
        out.append(raw)
    if rng.random() < 0.1:
        out.append({"op": "insert", "event": _event(rng)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=100_000)
    ap.add_argument("--multi-cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    t0 = time.perf_counter()
    single_ds, single_run, n_single = build(rng, "single", lambda n_q, n_c: n_q < args.questions)
    multi_ds, multi_run, n_multi = build(rng, "multi", lambda n_q, n_c: n_c < args.multi_cases)
    build_s = time.perf_counter() - t0
    print(f"built {n_single} single-step questions and {n_multi} multi-step cases in {build_s:.1f} s (not timed)")

    t1 = time.perf_counter()
    single = evaluate(single_ds, single_run, judge="fuzzy", ci=False).metrics["single"]
    t2 = time.perf_counter()
    multi = evaluate(multi_ds, multi_run, judge="fuzzy", ci=False).metrics["multi"]
    t3 = time.perf_counter()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    total = t3 - t1
    print(f"single-step: {single['questions']:,} questions in {t2 - t1:.2f} s "
          f"({single['questions'] / (t2 - t1):,.0f} questions/s)")
    print(f"multi-step:  {multi['cases']:,} cases in {t3 - t2:.2f} s ({multi['cases'] / (t3 - t2):,.0f} cases/s)")
    print(f"total scoring time {total:.2f} s; peak memory (whole process, incl. the in-memory data) {peak_mb:,.0f} MB")
    print(f"recall {single['recall']:.3f}  precision {single['precision']:.3f}  "
          f"ESR {multi['esr']:.3f}  TSR {multi['tsr']:.3f}")
    print(f"targets: under 10 s -> {'OK' if total < 10 else 'MISSED'}; under 1 GB -> "
          f"{'OK' if peak_mb < 1024 else 'MISSED'}")


def build(rng: random.Random, mode: str, more) -> tuple[Dataset, Run, int]:
    cases, lines, n_q = [], {}, 0
    while more(n_q, len(cases)):
        case = make_case(len(cases), rng.randint(4, 8), rng)
        cases.append(case)
        for step in case.steps:
            line = PredictionLine(case_id=case.case_id, mode=mode, t=step.t, ops=noisy(step.gold_ops, rng))
            lines[line.key] = line
        n_q += len(case.steps)
    manifest = DatasetManifest(name="bench", version="0", created="2026-11-29T00:00",
                               counts=DatasetCounts(cases=len(cases), steps=n_q, single_step_questions=n_q),
                               sha256={"cases.jsonl": ""})
    run = Run(manifest=RunManifest(created="", proevent_version="0", agent="bench",
                                   dataset={"name": "bench", "version": "0", "sha256": ""}), lines=lines)
    return Dataset(manifest=manifest, cases=cases), run, (n_q if mode == "single" else len(cases))


if __name__ == "__main__":
    main()
