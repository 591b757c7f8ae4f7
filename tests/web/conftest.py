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
