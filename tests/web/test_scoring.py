"""Runs as the viewer scores them: outcomes per case and error categories."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from proevent.io import load_dataset
from proevent.web import ServeConfig, create_app
from proevent.web.scoring import FAILED, SOLVED, UNANSWERED, load_run_view

from .fixture_cases import write_run


def test_outcomes(dataset_dir: Path, run_dir: Path) -> None:
    view = load_run_view(0, run_dir, load_dataset(dataset_dir), "fuzzy")
    assert view.ok and view.problems == []
    assert view.outcome == {"pe-001": SOLVED, "pe-002": FAILED, "pe-003": FAILED}


def test_unanswered_and_multi_only(dataset_dir: Path, tmp_path: Path) -> None:
    ds = load_dataset(dataset_dir)
    gold = [{"case_id": "pe-003", "mode": "multi", "t": s.t, "ops": [o.model_dump(mode="json") for o in s.gold_ops]}
            for s in ds.case("pe-003").steps]
    wrong = [{"case_id": "pe-002", "mode": "multi", "t": 1, "ops": [{"op": "delete", "id": "e1"}]}]
    write_run(tmp_path / "r", ds, gold + wrong)
    view = load_run_view(0, tmp_path / "r", ds, "exact")
    # pe-002: its timetable went wrong at step 1 (deleted a day early) although step 2 ends right
    assert view.outcome == {"pe-001": UNANSWERED, "pe-002": FAILED, "pe-003": SOLVED}


def test_error_categories_filter_and_notes(dataset_dir: Path, run_dir: Path) -> None:
    # the evaluator's own categories (proevent.evaluate.categorize) on the fixture run, read off
    # its operations: pe-002 acts on an empty step and names an unknown id; pe-003 inserts 4C for 4B
    app = create_app(ServeConfig(dataset=dataset_dir, runs=[run_dir]))
    assert app.state.web.runs[0].categories == {"pe-002": {"false_detection": 1, "invalid_operation": 1},
                                                "pe-003": {"location": 1}}
    c = TestClient(app, base_url="http://127.0.0.1:8000")
    listing = c.get("/").text
    assert '<option value="location">location error</option>' in listing
    assert 'href="/case/pe-003' in c.get("/?run=0&error=location").text
    assert 'href="/case/pe-002' not in c.get("/?run=0&error=location").text
    assert "location error: inserted with location &#39;room 4C&#39; instead of &#39;room 4B&#39;" in c.get(
        "/case/pe-003?t=1").text


def test_scoring_failure_is_a_banner(dataset_dir: Path, run_dir: Path, monkeypatch) -> None:
    def explode(*a, **kw):  # type: ignore[no-untyped-def]
        raise ValueError("judge unavailable")

    monkeypatch.setattr("proevent.web.scoring.evaluate", explode)
    view = load_run_view(0, run_dir, load_dataset(dataset_dir), "fuzzy")
    assert not view.ok and view.problems == ["cannot be scored: ValueError: judge unavailable"]
    assert set(view.outcome.values()) == {UNANSWERED}


@pytest.mark.parametrize("judge", ["exact", "fuzzy"])
def test_judge_is_passed_on(dataset_dir: Path, run_dir: Path, judge: str) -> None:
    view = load_run_view(0, run_dir, load_dataset(dataset_dir), judge)
    assert view.metrics is not None and view.metrics.judge == judge
