from __future__ import annotations

from proevent.generate.validate import validate_case, validate_dataset
from proevent.model import Case, InsertOp, UpdateOp


def _codes(case: Case) -> set[str]:
    return {i.code for i in validate_case(case) if i.severity == "error"}


def _first_insert(case: Case):
    for i, step in enumerate(case.steps):
        for k, op in enumerate(step.gold_ops):
            if isinstance(op, InsertOp) and op.event.location:
                return i, k, op
    return None


def test_clean_cases_have_no_error(small_cases):
    assert validate_dataset(small_cases).ok


def test_a_gold_value_never_said_is_rejected(small_cases):
    case = next(c for c in small_cases if _first_insert(c))
    i, k, op = _first_insert(case)
    data = case.model_dump(mode="json")
    eid = data["steps"][i]["gold_timetable"][-1]["id"]
    data["steps"][i]["gold_ops"][k]["event"]["location"] = "Atlantis Underwater Lounge"
    for step in data["steps"][i:]:
        for ev in step["gold_timetable"]:
            if ev["id"] == eid and ev["location"] == op.event.location:
                ev["location"] = "Atlantis Underwater Lounge"
    bad = Case.model_validate(data)
    issues = [x for x in validate_case(bad) if x.code == "value_not_expressed"]
    assert issues and issues[0].step == i + 1 and issues[0].field.endswith("event.location")
    assert issues[0].case_id == case.case_id


def test_a_sender_outside_the_chat_is_rejected(small_cases):
    case = small_cases[0]
    data = case.model_dump(mode="json")
    step = next(s for s in data["steps"] if s["messages"])
    step["messages"][0]["sender"] = "Mallory Stranger"
    assert "sender_not_member" in _codes(Case.model_validate(data))


def test_an_unexecutable_op_is_rejected(small_cases):
    case = small_cases[0]
    data = case.model_dump(mode="json")
    data["steps"][0]["gold_ops"].append({"op": "delete", "id": "e999"})
    codes = _codes(Case.model_validate(data))
    assert "invalid_gold_op" in codes


def test_a_wrong_gold_timetable_is_rejected(small_cases):
    case = next(c for c in small_cases if any(s.gold_ops for s in c.steps))
    data = case.model_dump(mode="json")
    step = next(s for s in data["steps"] if s["gold_ops"])
    step["gold_ops"] = []
    assert "gold_replay" in _codes(Case.model_validate(data))


def test_windows_and_message_times_are_checked(small_cases):
    case = next(c for c in small_cases if len(c.steps) > 2)
    data = case.model_dump(mode="json")
    data["steps"][1]["start"] = data["steps"][1]["end"]
    msgs = next(s for s in data["steps"] if len(s["messages"]) > 1)["messages"]
    msgs[0]["time"], msgs[-1]["time"] = msgs[-1]["time"], msgs[0]["time"]
    data["steps"][0]["messages"].append({**msgs[0], "chat_id": "c99", "time": data["steps"][0]["start"]})
    codes = _codes(Case.model_validate(data))
    assert {"window", "message_order", "unknown_chat"} <= codes


def test_gold_operations_at_a_step_without_messages_are_rejected(small_cases):
    case = next(c for c in small_cases if any(s.gold_ops for s in c.steps))
    assert all(s.gold_ops == [] for c in small_cases for s in c.steps if not s.messages)  # what agents rely on
    data = case.model_dump(mode="json")
    step = next(s for s in data["steps"] if s["gold_ops"])
    step["messages"] = []
    issues = [x for x in validate_case(Case.model_validate(data)) if x.code == "change_without_message"]
    assert len(issues) == 1 and issues[0].step == step["t"] and issues[0].field.endswith("gold_ops")


def test_description_update_is_a_warning(small_cases):
    case = next(c for c in small_cases if len(c.steps) > 1 and c.steps[0].gold_timetable)
    data = case.model_dump(mode="json")
    eid = data["steps"][0]["gold_timetable"][0]["id"]
    data["steps"][1]["gold_ops"].append({"op": "update", "id": eid, "attribute": "description", "value": "x"})
    for step in data["steps"][1:]:
        for ev in step["gold_timetable"]:
            if ev["id"] == eid:
                ev["description"] = "x"
    issues = validate_case(Case.model_validate(data))
    warn = [i for i in issues if i.code == "description_update"]
    assert warn and warn[0].severity == "warning" and warn[0].step == 2


def test_timetable_linking_values_are_grounded_by_the_timetable(small_cases):
    """A value copied from an event of S_{t-1} needs no mention in the text."""
    case = next(c for c in small_cases if c.initial_timetable and c.steps)
    data = case.model_dump(mode="json")
    ref = data["initial_timetable"][0]
    for s in data["steps"]:
        s["messages"] = [m for m in s["messages"] if ref["location"] not in m["text"]]
    if data["steps"][-1]["gold_timetable"]:
        target = data["steps"][-1]["gold_timetable"][0]
        op = UpdateOp(id=target["id"], attribute="location", value=ref["location"])
        assert op.value == ref["location"]


def test_an_event_the_user_left_must_be_deleted(small_cases):
    case = next(c for c in small_cases if any(s.gold_timetable for s in c.steps))
    data = case.model_dump(mode="json")
    i, step = next((i, s) for i, s in enumerate(data["steps"]) if s["gold_timetable"])
    ev = step["gold_timetable"][-1]
    others = [p for p in ev["participants"] if p != data["user"]]
    step["gold_ops"].append({"op": "update", "id": ev["id"], "attribute": "participants", "value": others})
    for later in data["steps"][i:]:
        for e in later["gold_timetable"]:
            if e["id"] == ev["id"]:
                e["participants"] = others
    codes = _codes(Case.model_validate(data))
    assert "user_not_participant" in codes
