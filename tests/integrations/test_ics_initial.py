"""``--initial-ics``: a calendar's events join every case's initial and gold timetables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fixtures import TINY, copy_tiny, load_example_run
from proevent.cli import app
from proevent.evaluate import evaluate
from proevent.integrations.ics_initial import (
    add_initial_events,
    apply_initial_ics,
    load_initial_ics,
    week_shift_days,
)
from proevent.io import FormatError, load_dataset

FOREIGN_ICS = """BEGIN:VCALENDAR\r
VERSION:2.0\r
PRODID:-//Some App//EN\r
BEGIN:VEVENT\r
UID:abc-123@example.com\r
DTSTAMP:20251101T000000Z\r
DTSTART:20251203T100000\r
DTEND:20251203T110000\r
SUMMARY:Yoga\r
LOCATION:Studio 5\r
END:VEVENT\r
BEGIN:VEVENT\r
UID:def-456@example.com\r
DTSTAMP:20251101T000000Z\r
DTSTART;VALUE=DATE:20251205\r
DTEND;VALUE=DATE:20251206\r
SUMMARY:Mum's birthday\r
ATTENDEE;CN=Anna Chen:mailto:anna@example.com\r
END:VEVENT\r
END:VCALENDAR\r
"""


@pytest.fixture
def ics_file(tmp_path: Path) -> Path:
    path = tmp_path / "mine.ics"
    path.write_text(FOREIGN_ICS, encoding="utf-8", newline="")
    return path


def test_events_get_ics_ids_in_file_order(ics_file: Path) -> None:
    events = load_initial_ics(ics_file)
    assert [(e.id, e.description, e.start, e.end, e.location, e.participants) for e in events] == [
        ("ics-1", "Yoga", "2025-12-03T10:00", "2025-12-03T11:00", "Studio 5", []),
        ("ics-2", "Mum's birthday", "2025-12-05", "2025-12-05", None, ["Anna Chen"]),
    ]


def test_added_in_front_of_s0_and_every_gold_timetable_with_the_user(ics_file: Path) -> None:
    case = load_dataset(TINY).case("tiny-01")
    new = add_initial_events(case, load_initial_ics(ics_file))
    assert [e.id for e in new.initial_timetable] == ["ics-1", "ics-2", "e1"]
    for old_step, step in zip(case.steps, new.steps):
        assert [e.id for e in step.gold_timetable] == ["ics-1", "ics-2"] + [e.id for e in old_step.gold_timetable]
        assert step.gold_ops == old_step.gold_ops
    assert new.initial_timetable[0].participants == ["Jerry Chen"]
    assert new.initial_timetable[1].participants == ["Jerry Chen", "Anna Chen"]
    assert new.initial_timetable[0].start == "2025-12-03T10:00"  # align none: dates as in the file


def test_week_alignment_keeps_weekday_and_time(ics_file: Path) -> None:
    # tiny-01 starts Monday 2026-03-09; the earliest event is Wednesday 2025-12-03, whose Monday is
    # 2025-12-01: 98 days = 14 weeks earlier.
    case = load_dataset(TINY).case("tiny-01")
    events = load_initial_ics(ics_file)
    assert week_shift_days(events, case.start) == 98
    new = add_initial_events(case, events, align="week")
    assert [(e.start, e.end) for e in new.initial_timetable[:2]] == [
        ("2026-03-11T10:00", "2026-03-11T11:00"), ("2026-03-13", "2026-03-13")]


def test_dataset_rewritten_validated_and_still_scored_the_same(tmp_path: Path, ics_file: Path) -> None:
    out = tmp_path / "with-ics"
    ds = apply_initial_ics(TINY, ics_file, out=out, align="week")
    assert ds.manifest.generator["initial_ics"]["events"] == 2
    assert ds.manifest.generator["config"] == {"source": "hand-written"}
    assert (ds.manifest.name, ds.manifest.version) == ("proevent-tiny", "1.0.0")
    # gold operations and ids are unchanged, so the perfect run still scores 1 everywhere and the
    # flawed run exactly as on the original dataset (the ics events are no target of any operation)
    for run_name in ("perfect", "flawed"):
        before = evaluate(load_dataset(TINY), load_example_run(run_name), judge="exact", ci=False).metrics
        after = evaluate(ds, load_example_run(run_name), judge="exact", ci=False).metrics
        for mode in ("single", "multi"):
            assert after[mode] == before[mode], (run_name, mode)


def test_in_place_and_refusing_to_overwrite_another_dataset(tmp_path: Path, ics_file: Path) -> None:
    ds_dir = copy_tiny(tmp_path / "tiny")
    apply_initial_ics(ds_dir, ics_file)
    assert load_dataset(ds_dir).case("tiny-05").initial_timetable[0].id == "ics-1"
    with pytest.raises(FileExistsError):
        apply_initial_ics(TINY, ics_file, out=ds_dir)


def test_id_clash_is_reported_per_case(tmp_path: Path, ics_file: Path) -> None:
    ds_dir = apply_initial_ics(TINY, ics_file, out=tmp_path / "once").path
    with pytest.raises(FormatError) as err:
        apply_initial_ics(ds_dir, ics_file, out=tmp_path / "twice")
    assert len(err.value.problems) == 5
    assert err.value.problems[0] == "case tiny-01: ids ics-1, ics-2 are already used by the case"


def test_not_a_calendar(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ics"
    bad.write_text("hello", encoding="utf-8")
    with pytest.raises(ValueError, match="bad.ics: not an iCalendar file"):
        load_initial_ics(bad)
    empty = tmp_path / "empty.ics"
    empty.write_text("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nEND:VCALENDAR\r\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no VEVENT"):
        load_initial_ics(empty)


def test_cli(tmp_path: Path, ics_file: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "out"
    res = runner.invoke(app, ["ics-initial", str(TINY), str(ics_file), "--out", str(out), "--align", "week"])
    assert res.exit_code == 0, res.output
    assert "added 2 events to the 5 cases" in res.output
    first = json.loads((out / "cases.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["initial_timetable"][0]["id"] == "ics-1"
    res = runner.invoke(app, ["ics-initial", str(TINY), str(ics_file), "--out", str(out), "--align", "month"])
    assert res.exit_code == 1 and "align must be one of none, week" in res.output


def test_generate_with_initial_ics(tmp_path: Path, ics_file: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "gen"
    res = runner.invoke(app, ["generate", "--cases", "3", "--out", str(out), "-q", "--initial-ics", str(ics_file),
                              "--initial-ics-align", "week"])
    assert res.exit_code == 0, res.output
    ds = load_dataset(out)
    assert ds.manifest.generator["initial_ics"]["align"] == "week"
    for case in ds.cases:
        assert [e.id for e in case.initial_timetable[:2]] == ["ics-1", "ics-2"]
        assert all(s.gold_timetable[:2] == case.initial_timetable[:2] for s in case.steps)
        assert case.initial_timetable[0].participants == [case.user]
    res = runner.invoke(app, ["validate", str(out)])
    assert res.exit_code == 0, res.output
