"""Three small hand-written cases for the web tests; gold timetables come from the timetable engine."""

from __future__ import annotations

from proevent.model import Case, Chat, Message, Step, Timetable, make_event, parse_ops

HOSTILE = '<script>window.__pwned = 1</script><b>bold</b> & "quotes"'

USER = "Jerry Chen"


def _steps(initial: list, windows: list[tuple[str, str, list[tuple[str, str, str, str]], list[dict]]]):
    table = Timetable(initial)
    steps = []
    for t, (start, end, msgs, ops) in enumerate(windows, start=1):
        parsed = parse_ops(ops)
        table = table.apply(parsed).timetable
        steps.append(
            Step(
                t=t,
                start=start,
                end=end,
                messages=[Message(chat_id=c, time=tm, sender=s, text=x) for c, tm, s, x in msgs],
                gold_ops=parsed,
                gold_timetable=table.events,
            )
        )
    return steps


def _ins(start, end, location, participants, description):
    return {
        "op": "insert",
        "event": {
            "start": start,
            "end": end,
            "location": location,
            "participants": participants,
            "description": description,
        },
    }


def hiking_case() -> Case:
    chats = [
        Chat(chat_id="c1", name="Hiking crew", type="group", members=[USER, "Tom Baker", "Ana Ruiz"]),
        Chat(chat_id="c2", name="Ana Ruiz", type="direct", members=[USER, "Ana Ruiz"]),
    ]
    people = [USER, "Tom Baker", "Ana Ruiz"]
    windows = [
        (
            "2026-03-09T08:00",
            "2026-03-09T12:00",
            [
                ("c1", "2026-03-09T08:03", "Tom Baker", "anyone up for a hike saturday morning?"),
                ("c2", "2026-03-09T09:10", "Ana Ruiz", "did you see Tom's message? 🥾"),
                ("c1", "2026-03-09T09:30", USER, "I'm in, 9 to 1 at Blue Ridge trailhead?"),
            ],
            [],
        ),
        (
            "2026-03-09T12:00",
            "2026-03-09T16:00",
            [
                ("c1", "2026-03-09T12:15", "Ana Ruiz", "works for me"),
                ("c1", "2026-03-09T12:20", "Tom Baker", "great, saturday 9-13 at Blue Ridge trailhead"),
            ],
            [_ins("2026-03-14T09:00", "2026-03-14T13:00", "Blue Ridge trailhead", people, "Hiking")],
        ),
        (
            "2026-03-09T16:00",
            "2026-03-09T20:00",
            [
                ("c1", "2026-03-09T17:45", "Tom Baker", "parking is full there, let's meet at North Gate"),
                ("c2", "2026-03-09T18:00", "Ana Ruiz", "bring snacks pls"),
            ],
            [{"op": "update", "id": "e3", "attribute": "location", "value": "North Gate"}],
        ),
        ("2026-03-09T20:00", "2026-03-10T00:00", [], []),
    ]
    initial = [
        make_event("e1", start="2026-03-10T10:00", end="2026-03-10T11:00", location="Office",
                   participants=[USER], description="Dentist"),
        make_event("e2", start="2026-03-12", location=None, participants=[USER, "Ana Ruiz"],
                   description="Ana's birthday"),
    ]
    return Case(
        case_id="pe-001",
        user=USER,
        timezone="America/New_York",
        start="2026-03-09T08:00",
        initial_timetable=initial,
        chats=chats,
        steps=_steps(initial, windows),
        meta={"category": "sports", "negotiation_turns": 3, "concurrent_chats": 2,
              "noise": {"message": True, "chat": True, "event": False}, "noise_content": ["off_topic"]},
    )


def dinner_case() -> Case:
    chats = [Chat(chat_id="c1", name="Mia Lopez", type="direct", members=[USER, "Mia Lopez"])]
    initial = [
        make_event("e1", start="2026-04-02T19:00", end="2026-04-02T21:00", location="Luigi's",
                   participants=[USER, "Mia Lopez"], description="Dinner with Mia"),
    ]
    windows = [
        (
            "2026-04-01T08:00",
            "2026-04-01T12:00",
            [("c1", "2026-04-01T08:30", "Mia Lopez", HOSTILE)],
            [],
        ),
        (
            "2026-04-01T12:00",
            "2026-04-01T16:00",
            [
                ("c1", "2026-04-01T13:00", "Mia Lopez", "so sorry, I can't make dinner tomorrow, let's cancel"),
                ("c1", "2026-04-01T13:05", USER, "no worries, cancelled"),
            ],
            [{"op": "delete", "id": "e1"}],
        ),
    ]
    return Case(
        case_id="pe-002",
        user=USER,
        start="2026-04-01T08:00",
        initial_timetable=initial,
        chats=chats,
        steps=_steps(initial, windows),
        meta={"category": "dining", "negotiation_turns": 1, "concurrent_chats": 1,
              "noise": {"message": False, "chat": False, "event": False}, "noise_content": []},
    )


def meeting_case() -> Case:
    chats = [
        Chat(chat_id="c1", name="Team", type="group", members=[USER, "Sam Park", "Lee Wong"]),
        Chat(chat_id="c2", name="Sam Park", type="direct", members=[USER, "Sam Park"]),
        Chat(chat_id="c3", name="Book club", type="group", members=[USER, "Ida Berg", "Lee Wong"]),
    ]
    windows = [
        (
            "2026-05-04T08:00",
            "2026-05-04T12:00",
            [
                ("c1", "2026-05-04T08:10", "Sam Park", "sync on thursday 3pm in room 4B?"),
                ("c3", "2026-05-04T08:40", "Ida Berg", "finished the novel yet?"),
                ("c1", "2026-05-04T09:00", USER, "thursday 3pm works"),
                ("c2", "2026-05-04T09:05", "Sam Park", "thanks!"),
            ],
            [_ins("2026-05-07T15:00", "2026-05-07T16:00", "room 4B", [USER, "Sam Park", "Lee Wong"], "Sync")],
        ),
        (
            "2026-05-04T12:00",
            "2026-05-04T16:00",
            [("c1", "2026-05-04T12:30", "Lee Wong", "I'll skip the sync, sorry")],
            [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Sam Park"]}],
        ),
    ]
    return Case(
        case_id="pe-003",
        user=USER,
        start="2026-05-04T08:00",
        initial_timetable=[],
        chats=chats,
        steps=_steps([], windows),
        meta={"category": "work", "negotiation_turns": 2, "concurrent_chats": 3,
              "noise": {"message": True, "chat": True, "event": False}, "noise_content": ["unrelated_event"]},
    )


def all_cases() -> list[Case]:
    return [hiking_case(), dinner_case(), meeting_case()]


def write_run(path, dataset, lines: list[dict], agent: str = "test-agent") -> None:
    """A run folder in the standard format holding ``lines`` (dicts of PredictionLine fields)."""
    from proevent.io import PredictionWriter, write_run_manifest
    from proevent.model import DatasetRef, PredictionLine, RunManifest

    m = dataset.manifest
    write_run_manifest(path, RunManifest(
        created="2026-11-29T12:00", proevent_version="0.1.0", agent=agent, model="scripted",
        dataset=DatasetRef(name=m.name, version=m.version, sha256=dataset.sha256),
    ))
    with PredictionWriter(path / "predictions.jsonl") as writer:
        for line in lines:
            writer.write(PredictionLine(**line))


def sample_run_lines() -> list[dict]:
    """A run with known outcomes: pe-001 solved in both modes, pe-002 failed (spurious delete at
    step 1, missed delete at step 2), pe-003 failed in single mode (wrong location) only."""
    people = [USER, "Tom Baker", "Ana Ruiz"]
    hike = _ins("2026-03-14T09:00", "2026-03-14T13:00", "Blue Ridge trailhead", people, "hike")
    move = {"op": "update", "id": "e3", "attribute": "location", "value": "North Gate"}
    sync = _ins("2026-05-07T15:00", "2026-05-07T16:00", "room 4C", [USER, "Sam Park", "Lee Wong"], "Sync")
    drop_lee = {"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Sam Park"]}
    lines = []
    for mode in ("single", "multi"):
        for t, ops in ((1, []), (2, [hike]), (3, [move]), (4, [])):
            lines.append({"case_id": "pe-001", "mode": mode, "t": t, "ops": ops})
        lines.append({"case_id": "pe-002", "mode": mode, "t": 1, "ops": [{"op": "delete", "id": "e1"}]})
        lines.append({"case_id": "pe-002", "mode": mode, "t": 2, "ops": [{"op": "delete", "id": "e9"}]})
    lines.append({"case_id": "pe-003", "mode": "single", "t": 1, "ops": [sync]})
    lines.append({"case_id": "pe-003", "mode": "single", "t": 2, "ops": [drop_lee]})
    return lines
