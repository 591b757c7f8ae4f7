"""``proevent evaluate`` refuses what it cannot score honestly (issue 12, finding 9): a dataset with
structural errors (unless --no-validate) and a run made on another dataset (unless --other-dataset,
which never rewrites the run's metrics.json)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from fixtures import copy_run, copy_tiny
from proevent.cli import app
from proevent.generate.validate import structural_problems
from proevent.io import load_dataset, sha256_file

runner = CliRunner()

REPLAY_ERROR = ("cases.jsonl:1: steps[2].gold_timetable: replaying gold_ops gives a different timetable "
                "(missing [], unexpected ['e3'], different []) (tiny-01, gold_replay)")


def _unreplayable(tmp_path: Path) -> Path:
    """tiny-01's last step (no messages, no operations) loses e3 from its gold timetable."""
    folder = copy_tiny(tmp_path / "tiny")
    path = folder / "cases.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    case = json.loads(lines[0])
    last = case["steps"][2]
    assert not last["gold_ops"] and [e["id"] for e in last["gold_timetable"]] == ["e1", "e2", "e3"]
    last["gold_timetable"] = last["gold_timetable"][:2]
    lines[0] = json.dumps(case, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    manifest = json.loads((folder / "dataset.json").read_text())
    manifest["sha256"]["cases.jsonl"] = sha256_file(path)
    (folder / "dataset.json").write_text(json.dumps(manifest, indent=2))
    return folder


def _run_on(dataset: Path, tmp_path: Path) -> Path:
    """The perfect run, its manifest pointing at ``dataset``'s checksum."""
    run = copy_run("perfect", tmp_path / "run")
    manifest = json.loads((run / "run.json").read_text())
    manifest["dataset"]["sha256"] = sha256_file(dataset / "cases.jsonl")
    (run / "run.json").write_text(json.dumps(manifest, indent=2))
    return run


def test_structural_problems_name_the_line(tmp_path: Path) -> None:
    ds = load_dataset(_unreplayable(tmp_path))
    assert structural_problems(ds) == [REPLAY_ERROR]
    assert structural_problems(load_dataset(copy_tiny(tmp_path / "good"))) == []


def test_evaluate_refuses_gold_that_does_not_replay(tmp_path: Path) -> None:
    dataset = _unreplayable(tmp_path)
    run = _run_on(dataset, tmp_path)
    result = runner.invoke(app, ["evaluate", str(dataset), str(run), "--no-ci"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (f"{REPLAY_ERROR}\n{dataset}: the dataset has structural errors; refused "
                             "(`proevent validate` shows them all; --no-validate skips this check)\n")
    assert not (run / "metrics.json").exists()


def test_no_validate_scores_anyway(tmp_path: Path) -> None:
    dataset = _unreplayable(tmp_path)
    run = _run_on(dataset, tmp_path)
    result = runner.invoke(app, ["evaluate", str(dataset), str(run), "--no-ci", "--no-validate"])
    assert result.exit_code == 0, result.output
    assert json.loads((run / "metrics.json").read_text())["dataset"]["sha256"] == sha256_file(dataset / "cases.jsonl")


def test_review_flags_never_block(tmp_path: Path) -> None:
    """A location no message says is a review flag of `validate`, not a structural error."""
    folder = copy_tiny(tmp_path / "tiny")
    path = folder / "cases.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    case = json.loads(lines[0])
    op = case["steps"][0]["gold_ops"][0]
    assert op["event"]["location"] == "Blue Ridge trailhead"
    op["event"]["location"] = "Zanzibar"
    for table in (case["steps"][i]["gold_timetable"] for i in range(3)):
        for ev in table:
            if ev["location"] == "Blue Ridge trailhead":
                ev["location"] = "Zanzibar"
    lines[0] = json.dumps(case, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    manifest = json.loads((folder / "dataset.json").read_text())
    manifest["sha256"]["cases.jsonl"] = sha256_file(path)
    (folder / "dataset.json").write_text(json.dumps(manifest, indent=2))
    flagged = runner.invoke(app, ["validate", str(folder)])
    assert flagged.exit_code == 0 and "value_not_expressed" in flagged.stderr
    run = _run_on(folder, tmp_path)
    result = runner.invoke(app, ["evaluate", str(folder), str(run), "--no-ci"])
    assert result.exit_code == 0, result.output


def test_another_checksum_is_refused_and_metrics_json_kept(tmp_path: Path) -> None:
    dataset = _unreplayable(tmp_path)
    run = copy_run("perfect", tmp_path / "run")  # made on examples/tiny, not on this copy
    (run / "metrics.json").write_text('{"kept": true}\n')
    result = runner.invoke(app, ["evaluate", str(dataset), str(run), "--no-ci"])
    assert (result.exit_code, result.stdout) == (1, "")
    theirs = json.loads((run / "run.json").read_text())["dataset"]["sha256"]
    ours = sha256_file(dataset / "cases.jsonl")
    assert result.stderr == (
        f"{run / 'run.json'}: dataset.sha256: the run was made on dataset proevent-tiny 1.0.0 (checksum "
        f"{theirs[:12]}…), not on {dataset} (proevent-tiny 1.0.0, checksum {ours[:12]}…); refused, metrics.json "
        "is unchanged (--other-dataset scores it anyway without writing metrics.json)\n")
    assert (run / "metrics.json").read_text() == '{"kept": true}\n'


def test_other_dataset_scores_without_rewriting_metrics_json(tmp_path: Path) -> None:
    dataset = copy_tiny(tmp_path / "tiny")
    (dataset / "dataset.json").write_text((dataset / "dataset.json").read_text().replace('"1.0.0"', '"1.0.1"'))
    run = copy_run("perfect", tmp_path / "run")
    manifest = json.loads((run / "run.json").read_text())
    manifest["dataset"]["sha256"] = "0" * 64
    (run / "run.json").write_text(json.dumps(manifest, indent=2))
    (run / "metrics.json").write_text('{"kept": true}\n')
    out = tmp_path / "m.json"
    result = runner.invoke(app, ["evaluate", str(dataset), str(run), "--no-ci", "--other-dataset", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert (run / "metrics.json").read_text() == '{"kept": true}\n'
    written = json.loads(out.read_text())
    assert written["dataset"]["version"] == "1.0.1" and written["single"]["fdr"] == 0.0
    assert f"wrote {out}" in result.stdout.replace("\n", "") and "left as it is" in result.stderr.replace("\n", "")


def test_an_unwritable_json_path_is_one_clear_error(tmp_path: Path) -> None:
    run = copy_run("perfect", tmp_path / "run")
    target = tmp_path / "folder"
    target.mkdir()
    result = runner.invoke(app, ["evaluate", str(copy_tiny(tmp_path / "tiny")), str(run), "--no-ci",
                                 "--json", str(target)])
    assert result.exit_code == 1
    assert result.stderr == f"error: {target}: cannot write: Is a directory\n"


def test_run_refuses_a_dataset_with_structural_errors_unless_told(tmp_path):
    bad = _unreplayable(tmp_path)
    out = tmp_path / "runs" / "null"
    refused = runner.invoke(app, ["run", str(bad), "--agent", "null", "--out", str(out), "--no-progress"])
    assert refused.exit_code == 1 and not out.exists()
    assert REPLAY_ERROR in refused.output and "--no-validate" in refused.output
    forced = runner.invoke(app, ["run", str(bad), "--agent", "null", "--out", str(out), "--no-progress",
                                 "--no-validate"])
    assert forced.exit_code == 0, forced.output
    assert (out / "predictions.jsonl").exists()
