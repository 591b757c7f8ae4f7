"""Single-step metrics on hand-made cases, each expectation counted by hand in the comment."""

from eval_helpers import USER, case, dataset, dele, ev, ins, run, upd

from proevent.evaluate import evaluate


def single(ds, rn, judge="fuzzy"):
    return evaluate(ds, rn, judge=judge, ci=False, breakdowns=False).metrics["single"]


def test_participants_order_and_first_name():
    c = case("a", [], [([ins()], [ev("e1")])])
    m = single(dataset(c), run([("a", "single", 1, [ins(participants=["Tom", USER.lower()])])]))
    assert (m["precision"], m["recall"], m["insert"]["recall"]) == (1.0, 1.0, 1.0)


def test_location_judges():
    c = case("a", [], [([ins(location="Blue Ridge Trailhead")], [ev("e1", location="Blue Ridge Trailhead")])])
    typo = run([("a", "single", 1, [ins(location="blue ridge trailhed")])])
    punct = run([("a", "single", 1, [ins(location="BLUE RIDGE, TRAILHEAD")])])
    assert single(dataset(c), typo, "fuzzy")["recall"] == 1.0
    assert single(dataset(c), typo, "exact")["recall"] == 0.0
    assert single(dataset(c), punct, "exact")["recall"] == 1.0


def test_conference_room_a_is_not_b():
    g = ins(location="Conference Room A")
    c = case("a", [], [([g], [ev("e1", location="Conference Room A")])])
    for judge in ("exact", "fuzzy"):
        m = single(dataset(c), run([("a", "single", 1, [ins(location="Conference Room B")])]), judge)
        assert (m["precision"], m["recall"]) == (0.0, 0.0)


def test_update_vs_delete_plus_insert_is_wrong_single_step():
    # gold: update e1 location; predicted: delete e1 and insert the new state -> |P|=2, |G|=1, 0 matches
    initial = [ev("e1", location="Old place")]
    c = case("a", initial, [([upd("e1", "location", "New place")], [ev("e1", location="New place")])])
    m = single(dataset(c), run([("a", "single", 1, [dele("e1"), ins(location="New place")])]))
    assert (m["precision"], m["recall"], m["mnr"]) == (0.0, 0.0, 0.0)
    assert m["update"] == {"precision": None, "recall": 0.0}
    assert m["delete"] == {"precision": 0.0, "recall": None}


def test_invalid_ops_count_in_p_and_match_nothing():
    # step 1 gold: delete e1. Predicted: delete e1 (ok), delete e1 again (deleted earlier: invalid, type delete),
    # update e9 (unknown id: invalid, type update), {"op": "move"} (unknown type: overall only),
    # update e1 start with an int (wrong type: invalid, type update).
    initial = [ev("e1")]
    c = case("a", initial, [([dele("e1")], [])])
    pred = [dele("e1"), dele("e1"), upd("e9", "start", "2026-03-14T10:00"), {"op": "move"}, upd("e1", "start", 5)]
    m = single(dataset(c), run([("a", "single", 1, pred)]))
    assert m["invalid_ops"] == 4
    assert m["precision"] == 1 / 5 and m["recall"] == 1.0
    assert m["delete"] == {"precision": 1 / 2, "recall": 1.0}
    assert m["update"] == {"precision": 0.0, "recall": None}


def test_cosmetic_description_update_is_removed_both_sides():
    # step 1 has no gold; a description update alone is not a false detection; step 2 gold delete
    initial = [ev("e1")]
    c = case("a", initial, [([], [ev("e1")]), ([dele("e1")], [])])
    rn = run([
        ("a", "single", 1, [upd("e1", "description", "Hike!"), upd("e7", "description", "bad id, still cosmetic")]),
        ("a", "single", 2, [dele("e1"), upd("e1", "description", "x")]),
    ])
    m = single(dataset(c), rn)
    assert m["fdr"] == 0.0 and m["precision"] == 1.0 and m["invalid_ops"] == 0


def test_false_detection_and_missed_need():
    # q1: empty gold, predicted insert -> FD. q2: empty gold, nothing -> fine. q3: gold insert, nothing -> MN.
    c = case("a", [], [([], []), ([], []), ([ins()], [ev("e1")])])
    m = single(dataset(c), run([("a", "single", 1, [ins()]), ("a", "single", 2, [])]))
    assert m["fdr"] == 1 / 2 and m["mnr"] == 1.0 and m["missing"] == 1
    assert m["precision"] == 0.0 and m["recall"] == 0.0


def test_two_inserts_in_other_order():
    a, b = dict(location="A hall", start="2026-03-14T09:00"), dict(location="B hall", start="2026-03-15T09:00")
    c = case("a", [], [([ins(**a), ins(**b)], [ev("e1", **a), ev("e2", **b)])])
    m = single(dataset(c), run([("a", "single", 1, [ins(**b), ins(**a)])]))
    assert (m["precision"], m["recall"]) == (1.0, 1.0)


def test_errored_line_counts_as_empty():
    c = case("a", [], [([ins()], [ev("e1")])])
    rn = run([{"case_id": "a", "mode": "single", "t": 1, "ops": [ins()], "error": "timeout"}])
    m = single(dataset(c), rn)
    assert m["errors"] == 1 and m["mnr"] == 1.0 and m["precision"] is None and m["recall"] == 0.0


def test_undefined_ratios_are_none():
    c = case("a", [], [([ins()], [ev("e1")])])
    m = single(dataset(c), run([("a", "single", 1, [])]))
    assert m["fdr"] is None  # no empty step
    assert m["precision"] is None  # nothing predicted
    assert m["update"] == {"precision": None, "recall": None}
    assert m["recall"] == 0.0


def test_duplicate_lines_last_counts():
    c = case("a", [], [([ins()], [ev("e1")])])
    rn = run([("a", "single", 1, []), ("a", "single", 1, [ins()])])
    assert rn.duplicates == 1
    assert single(dataset(c), rn)["recall"] == 1.0


def test_mode_without_lines_is_null():
    c = case("a", [], [([ins()], [ev("e1")])])
    metrics = evaluate(dataset(c), run([("a", "single", 1, [])]), ci=False).metrics
    assert metrics["multi"] is None and metrics["single"] is not None


def test_counts_are_keyed_in_the_aggregation_order() -> None:
    """``evaluate`` adds a question's counts to its case row by position: the keys are SINGLE_FIELDS, in order."""
    from proevent.evaluate.aggregate import SINGLE_FIELDS
    from proevent.evaluate.single import QuestionScore
    from proevent.model import DeleteOp, InvalidOp

    q = QuestionScore("c", 1, pred=[DeleteOp(id="e1"), InvalidOp(raw={}, reason="x")], gold=[DeleteOp(id="e1")],
                      matches=[(0, 0)], invalid=[1])
    counts = q.counts()
    assert list(counts) == list(SINGLE_FIELDS)
    assert (counts["p_delete"], counts["g_delete"], counts["m_delete"], counts["p"], counts["invalid_ops"]) == (
        1, 1, 1, 2, 1)
