"""The stdlib reference scorer (bench/reference_scorer.py) and proevent's evaluator agree.

The reference is written from the spec alone; agreement on the examples, on a generated dataset
and on a run with every kind of flaw (typos, duplicates, unknown ids and attributes, cosmetic
updates, unknown operations, errored and missing lines) is evidence for both.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from proevent.evaluate import evaluate
from proevent.io import load_dataset, load_run

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import reference_scorer as ref  # noqa: E402


def test_reference_rules_by_hand() -> None:
    assert ref.osa_distance("ca", "ac") == 1
    assert ref.osa_distance("kitten", "sitting") == 3
    assert ref.norm_location("The Café Nero's!") == "cafe neros"
    assert ref.same_location("Room 12", "Room 13", "fuzzy") is False
    assert ref.same_location("Blue Ridge trailhead", "trailhead blue ridge", "fuzzy") is True
    assert ref.same_location("Main Libary", "Main Library", "fuzzy") is True
    assert ref.same_location("Main Libary", "Main Library", "exact") is False
    people = ref.People(["Jerry Chen", "Tom Baker", "Tom Hardy", "Ana Ruiz"])
    assert people.same(["jerry", "ANA  RUIZ"], ["Jerry Chen", "Ana Ruiz"])
    assert not people.same(["Tom"], ["Tom Baker"])  # "Tom" is the first word of two people


def _compare(dataset: Path, run: Path) -> None:
    ours = evaluate(load_dataset(dataset), load_run(run), judge="fuzzy", ci=False).metrics
    theirs = ref.score(dataset, run)
    for mode in ("single", "multi"):
        if theirs[mode] is None:
            assert ours[mode] is None
            continue
        assert {k: ours[mode][k] for k in theirs[mode]} == theirs[mode], (run, mode)


@pytest.mark.parametrize("run", ["perfect", "flawed"])
def test_reference_agrees_on_the_examples(run: str) -> None:
    _compare(ROOT / "examples" / "tiny", ROOT / "examples" / "runs" / run)


def _flawed_copy(oracle: Path, out: Path, seed: int = 1) -> None:
    rng = random.Random(seed)
    out.mkdir()
    (out / "run.json").write_text((oracle / "run.json").read_text())
    with open(out / "predictions.jsonl", "w") as fh:
        for raw in (oracle / "predictions.jsonl").read_text().splitlines():
            line = json.loads(raw)
            ops = []
            for op in line["ops"]:
                r = rng.random()
                if r < 0.1:
                    continue
                if r < 0.2 and op["op"] == "insert" and len(op["event"].get("location") or "") > 3:
                    loc = op["event"]["location"]
                    op["event"]["location"] = loc[:-2] + loc[-1] + loc[-2]
                if r < 0.25 and op["op"] == "insert":
                    ops.append(json.loads(json.dumps(op)))
                if 0.25 < r < 0.3 and op["op"] == "update":
                    op["id"] = "e999"
                if 0.3 < r < 0.33 and op["op"] == "update":
                    op["attribute"] = "colour"
                ops.append(op)
            if rng.random() < 0.05:
                ops.append({"op": "update", "id": "e1", "attribute": "description", "value": "x"})
            if rng.random() < 0.05:
                ops.append({"op": "remind", "id": "e1"})
            if rng.random() < 0.03:
                ops.append({"op": "delete", "id": "e1"})
            line["ops"] = ops
            if rng.random() < 0.02:
                line["error"] = "request failed"
            if rng.random() < 0.02:
                continue
            fh.write(json.dumps(line) + "\n")


def test_reference_agrees_on_generated_runs(tmp_path: Path) -> None:
    def cli(*args: str) -> None:
        code = "import sys; from proevent.cli import main; sys.exit(main())"
        subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True, cwd=tmp_path)

    cli("generate", "-o", "ds", "--cases", "60", "--seed", "3", "-q")
    for agent in ("rules", "oracle"):
        cli("run", "ds", "--agent", agent, "--mode", "both", "-o", agent)
    _flawed_copy(tmp_path / "oracle", tmp_path / "flawed")
    for run in ("rules", "oracle", "flawed"):
        _compare(tmp_path / "ds", tmp_path / run)
