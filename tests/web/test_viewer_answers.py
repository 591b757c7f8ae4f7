"""Issue 17, point 7: the raw answer and the ProCoT analysis beside a run's operations, the step-dot
legend, runs named in URLs (old position URLs redirect), review mode's sample with the flagged cases
first and a case's whole gold at once, and the human form's remaining questions and deleted events."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient
from markupsafe import escape

from proevent.io import load_dataset
from proevent.web import ServeConfig, create_app
from proevent.web.review import ReviewStore

from .fixture_cases import USER, sample_run_lines, write_run

BASE = "http://127.0.0.1:8000"
ANALYSIS = "Tom moves the hike to North Gate: update e3's location."


def client(dataset_dir: Path, *runs: Path, **kw) -> TestClient:
    return TestClient(create_app(ServeConfig(dataset=dataset_dir, runs=list(runs), **kw)), base_url=BASE)


def _procot_run(dataset_dir: Path, path: Path) -> Path:
    """The sample run with a ProCoT answer (analysis + ops) at pe-001 step 3 in single-step mode."""
    lines = sample_run_lines()
    for line in lines:
        if (line["case_id"], line["mode"], line["t"]) == ("pe-001", "single", 3):
            line["raw"] = json.dumps({"analysis": ANALYSIS, "needs_action": True, "ops": line["ops"]})
            line["reasoning"] = "<private chain>"
    write_run(path, load_dataset(dataset_dir), lines, agent="procot")
    return path


def test_the_case_page_shows_the_raw_answer_and_the_analysis_beside_the_operations(dataset_dir, tmp_path):
    run = _procot_run(dataset_dir, tmp_path / "procot")
    page = client(dataset_dir, run).get("/case/pe-001?t=3").text
    card = page[page.index('id="run-0"'):]
    card = card[:card.index("</section>")]
    assert card.index("predicted") < card.index("its analysis") < card.index("raw model answer")
    assert str(escape(ANALYSIS)) in card and "needs action: yes" in card
    assert "&lt;private chain&gt;" in card  # the server's reasoning, escaped
    assert "&#34;analysis&#34;" in card or "&quot;analysis&quot;" in card  # the raw JSON, escaped
    # a step whose line has no raw answer (a model-free agent) shows no answer box
    assert 'class="answer"' not in client(dataset_dir, run).get("/case/pe-001?t=2").text


def test_the_step_dots_have_a_legend_naming_the_runs_in_order(dataset_dir, run_dir, tmp_path):
    other = _procot_run(dataset_dir, tmp_path / "procot")
    page = client(dataset_dir, run_dir, other).get("/case/pe-001?t=1").text
    legend = page[page.index('id="step-legend"'):]
    legend = legend[:legend.index("</p>")]
    assert "one dot per run, in this order: <strong>run-a</strong>, <strong>procot</strong>" in legend
    assert "dot-ok" in legend and "dot-bad" in legend and "dot-none" in legend and "no answer" in legend


def test_runs_are_named_in_urls_and_position_urls_redirect(dataset_dir, run_dir, tmp_path):
    twin = tmp_path / "other" / "run-a"  # a second run whose folder has the same name
    twin.parent.mkdir()
    write_run(twin, load_dataset(dataset_dir), sample_run_lines())
    c = client(dataset_dir, run_dir, twin)
    listing = c.get("/?run=run-a-2&outcome=failed")
    assert listing.status_code == 200
    assert '<option value="run-a-2" selected' in listing.text and '<option value="run-a"' in listing.text
    ids = re.findall(r'class="case-link" href="/case/([^"?]+)', listing.text)
    assert ids == ["pe-002", "pe-003"]
    assert "run=run-a-2" in listing.text and "run=1" not in listing.text
    moved = c.get("/?run=1&outcome=failed", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/?run=run-a-2&outcome=failed"
    moved = c.get("/case/pe-002?run=0&t=2", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/case/pe-002?run=run-a&t=2"
    assert c.get("/?run=7").status_code == 200  # no such run: no filter, no redirect


def test_review_sample_takes_the_flagged_cases_first_then_a_seeded_draw(dataset_dir, tmp_path):
    ds = load_dataset(dataset_dir)
    # pe-003 has the validator's two flags (tests/web/test_review.py); one more case is drawn
    one = ReviewStore.open(tmp_path / "a.jsonl", "ann", ds, flagged_first=True, sample=2, seed=0)
    again = ReviewStore.open(tmp_path / "b.jsonl", "ann", ds, flagged_first=True, sample=2, seed=0)
    assert one.order[0] == "pe-003" and len(one.order) == 2 and one.order == again.order
    draws = {tuple(ReviewStore.open(tmp_path / f"{s}.jsonl", "ann", ds, flagged_first=True, sample=2,
                                    seed=s).order) for s in range(12)}
    assert draws == {("pe-003", "pe-001"), ("pe-003", "pe-002")}
    only = ReviewStore.open(tmp_path / "c.jsonl", "ann", ds, flagged_first=True, sample=1)
    assert only.order == ["pe-003"]
    c = client(dataset_dir, review="ann", out=tmp_path / "r.jsonl", sample=2, seed=0)
    listing = c.get("/").text
    assert re.findall(r'class="case-link" href="/case/([^"?]+)', listing) == one.order
    assert "Reviewed 0 of 2 cases" in listing


def test_review_shows_the_whole_cases_gold_at_once(dataset_dir, tmp_path):
    page = client(dataset_dir, review="ann", out=tmp_path / "r.jsonl").get("/case/pe-001?t=1").text
    gold = page[page.index('id="case-gold"'):]
    gold = gold[:gold.index("</section>")]
    # pe-001 (fixture_cases.hiking_case): step 1 nothing, step 2 the hike's insert, step 3 the move
    # to North Gate, step 4 no message; the final timetable holds the dentist, the birthday and the hike
    steps = re.findall(r"step (\d)</a>", gold)
    assert steps == ["1", "2", "3", "4"]
    assert gold.count("nothing to do") == 2
    assert "Hiking" in gold and "e3.location → North Gate" in gold
    final = gold[gold.index("final timetable"):]
    assert all(x in final for x in ("Dentist", "Ana&#39;s birthday", "North Gate"))
    assert 'id="case-gold"' not in client(dataset_dir).get("/case/pe-001?t=1").text  # viewer: per step only


def test_human_form_offers_no_deleted_event_and_says_how_much_is_left(dataset_dir, tmp_path):
    c = client(dataset_dir, human="ann", out=tmp_path / "h")
    page = c.get("/").text
    # 8 questions; pe-001's step 4 has no message and is answered without being shown: 7 to show
    assert "Question 1 of 8" in page and "7 questions left, this one included" in page
    assert "an estimate of the time left follows your first answer" in page
    hidden = {"case_id": "pe-001", "t": "1"}
    assert c.post("/human/submit", data=hidden, follow_redirects=False).status_code == 303
    lines = (tmp_path / "h" / "predictions.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    page = c.get("/").text
    assert "6 questions left" in page and "min at your pace so far" in page
    # pe-001 step 2 starts from the dentist (e1) and the birthday (e2): delete e1, then it is offered no more
    res = c.post("/human/op", data={**hidden, "t": "2", "kind": "delete", "id": "e1"}, follow_redirects=False)
    assert res.status_code == 303, res.text
    page = c.get("/").text
    delete_form = page[page.index('id="form-delete"'):page.index("Add delete")]
    update_form = page[page.index('id="form-update"'):page.index("Add update")]
    assert 'value="e1"' not in delete_form and 'value="e2"' in delete_form
    assert 'value="e1"' not in update_form and 'value="e2"' in update_form
    c.post("/human/op", data={**hidden, "t": "2", "kind": "delete", "id": "e2"}, follow_redirects=False)
    page = c.get("/").text
    assert 'id="form-delete"' not in page and "Every event of the timetable is deleted in your answer" in page
    assert USER in page
