"""Issue 17, point 8: datasets of different sizes get different default names, and the folders the
README's commands create in the repository are ignored by git (the run of every command is in
tests/test_readme_runs.py; this is the quick check of the names alone)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from proevent.cli import app
from proevent.generate import GeneratorConfig

ROOT = Path(__file__).resolve().parents[1]


def test_default_names_tell_sizes_apart():
    assert GeneratorConfig().dataset_name == "proevent-synth"  # the paper's 1,279 cases
    assert GeneratorConfig(cases=60).dataset_name == "proevent-synth-60"
    assert GeneratorConfig(cases=200, seed=4).dataset_name == "proevent-synth-200"
    assert GeneratorConfig(cases=60, name="mine").dataset_name == "mine"


def test_generate_writes_the_size_into_the_manifests_name(tmp_path):
    res = CliRunner().invoke(app, ["generate", "--cases", "3", "--out", str(tmp_path / "d"), "-q"])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "d" / "dataset.json").read_text(encoding="utf-8"))["name"] == "proevent-synth-3"
    res = CliRunner().invoke(app, ["generate", "--cases", "3", "--name", "x", "--out", str(tmp_path / "e"), "-q"])
    assert json.loads((tmp_path / "e" / "dataset.json").read_text(encoding="utf-8"))["name"] == "x"


def test_the_folders_the_readme_creates_are_ignored():
    made = ["proevent-quickstart/", "proevent-quickstart-2/", "report/", "report-human/", "stats/", "data/",
            "runs/", "human-ann/", "review-ann/", "hf/"]
    out = subprocess.run(["git", "check-ignore", "--no-index", *made], cwd=ROOT, capture_output=True, text=True)
    assert sorted(out.stdout.split()) == sorted(made)
    kept = subprocess.run(["git", "check-ignore", "--no-index", "docs/img/report.png", "examples/tiny/cases.jsonl"],
                          cwd=ROOT, capture_output=True, text=True)
    assert kept.stdout == ""  # the patterns are rooted: nothing of the repository's own is ignored
