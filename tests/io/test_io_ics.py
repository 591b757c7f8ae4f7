"""iCalendar export/import: the exact text of a VEVENT, the round trip, foreign files, the CLI."""

from __future__ import annotations

import json
from datetime import date, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fixtures import TINY, load_tiny
from proevent.cli import app
from proevent.io.ics import IcsError, ics_to_events, make_uid, split_uid, timetable_to_ics
from proevent.model import Event


def _unfolded_lines(data: bytes) -> list[str]:
    return data.decode("utf-8").replace("\r\n ", "").split("\r\n")


def _vevent_lines(data: bytes) -> list[list[str]]:
    out: list[list[str]] = []
    current: list[str] | None = None
    for line in _unfolded_lines(data):
        if line == "BEGIN:VEVENT":
            current = []
        elif line == "END:VEVENT":
            out.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return out


HIKE = Event(
    id="e2", start="2026-03-14T09:00", end="2026-03-14T13:00", location="Blue Ridge trailhead, gate 2",
    participants=["Jerry Chen", "José Núñez"], description="Hiking; bring water",
)
FAIR = Event(id="e7", start="2026-05-16", end="2026-05-17", location=None, participants=[], description=None)


def test_vevent_properties_with_timezone() -> None:
    data = timetable_to_ics([HIKE, FAIR], user="Jerry Chen", timezone="America/New_York", case_id="pe-1")
    lines = _unfolded_lines(data)
    assert lines[0] == "BEGIN:VCALENDAR"
    assert "X-WR-TIMEZONE:America/New_York" in lines
    assert "BEGIN:VTIMEZONE" in lines and "TZID:America/New_York" in lines
    hike, fair = _vevent_lines(data)
    assert "DTSTART;TZID=America/New_York:20260314T090000" in hike
    assert "DTEND;TZID=America/New_York:20260314T130000" in hike
    assert "SUMMARY:Hiking\\; bring water" in hike
    assert "LOCATION:Blue Ridge trailhead\\, gate 2" in hike
    assert "UID:pe-1/e2@proevent" in hike
    # Participants: exact names in X- properties, shown to people in DESCRIPTION; no urn: attendee.
    assert not [line for line in hike if line.startswith("ATTENDEE")]
    assert [line for line in hike if line.startswith("X-PROEVENT-PARTICIPANT")] == [
        "X-PROEVENT-PARTICIPANT:Jerry Chen", "X-PROEVENT-PARTICIPANT:José Núñez"]
    assert "DESCRIPTION:With: Jerry Chen\\, José Núñez" in hike
    assert "SEQUENCE:0" in hike and [line for line in hike if line.startswith("DTSTAMP:") and line.endswith("Z")]
    # All-day: VALUE=DATE, DTEND exclusive (the day after the last day); nulls leave properties out.
    assert "DTSTART;VALUE=DATE:20260516" in fair
    assert "DTEND;VALUE=DATE:20260518" in fair
    assert not [line for line in fair if line.split(";")[0].split(":")[0] in ("LOCATION", "SUMMARY", "DESCRIPTION",
                                                                           "X-PROEVENT-PARTICIPANT")]


def test_floating_times_without_timezone() -> None:
    data = timetable_to_ics([HIKE], user="Jerry Chen", case_id="c")
    (hike,) = _vevent_lines(data)
    assert "DTSTART:20260314T090000" in hike
    assert b"VTIMEZONE" not in data and b"X-WR-TIMEZONE" not in data
    assert ics_to_events(data) == [HIKE]


def test_uid_is_invertible() -> None:
    uid = make_uid("case/1@x", "e/2@y")
    assert uid.endswith("@proevent") and uid.count("/") == 1
    assert split_uid(uid) == ("case/1@x", "e/2@y")
    assert split_uid("abc@google.com") is None


def test_unknown_timezone_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        timetable_to_ics([HIKE], user="u", timezone="Mars/Olympus")


# ---- round trip (hypothesis) ---------------------------------------------------------------

_text = st.text(st.characters(blacklist_categories=("Cc", "Cs"), whitelist_characters="\n\t"), max_size=16)
_times = st.one_of(
    st.none(),
    st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2200, 12, 31)).map(
        lambda d: d.strftime("%Y-%m-%dT%H:%M")
    ),
    st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 12, 31)).map(date.isoformat),
)
_names = st.one_of(st.sampled_from(["Jerry Chen", "José Núñez", "Zoë Ødegård", "李雷", "O'Brien, Pat"]), _text)
_events = st.builds(
    lambda i, s, e, loc, p, d: Event(id=i, start=s, end=e, location=loc, participants=p, description=d),
    _text, _times, _times, st.none() | _text, st.lists(_names, max_size=4), st.none() | _text,
)
_ZONES = [None, "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_events, max_size=4, unique_by=lambda e: e.id), st.sampled_from(_ZONES), _text)
def test_round_trip_is_exact(events: list[Event], timezone: str | None, case_id: str) -> None:
    """Every attribute, the id and the order come back, whatever the text, times, dates and nulls.

    Times in a DST gap (e.g. 02:30 on a spring-forward day) come back too: they are written and
    read as wall times of the case's own zone, never converted.
    """
    data = timetable_to_ics(events, user="Jerry Chen", timezone=timezone, case_id=case_id)
    assert ics_to_events(data) == events


def test_dst_gap_wall_time_round_trips() -> None:
    ev = Event(id="e1", start="2026-03-08T02:30", end="2026-11-01T01:30", location="x", participants=[],
               description="")
    assert ics_to_events(timetable_to_ics([ev], user="u", timezone="America/New_York")) == [ev]


# ---- foreign calendars ------------------------------------------------------------------------

FOREIGN = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//EN\r\nX-WR-TIMEZONE:Europe/Berlin\r\n"
    "BEGIN:VEVENT\r\nUID:abc123@example.com\r\nDTSTAMP:20260101T000000Z\r\n"
    "DTSTART:20260702T080000Z\r\nDTEND:20260702T093000Z\r\nSUMMARY:Standup\r\n"
    "ATTENDEE;CN=Lena Vogt;ROLE=REQ-PARTICIPANT:mailto:lena@example.com\r\n"
    "ATTENDEE:mailto:raj@example.com\r\n"
    "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:reminder\r\nSUMMARY:not the event\r\nTRIGGER:-PT15M\r\n"
    "END:VALARM\r\nEND:VEVENT\r\n"
    "BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20260710\r\nSUMMARY:Holiday\r\nEND:VEVENT\r\n"
    "END:VCALENDAR\r\n"
)


def test_reading_a_foreign_calendar() -> None:
    standup, holiday = ics_to_events(FOREIGN)
    # UTC times become Berlin wall times (CEST, +02:00); the UID is the id; a VALARM's SUMMARY is ignored.
    assert standup == Event(id="abc123@example.com", start="2026-07-02T10:00", end="2026-07-02T11:30",
                            location=None, participants=["Lena Vogt", "raj@example.com"], description="Standup")
    assert holiday == Event(id="e2", start="2026-07-10", end=None, location=None, participants=[],
                            description="Holiday")


def test_reading_with_an_explicit_timezone() -> None:
    (standup, _) = ics_to_events(FOREIGN, timezone="Asia/Tokyo")
    assert (standup.start, standup.end) == ("2026-07-02T17:00", "2026-07-02T18:30")


def test_reading_garbage_is_an_error() -> None:
    with pytest.raises(IcsError, match="not an iCalendar file"):
        ics_to_events(b"hello, world\n")


# ---- the command ------------------------------------------------------------------------------

runner = CliRunner()


@pytest.mark.parametrize(("step", "expected_t"), [(None, 3), (0, 0), (1, 1), (2, 2)])
def test_cli_export_then_read(tmp_path, step: int | None, expected_t: int) -> None:
    case = load_tiny().case("tiny-01")
    out = tmp_path / "t.ics"
    args = ["ics", str(TINY), "tiny-01", "-o", str(out)] + ([] if step is None else ["--step", str(step)])
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    expected = case.initial_timetable if expected_t == 0 else case.steps[expected_t - 1].gold_timetable
    assert f"wrote {len(expected)} events" in result.stdout
    assert b"TZID=America/New_York" in out.read_bytes()
    read = runner.invoke(app, ["ics", "--read", str(out)])
    assert read.exit_code == 0, read.output
    lines = [json.loads(line) for line in read.stdout.splitlines()]
    assert lines == [ev.model_dump(mode="json") for ev in expected]


def test_cli_export_to_stdout_date_only_event() -> None:
    result = runner.invoke(app, ["ics", str(TINY), "tiny-03", "--step", "1"])
    assert result.exit_code == 0, result.output
    (book_club, fair) = _vevent_lines(result.stdout_bytes)
    assert "DTSTART;VALUE=DATE:20260516" in fair
    assert not [line for line in fair if line.startswith("DTEND")]
    assert "DTSTART:20260507T190000" in book_club  # tiny-03 names no time zone: floating times


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ics", str(TINY), "tiny-01", "--step", "9"], "case 'tiny-01' has no step 9 (steps: 0, 1, 2, 3)"),
        (["ics", str(TINY), "nope"], "no case 'nope' in dataset 'proevent-tiny'"),
        (["ics", str(TINY)], "give DATASET and CASE_ID (or --read FILE.ics)"),
        (["ics", "--read", "missing.ics"], "missing.ics: file not found"),
        (["ics", str(TINY), "tiny-01", "--read", "x.ics"], "--read takes no DATASET or CASE_ID"),
    ],
)
def test_cli_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.strip() == f"error: {message}"


def test_cli_read_garbage(tmp_path) -> None:
    bad = tmp_path / "bad.ics"
    bad.write_text("not a calendar\n")
    result = runner.invoke(app, ["ics", "--read", str(bad)])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: not an iCalendar file")
