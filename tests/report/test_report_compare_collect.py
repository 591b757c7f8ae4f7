"""Paired bootstrap comparison; finding datasets; refusing mixed dataset versions."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from fixtures import FLAWED_RUN, PERFECT_RUN, TINY, load_example_run, load_tiny
from proevent.evaluate import compare_results, evaluate, resample_weights, resampled_ratios
from proevent.io import load_run
from proevent.report.collect import MixedDatasetsError, load_scored_runs, locate_dataset, unique_labels


def test_compare_run_with_itself_is_zero_everywhere():
    ds = load_tiny()
    res = evaluate(ds, load_example_run("flawed"), ci=False)
    cmp = compare_results(ds, res, res, n_boot=300)
    assert cmp.disagreements == []
    for d in cmp.metrics:
        if d.diff is not None:
            assert d.diff == 0 and d.ci == (0.0, 0.0) and d.p_value == 1.0


def test_compare_perfect_and_flawed():
    ds = load_tiny()
    a = evaluate(ds, load_example_run("perfect"), ci=False)
    b = evaluate(ds, load_example_run("flawed"), ci=False)
    cmp = compare_results(ds, a, b, n_boot=500, seed=3)
    by = {d.key: d for d in cmp.metrics}
    assert by["single.recall"].diff == pytest.approx(1 - 8 / 13)
    assert by["multi.esr"].diff == pytest.approx(1 - 7 / 9)
    assert by["single.fdr"].diff == pytest.approx(0 - 2 / 3)
    for d in cmp.metrics:
        if d.ci is not None:
            assert d.ci[0] <= d.diff + 1e-9 and d.diff - 1e-9 <= d.ci[1]
            assert 0 < d.p_value <= 1
    # recall: the perfect run is better in every resample, so the shifted test rejects
    assert by["single.recall"].ci[0] > 0
    # hand-checked against examples/README.md: the flawed run is wrong somewhere in every case
    # except tiny-05's multi-step ESR, and tiny-01/tiny-02 keep TSR
    dis = {d.case_id: d for d in cmp.disagreements}
    assert list(dis) == ["tiny-01", "tiny-02", "tiny-03", "tiny-04", "tiny-05"]
    assert dis["tiny-01"].single_steps == [(2, True, False), (3, True, False)]
    assert dis["tiny-01"].tsr is None and dis["tiny-01"].esr is None
    assert dis["tiny-03"].tsr == (True, False) and dis["tiny-03"].esr == (2, 1, 2)
    assert dis["tiny-05"].single_steps == [(2, True, False)] and dis["tiny-05"].esr is None


def test_paired_resamples_match_a_manual_computation():
    ds = load_tiny()
    rows = evaluate(ds, load_example_run("flawed"), ci=False).rows
    w = resample_weights(5, 4, seed=1)
    assert w.shape == (4, 5) and (w.sum(axis=1) == 5).all()
    vals = resampled_ratios(rows, w)["single.recall"]
    for k in range(4):
        idx = np.repeat(np.arange(5), w[k])
        assert vals[k] == pytest.approx(rows.ratios(idx)["single.recall"])


def _copy_run(src, dest, **dataset_changes):
    shutil.copytree(src, dest)
    manifest = json.loads((dest / "run.json").read_text())
    manifest["dataset"].update(dataset_changes)
    (dest / "run.json").write_text(json.dumps(manifest))
    return dest


def test_mixed_dataset_versions_are_refused(tmp_path):
    other = _copy_run(FLAWED_RUN, tmp_path / "flawed-v2", version="2.0.0")
    with pytest.raises(MixedDatasetsError, match="different datasets") as err:
        load_scored_runs([PERFECT_RUN, other], dataset=TINY)
    assert "flawed-v2: proevent-tiny 2.0.0" in str(err.value)


def test_allow_mixed_scores_each_run_on_its_own_dataset(tmp_path):
    ds_copy = tmp_path / "tiny-copy"
    shutil.copytree(TINY, ds_copy)
    manifest = json.loads((ds_copy / "dataset.json").read_text())
    manifest["version"] = "2.0.0"
    (ds_copy / "dataset.json").write_text(json.dumps(manifest))
    other = _copy_run(FLAWED_RUN, tmp_path / "runs" / "flawed-v2", version="2.0.0")
    with pytest.raises(MixedDatasetsError):
        load_scored_runs([PERFECT_RUN, other], dataset=TINY)
    runs = load_scored_runs([PERFECT_RUN, other], dataset=TINY, allow_mixed=True, n_boot=50)
    assert runs[1].dataset.path == ds_copy and runs[1].dataset.manifest.version == "2.0.0"
    assert runs[1].result.metrics["single"]["recall"] == 8 / 13


def test_dataset_given_must_be_the_runs(tmp_path):
    other = _copy_run(FLAWED_RUN, tmp_path / "flawed", sha256="0" * 64)
    with pytest.raises(ValueError, match="not on the dataset given"):
        load_scored_runs([other], dataset=TINY)
    with pytest.raises(FileNotFoundError, match="pass --dataset"):
        load_scored_runs([other])


def test_locate_dataset_next_to_the_run_or_by_recorded_path(tmp_path):
    shutil.copytree(TINY, tmp_path / "exp" / "dataset")
    run = _copy_run(FLAWED_RUN, tmp_path / "exp" / "runs" / "flawed")
    assert locate_dataset(run, load_scored_runs([FLAWED_RUN], dataset=TINY, n_boot=0)[0].manifest) == (
        tmp_path / "exp" / "dataset"
    )
    far = tmp_path / "elsewhere" / "a" / "b" / "run"
    shutil.copytree(FLAWED_RUN, far)
    manifest = json.loads((far / "run.json").read_text())
    manifest["dataset"]["path"] = str(tmp_path / "exp" / "dataset")
    (far / "run.json").write_text(json.dumps(manifest))
    [scored] = load_scored_runs([far], n_boot=0)
    assert scored.dataset.path == tmp_path / "exp" / "dataset"


def test_a_run_records_where_its_dataset_lies_and_report_finds_it(tmp_path, monkeypatch):
    """The layout of the README (data/NAME beside runs/NAME) is deeper than the search next to
    the run reaches: run.json's dataset.path, relative to the run folder, finds it."""
    from proevent.runner import run_agent

    shutil.copytree(TINY, tmp_path / "data" / "tiny")
    monkeypatch.chdir(tmp_path)
    run_agent("data/tiny", "oracle", "runs/oracle", mode="single")
    manifest = json.loads((tmp_path / "runs" / "oracle" / "run.json").read_text())
    assert manifest["dataset"]["path"] == "../../data/tiny"
    [scored] = load_scored_runs([Path("runs/oracle")], n_boot=0)
    assert scored.dataset.path.resolve() == (tmp_path / "data" / "tiny").resolve()
    assert scored.result.metrics["single"]["recall"] == 1.0
    moved = tmp_path / "moved" / "runs"
    shutil.move(str(tmp_path / "runs"), str(moved))  # the run alone moves: the path breaks, no guess is made
    with pytest.raises(Exception, match="cannot find its dataset"):
        load_scored_runs([moved / "oracle"], n_boot=0)


def test_unique_labels(tmp_path):
    from proevent.model import RunManifest

    m = RunManifest.model_validate(json.loads((FLAWED_RUN / "run.json").read_text()))
    paths = [tmp_path / "a" / "run", tmp_path / "b" / "run", tmp_path / "c"]
    assert unique_labels(paths, [m, m, m]) == ["a/run", "b/run", f"{tmp_path.name}/c"]


def test_compare_with_repeats_uses_the_mean_over_repeats(tmp_path):
    """A answers flawed then perfect (two repeats), B perfect: each value is what `evaluate` reports
    (the mean over repeats), and every resample scores both repeats on the same cases."""
    ds = load_tiny()
    flawed, perfect = load_example_run("flawed"), load_example_run("perfect")
    folder = tmp_path / "two"
    shutil.copytree(FLAWED_RUN, folder)
    lines = [json.loads(x) for x in (folder / "predictions.jsonl").read_text().splitlines()]
    again = [{**json.loads(x), "repeat": 1} for x in (PERFECT_RUN / "predictions.jsonl").read_text().splitlines()]
    (folder / "predictions.jsonl").write_text("".join(json.dumps(x) + "\n" for x in [*lines, *again]))
    two = evaluate(ds, load_run(folder), ci=False)
    cmp = compare_results(ds, two, evaluate(ds, perfect, ci=False), n_boot=200, seed=1)
    by = {d.key: d for d in cmp.metrics}
    assert cmp.repeats == (2, 1)
    assert by["single.recall"].a == pytest.approx((8 / 13 + 1) / 2) == two.metrics["single"]["recall"]
    assert by["single.recall"].diff == pytest.approx((8 / 13 + 1) / 2 - 1)
    assert by["multi.esr"].diff == pytest.approx((7 / 9 + 1) / 2 - 1)
    w = resample_weights(5, 200, seed=1)
    manual = (resampled_ratios(two.repeat_rows[0], w)["single.recall"]
              + resampled_ratios(two.repeat_rows[1], w)["single.recall"]) / 2 - 1
    assert by["single.recall"].ci == pytest.approx((np.percentile(manual, 2.5), np.percentile(manual, 97.5)))
    half = evaluate(ds, flawed, ci=False)
    assert compare_results(ds, half, half, n_boot=50).repeats == (1, 1)
