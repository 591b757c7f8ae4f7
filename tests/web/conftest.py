from __future__ import annotations

from pathlib import Path

import pytest

from proevent.io import write_dataset

from .fixture_cases import all_cases


@pytest.fixture
def dataset_dir(tmp_path: Path) -> Path:
    path = tmp_path / "ds"
    write_dataset(path, all_cases(), name="web-test", version="1", created="2026-11-29T12:00")
    return path


@pytest.fixture
def run_dir(dataset_dir: Path, tmp_path: Path) -> Path:
    from proevent.io import load_dataset

    from .fixture_cases import sample_run_lines, write_run

    path = tmp_path / "run-a"
    write_run(path, load_dataset(dataset_dir), sample_run_lines())
    return path


@pytest.fixture
def bad_run_dir(tmp_path: Path, run_dir: Path) -> Path:
    """A run whose predictions.jsonl has a line that is not JSON and a line with a bad field."""
    path = tmp_path / "run-bad"
    path.mkdir()
    (path / "run.json").write_text((run_dir / "run.json").read_text())
    (path / "predictions.jsonl").write_text('{"case_id": "pe-001", "mode": "single", "t": 1, "ops": []}\n'
                                             '{oops\n{"case_id": "pe-001", "mode": "sideways", "t": 2, "ops": []}\n')
    return path
