"""iCalendar details (issue 17, point 5): zones converted to the case's zone on import, recurring
events expanded within the case's span or refused, a real DTSTAMP, a growing SEQUENCE, DTEND or
DURATION, participants that calendar apps can show; every written file read by two independent
parsers (icalendar and vobject)."""

from __future__ import annotations

from datetime import datetime, timezone

import icalendar
import pytest
import vobject

from fixtures import copy_run, copy_tiny
from proevent.integrations.ics_initial import apply_initial_ics, load_initial_ics
from proevent.integrations.ics_run import export_run_ics
from proevent.io import load_dataset, load_run
from proevent.io.ics import IcsError, count_changes, ics_to_events, timetable_to_ics
from proevent.model import Event


def _cal(*vevents: str, extra: str = "") -> str:
    body = "".join(f"BEGIN:VEVENT\r\n{v.strip()}\r\nEND:VEVENT\r\n" for v in vevents)
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n{extra}{body}END:VCALENDAR\r\n"


def two_parsers(data: bytes) -> list[dict[str, object]]:
    """Parse with icalendar and with vobject; both must agree on UID, SEQUENCE and DTSTART."""
    a = icalendar.Calendar.from_ical(data)
    getattr(vobject.icalendar, "__tzidMap").clear()  # vobject keeps the first VTIMEZONE per TZID, process-wide
    b = vobject.readOne(data.decode("utf-8"))
    from_a = [{"uid": str(c["UID"]), "seq": int(c["SEQUENCE"]),
               "start": c.decoded("DTSTART") if "DTSTART" in c else None} for c in a.walk("VEVENT")]
    from_b = [{"uid": v.uid.value, "seq": int(v.sequence.value),
               "start": v.dtstart.value if hasattr(v, "dtstart") else None}
              for v in getattr(b, "vevent_list", [])]
    assert from_a == from_b
    return from_a


def test_utc_time_becomes_the_case_zone_wall_time(tmp_path) -> None:
    """17:00Z in a Los Angeles case is 10:00 (PDT in July) or 09:00 (PST in December)."""
    ics = tmp_path / "c.ics"
    ics.write_text(_cal("UID:a\r\nDTSTART:20260702T170000Z\r\nDTEND:20260702T180000Z\r\nSUMMARY:Call",
                        "UID:b\r\nDTSTART;TZID=Europe/Berlin:20261203T170000\r\nSUMMARY:Berlin talk"))
    call, talk = load_initial_ics(ics, timezone="America/Los_Angeles")
    assert (call.start, call.end) == ("2026-07-02T10:00", "2026-07-02T11:00")
    assert talk.start == "2026-12-03T08:00"  # 17:00 CET = 16:00Z = 08:00 PST


def test_apply_initial_ics_uses_each_case_zone(tmp_path) -> None:
    ds = copy_tiny(tmp_path / "tiny")
    ics = tmp_path / "c.ics"
    ics.write_text(_cal("UID:a\r\nDTSTART:20260702T170000Z\r\nSUMMARY:Call"))
    out = apply_initial_ics(ds, ics, out=tmp_path / "out")
    starts = {c.case_id: c.initial_timetable[0].start for c in out.cases}
    assert starts["tiny-01"] == "2026-07-02T13:00"  # New York, EDT
    assert starts["tiny-02"] == "2026-07-02T19:00"  # Berlin, CEST
    assert starts["tiny-05"] == "2026-07-03T02:00"  # Tokyo
    assert starts["tiny-03"] == "2026-07-02T17:00"  # no zone: the time's own (UTC) wall time


WEEKLY = _cal(
    "UID:yoga\r\nDTSTART;TZID=Europe/Berlin:20260302T180000\r\nDTEND;TZID=Europe/Berlin:20260302T190000\r\n"
    "RRULE:FREQ=WEEKLY;COUNT=10\r\nEXDATE;TZID=Europe/Berlin:20260309T180000\r\nSUMMARY:Yoga",
    "UID:yoga\r\nRECURRENCE-ID;TZID=Europe/Berlin:20260316T180000\r\nDTSTART;TZID=Europe/Berlin:20260316T200000\r\n"
    "DTEND;TZID=Europe/Berlin:20260316T210000\r\nSUMMARY:Yoga (late)",
    "UID:once\r\nDTSTART;VALUE=DATE:20260320\r\nSUMMARY:Fair",
)


def test_recurring_event_is_expanded_within_the_horizon() -> None:
    events = ics_to_events(WEEKLY, timezone="Europe/Berlin", horizon=("2026-03-01T00:00", "2026-03-24T00:00"))
    assert [(e.id, e.start, e.end, e.description) for e in events] == [
        ("yoga#2026-03-02T18:00", "2026-03-02T18:00", "2026-03-02T19:00", "Yoga"),
        # 9 March is excluded (EXDATE); 16 March moved to 20:00 by its RECURRENCE-ID override
        ("yoga#2026-03-16T20:00", "2026-03-16T20:00", "2026-03-16T21:00", "Yoga (late)"),
        ("yoga#2026-03-23T18:00", "2026-03-23T18:00", "2026-03-23T19:00", "Yoga"),
        ("once", "2026-03-20", None, "Fair"),
    ]


def test_recurring_event_without_horizon_is_refused() -> None:
    with pytest.raises(IcsError, match=r"VEVENT 1 \(Yoga\) repeats \(RRULE\): recurring events are expanded only"):
        ics_to_events(WEEKLY)


def test_apply_initial_ics_expands_a_series_per_case(tmp_path) -> None:
    """tiny-02 (Berlin) runs 2026-04-06 09:00 to 21:00: one Monday-evening occurrence falls in it."""
    ds = copy_tiny(tmp_path / "tiny")
    ics = tmp_path / "weekly.ics"
    ics.write_text(_cal("UID:run\r\nDTSTART;TZID=Europe/Berlin:20260105T190000\r\nDURATION:PT1H\r\n"
                        "RRULE:FREQ=WEEKLY;BYDAY=MO\r\nSUMMARY:Run club"))
    out = apply_initial_ics(ds, ics, out=tmp_path / "out")
    berlin = out.case("tiny-02")
    series = [e for e in berlin.initial_timetable if e.description == "Run club"]
    assert [(e.id, e.start, e.end) for e in series] == [("ics-1", "2026-04-06T19:00", "2026-04-06T20:00")]
    # tiny-05 (Tokyo, 1 July 18:00 to 2 July 06:00) has no Monday 19:00 Berlin time in its span.
    assert not [e for e in out.case("tiny-05").initial_timetable if e.description == "Run club"]
    assert out.manifest.generator["initial_ics"]["recurring"] is True


def test_duration_gives_the_end() -> None:
    (ev,) = ics_to_events(_cal("UID:d\r\nDTSTART:20260702T170000\r\nDURATION:PT1H30M\r\nSUMMARY:x"))
    assert (ev.start, ev.end) == ("2026-07-02T17:00", "2026-07-02T18:30")


def test_export_has_a_real_dtstamp_and_the_given_sequence() -> None:
    ev = Event(id="e1", start="2026-03-14T09:00", end="2026-03-14T10:00", location="Park",
               participants=["Jerry Chen", "Ana Ruiz"], description="Run")
    before = datetime.now(timezone.utc).replace(microsecond=0)
    data = timetable_to_ics([ev], user="Jerry Chen", timezone="America/New_York", sequences={"e1": 3})
    (parsed,) = two_parsers(data)
    assert parsed["seq"] == 3
    stamp = icalendar.Calendar.from_ical(data).walk("VEVENT")[0].decoded("DTSTAMP")
    assert before <= stamp <= datetime.now(timezone.utc)
    vev = vobject.readOne(data.decode()).vevent
    assert vev.description.value == "With: Jerry Chen, Ana Ruiz"
    assert not hasattr(vev, "attendee")
    assert ics_to_events(data)[0] == ev


def test_mixed_date_and_time_end_is_kept_outside_dtend() -> None:
    ev = Event(id="e1", start="2026-03-14", end="2026-03-14T18:00", location=None, participants=[],
               description="Fair")
    data = timetable_to_ics([ev], user="u")
    assert b"X-PROEVENT-END:2026-03-14T18:00" in data and b"DTEND" not in data
    two_parsers(data)
    assert ics_to_events(data) == [ev]


def test_count_changes() -> None:
    a = Event(id="e1", start="2026-03-14T09:00", end=None, location="Park", participants=["u"], description="Run")
    seq: dict[str, int] = {}
    count_changes(seq, [], [a])
    assert seq == {"e1": 0}
    count_changes(seq, [a], [a])
    assert seq == {"e1": 0}
    b = a.model_copy(update={"location": "Lake"})
    count_changes(seq, [a], [b])
    count_changes(seq, [b], [b.model_copy(update={"start": "2026-03-14T10:00"})])
    assert seq == {"e1": 2}


def test_run_export_sequence_counts_the_agent_changes(tmp_path) -> None:
    """The flawed example run updates tiny-01's events along the way; SEQUENCE says how often."""
    ds = load_dataset(copy_tiny(tmp_path / "tiny"))
    run = load_run(copy_run("flawed", tmp_path / "flawed"))
    result = export_run_ics(ds, run, tmp_path / "ics")
    for replay, path in zip(result.replays, result.files):
        parsed = two_parsers(path.read_bytes())
        expected = {uid: replay.sequences.get(uid.split("/")[1].removesuffix("@proevent"), 0)
                    for uid in (p["uid"] for p in parsed)}
        assert {p["uid"]: p["seq"] for p in parsed} == expected
    assert any(s > 0 for r in result.replays for s in r.sequences.values())


def test_gold_export_counts_the_changes_of_each_event_up_to_the_step(tmp_path) -> None:
    """tiny-04: e1 is in S_0 and its location changes at step 2; e2 is inserted at step 1 and its
    location changes at step 3. By hand: SEQUENCE e1 = 1 from step 2 on, e2 = 0 until step 3, then 1.
    Read back by two parsers."""
    from typer.testing import CliRunner

    from proevent.cli import app

    folder = copy_tiny(tmp_path / "tiny")
    expected = {1: {"e1": 0, "e2": 0}, 2: {"e1": 1, "e2": 0}, 3: {"e1": 1, "e2": 1}}
    for step, seq in expected.items():
        out = tmp_path / f"s{step}.ics"
        res = CliRunner().invoke(app, ["ics", str(folder), "tiny-04", "--step", str(step), "-o", str(out)])
        assert res.exit_code == 0, res.output
        cal = icalendar.Calendar.from_ical(out.read_bytes())
        got = {str(ev["UID"]).split("/")[1].split("@")[0]: int(ev["SEQUENCE"]) for ev in cal.walk("VEVENT")}
        assert got == seq
        parsed = vobject.readOne(out.read_text())
        assert sorted(int(ev.sequence.value) for ev in parsed.vevent_list) == sorted(seq.values())
