"""Hand-made answers with known errors land in the right categories."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from report_helpers import HIKE, LUNCH, NEW_DINNER, USER, one_step_case, score

from fixtures import load_example_run, load_tiny
from proevent.evaluate import evaluate
from proevent.evaluate.errors import categories, categorize, category_label, whole_day_shift
from proevent.report.error_summary import summarize_errors


def cats(case, q) -> list[str]:
    return [e.category for e in categorize(case, q)]


def test_delete_predicted_as_participants_update_is_third_person():
    case = one_step_case([{"op": "delete", "id": "e1"}])
    q = score(case, [{"op": "update", "id": "e1", "attribute": "participants", "value": ["Tom Baker", "Ana Ruiz"]}])
    [err] = categorize(case, q)
    assert err.category == "third_person"
    assert (err.pred, err.gold) == (0, 0)
    assert category_label("third_person") == "wrong operation type (third person)"


def test_participants_update_that_keeps_the_user_is_plain_wrong_type():
    case = one_step_case([{"op": "delete", "id": "e1"}])
    q = score(case, [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Tom Baker"]}])
    assert cats(case, q) == ["wrong_op_type"]


def test_delete_instead_of_update_is_wrong_type():
    case = one_step_case([{"op": "update", "id": "e2", "attribute": "location", "value": "Blue Bottle"}])
    q = score(case, [{"op": "delete", "id": "e2"}])
    assert cats(case, q) == ["wrong_op_type"]


def test_delete_plus_insert_instead_of_update_are_both_wrong_type():
    case = one_step_case([{"op": "update", "id": "e2", "attribute": "location", "value": "Blue Bottle"}])
    moved = {"op": "insert", "event": {**LUNCH.model_dump(exclude={"id"}), "location": "Blue Bottle"}}
    q = score(case, [{"op": "delete", "id": "e2"}, moved])
    errs = categorize(case, q)
    # one gold operation: the delete pairs with it (same id), the duplicate insert stands alone
    assert [(e.category, e.pred, e.gold) for e in errs] == [("wrong_op_type", 0, 0), ("hallucinated_event", 1, None)]


def test_insert_copy_instead_of_update_is_wrong_type():
    case = one_step_case([{"op": "update", "id": "e2", "attribute": "location", "value": "Blue Bottle"}])
    moved = {"op": "insert", "event": {**LUNCH.model_dump(exclude={"id"}), "location": "Blue Bottle"}}
    assert cats(case, score(case, [moved])) == ["wrong_op_type"]


def test_start_shifted_by_exactly_seven_days_is_weekday_arithmetic():
    case = one_step_case([{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T08:00"}])
    q = score(case, [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-21T08:00"}])
    [err] = categorize(case, q)
    assert err.category == "weekday_arithmetic"
    assert "+7 days" in err.detail


def test_start_off_by_hours_is_temporal():
    case = one_step_case([{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T08:00"}])
    q = score(case, [{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T10:00"}])
    assert cats(case, q) == ["temporal"]


def test_end_instead_of_start_is_temporal():
    case = one_step_case([{"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T08:00"}])
    q = score(case, [{"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-14T08:00"}])
    assert cats(case, q) == ["temporal"]


def test_inserted_event_a_day_early_is_weekday_arithmetic():
    case = one_step_case([NEW_DINNER])
    ev = dict(NEW_DINNER["event"], start="2026-03-12T19:00", end="2026-03-12T21:00")
    assert cats(case, score(case, [{"op": "insert", "event": ev}])) == ["weekday_arithmetic"]


def test_inserted_event_with_a_shifted_start_but_wrong_end_is_temporal():
    case = one_step_case([NEW_DINNER])
    ev = dict(NEW_DINNER["event"], start="2026-03-12T19:00", end="2026-03-13T22:00")
    assert cats(case, score(case, [{"op": "insert", "event": ev}])) == ["temporal"]


def test_location_and_participants_errors():
    case = one_step_case([{"op": "update", "id": "e2", "attribute": "location", "value": "Conference Room B"}])
    q = score(case, [{"op": "update", "id": "e2", "attribute": "location", "value": "Conference Room A"}])
    assert cats(case, q) == ["location"]
    case = one_step_case([{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Tom Baker"]}])
    q = score(case, [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Ana Ruiz"]}])
    assert cats(case, q) == ["participants"]
    case = one_step_case([NEW_DINNER])
    ev = dict(NEW_DINNER["event"], location="Mario's")
    assert cats(case, score(case, [{"op": "insert", "event": ev}])) == ["location"]
    ev = dict(NEW_DINNER["event"], participants=[USER])
    assert cats(case, score(case, [{"op": "insert", "event": ev}])) == ["participants"]


def test_right_change_on_the_wrong_event_is_update_mismatch():
    case = one_step_case([{"op": "update", "id": "e2", "attribute": "location", "value": "Blue Bottle"}])
    q = score(case, [{"op": "update", "id": "e1", "attribute": "location", "value": "Blue Bottle"}])
    [err] = categorize(case, q)
    assert err.category == "update_mismatch"
    assert "e1 instead of e2" in err.detail
    case = one_step_case([{"op": "delete", "id": "e2"}])
    assert cats(case, score(case, [{"op": "delete", "id": "e1"}])) == ["update_mismatch"]


def test_acting_on_an_empty_step_is_false_detection():
    case = one_step_case([])
    q = score(case, [NEW_DINNER, {"op": "delete", "id": "e1"}, {"op": "remind"}])
    assert cats(case, q) == ["false_detection"] * 3


def test_nothing_predicted_is_missed_need_and_an_errored_line_no_answer():
    case = one_step_case([NEW_DINNER, {"op": "delete", "id": "e1"}])
    assert cats(case, score(case, [])) == ["missed_need", "missed_need"]
    assert cats(case, score(case, [], error="timeout after 6 retries")) == ["no_answer", "no_answer"]
    assert cats(case, score(case, [], missing=True)) == ["no_answer", "no_answer"]


def test_unrelated_insert_is_hallucinated_and_the_need_still_missed():
    case = one_step_case([{"op": "delete", "id": "e1"}])
    q = score(case, [NEW_DINNER])
    assert [(e.category, e.pred, e.gold) for e in categorize(case, q)] == [
        ("hallucinated_event", 0, None),
        ("missed_need", None, 0),
    ]


def test_uncalled_update_is_spurious_change():
    case = one_step_case([NEW_DINNER])
    q = score(case, [NEW_DINNER, {"op": "update", "id": "e2", "attribute": "location", "value": "Home"}])
    assert cats(case, q) == ["spurious_change"]


def test_invalid_operations():
    case = one_step_case([{"op": "update", "id": "e2", "attribute": "location", "value": "Blue Bottle"}])
    q = score(case, [{"op": "update", "id": "e9", "attribute": "location", "value": "Blue Bottle"}])  # unknown id
    [err] = categorize(case, q)
    assert (err.category, err.pred, err.gold) == ("invalid_operation", 0, 0)
    assert "unknown id" in err.detail
    case = one_step_case([NEW_DINNER])
    q = score(case, [NEW_DINNER, {"op": "update", "id": "e1", "attribute": "room", "value": "4"}])
    assert cats(case, q) == ["invalid_operation"]


def test_correct_answer_and_cosmetic_updates_have_no_error():
    case = one_step_case([NEW_DINNER])
    q = score(case, [NEW_DINNER, {"op": "update", "id": "e1", "attribute": "description", "value": "Hike!"}])
    assert categorize(case, q) == []


@pytest.mark.parametrize(
    ("pred", "gold", "days"),
    [
        ("2026-03-21T08:00", "2026-03-14T08:00", 7),
        ("2026-03-13T08:00", "2026-03-14T08:00", -1),
        ("2026-03-15", "2026-03-14", 1),
        ("2026-03-14T09:00", "2026-03-14T08:00", 0),
        ("2026-03-15T09:00", "2026-03-14T08:00", 0),
        ("2026-03-14", "2026-03-14T08:00", 0),
        (None, "2026-03-14T08:00", 0),
        ("2026-03-14T08:00", "2026-03-14T08:00", 0),
    ],
)
def test_whole_day_shift(pred, gold, days):
    assert whole_day_shift(pred, gold) == days


def test_flawed_example_run_categories():
    """examples/README.md lists the flawed run's mistakes; each lands where the README says."""
    ds = load_tiny()
    res = evaluate(ds, load_example_run("flawed"), judge="exact", ci=False)
    got = [
        (e.case_id, e.t, e.category) for q in res.questions for e in categorize(ds.case(q.case_id), q, judge="exact")
    ]
    assert got == [
        ("tiny-01", 2, "no_answer"),  # #2 missing line
        ("tiny-01", 3, "false_detection"),  # #3 a "remind" op on an empty step
        ("tiny-02", 1, "wrong_op_type"),  # #4 delete + insert instead of two updates
        ("tiny-02", 1, "wrong_op_type"),
        ("tiny-02", 3, "invalid_operation"),  # #6 unknown attribute "room"
        ("tiny-03", 2, "third_person"),  # #8 the user drops out
        ("tiny-04", 2, "location"),  # #10 Room A for Room B
        ("tiny-04", 3, "location"),  # #11 "Pavillion" (exact judge only)
        ("tiny-04", 3, "spurious_change"),  # #11 the late correction of e1 is not in G_3
        ("tiny-05", 2, "false_detection"),  # #13 dinner on a step without gold
    ]


def test_summary_counts_examples_and_json():
    ds = load_tiny()
    res = evaluate(ds, load_example_run("flawed"), ci=False)
    s = summarize_errors(ds, res)
    assert list(s.counts) == [c.key for c in categories()]
    assert s.total == 9 and s.counts["false_detection"] == 2 and s.counts["wrong_op_type"] == 2
    [ex] = s.examples["third_person"]
    assert ex.item.case_id == "tiny-03" and ex.gold == "delete e1 (Book club)"
    assert ex.messages and all(m.text for m in ex.messages)
    assert all(len(v) <= 3 for v in s.examples.values())
    data = json.loads(json.dumps(s.as_json()))
    assert data["total"] == 9 and len(data["items"]) == 9


_OP = st.one_of(
    st.builds(lambda i: {"op": "delete", "id": i}, st.sampled_from(["e1", "e2", "e3"])),
    st.builds(
        lambda i, a, v: {"op": "update", "id": i, "attribute": a, "value": v},
        st.sampled_from(["e1", "e2"]),
        st.sampled_from(["start", "location", "participants"]),
        st.sampled_from(["2026-03-14T08:00", "2026-03-21T08:00", "Cafe Nero", [USER], ["Tom Baker"]]),
    ),
    st.just(NEW_DINNER),
    st.just({"op": "insert", "event": dict(NEW_DINNER["event"], start="2026-03-20T19:00")}),
    st.just({"op": "bogus"}),
)
_GOLDS = [
    [],
    [{"op": "delete", "id": "e1"}],
    [NEW_DINNER, {"op": "update", "id": "e2", "attribute": "start", "value": "2026-03-12T13:00"}],
    [{"op": "update", "id": "e1", "attribute": "participants", "value": [USER, "Tom Baker"]}],
]


@settings(max_examples=150, deadline=None)
@given(st.lists(_OP, max_size=5), st.sampled_from(range(len(_GOLDS))))
def test_every_unmatched_operation_gets_exactly_one_category(pred, gold_index):
    case = one_step_case(_GOLDS[gold_index])
    q = score(case, pred)
    errs = categorize(case, q)
    keys = {c.key for c in categories()}
    assert all(e.category in keys for e in errs)
    preds = [e.pred for e in errs if e.pred is not None]
    golds = [e.gold for e in errs if e.gold is not None]
    assert sorted(preds) == sorted(q.unmatched_pred)
    assert sorted(golds) == sorted(q.unmatched_gold)
    assert categorize(case, q) == errs  # deterministic
    if not q.gold:
        assert {e.category for e in errs} <= {"false_detection"}


def test_hike_fixture_sanity():
    assert HIKE.id == "e1" and LUNCH.id == "e2"


def test_changing_an_existing_event_instead_of_inserting_is_update_mismatch():
    case = one_step_case([NEW_DINNER])
    q = score(case, [{"op": "update", "id": "e2", "attribute": "location", "value": "Luigi's"}])
    [err] = categorize(case, q)
    assert (err.category, err.pred, err.gold) == ("update_mismatch", 0, 0)
    assert err.detail == "changed location of existing e2 where a new event was needed"


def test_details_name_unknown_values_none():
    case = one_step_case([{"op": "update", "id": "e1", "attribute": "end", "value": None}])
    q = score(case, [{"op": "update", "id": "e1", "attribute": "end", "value": "2026-03-14T14:00"}])
    [err] = categorize(case, q)
    assert err.category == "temporal" and err.detail == "end 2026-03-14T14:00 instead of none"


@settings(max_examples=150, deadline=None)
@given(st.lists(_OP, max_size=5), st.sampled_from(range(len(_GOLDS))),
       st.sampled_from([(False, None), (True, None), (False, "timeout")]))
def test_a_question_whose_operations_all_match_has_no_error(pred, gold_index, line):
    """What summarize_errors skips without asking categorize: a question whose matching pairs every
    predicted and every gold operation (a matching uses each at most once) has no error."""
    missing, error = line
    case = one_step_case(_GOLDS[gold_index])
    q = score(case, [] if missing else pred, missing=missing, error=error)
    if len(q.matches) == len(q.pred) == len(q.gold):
        assert q.unmatched_pred == q.unmatched_gold == []
        assert categorize(case, q) == []
    else:
        assert categorize(case, q)


@pytest.mark.parametrize("name", ["flawed", "perfect"])
def test_the_summary_holds_the_errors_of_every_question(name):
    """Skipping the questions without an unmatched operation leaves the items and counts those of
    categorizing every question."""
    ds = load_tiny()
    res = evaluate(ds, load_example_run(name), ci=False)
    s = summarize_errors(ds, res)
    every = [e for q in res.questions for e in categorize(ds.case(q.case_id), q)]
    assert s.items == every
    assert s.counts == {c.key: sum(e.category == c.key for e in every) for c in categories()}
    assert (s.total == 0) == (name == "perfect")
