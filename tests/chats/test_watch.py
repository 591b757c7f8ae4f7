"""``proevent watch``: an LLM agent (answering from the tests' scripted server) over one's chats;
the .ics it writes is read by two parsers, keeps its UIDs and raises SEQUENCE as the answers change;
``--since`` processes only new messages; a second identical call resumes and asks nothing."""

from __future__ import annotations

import json
from pathlib import Path

import icalendar
import vobject
from typer.testing import CliRunner

from proevent.cli import app
from support.scripted_server import Reply

runner = CliRunner()
FIRST = ("12/30/24, 9:15 PM - Ana Ruiz: hike sat 9am at the trailhead?\n"
         "12/30/24, 9:20 PM - Jerry Chen: I'm in\n")
LATER = "12/31/24, 8:00 AM - Ana Ruiz: can we push the hike to 10?\n12/31/24, 8:05 AM - Jerry Chen: sure\n"


def _ops(*ops: dict) -> Reply:
    return Reply(content=json.dumps({"ops": list(ops)}))


def _events(path: Path) -> list[dict[str, object]]:
    # vobject keeps the first VTIMEZONE it saw for a TZID, process-wide: read this file's own.
    getattr(vobject.icalendar, "__tzidMap").clear()
    data = path.read_bytes()
    a = [{"uid": str(c["UID"]), "seq": int(c["SEQUENCE"]), "start": c.decoded("DTSTART").isoformat(),
          "summary": str(c["SUMMARY"])} for c in icalendar.Calendar.from_ical(data).walk("VEVENT")]
    b = [{"uid": v.uid.value, "seq": int(v.sequence.value), "start": v.dtstart.value.isoformat(),
          "summary": v.summary.value} for v in getattr(vobject.readOne(data.decode()), "vevent_list", [])]
    assert a == b
    return a


def test_watch_writes_a_calendar_that_follows_the_answers(scripted_server, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PROEVENT_CACHE", str(tmp_path / "cache.sqlite"))
    export = tmp_path / "WhatsApp Chat with Ana Ruiz.txt"
    export.write_text(FIRST)
    ics = tmp_path / "me.ics"
    scripted_server.on("I'm in", _ops({"op": "insert", "event": {
        "start": "2025-01-04T09:00", "end": None, "location": "the trailhead",
        "participants": ["Jerry Chen", "Ana Ruiz"], "description": "Hike"}}))
    scripted_server.on("sure", _ops({"op": "update", "id": "e1", "attribute": "start", "value": "2025-01-04T10:00"}))
    args = ["watch", str(export), "--user", "Jerry Chen", "--agent", "plain", "--model", "m",
            "--base-url", scripted_server.base_url, "--ics", str(ics), "--timezone", "Europe/Berlin", "--no-progress"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "segment 1: 2 messages in 1 steps" in first.stdout and "1 events, 1 new or changed" in first.stdout
    (hike,) = _events(ics)
    assert hike["seq"] == 0 and hike["start"] == "2025-01-04T09:00:00+01:00" and hike["summary"] == "Hike"
    uid = hike["uid"]
    assert uid.startswith("watch-") and uid.endswith("/e1@proevent")
    asked = len(scripted_server.requests)

    again = runner.invoke(app, args)  # the same call again: resumes, nothing left to ask
    assert again.exit_code == 0, again.output
    assert len(scripted_server.requests) == asked and _events(ics)[0]["seq"] == 0

    export.write_text(FIRST + LATER)  # a later export holds the old messages and new ones
    refused = runner.invoke(app, args)  # without --since the finished segment is only rewritten
    assert refused.exit_code == 0 and len(scripted_server.requests) == asked
    later = runner.invoke(app, [*args, "--since"])
    assert later.exit_code == 0, later.output
    # the segment starts at the last processed minute (its message recognised, not repeated): 21:20 to 08:05
    assert "segment 2: 2 messages in 3 steps" in later.stdout
    new_prompts = [r["messages"][-1]["content"] for r in scripted_server.requests[asked:]]
    assert len(new_prompts) == 1 and "push the hike" in new_prompts[0]
    (moved,) = _events(ics)
    assert moved["uid"] == uid and moved["seq"] == 1 and moved["start"] == "2025-01-04T10:00:00+01:00"

    idle = runner.invoke(app, [*args, "--since"])
    assert idle.exit_code == 0 and "nothing new since the last call" in idle.stdout
    assert _events(ics) == [moved]
    state = json.loads((tmp_path / "me.watch" / "watch.json").read_text())
    assert [s["done"] for s in state["segments"]] == [True, True]


def test_watch_refuses_other_settings_on_the_same_state(tmp_path, monkeypatch) -> None:
    export = tmp_path / "chat.txt"
    export.write_text(FIRST)
    ics = tmp_path / "me.ics"
    common = ["watch", str(export), "--user", "Jerry Chen", "--ics", str(ics), "--no-progress"]
    ok = runner.invoke(app, [*common, "--agent", "null"])
    assert ok.exit_code == 0, ok.output
    assert _events(ics) == []
    other = runner.invoke(app, [*common, "--agent", "rules"])
    assert other.exit_code == 1
    assert "made with other settings (agent: 'null'); use another --state folder" in other.stderr
