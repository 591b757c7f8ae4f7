"""Runs as the viewer scores them: outcomes per case, and the optional error categories."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
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


@dataclass
class _Item:
    category: str
    pred: int | None
    gold: int | None
    detail: str


def _fake_errors(categorize) -> types.ModuleType:  # type: ignore[no-untyped-def]
    module = types.ModuleType("proevent.report.errors")
    module.categorize = categorize
    module.categories = lambda: [types.SimpleNamespace(key="wrong_place", label="location error")]
    return module


def test_error_categories_filter_and_notes(dataset_dir: Path, run_dir: Path, monkeypatch) -> None:
    def categorize(case, q, judge="fuzzy"):  # type: ignore[no-untyped-def]
        if q.unmatched_pred and q.unmatched_gold and q.pred[0].op == "insert":
            return [_Item("wrong_place", q.unmatched_pred[0], q.unmatched_gold[0], "room 4C, not room 4B")]
        return [_Item("other", i, None, "") for i in q.unmatched_pred]

    monkeypatch.setitem(sys.modules, "proevent.report.errors", _fake_errors(categorize))
    app = create_app(ServeConfig(dataset=dataset_dir, runs=[run_dir]))
    assert app.state.web.runs[0].categories == {"pe-002": {"other": 2}, "pe-003": {"wrong_place": 1}}
    c = TestClient(app, base_url="http://127.0.0.1:8000")
    listing = c.get("/").text
    assert '<option value="wrong_place">location error</option>' in listing
    assert 'href="/case/pe-003' in c.get("/?run=0&error=wrong_place").text
    assert 'href="/case/pe-002' not in c.get("/?run=0&error=wrong_place").text
    assert "location error: room 4C, not room 4B" in c.get("/case/pe-003?t=1").text


def test_error_categories_degrade_gracefully(dataset_dir: Path, run_dir: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "proevent.report.errors", None)  # absent: import fails
    c = TestClient(create_app(ServeConfig(dataset=dataset_dir, runs=[run_dir])), base_url="http://127.0.0.1:8000")
    page = c.get("/")
    assert page.status_code == 200 and 'name="error"' not in page.text and "banner" not in page.text

    def broken(case, q, judge="fuzzy"):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")

    monkeypatch.setitem(sys.modules, "proevent.report.errors", _fake_errors(broken))
    app = create_app(ServeConfig(dataset=dataset_dir, runs=[run_dir]))
    page = TestClient(app, base_url="http://127.0.0.1:8000").get("/case/pe-002?t=2")
    assert page.status_code == 200 and "error categories unavailable: RuntimeError: boom" in page.text
    assert "op-missed" in page.text  # colouring still works


def test_scoring_failure_is_a_banner(dataset_dir: Path, run_dir: Path, monkeypatch) -> None:
    def explode(*a, **kw):  # type: ignore[no-untyped-def]
        raise ValueError("judge unavailable")

    monkeypatch.setattr(sys.modules["proevent.evaluate"], "evaluate", explode)
    view = load_run_view(0, run_dir, load_dataset(dataset_dir), "fuzzy")
    assert not view.ok and view.problems == ["cannot be scored: ValueError: judge unavailable"]
    assert set(view.outcome.values()) == {UNANSWERED}


@pytest.mark.parametrize("judge", ["exact", "fuzzy"])
def test_judge_is_passed_on(dataset_dir: Path, run_dir: Path, judge: str) -> None:
    view = load_run_view(0, run_dir, load_dataset(dataset_dir), judge)
    assert view.metrics is not None and view.metrics["judge"] == judge
