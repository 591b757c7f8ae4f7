"""``proevent serve`` refuses bad settings before starting a server."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from proevent.cli import app


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, ["serve", *args])


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--human", "ann", "--review", "bob"], "--human and --review cannot be used together"),
        (["--human", "a/b"], "invalid name 'a/b'"),
        (["--human", "ann", "--mode", "both"], "mode: Input should be 'single' or 'multi'"),
        (["--human", "ann", "--sample", "0"], "sample: Input should be greater than or equal to 1"),
        (["--port", "70000"], "port: Input should be less than or equal to 65535"),
    ],
)
def test_bad_options(dataset_dir: Path, extra: list[str], message: str) -> None:
    res = run(str(dataset_dir), *extra)
    assert res.exit_code == 1
    assert message in " ".join(res.output.split())


def test_runs_only_in_the_viewer(dataset_dir: Path, run_dir: Path) -> None:
    res = run(str(dataset_dir), str(run_dir), "--review", "ann")
    assert res.exit_code == 1 and "runs are shown only in the viewer" in res.output


def test_bad_dataset_names_file_line_and_field(dataset_dir: Path) -> None:
    cases = dataset_dir / "cases.jsonl"
    lines = cases.read_text().splitlines()
    lines[1] = lines[1].replace('"user":"Jerry Chen"', '"user":7')
    cases.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(app, ["serve", str(dataset_dir)])
    assert res.exit_code == 1
    assert "cases.jsonl:2: user: Input should be a valid string" in res.output


def test_resume_refusal_is_a_clear_error(dataset_dir: Path, tmp_path: Path) -> None:
    from proevent.io import load_dataset
    from proevent.web.config import ServeConfig
    from proevent.web.human import HumanSession

    out = tmp_path / "h"
    HumanSession.open(load_dataset(dataset_dir), ServeConfig(dataset=dataset_dir, human="ann", out=out)).close()
    res = run(str(dataset_dir), "--human", "ann", "--out", str(out), "--mode", "multi")
    said = " ".join(res.output.split())
    assert res.exit_code == 1 and "another configuration (differs in: agent_description.mode)" in said
