"""A case's multi-step counts without per-step traces equal those read from the full trace."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proevent.evaluate import comparator_for
from proevent.evaluate.counts import case_counts, multi_counts, replay_lines
from proevent.io import load_dataset, load_run
from proevent.model import PredictionLine, op_to_json

ROOT = Path(__file__).resolve().parents[2]
CASES = load_dataset(ROOT / "examples" / "handwritten").cases[:30] + load_dataset(ROOT / "examples" / "tiny").cases


def test_the_example_runs_count_alike() -> None:
    dataset = load_dataset(ROOT / "examples" / "tiny")
    for folder in sorted((ROOT / "examples" / "runs").iterdir()):
        run = load_run(folder)
        for case in dataset.cases:
            lines = {k[2]: line for k, line in run.lines.items() if k[0] == case.case_id and k[1] == "multi"}
            for judge in ("exact", "places"):
                comp = comparator_for(case, judge)
                assert multi_counts(case, lines, comp) == case_counts(replay_lines(case, lines, comp))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_answers_count_alike(data: st.DataObject) -> None:
    case = data.draw(st.sampled_from(CASES))
    pool = [op_to_json(op) for s in case.steps for op in s.gold_ops] + [{"op": "delete", "id": "e99"}, {"op": "?"}]
    lines = {}
    for step in case.steps:
        kind = data.draw(st.sampled_from(["gold", "random", "missing", "error", "empty"]))
        if kind == "missing":
            continue
        ops = ([op_to_json(op) for op in step.gold_ops] if kind == "gold"
               else data.draw(st.lists(st.sampled_from(pool), max_size=3)) if kind == "random" else [])
        lines[step.t] = PredictionLine(case_id=case.case_id, mode="multi", t=step.t, ops=ops,
                                       error="agent failed" if kind == "error" else None)
    comp = comparator_for(case, data.draw(st.sampled_from(["exact", "fuzzy", "places"])))
    assert multi_counts(case, lines, comp) == case_counts(replay_lines(case, lines, comp))
