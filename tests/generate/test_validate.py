from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from proevent.cli import app
from proevent.generate.assemble import CaseRejected
from proevent.generate.validate import READABILITY_FLAGS, validate_case, validate_dataset
from proevent.io import write_dataset
from proevent.model import Case, Chat, InsertOp, Message, Step, Timetable, UpdateOp, make_event, parse_ops

USER = "Jerry Chen"


def _codes(case: Case, severity: str = "error") -> set[str]:
    return {i.code for i in validate_case(case) if i.severity == severity}


# ---------------------------------------------------------------- hand-written realistic cases

Window = tuple[str, str, list[tuple[str, str, str, str]], list[dict]]


def _build(case_id: str, chats: list[Chat], initial: list, windows: list[Window], start: str) -> Case:
    """A case whose gold timetables come from replaying the gold operations."""
    table = Timetable(initial)
    steps = []
    for t, (w_start, w_end, msgs, ops) in enumerate(windows, start=1):
        parsed = parse_ops(ops)
        table = table.apply(parsed).timetable
        steps.append(Step(t=t, start=w_start, end=w_end, gold_ops=parsed, gold_timetable=table.events,
                          messages=[Message(chat_id=c, time=tm, sender=s, text=x) for c, tm, s, x in msgs]))
    return Case(case_id=case_id, user=USER, start=start, initial_timetable=initial, chats=chats, steps=steps)


def _ins(start, end, location, participants, description) -> dict:
    return {"op": "insert", "event": {"start": start, "end": end, "location": location,
                                      "participants": participants, "description": description}}


def _upd(eid: str, attribute: str, value) -> dict:
    return {"op": "update", "id": eid, "attribute": attribute, "value": value}


def dinner_windows(location: str = "Rosa's", start: str = "2026-03-13T20:00",
                   people: tuple[str, ...] = (USER, "Mia Lopez")) -> list[Window]:
    """Wednesday 11 March: "fri 8?", "rosa's?", 👍; then "push it to 9?" / "9 works"; then
    "sat instead? same time" (the day moves, the clock time stays)."""
    return [
        ("2026-03-11T08:00", "2026-03-11T12:00", [
            ("c1", "2026-03-11T09:02", "Mia Lopez", "dinner fri?"),
            ("c1", "2026-03-11T09:10", USER, "ya! fri 8?"),
            ("c1", "2026-03-11T09:12", "Mia Lopez", "rosa's?"),
            ("c1", "2026-03-11T09:15", USER, "👍"),
        ], [_ins(start, None, location, list(people), "Dinner with Mia")]),
        ("2026-03-11T12:00", "2026-03-11T16:00", [
            ("c1", "2026-03-11T13:30", "Mia Lopez", "can we push it to 9? work is insane this week"),
            ("c1", "2026-03-11T13:41", USER, "9 works"),
        ], [_upd("e2", "start", "2026-03-13T21:00")]),
        ("2026-03-11T16:00", "2026-03-11T20:00", [
            ("c1", "2026-03-11T18:05", "Mia Lopez", "ugh fri is gone, sat instead? same time"),
            ("c1", "2026-03-11T18:06", USER, "sure"),
        ], [_upd("e2", "start", "2026-03-14T21:00")]),
    ]


def dinner_case(**kw) -> Case:
    chats = [Chat(chat_id="c1", name="Mia", type="direct", members=[USER, "Mia Lopez"])]
    initial = [make_event("e1", start="2026-03-12T10:00", end="2026-03-12T11:00", location="Office",
                          participants=[USER], description="Dentist")]
    return _build("hw-dinner", chats, initial, dinner_windows(**kw), "2026-03-11T08:00")


def brunch_case() -> Case:
    """A group: "straight after the gym sat? for two hours", "the usual spot?" (the coffee place
    they share), "bet", and Elizabeth, who never writes, named by a nickname ("liz"); then Ana
    drops out."""
    chats = [Chat(chat_id="c1", name="sat crew", type="group",
                  members=[USER, "Tom Baker", "Ana Ruiz", "Elizabeth Moore"])]
    initial = [
        make_event("e1", start="2026-03-14T10:00", end="2026-03-14T11:30", location="Iron Works",
                   participants=[USER, "Tom Baker"], description="Gym"),
        make_event("e2", start="2026-03-12T08:30", location="Blue Bottle", participants=[USER, "Tom Baker", "Ana Ruiz"],
                   description="Coffee"),
    ]
    people = [USER, "Tom Baker", "Ana Ruiz", "Elizabeth Moore"]
    windows: list[Window] = [
        ("2026-03-11T08:00", "2026-03-11T12:00", [
            ("c1", "2026-03-11T09:00", "Tom Baker",
             "brunch straight after the gym sat? for two hours, I'm starving after legs"),
            ("c1", "2026-03-11T09:04", "Ana Ruiz", "I'm in, liz too she said"),
            ("c1", "2026-03-11T09:20", USER, "yes!! the usual spot?"),
            ("c1", "2026-03-11T09:21", "Tom Baker", "bet"),
        ], [_ins("2026-03-14T11:30", "2026-03-14T13:30", "Blue Bottle", people, "Brunch")]),
        ("2026-03-11T12:00", "2026-03-11T16:00", [
            ("c1", "2026-03-11T14:00", "Ana Ruiz", "can't do sat after all 😕 have fun you two"),
            ("c1", "2026-03-11T14:05", "Tom Baker", "nooo next time"),
        ], [_upd("e3", "participants", [USER, "Tom Baker", "Elizabeth Moore"])]),
    ]
    return _build("hw-brunch", chats, initial, windows, "2026-03-11T08:00")


def dentist_case() -> Case:
    """A booking confirmed by the office ("this weekend", "about an hour"), lunch "30 min after my
    dentist" with a friend, then the office moves the appointment to sunday, same time (the end
    moves with the start)."""
    office = "Bright Smile Dental"
    chats = [Chat(chat_id="c1", name=office, type="direct", members=[USER, office]),
             Chat(chat_id="c2", name="Sam", type="direct", members=[USER, "Sam Lee"])]
    windows: list[Window] = [
        ("2026-03-11T08:00", "2026-03-11T12:00", [
            ("c1", "2026-03-11T10:00", USER, "hi, could I get a cleaning this weekend? mornings are best"),
            ("c1", "2026-03-11T10:30", office, "we have sat 9:30 or sun 11"),
            ("c1", "2026-03-11T10:32", USER, "sat pls"),
            ("c1", "2026-03-11T10:40", office, "done! see you saturday 9:30, it takes about an hour"),
        ], [_ins("2026-03-14T09:30", "2026-03-14T10:30", None, [USER], "Dental cleaning")]),
        ("2026-03-11T12:00", "2026-03-11T16:00", [
            ("c2", "2026-03-11T12:10", "Sam Lee", "lunch saturday?"),
            ("c2", "2026-03-11T12:30", USER, "yes, 30 min after my dentist appt?"),
            ("c2", "2026-03-11T12:31", "Sam Lee", "perfect. noodle bar on main st"),
        ], [_ins("2026-03-14T11:00", None, "noodle bar on main st", [USER, "Sam Lee"], "Lunch with Sam")]),
        ("2026-03-11T16:00", "2026-03-11T20:00", [
            ("c1", "2026-03-11T17:00", office, "Hi Jerry, we need to move you to sunday, same time. sorry!"),
            ("c1", "2026-03-11T17:20", USER, "ok np"),
        ], [_upd("e1", "start", "2026-03-15T09:30"), _upd("e1", "end", "2026-03-15T10:30")]),
    ]
    return _build("hw-dentist", chats, [], windows, "2026-03-11T08:00")


@pytest.mark.parametrize("build", [dinner_case, brunch_case, dentist_case])
def test_realistic_hand_written_cases_have_no_error_and_no_flag(build):
    issues = validate_case(build())
    assert issues == [], [str(i) for i in issues]


def test_clean_generated_cases_have_no_error(small_cases):
    assert validate_dataset(small_cases).ok


# ---------------------------------------------------------------- planted faults


def test_a_place_never_said_is_a_flag_and_an_error_when_strict():
    case = dinner_case(location="Atlantis Underwater Lounge")
    issues = [i for i in validate_case(case) if i.severity != "warning"]
    assert [(i.severity, i.code, i.step, i.field) for i in issues] == [
        ("flag", "value_not_expressed", 1, "steps[0].gold_ops[0].event.location")]
    assert issues[0].case_id == "hw-dinner" and "Atlantis Underwater Lounge" in issues[0].message
    strict = validate_case(case, strict=True)
    assert [(i.severity, i.code) for i in strict] == [("error", "value_not_expressed")]


def test_a_time_never_said_is_a_flag():
    case = dinner_case(start="2026-03-13T17:00")  # "fri 8?" is 08:00 or 20:00, never 17:00
    issues = [i for i in validate_case(case) if i.severity == "flag"]
    assert [(i.code, i.step, i.field) for i in issues] == [
        ("value_not_expressed", 1, "steps[0].gold_ops[0].event.start")]
    assert "time 17:00" in issues[0].message


def test_a_day_never_said_is_a_flag():
    case = dinner_case(start="2026-03-16T20:00")  # a Monday: nobody said it
    issues = [i for i in validate_case(case) if i.severity == "flag"]
    assert [(i.code, i.field) for i in issues] == [("value_not_expressed", "steps[0].gold_ops[0].event.start")]
    assert "day 2026-03-16" in issues[0].message


def test_a_sender_outside_the_chat_is_an_error():
    data = dinner_case().model_dump(mode="json")
    data["steps"][1]["messages"][0]["sender"] = "Mallory Stranger"
    issues = [i for i in validate_case(Case.model_validate(data)) if i.code == "sender_not_member"]
    assert [(i.severity, i.step, i.field) for i in issues] == [("error", 2, "steps[1].messages[0].sender")]


def test_an_operation_that_cannot_apply_is_an_error():
    data = dinner_case().model_dump(mode="json")
    data["steps"][1]["gold_ops"].append({"op": "delete", "id": "e99"})
    issues = [i for i in validate_case(Case.model_validate(data)) if i.code == "invalid_gold_op"]
    assert [(i.severity, i.step, i.field) for i in issues] == [("error", 2, "steps[1].gold_ops[1]")]
    assert "e99" in issues[0].message


def test_a_participant_outside_the_chats_is_a_flag():
    # "rosa's" names Rosa, but Rosa Mendez is in no chat of the user: left out by the conventions
    case = dinner_case(people=(USER, "Mia Lopez", "Rosa Mendez"))
    issues = [i for i in validate_case(case) if i.severity == "flag"]
    assert [(i.code, i.step, i.field) for i in issues] == [
        ("participant_not_member", 1, "steps[0].gold_ops[0].event.participants")]
    assert "Rosa Mendez" in issues[0].message
    # one nobody names at all is a value never said
    unnamed = dinner_case(people=(USER, "Mia Lopez", "Zed Quinn"))
    assert [(i.code, i.field) for i in validate_case(unnamed)] == [
        ("value_not_expressed", "steps[0].gold_ops[0].event.participants")]


def test_a_silent_group_member_is_a_flag():
    data = brunch_case().model_dump(mode="json")
    data["chats"][0]["members"].append("Lee Park")
    for step in data["steps"]:
        for ev in step["gold_timetable"]:
            if ev["id"] == "e3" and step["t"] == 1:
                ev["participants"].append("Lee Park")
    data["steps"][0]["gold_ops"][0]["event"]["participants"].append("Lee Park")
    issues = [i for i in validate_case(Case.model_validate(data)) if i.severity != "warning"]
    # step 2 replaces the list (Lee is dropped there), so only step 1 holds him
    assert [(i.severity, i.code, i.step, i.field) for i in issues] == [
        ("flag", "participant_not_seen", 1, "steps[0].gold_ops[0].event.participants")]


def test_an_end_that_does_not_keep_the_duration_is_a_flag():
    data = dentist_case().model_dump(mode="json")
    step = data["steps"][2]
    step["gold_ops"][1]["value"] = "2026-03-15T11:15"
    for ev in step["gold_timetable"]:
        if ev["id"] == "e1":
            ev["end"] = "2026-03-15T11:15"
    issues = [i for i in validate_case(Case.model_validate(data)) if i.severity == "flag"]
    assert [(i.code, i.step, i.field) for i in issues] == [("value_not_expressed", 3, "steps[2].gold_ops[1].value")]


def test_windows_and_message_times_are_checked(small_cases):
    case = next(c for c in small_cases if len(c.steps) > 2)
    data = case.model_dump(mode="json")
    data["steps"][1]["start"] = data["steps"][1]["end"]
    msgs = next(s for s in data["steps"] if len(s["messages"]) > 1)["messages"]
    msgs[0]["time"], msgs[-1]["time"] = msgs[-1]["time"], msgs[0]["time"]
    data["steps"][0]["messages"].append({**msgs[0], "chat_id": "c99", "time": data["steps"][0]["start"]})
    codes = _codes(Case.model_validate(data))
    assert {"window", "message_order", "unknown_chat"} <= codes


def test_a_wrong_gold_timetable_is_rejected():
    data = dinner_case().model_dump(mode="json")
    data["steps"][1]["gold_ops"] = []
    issues = [i for i in validate_case(Case.model_validate(data)) if i.code == "gold_replay"]
    assert [(i.severity, i.step) for i in issues] == [("error", 2)]


def test_gold_operations_at_a_step_without_messages_are_rejected():
    data = dinner_case().model_dump(mode="json")
    data["steps"][1]["messages"] = []
    issues = [x for x in validate_case(Case.model_validate(data)) if x.code == "change_without_message"]
    assert len(issues) == 1 and issues[0].step == 2 and issues[0].field == "steps[1].gold_ops"


def test_description_update_is_a_warning():
    data = dinner_case().model_dump(mode="json")
    data["steps"][1]["gold_ops"].append(_upd("e2", "description", "x"))
    for step in data["steps"][1:]:
        for ev in step["gold_timetable"]:
            if ev["id"] == "e2":
                ev["description"] = "x"
    issues = validate_case(Case.model_validate(data))
    assert [(i.severity, i.code, i.step) for i in issues] == [("warning", "description_update", 2)]


def test_timetable_linking_values_need_no_mention():
    """A value copied from an event the timetable holds is expressed: the dentist's office hour."""
    windows = dinner_windows()
    windows[0][3][0]["event"]["location"] = "Office"  # the initial dentist event's place
    case = _build("hw-link", [Chat(chat_id="c1", name="Mia", type="direct", members=[USER, "Mia Lopez"])],
                  [make_event("e1", start="2026-03-12T10:00", end="2026-03-12T11:00", location="Office",
                              participants=[USER], description="Dentist")], windows, "2026-03-11T08:00")
    assert validate_case(case) == []


def test_an_event_the_user_left_must_be_deleted():
    data = brunch_case().model_dump(mode="json")
    data["steps"][1]["gold_ops"][0]["value"] = ["Tom Baker", "Elizabeth Moore"]
    for e in data["steps"][1]["gold_timetable"]:
        if e["id"] == "e3":
            e["participants"] = ["Tom Baker", "Elizabeth Moore"]
    assert "user_not_participant" in _codes(Case.model_validate(data))


def test_report_counts_flags_by_reason_and_case():
    report = validate_dataset([dinner_case(location="Atlantis Underwater Lounge"), brunch_case(),
                               dinner_case(people=(USER, "Mia Lopez", "Rosa Mendez"))])
    assert report.ok and not report.passed(strict=True)
    assert report.flags_by_reason() == {"participant_not_member": 1, "value_not_expressed": 1}
    assert report.flagged_cases() == {"hw-dinner": 2}
    data = report.to_json()
    assert data["flags_by_reason"] == report.flags_by_reason() and data["flagged_cases"] == 1
    assert data["ok"] is True and data["strict_ok"] is False
    assert {f["field"] for f in data["flags"]} == {"steps[0].gold_ops[0].event.location",
                                                  "steps[0].gold_ops[0].event.participants"}


# ---------------------------------------------------------------- the CLI


def _dataset(tmp_path: Path, cases: list[Case]) -> Path:
    path = tmp_path / "ds"
    write_dataset(path, cases, name="validate-test", version="1", created="2026-03-01T00:00")
    return path


def test_cli_passes_with_flags_and_fails_them_when_strict(tmp_path):
    path = _dataset(tmp_path, [dinner_case(location="Atlantis Underwater Lounge"), brunch_case()])
    res = CliRunner().invoke(app, ["validate", str(path), "--json", str(tmp_path / "r.json")])
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.split())
    assert "flag [value_not_expressed] hw-dinner: step 1: steps[0].gold_ops[0].event.location" in out
    assert "2 cases: 0 errors, 1 flag in 1 cases" in out
    assert json.loads((tmp_path / "r.json").read_text())["flags_by_reason"] == {"value_not_expressed": 1}
    strict = CliRunner().invoke(app, ["validate", str(path), "--strict"])
    assert strict.exit_code == 1, strict.output
    assert "--strict" in strict.output


def test_cli_fails_on_an_error(tmp_path):
    data = brunch_case().model_dump(mode="json")
    data["steps"][0]["messages"][1]["sender"] = "Mallory Stranger"
    path = _dataset(tmp_path, [Case.model_validate(data)])
    res = CliRunner().invoke(app, ["validate", str(path)])
    assert res.exit_code == 1
    assert "sender_not_member" in res.output and "Mallory Stranger" in res.output


def test_cli_clean_dataset_passes_strict(tmp_path):
    path = _dataset(tmp_path, [dinner_case(), brunch_case(), dentist_case()])
    res = CliRunner().invoke(app, ["validate", str(path), "--strict"])
    assert res.exit_code == 0, res.output
    assert "3 cases: 0 errors, 0 flags" in res.output


# ---------------------------------------------------------------- the generator


def test_the_generator_rejects_a_case_whose_value_is_never_said(small_cases):
    from proevent.generate.pipeline import checked

    case = next(c for c in small_cases
                if any(isinstance(op, InsertOp) and op.event.location for s in c.steps for op in s.gold_ops))
    data = case.model_dump(mode="json")
    i, k = next((i, k) for i, s in enumerate(case.steps) for k, op in enumerate(s.gold_ops)
                if isinstance(op, InsertOp) and op.event.location)
    old = data["steps"][i]["gold_ops"][k]["event"]["location"]
    data["steps"][i]["gold_ops"][k]["event"]["location"] = "Atlantis Underwater Lounge"
    new_ids = {e["id"] for e in data["steps"][i]["gold_timetable"]} - (
        {e["id"] for e in data["steps"][i - 1]["gold_timetable"]} if i else {e.id for e in case.initial_timetable})
    for step in data["steps"][i:]:
        for ev in step["gold_timetable"]:
            if ev["id"] in new_ids and ev["location"] == old:
                ev["location"] = "Atlantis Underwater Lounge"
    bad = Case.model_validate(data)
    assert _codes(bad) == set()  # structurally sound: only the reading doubts it
    with pytest.raises(CaseRejected) as exc:
        checked(bad)
    assert exc.value.reason == "value_not_expressed"


def test_the_generator_rejects_on_the_readability_flags_only():
    assert READABILITY_FLAGS == {"value_not_expressed"}
    silent = brunch_case().model_dump(mode="json")
    silent["chats"][0]["members"].append("Lee Park")
    silent["steps"][0]["gold_ops"][0]["event"]["participants"].append("Lee Park")
    for ev in silent["steps"][0]["gold_timetable"]:
        if ev["id"] == "e3":
            ev["participants"].append("Lee Park")
    case = Case.model_validate(silent)
    assert [i.severity for i in validate_case(case, strict=READABILITY_FLAGS)] == ["flag"]
    assert [i.severity for i in validate_case(case, strict=True)] == ["error"]


def test_update_ops_are_checked_on_their_value():
    case = dinner_case()
    op = case.steps[1].gold_ops[0]
    assert isinstance(op, UpdateOp) and op.value == "2026-03-13T21:00"  # "push it to 9?" / "9 works"
    data = case.model_dump(mode="json")
    data["steps"][1]["gold_ops"][0]["value"] = "2026-03-13T22:00"
    for step in data["steps"][1:2]:
        for ev in step["gold_timetable"]:
            if ev["id"] == "e2":
                ev["start"] = "2026-03-13T22:00"
    issues = validate_case(Case.model_validate(data))
    assert [(i.code, i.field) for i in issues] == [("value_not_expressed", "steps[1].gold_ops[0].value")]
