"""``proevent ics --run``: the agent's own multi-step timetable per case, as calendars."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fixtures import FLAWED_RUN, PERFECT_RUN, TINY, copy_run, load_example_run, load_tiny
from proevent.cli import app
from proevent.integrations.ics_run import agent_timetable, export_run_ics, ics_filename
from proevent.io import load_run
from proevent.io.ics import ics_to_events


def _read(path: Path) -> list[dict]:
    return [e.model_dump(mode="json") for e in ics_to_events(path.read_bytes())]


def test_flawed_tiny01_final_timetable_uses_the_agents_own_ids() -> None:
    # examples/README.md: the agent inserted Lunch then Hiking (its e2 = Lunch, e3 = Hiking), moved
    # its e3 to 08:00, and its `remind` op at t3 is invalid and not applied.
    replay = agent_timetable(load_tiny().case("tiny-01"), load_example_run("flawed"))
    got = {e.id: (e.description, e.start, e.location) for e in replay.timetable}
    assert got == {
        "e1": ("Dentist", "2026-03-10T15:00", "Smile Dental"),
        "e2": ("Lunch with Maria", "2026-03-12T12:30", "Cafe Nero"),
        "e3": ("Hiking", "2026-03-14T08:00", "Blue Ridge trailhead"),
    }
    assert (replay.step, replay.refused_ops, replay.missing_steps) == (3, 1, [])


def test_flawed_tiny02_delete_insert_and_refused_update() -> None:
    replay = agent_timetable(load_tiny().case("tiny-02"), load_example_run("flawed"))
    assert [e.id for e in replay.timetable] == ["e3"]
    e3 = replay.timetable["e3"]
    assert (e3.start, e3.end, e3.description) == ("2026-04-08T14:00", "2026-04-08T15:00",
                                                  "Project sync (moved to 14:00)")
    assert replay.refused_ops == 1  # the update of the unknown attribute `room`


def test_step_option_gives_an_earlier_timetable() -> None:
    case, run = load_tiny().case("tiny-01"), load_example_run("flawed")
    assert agent_timetable(case, run, step=1).timetable["e3"].start == "2026-03-14T09:00"
    assert [e.id for e in agent_timetable(case, run, step=0).timetable] == ["e1"]
    with pytest.raises(ValueError, match="steps 0..3"):
        agent_timetable(case, run, step=4)


def test_perfect_run_exports_exactly_the_gold_timetables(tmp_path: Path) -> None:
    ds = load_tiny()
    result = export_run_ics(ds, load_example_run("perfect"), tmp_path, with_gold=True)
    assert len(result.files) == 10
    for case in ds.cases:
        gold = [e.model_dump(mode="json") for e in case.steps[-1].gold_timetable]
        assert _read(tmp_path / f"{case.case_id}.ics") == gold
        assert _read(tmp_path / f"{case.case_id}.gold.ics") == gold


def test_missing_and_errored_steps_count_as_no_operation(tmp_path: Path) -> None:
    run_dir = copy_run("flawed", tmp_path / "run")
    pred = run_dir / "predictions.jsonl"
    lines = [json.loads(x) for x in pred.read_text(encoding="utf-8").splitlines()]
    kept = []
    for line in lines:
        if line["mode"] == "multi" and line["case_id"] == "tiny-05" and line["t"] == 1:
            continue  # climbing never inserted
        if line["mode"] == "multi" and line["case_id"] == "tiny-04" and line["t"] == 1:
            line = {**line, "error": "request failed", "ops": []}
        kept.append(json.dumps(line, ensure_ascii=False) + "\n")
    pred.write_text("".join(kept), encoding="utf-8")
    run = load_run(run_dir)
    r5 = agent_timetable(load_tiny().case("tiny-05"), run)
    assert r5.missing_steps == [1]
    # its t2 inserts Dinner as the agent's e1 (nothing was inserted before); t3 updates e1's participants
    assert [(e.id, e.description, e.participants) for e in r5.timetable] == [
        ("e1", "Dinner with Maria", ["Tom", "jerry chen"])]
    r4 = agent_timetable(load_tiny().case("tiny-04"), run)
    assert r4.error_steps == [1] and "e2" not in r4.timetable


def test_run_without_multi_lines_is_refused(tmp_path: Path) -> None:
    run_dir = copy_run("flawed", tmp_path / "run")
    pred = run_dir / "predictions.jsonl"
    single = [x for x in pred.read_text(encoding="utf-8").splitlines() if '"mode":"single"' in x]
    pred.write_text("\n".join(single) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no multi-step predictions"):
        export_run_ics(load_tiny(), load_run(run_dir), tmp_path / "out")


def test_file_names_are_portable() -> None:
    assert ics_filename("pe-00042") == "pe-00042.ics"
    assert ics_filename("a/b c:d") == "a_b_c_d.ics"


def test_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["ics", "--run", str(FLAWED_RUN), "--dataset", str(TINY), "--out", str(tmp_path / "a")])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == [f"tiny-0{i}.ics" for i in range(1, 6)]
    res = runner.invoke(app, ["ics", str(TINY), "tiny-01", "--run", str(PERFECT_RUN), "--out", str(tmp_path / "b"),
                              "--step", "1"])
    assert res.exit_code == 0, res.output
    got = [e["description"] for e in _read(tmp_path / "b" / "tiny-01.ics")]
    assert got == ["Dentist", "Hiking", "Lunch with Maria"]
    res = runner.invoke(app, ["ics", "--run", str(FLAWED_RUN), "--out", str(tmp_path / "c")])
    assert res.exit_code == 1 and "--run needs the dataset" in res.output
