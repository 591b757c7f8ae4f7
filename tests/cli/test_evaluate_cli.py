"""``proevent evaluate`` end to end through the CLI, on the hand-written examples."""

import json
import shutil

from typer.testing import CliRunner

from fixtures import FLAWED_RUN, TINY
from proevent.cli import app
from proevent.evaluate import evaluate
from proevent.io import load_dataset, load_run

runner = CliRunner()


def test_evaluate_prints_table_and_writes_metrics(tmp_path):
    run_dir = tmp_path / "flawed"
    shutil.copytree(FLAWED_RUN, run_dir)
    (run_dir / "metrics.json").unlink(missing_ok=True)
    out_json = tmp_path / "m.json"
    result = runner.invoke(app, ["evaluate", str(TINY), str(run_dir), "--json", str(out_json), "--n-boot", "100"])
    assert result.exit_code == 0, result.output
    assert "FDR" in result.output and "event success (ESR)" in result.output
    written = json.loads((run_dir / "metrics.json").read_text())
    assert written == json.loads(out_json.read_text())
    expected = evaluate(load_dataset(TINY), load_run(run_dir), n_boot=100).metrics
    assert written == json.loads(json.dumps(expected))
    assert written["format"] == "proevent.metrics/1" and written["judge"] == "places"
    assert set(written) == {"format", "metrics_version", "judge", "dataset", "run", "single", "multi", "ci",
                            "repeats", "breakdowns"}


def test_exact_judge_and_no_ci(tmp_path):
    run_dir = tmp_path / "flawed"
    shutil.copytree(FLAWED_RUN, run_dir)
    result = runner.invoke(app, ["evaluate", str(TINY), str(run_dir), "--judge", "exact", "--no-ci"])
    assert result.exit_code == 0, result.output
    written = json.loads((run_dir / "metrics.json").read_text())
    assert written["judge"] == "exact" and written["ci"] is None


def test_unknown_judge_fails_cleanly(tmp_path):
    run_dir = tmp_path / "flawed"
    shutil.copytree(FLAWED_RUN, run_dir)
    result = runner.invoke(app, ["evaluate", str(TINY), str(run_dir), "--judge", "psychic"])
    assert result.exit_code == 1
    assert "unknown judge 'psychic'" in result.output


def test_bad_prediction_lines_name_file_line_and_field(tmp_path):
    run_dir = tmp_path / "bad"
    shutil.copytree(FLAWED_RUN, run_dir)
    with (run_dir / "predictions.jsonl").open("a") as fh:
        fh.write('{"case_id": "tiny-01", "mode": "single", "t": "x", "ops": []}\n')
        fh.write('{"case_id": "tiny-01", "mode": "sideways", "t": 1, "ops": []}\n')
    n = sum(1 for _ in (run_dir / "predictions.jsonl").open())
    result = runner.invoke(app, ["evaluate", str(TINY), str(run_dir)])
    assert result.exit_code == 1
    assert f"predictions.jsonl:{n - 1}: t: Input should be a valid integer" in result.output
    assert f"predictions.jsonl:{n}: mode: Input should be 'single' or 'multi'" in result.output


def test_only_answered_flag(tmp_path):
    run_dir = tmp_path / "part"
    shutil.copytree(FLAWED_RUN, run_dir)
    lines = (run_dir / "predictions.jsonl").read_text().splitlines()
    keep = [ln for ln in lines if '"tiny-01"' in ln]
    (run_dir / "predictions.jsonl").write_text("\n".join(keep) + "\n")
    result = runner.invoke(app, ["evaluate", str(TINY), str(run_dir), "--only-answered", "--no-ci"])
    assert result.exit_code == 0, result.output
    written = json.loads((run_dir / "metrics.json").read_text())
    assert written["dataset"]["scored_cases"] == 1
    assert written["single"]["questions"] == len(load_dataset(TINY).case("tiny-01").steps)
    assert "scored 1 of 5 cases" in result.output
