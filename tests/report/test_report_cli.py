"""``proevent report`` and ``proevent compare`` end to end (typer's CliRunner)."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from report_helpers import NEW_DINNER, one_step_case, write_dataset_dir, write_run_dir
from typer.testing import CliRunner

from fixtures import FLAWED_RUN, PERFECT_RUN, TINY
from proevent.cli import app
from proevent.evaluate import evaluate
from proevent.evaluate.metrics import metric_value
from proevent.io import load_dataset, load_run
from proevent.report.table import COLUMNS

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False, env={"COLUMNS": "160"})


def test_report_writes_every_format_and_the_page(tmp_path):
    out = tmp_path / "rep"
    res = invoke("report", PERFECT_RUN, FLAWED_RUN, "--dataset", TINY, "--out", out, "--n-boot", "200")
    assert res.exit_code == 0, res.output
    for name in (
        "table.md",
        "table.tex",
        "table.csv",
        "errors.json",
        "metrics/perfect.json",
        "metrics/flawed.json",
        "plots/robustness.png",
        "plots/robustness.svg",
        "plots/errors.png",
        "plots/errors.svg",
        "index.html",
        "report.json",
    ):
        assert (out / name).is_file(), name
    assert "open: " in res.output and str((out / "index.html").resolve()) in res.output.replace("\n", "")
    html = (out / "index.html").read_text()
    # every run and every plot is in the page; images are embedded, so the page stands alone
    for label in ("perfect", "flawed"):
        assert f'data-run="{label}"' in html
    assert html.count("data:image/png;base64,") == 2
    assert 'href="plots/robustness.svg"' in html and 'href="plots/errors.svg"' in html
    assert "wrong operation type (third person)" in html and "tiny-03, step 2" in html
    assert "Blue Ridge" in html or "Book club" in html  # the messages behind an example
    # the numbers are evaluate()'s, in metrics/*.json and in the CSV
    direct = evaluate(load_dataset(TINY), load_run(FLAWED_RUN), ci=True, n_boot=200, seed=0).metrics
    assert json.loads((out / "metrics" / "flawed.json").read_text()) == json.loads(json.dumps(direct))
    csv_text = (out / "table.csv").read_text().splitlines()
    header, flawed_row = csv_text[0].split(","), csv_text[2].split(",")
    for col in COLUMNS:
        cell = flawed_row[header.index(col.key)]
        value = metric_value(direct, col.key)
        assert (float(cell) if cell else None) == value


def test_report_matches_evaluate_command_output(tmp_path):
    """The percentages printed by `proevent evaluate` appear in the report's table."""
    ev = invoke("evaluate", TINY, _copy(FLAWED_RUN, tmp_path / "r"), "--no-ci")
    assert ev.exit_code == 0
    md_res = invoke("report", tmp_path / "r", "--dataset", TINY, "--out", tmp_path / "o", "--no-plots")
    assert md_res.exit_code == 0, md_res.output
    md = (tmp_path / "o" / "table.md").read_text()
    for pct in re.findall(r"\b\d+\.\d%", ev.output):
        assert pct in md, pct
    assert "plots skipped: turned off" in md_res.output
    assert "Plots skipped" in (tmp_path / "o" / "index.html").read_text()


def _copy(src, dest):
    shutil.copytree(src, dest)
    (dest / "metrics.json").unlink(missing_ok=True)
    return dest


def test_report_refuses_a_non_empty_folder_and_mixed_datasets(tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    res = invoke("report", FLAWED_RUN, "--dataset", TINY, "--out", out)
    assert res.exit_code == 1 and "not empty" in res.output
    assert invoke("report", FLAWED_RUN, "--dataset", TINY, "--out", out, "--force", "--no-plots").exit_code == 0
    assert (out / "notes.txt").read_text() == "mine"
    other = _copy(FLAWED_RUN, tmp_path / "v2")
    manifest = json.loads((other / "run.json").read_text())
    manifest["dataset"]["version"] = "9"
    (other / "run.json").write_text(json.dumps(manifest))
    res = invoke("report", PERFECT_RUN, other, "--dataset", TINY, "--out", tmp_path / "mixed")
    assert res.exit_code == 1 and "different datasets" in res.output and "--allow-mixed" in res.output
    assert not (tmp_path / "mixed").exists()


def test_report_without_plotting_library(tmp_path, monkeypatch):
    import proevent.report.plots as plots

    monkeypatch.setattr(plots, "plotting_available", lambda: False)
    res = invoke("report", FLAWED_RUN, "--dataset", TINY, "--out", tmp_path / "o")
    assert res.exit_code == 0
    assert "plots skipped: matplotlib is not installed" in res.output
    assert not (tmp_path / "o" / "plots").exists() and (tmp_path / "o" / "table.md").exists()


def test_report_without_jinja2_still_prints_and_writes_the_tables(tmp_path, monkeypatch):
    import proevent.report.html as html
    import proevent.report.plots as plots

    monkeypatch.setattr(plots, "plotting_available", lambda: False)
    monkeypatch.setattr(html, "html_available", lambda: False)
    res = invoke("report", FLAWED_RUN, "--dataset", TINY, "--out", tmp_path / "o")
    assert res.exit_code == 0
    assert "index.html skipped: jinja2 is not installed" in res.output and "open:" not in res.output
    assert "61.5%" in res.output  # the table is printed (overall recall of the flawed run)
    assert not (tmp_path / "o" / "index.html").exists() and (tmp_path / "o" / "table.csv").exists()


def test_page_escapes_chat_text(tmp_path):
    case = one_step_case([NEW_DINNER], case_id="x-1", text="<script>alert(1)</script> & co")
    ds = write_dataset_dir(tmp_path / "data", [case])
    write_run_dir(tmp_path / "runs" / "r", ds, [{"case_id": "x-1", "mode": "single", "t": 1, "ops": []}])
    res = invoke("report", tmp_path / "runs" / "r", "--out", tmp_path / "o", "--no-plots")
    assert res.exit_code == 0, res.output
    html = (tmp_path / "o" / "index.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in html and "<script>" not in html


def test_report_finds_the_dataset_next_to_the_runs(tmp_path):
    ds = write_dataset_dir(tmp_path / "exp" / "data", [one_step_case([NEW_DINNER], case_id="x-1")])
    write_run_dir(
        tmp_path / "exp" / "runs" / "good",
        ds,
        [{"case_id": "x-1", "mode": "single", "t": 1, "ops": [NEW_DINNER]}],
        agent="plain",
    )
    write_run_dir(
        tmp_path / "exp" / "runs" / "bad",
        ds,
        [{"case_id": "x-1", "mode": "single", "t": 1, "ops": [], "error": "HTTP 500"}],
        agent="plain",
    )
    res = invoke(
        "report",
        tmp_path / "exp" / "runs" / "good",
        tmp_path / "exp" / "runs" / "bad",
        "--out",
        tmp_path / "o",
        "--no-plots",
    )
    assert res.exit_code == 0, res.output
    md = (tmp_path / "o" / "table.md").read_text()
    assert "| good (plain) | – | **0.0%** [0.0–0.0] |" in md  # FDR undefined (no empty step), MNR 0
    # the errored line counts as an empty prediction (and as an errored line)
    assert "| bad (plain) | – | <ins>100.0%</ins> [100.0–100.0] | <ins>0.0%</ins> [0.0–0.0] |" in md
    assert md.splitlines()[3].endswith("| 1 | 0 | – |")
    errors = json.loads((tmp_path / "o" / "errors.json").read_text())
    assert errors["runs"]["bad"]["counts"]["no_answer"] == 1


def test_compare_command(tmp_path):
    res = invoke(
        "compare", PERFECT_RUN, FLAWED_RUN, "--dataset", TINY, "--n-boot", "300", "--json", tmp_path / "c.json"
    )
    assert res.exit_code == 0, res.output
    assert "5 of 5 cases disagree" in res.output
    assert "tiny-03: single exact only in: t2 A; timetable success A ✓ B ✗; events right A 2/2 B 1/2" in res.output
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["metrics"]["single.recall"]["diff"] == pytest.approx(5 / 13)
    assert 0 < data["metrics"]["single.recall"]["p_value"] <= 1


def test_compare_refuses_runs_on_different_datasets(tmp_path):
    other = _copy(FLAWED_RUN, tmp_path / "v2")
    manifest = json.loads((other / "run.json").read_text())
    manifest["dataset"]["name"] = "something-else"
    (other / "run.json").write_text(json.dumps(manifest))
    res = invoke("compare", PERFECT_RUN, other, "--dataset", TINY)
    assert res.exit_code == 1 and "different datasets" in res.output


def test_repeats_show_mean_and_sd_and_cost_is_reported(tmp_path):
    ds = write_dataset_dir(
        tmp_path / "data", [one_step_case([NEW_DINNER], case_id="x-1"), one_step_case([], case_id="x-2")]
    )
    lines = [
        {"case_id": "x-1", "mode": "single", "t": 1, "repeat": 0, "ops": [NEW_DINNER]},
        {"case_id": "x-2", "mode": "single", "t": 1, "repeat": 0, "ops": []},
        {"case_id": "x-1", "mode": "single", "t": 1, "repeat": 1, "ops": []},
        {"case_id": "x-2", "mode": "single", "t": 1, "repeat": 1, "ops": [NEW_DINNER]},
    ]
    write_run_dir(
        tmp_path / "runs" / "priced",
        ds,
        lines,
        agent="procot",
        extra={"model": "gpt-x", "usage": {"cost_usd": 0.0123, "requests": 4}},
    )
    write_run_dir(
        tmp_path / "runs" / "unpriced",
        ds,
        lines[:2],
        agent="procot",
        extra={"model": "local", "usage": {"cost_usd": None, "requests": 2}},
    )
    res = invoke(
        "report", tmp_path / "runs" / "priced", tmp_path / "runs" / "unpriced", "--out", tmp_path / "o", "--no-plots"
    )
    assert res.exit_code == 0, res.output
    md = (tmp_path / "o" / "table.md").read_text().splitlines()
    priced, unpriced = md[2], md[3]
    # repeat 0: FDR 0/1, MNR 0/1; repeat 1: FDR 1/1, MNR 1/1 -> mean 50.0, sd 70.7 (sample sd of 0 and 1)
    assert priced.startswith("| priced (procot) | 50.0 ± 70.7% [0.0–0.0] | 50.0 ± 70.7% [0.0–0.0] |")
    assert priced.endswith("| 0 | 0 | $0.0123 |") and unpriced.endswith("| 0 | 0 | unknown |")
    assert "**0.0%**" in unpriced  # FDR 0 on one repeat beats the mean 50%


def test_report_and_compare_leave_the_collector_as_they_found_it(tmp_path, monkeypatch):
    """The loaded runs are frozen out of collections while the report is written (frozen before
    the collector is back on), and given back after; the collector is on again."""
    import gc

    import proevent.report as report

    seen = []
    real = report.write_report

    def spy(*args, **kwargs):
        seen.append((gc.isenabled(), gc.get_freeze_count()))
        return real(*args, **kwargs)

    monkeypatch.setattr(report, "write_report", spy)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    res = invoke("report", PERFECT_RUN, FLAWED_RUN, "--dataset", TINY, "--out", tmp_path / "r", "--n-boot", "50",
                 "--no-plots")
    assert res.exit_code == 0, res.output
    assert seen and seen[0][0] and seen[0][1] > 0
    assert gc.isenabled() and gc.get_freeze_count() == 0
    res = invoke("compare", PERFECT_RUN, FLAWED_RUN, "--dataset", TINY, "--n-boot", "50")
    assert res.exit_code == 0, res.output
    assert gc.isenabled() and gc.get_freeze_count() == 0
