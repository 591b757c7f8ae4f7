"""Property: cutting predictions.jsonl anywhere (even mid-line) and resuming gives every key once,
with the same predictions as the uninterrupted run."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runner_helpers import keys_of

from fixtures import load_tiny
from proevent.io import load_run
from proevent.runner import run_agent

_REFERENCE: dict[str, Path] = {}


def reference() -> Path:
    if "run" not in _REFERENCE:
        folder = Path(tempfile.mkdtemp(prefix="proevent-ref-"))
        run_agent(load_tiny(), "rules", folder / "run")
        _REFERENCE["run"] = folder / "run"
    return _REFERENCE["run"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fraction=st.floats(min_value=0.0, max_value=1.0))
def test_resume_after_a_cut_anywhere(fraction):
    ref = reference()
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        shutil.copytree(ref, run)
        pred = run / "predictions.jsonl"
        data = pred.read_bytes()
        pred.write_bytes(data[: int(len(data) * fraction)])
        run_agent(load_tiny(), "rules", run)
        keys = keys_of(pred)
        assert len(keys) == len(set(keys)) == 28
        got, want = load_run(run).lines, load_run(ref).lines
        assert {k: line.ops for k, line in got.items()} == {k: line.ops for k, line in want.items()}
