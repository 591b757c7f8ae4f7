"""Annotate mode end to end: a hand-made WhatsApp export imported, two steps annotated through the
HTTP routes, exported, then validated, run and evaluated with the proevent CLI."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from proevent.cli import app as cli
from proevent.io import load_dataset, sha256_file
from proevent.model import Timetable
from proevent.web import ServeConfig, create_app
from proevent.web.annotate import AnnotationDriftError, AnnotationLockedError, AnnotationSession
from proevent.web.human import Item

BASE = "http://127.0.0.1:8000"
USER, TOM = "Jerry Chen", "Tom Baker"
# Monday 2026-03-09. Window 08:00-12:00: the hike and the dinner are agreed. Window 12:00-16:00:
# the hike moves to the visitor center, Tom cannot do dinner (a two-person plan that fell through).
EXPORT = """\
3/9/26, 8:05 AM - Tom Baker: hike sat 9am at Blue Ridge trailhead?
3/9/26, 8:10 AM - Jerry Chen: yes! and dinner after at Luigi's, 7pm?
3/9/26, 8:12 AM - Tom Baker: 👍
3/9/26, 1:05 PM - Tom Baker: trailhead parking is closed, meet at the visitor center instead
3/9/26, 1:10 PM - Jerry Chen: ok
3/9/26, 1:20 PM - Tom Baker: and I can't do dinner after all, sorry
"""
HIKE = {"kind": "insert", "description": "Hike", "start_date": "2026-03-14", "start_time": "09:00",
        "location": "Blue Ridge trailhead", "participants": [USER, TOM]}
DINNER = {"kind": "insert", "description": "Dinner", "start_date": "2026-03-14", "start_time": "19:00",
          "location": "Luigi's", "participants": [USER, TOM]}
MOVE_HIKE = {"kind": "update", "id": "e1", "attribute": "location", "value_text": "visitor center"}
runner = CliRunner()


def run_cli(*args: str) -> str:
    res = runner.invoke(cli, list(args))
    assert res.exit_code == 0, res.output
    return res.output


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    export = tmp_path / "WhatsApp Chat with Tom Baker.txt"
    export.write_text(EXPORT, encoding="utf-8")
    run_cli("import-chats", str(export), "--user", USER, "--window", "4h", "--out", str(tmp_path / "ds"))
    return tmp_path / "ds"


def client(dataset: Path, **kw) -> TestClient:
    return TestClient(create_app(ServeConfig(dataset=dataset, annotate="Ann", **kw)), base_url=BASE)


def post(c: TestClient, url: str, t: int, **form) -> object:
    return c.post(url, data={"case_id": "chats-1", "t": str(t), **form}, follow_redirects=False)


def error_of(html: str) -> str:
    m = re.search(r'id="form-error">([^<]*)<', html)
    return m.group(1).replace("&#39;", "'") if m else ""


def annotate_both_steps(c: TestClient) -> None:
    for form in (HIKE, DINNER):
        assert post(c, "/annotate/op", 1, **form).status_code == 303
    assert post(c, "/annotate/save", 1).headers["location"] == "/step?case_id=chats-1&t=2"
    assert post(c, "/annotate/op", 2, **MOVE_HIKE).status_code == 303
    assert post(c, "/annotate/op", 2, kind="delete", id="e2").status_code == 303
    assert post(c, "/annotate/save", 2).headers["location"] == "/"


def test_annotate_export_validate_run_evaluate(imported: Path, tmp_path: Path) -> None:
    c = client(imported)
    first = c.get("/", follow_redirects=False)
    assert first.headers["location"] == "/step?case_id=chats-1&t=1"
    page = c.get(first.headers["location"]).text
    assert "hike sat 9am at Blue Ridge trailhead?" in page and "Gold timetable before this step" in page
    assert '<option value="description">' not in page  # gold never updates description

    bad = post(c, "/annotate/op", 1, kind="update", id="e1", attribute="start", value_date="2026-03-15")
    assert bad.status_code == 400
    assert error_of(bad.text) == ("unknown id 'e1': the events of the gold timetable before this step (S_0) "
                                  "are none")
    for form in (HIKE, DINNER):
        assert post(c, "/annotate/op", 1, **form).status_code == 303
    page = c.get("/step?case_id=chats-1&t=1").text
    assert re.findall(r'class="ev ev-inserted" data-id="(e\d+)"', page) == ["e1", "e2"]
    assert "changes not saved yet" in page
    assert post(c, "/annotate/save", 1).headers["location"] == "/step?case_id=chats-1&t=2"

    page = c.get("/step?case_id=chats-1&t=2").text
    assert "meet at the visitor center instead" in page and "hike sat 9am" in page  # new and earlier messages
    assert 'id="tt-now"' in page and page.count('data-id="e1"') >= 2  # S_1 holds the step-1 gold
    unknown = post(c, "/annotate/op", 2, kind="delete", id="e7")
    assert error_of(unknown.text) == ("unknown id 'e7': the events of the gold timetable before this step (S_1) "
                                      "are e1, e2")
    described = post(c, "/annotate/op", 2, kind="update", id="e1", attribute="description", value_text="x")
    assert "gold never updates description" in error_of(described.text)
    assert post(c, "/annotate/op", 2, **MOVE_HIKE).status_code == 303
    assert post(c, "/annotate/op", 2, kind="delete", id="e2").status_code == 303
    twice = post(c, "/annotate/op", 2, kind="update", id="e2", attribute="location", value_text="x")
    assert error_of(twice.text).startswith("id 'e2' was deleted earlier in this step")
    assert post(c, "/annotate/save", 2).headers["location"] == "/"

    done = c.get("/").text
    assert "2 of 2 steps with messages annotated" in done and 'id="export"' in done
    exported = c.post("/annotate/export")
    assert exported.status_code == 200 and 'id="exported"' in exported.text
    c.app.state.web.annotate.close()

    out = tmp_path / "ds-gold-Ann"
    ds = load_dataset(out)
    assert ds.manifest.counts.model_dump() == {"cases": 1, "steps": 2, "single_step_questions": 2}
    assert ds.sha256 == sha256_file(out / "cases.jsonl")
    annotation = ds.manifest.generator["annotation"]
    assert annotation["annotator"] == "Ann" and annotation["source"]["sha256"] == load_dataset(imported).sha256
    case = ds.cases[0]
    assert case.meta["gold"]["annotator"] == "Ann"
    step1, step2 = case.steps
    assert [e.model_dump() for e in step1.gold_timetable] == [
        {"id": "e1", "start": "2026-03-14T09:00", "end": None, "location": "Blue Ridge trailhead",
         "participants": [USER, TOM], "description": "Hike"},
        {"id": "e2", "start": "2026-03-14T19:00", "end": None, "location": "Luigi's",
         "participants": [USER, TOM], "description": "Dinner"}]
    assert [op.model_dump() for op in step2.gold_ops] == [
        {"op": "update", "id": "e1", "attribute": "location", "value": "visitor center"},
        {"op": "delete", "id": "e2"}]
    assert [(e.id, e.location) for e in step2.gold_timetable] == [("e1", "visitor center")]

    assert "0 errors" in run_cli("validate", str(out))
    runs = tmp_path / "runs"
    for agent in ("oracle", "rules"):
        run_cli("run", str(out), "--agent", agent, "--mode", "both", "--out", str(runs / agent), "--no-progress")
        run_cli("evaluate", str(out), str(runs / agent), "--no-ci", "--json", str(runs / f"{agent}.json"))
    oracle = json.loads((runs / "oracle.json").read_text())
    # 4 gold operations (2 inserts, an update, a delete), the oracle emits exactly them: TP 4, FP 0, FN 0.
    assert oracle["single"]["precision"] == 1.0 and oracle["single"]["recall"] == 1.0
    assert oracle["single"]["questions"] == 2 and oracle["multi"]["tsr"] == 1.0
    rules = json.loads((runs / "rules.json").read_text())
    assert rules["single"]["questions"] == 2 and rules["single"]["missing"] == 0
    assert all(0.0 <= rules["single"][k] <= 1.0 for k in ("precision", "recall") if rules["single"][k] is not None)


def test_saved_as_it_goes_resumed_and_never_shared(imported: Path) -> None:
    c = client(imported)
    assert post(c, "/annotate/op", 1, **HIKE).status_code == 303
    assert post(c, "/annotate/save", 1).status_code == 303
    assert post(c, "/annotate/op", 2, **MOVE_HIKE).status_code == 303  # a draft, not saved
    cfg = ServeConfig(dataset=imported, annotate="Ann")
    with pytest.raises(AnnotationLockedError, match="another process is annotating"):
        AnnotationSession.open(load_dataset(imported), cfg)
    c.app.state.web.annotate.close()

    path = imported / "gold-Ann.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [(x["t"], x["saved"], len(x["ops"])) for x in lines] == [(1, False, 1), (1, True, 1), (2, False, 1)]
    with path.open("a") as fh:
        fh.write('{"format": "proevent.gold-annotation/1", "annot')  # a crash mid-line
    again = client(imported)
    session = again.app.state.web.annotate
    assert session.progress() == (1, 2) and session.current().t == 2
    assert session.draft(session.current())[0] == [
        {"op": "update", "id": "e1", "attribute": "location", "value": "visitor center"}]
    assert "changes not saved yet" in again.get("/step?case_id=chats-1&t=2").text
    session.close()
    assert path.read_text().endswith("}\n")  # the torn tail was cut
    with pytest.raises(AnnotationDriftError, match="holds 'Ann'.s gold, not 'Bob'.s"):
        AnnotationSession.open(load_dataset(imported), ServeConfig(dataset=imported, annotate="Bob", out=path))


def test_changing_an_earlier_step_rederives_and_flags(imported: Path, tmp_path: Path) -> None:
    c = client(imported)
    annotate_both_steps(c)
    # Step 1 loses the hike: the dinner becomes e1, step 2's update of the hike no longer applies,
    # and its delete follows the dinner to its new id.
    assert post(c, "/annotate/remove", 1, index="0").status_code == 303
    assert post(c, "/annotate/save", 1).headers["location"] == "/step?case_id=chats-1&t=2"
    page = c.get("/step?case_id=chats-1&t=2").text
    assert "no longer applies: the event it changed (&#39;e1&#39; when written) is no longer in the timetable" in page
    assert re.findall(r'<span class="optext">([^<]*)</span>', page) == ["e1.location → visitor center",
                                                                      "e1 (Dinner)"]
    refused = post(c, "/annotate/save", 2)
    assert refused.status_code == 400 and error_of(refused.text).startswith("operation 1 no longer applies")
    done = c.get("/").text
    assert "case chats-1 step 2: operation 1 no longer applies" in done and 'id="export"' not in done
    assert "cannot export yet" in error_of(c.post("/annotate/export").text)

    assert post(c, "/annotate/remove", 2, index="0").status_code == 303
    assert post(c, "/annotate/save", 2).headers["location"] == "/"
    assert c.post("/annotate/export").status_code == 200
    session = c.app.state.web.annotate
    case = load_dataset(session.default_export_path()).cases[0]
    assert [op.model_dump() for op in case.steps[1].gold_ops] == [{"op": "delete", "id": "e1"}]
    assert case.steps[1].gold_timetable == []
    # Exporting again replaces this annotator's own export and nothing else.
    assert "replaces your earlier export" in c.post("/annotate/export").text
    foreign = tmp_path / "elsewhere"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError, match="is not an export of Ann's gold"):
        session.export(foreign)
    session.close()


def test_export_from_the_cli(imported: Path, tmp_path: Path) -> None:
    res = runner.invoke(cli, ["serve", str(imported), "--annotate", "Ann", "--export", str(tmp_path / "x")])
    assert res.exit_code == 1 and "cannot export yet: case chats-1 step 1: not annotated yet" in res.output
    c = client(imported)
    annotate_both_steps(c)
    c.app.state.web.annotate.close()
    out = run_cli("serve", str(imported), "--annotate", "Ann", "--export", str(tmp_path / "x"))
    assert f"wrote {tmp_path / 'x'}: 1 case(s), 2 steps" in out and "proevent validate" in out
    assert "0 errors" in run_cli("validate", str(tmp_path / "x"))
    res = runner.invoke(cli, ["serve", str(imported), "--export", str(tmp_path / "y")])
    assert res.exit_code == 1 and "give --annotate NAME too" in res.output


_OPS = st.lists(st.tuples(st.sampled_from(["insert", "update", "delete"]), st.integers(0, 5),
                          st.sampled_from(["Cafe", "Park", None])), max_size=5)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(step1=_OPS, step2=_OPS, removed=st.integers(0, 4))
def test_any_edit_of_an_earlier_step_exports_a_valid_dataset_once_its_flags_are_cleared(
        imported: Path, step1: list, step2: list, removed: int) -> None:
    """Whatever valid gold the steps get and whichever step-1 operation is then removed, dropping
    the flagged step-2 operations leaves gold that exports and replays (the validator's check)."""
    ds = load_dataset(imported)
    folder = Path(tempfile.mkdtemp(dir=imported.parent))
    session = AnnotationSession.open(ds, ServeConfig(dataset=imported, annotate="Ann", out=folder / "g.jsonl"))
    try:
        for t, ops in ((1, step1), (2, step2)):
            item = Item("chats-1", t)
            for kind, k, place in ops:
                ids = [e.id for e in session.draft_result(item).before]
                if kind == "insert":
                    raw = {"op": "insert", "event": {"start": f"2026-03-1{k}", "end": None, "location": place,
                                                     "participants": [USER], "description": ""}}
                elif not ids:
                    continue
                elif kind == "update":
                    raw = {"op": "update", "id": ids[k % len(ids)], "attribute": "location", "value": place}
                else:
                    raw = {"op": "delete", "id": ids[k % len(ids)]}
                try:
                    session.add_op(item, raw)
                except ValueError as exc:  # only a second change of an event deleted in this step is refused
                    assert "deleted earlier in this step" in str(exc)
            session.save(item)
        one, two = Item("chats-1", 1), Item("chats-1", 2)
        if session.draft(one)[0]:
            session.remove_op(one, removed % len(session.draft(one)[0]))
            session.save(one)
        for index in sorted(session.draft_result(two).flags, reverse=True):
            session.remove_op(two, index)
        session.save(two)
        assert session.export_problems() == []
        exported, _ = session.export(folder / "out")
        case = exported.cases[0]
        table = Timetable(case.initial_timetable)
        for step in case.steps:
            result = table.apply(step.gold_ops)
            assert result.errors == [] and result.timetable.events == step.gold_timetable
            table = result.timetable
    finally:
        session.close()


def test_a_dataset_with_gold_starts_from_it_and_saving_as_offered_keeps_it(dataset_dir: Path, tmp_path: Path) -> None:
    ds = load_dataset(dataset_dir)
    session = AnnotationSession.open(ds, ServeConfig(dataset=dataset_dir, annotate="Ann", out=tmp_path / "g.jsonl"))
    try:
        first = session.current()
        assert session.draft(first)[0] == [op.model_dump(mode="json") for op in
                                           ds.case(first.case_id).steps[first.t - 1].gold_ops]
        while (item := session.current()) is not None:
            session.save(item)
        exported, replaced = session.export(tmp_path / "again")
    finally:
        session.close()
    assert not replaced
    for old, new in zip(ds.cases, exported.cases, strict=True):
        assert [(s.gold_ops, s.gold_timetable) for s in new.steps] == [(s.gold_ops, s.gold_timetable)
                                                                       for s in old.steps]
