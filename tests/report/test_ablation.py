"""The ablation table against a hand computation on a tiny pair of datasets (base and variant).

Base run: the oracle on ``examples/tiny`` with the first question (tiny-01, t=1: 2 of the 13 gold
operations) answered with nothing. Arm: the oracle on a paired variant (one message reworded).
By hand: base recall 11/13, precision 11/11; arm 13/13 and 13/13; Δ recall = 2/13. On the errors of
the base run (tiny-01 only, 3 gold operations): base recall 1/3, Δ 2/3, and every resample is that
one case, so the interval is [2/3, 2/3].
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from proevent.cli import app
from proevent.io import load_dataset, write_dataset
from proevent.report.ablation import ablation, check_paired, error_cases, markdown
from proevent.report.collect import load_scored_runs

TINY = Path(__file__).resolve().parents[2] / "examples" / "tiny"


def _run(dataset: Path, out: Path) -> Path:
    res = CliRunner().invoke(app, ["run", str(dataset), "--agent", "oracle", "--out", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("ablation")
    base = root / "tiny"
    shutil.copytree(TINY, base)
    ds = load_dataset(base)
    cases = [c.model_copy(deep=True) for c in ds.cases]
    msg = next(m for s in cases[1].steps for m in s.messages)
    msg.text = msg.text + " (said plainly)"
    write_dataset(root / "tiny.direct", cases, name=f"{ds.manifest.name}+direct", version=ds.manifest.version,
                  generator={"variant": {"factor": "direct", "value": None, "name": "direct",
                                         "base": {"path": "../tiny", "sha256": ds.sha256}}})
    base_run = _run(base, root / "run-base")
    line = json.loads((base_run / "predictions.jsonl").read_text().splitlines()[0])
    assert (line["case_id"], line["t"], len(line["ops"])) == ("tiny-01", 1, 2)
    with (base_run / "predictions.jsonl").open("a") as fh:  # the last line for a key counts
        fh.write(json.dumps({**line, "ops": []}) + "\n")
    return {"root": root, "base": base_run, "arm": _run(root / "tiny.direct", root / "run-arm")}


def test_table_matches_the_hand_computation(pair) -> None:
    base, arm = load_scored_runs([pair["base"], pair["arm"]], allow_mixed=True, n_boot=0)
    ab = ablation(base, [arm], n_boot=400, seed=1)
    (row,) = ab.rows
    assert (row.factor, row.cases) == ("direct", 5)
    rec, prec = row.values["single.recall"], row.values["single.precision"]
    assert rec["base"] == pytest.approx(11 / 13) and rec["arm"] == 1.0 and rec["delta"] == pytest.approx(2 / 13)
    assert prec["base"] == 1.0 and prec["arm"] == 1.0 and prec["delta"] == 0.0
    # a resample holds tiny-01 0..5 times: Δ lies between 0 and 2/3 (tiny-01 alone: 2 of its 3)
    assert 0.0 <= rec["ci"][0] <= 2 / 13 <= rec["ci"][1] <= 2 / 3 + 1e-9
    assert prec["ci"] == [0.0, 0.0]
    md = markdown(ab)
    assert "| direct | 5 | 100.0% | 100.0% |" in md and "| base | 5 | 84.6% | 100.0% |" in md
    assert "+15.4 pt" in md


def test_on_the_errors_of_a_run(pair) -> None:
    base, arm = load_scored_runs([pair["base"], pair["arm"]], allow_mixed=True, n_boot=0)
    assert error_cases(base) == ["tiny-01"]
    ab = ablation(base, [arm], on_errors_of=base, n_boot=200, seed=0)
    rec = ab.rows[0].values["single.recall"]
    assert ab.rows[0].cases == 1
    assert rec["base"] == pytest.approx(1 / 3) and rec["delta"] == pytest.approx(2 / 3)
    assert rec["ci"] == [pytest.approx(2 / 3), pytest.approx(2 / 3)]


def test_a_dataset_with_other_gold_is_not_a_paired_variant(pair, tmp_path: Path) -> None:
    ds = load_dataset(pair["root"] / "tiny")
    cases = [c.model_copy(deep=True) for c in ds.cases]
    cases[2].steps[0].gold_ops = []
    other = write_dataset(tmp_path / "other", cases, name="other", version="1")
    with pytest.raises(ValueError, match="tiny-03 has other windows, timetables or gold"):
        check_paired(ds, other)


def test_cli_ablation_writes_json_markdown_and_the_plot(pair, tmp_path: Path) -> None:
    out = tmp_path / "ab.json"
    res = CliRunner().invoke(app, ["ablation", str(pair["base"]), str(pair["arm"]), "--on-errors-of",
                                   str(pair["base"]), "--json", str(out), "--markdown", str(tmp_path / "ab.md"),
                                   "--plot", str(tmp_path / "fig4b.png"), "--n-boot", "100"])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert data["subset"].startswith("errors of") and data["rows"][0]["cases"] == 1
    assert data["rows"][0]["values"]["single.recall"]["delta"] == pytest.approx(2 / 3)
    assert (tmp_path / "fig4b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Δ" in (tmp_path / "ab.md").read_text()
    bad = CliRunner().invoke(app, ["ablation", str(pair["base"]), str(pair["arm"]), "--metric", "single.nope"])
    assert bad.exit_code != 0 and "unknown metric" in bad.output and "Traceback" not in bad.output
