"""`proevent report --only-answered`: every row stands on the cases all runs answered (issue 17, point 3)."""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from proevent import evaluate, load_dataset, load_run
from proevent.cli import app

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "examples" / "tiny"
FLAWED = ROOT / "examples" / "runs" / "flawed"
PERFECT = ROOT / "examples" / "runs" / "perfect"


def _sampled_run(tmp_path: Path, keep: set[str]) -> Path:
    """A copy of the perfect run with the lines of ``keep`` only: a human who answered two cases."""
    out = tmp_path / "human-ann"
    out.mkdir()
    manifest = json.loads((PERFECT / "run.json").read_text(encoding="utf-8"))
    manifest["agent"] = "human:ann"
    manifest["dataset"]["path"] = str(TINY)
    (out / "run.json").write_text(json.dumps(manifest), encoding="utf-8")
    lines = [ln for ln in (PERFECT / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
             if json.loads(ln)["case_id"] in keep]
    (out / "predictions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def test_agents_and_the_human_are_scored_on_the_humans_cases_and_the_caption_says_so(tmp_path):
    keep = {"tiny-01", "tiny-03"}
    human = _sampled_run(tmp_path, keep)
    flawed = tmp_path / "flawed"
    shutil.copytree(FLAWED, flawed)
    manifest = json.loads((flawed / "run.json").read_text(encoding="utf-8"))
    manifest["dataset"]["path"] = str(TINY)
    (flawed / "run.json").write_text(json.dumps(manifest), encoding="utf-8")
    out = tmp_path / "report"
    res = CliRunner().invoke(app, ["report", str(flawed), str(human), "--out", str(out), "--only-answered",
                                   "--no-plots", "--n-boot", "50"])
    assert res.exit_code == 0, res.output
    ds = load_dataset(TINY)
    on_sample = evaluate(ds.subset(keep), load_run(FLAWED), ci=False).metrics
    on_all = evaluate(ds, load_run(FLAWED), ci=False).metrics
    assert on_sample["single"]["recall"] != on_all["single"]["recall"]  # the subset matters for this run
    table = (out / "table.md").read_text(encoding="utf-8")
    flawed_row = next(ln for ln in table.splitlines() if ln.startswith("| flawed"))
    overall_r = flawed_row.split("|")[10].strip().split()[0].strip("*")
    assert overall_r == f"{100 * on_sample['single']['recall']:.1f}%", (overall_r, on_sample["single"]["recall"])
    assert "Every run is scored on the same 2 of the dataset's 5 cases" in table
    assert "Every run is scored on the same 2 of the dataset's 5 cases" in html.unescape(
        (out / "index.html").read_text("utf-8"))


def test_no_common_case_is_a_clear_error(tmp_path):
    a = _sampled_run(tmp_path, {"tiny-01"})
    b = tmp_path / "b"
    b.mkdir()
    shutil.copy(a / "run.json", b / "run.json")
    (b / "predictions.jsonl").write_text("\n".join(
        ln for ln in (PERFECT / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
        if json.loads(ln)["case_id"] == "tiny-02") + "\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["report", str(a), str(b), "--out", str(tmp_path / "r"), "--only-answered",
                                   "--no-plots"])
    assert res.exit_code != 0
    assert "no case is answered by every run" in res.output
