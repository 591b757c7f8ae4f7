"""Multi-step metrics (ESR, TSR, M_t) on hand-made cases; expectations counted by hand."""

from eval_helpers import USER, case, dataset, dele, ev, ins, run, upd

from proevent.evaluate import comparator_for, evaluate, replay_case
from proevent.model import parse_ops


def multi(ds, rn):
    return evaluate(ds, rn, ci=False, breakdowns=False).metrics["multi"]


def test_update_vs_delete_plus_insert_is_right_multi_step():
    initial = [ev("e1", location="Old place")]
    c = case("a", initial, [([upd("e1", "location", "New place")], [ev("e1", location="New place")])])
    m = multi(dataset(c), run([("a", "multi", 1, [dele("e1"), ins(location="New place")])]))
    assert (m["target_events"], m["esr"], m["tsr"]) == (1, 1.0, 1.0)


def test_wrong_at_step_2_corrected_at_step_3_still_fails():
    # gold: insert at 1, update start at 2, nothing at 3. Agent: insert at 1, nothing at 2, the update at 3.
    c = case("a", [], [
        ([ins()], [ev("e1")]),
        ([upd("e1", "start", "2026-03-14T10:00")], [ev("e1", start="2026-03-14T10:00")]),
        ([], [ev("e1", start="2026-03-14T10:00")]),
    ])
    rn = run([("a", "multi", 1, [ins()]), ("a", "multi", 2, []),
              ("a", "multi", 3, [upd("e1", "start", "2026-03-14T10:00")])])
    m = multi(dataset(c), rn)
    assert (m["esr"], m["tsr"]) == (0.0, 0.0)
    trace = evaluate(dataset(c), rn, ci=False).cases[0]
    assert trace.failed_at == {"e1": 2}
    assert [s.timetable_ok for s in trace.steps] == [True, False, True]


def test_drop_out_predicted_as_participants_update_fails():
    initial = [ev("e1", participants=[USER, "Tom Baker", "Ana Ruiz"])]
    c = case("a", initial, [([dele("e1")], [])])
    rn = run([("a", "multi", 1, [upd("e1", "participants", ["Tom Baker", "Ana Ruiz"])])])
    m = multi(dataset(c), rn)
    assert (m["target_events"], m["esr"], m["tsr"]) == (1, 0.0, 0.0)
    ok = multi(dataset(c), run([("a", "multi", 1, [dele("e1")])]))
    assert (ok["esr"], ok["tsr"]) == (1.0, 1.0)


def test_spurious_event_fails_tsr_not_esr():
    c = case("a", [], [([ins()], [ev("e1")])])
    m = multi(dataset(c), run([("a", "multi", 1, [ins(), ins(location="Somewhere else")])]))
    assert (m["esr"], m["tsr"]) == (1.0, 0.0)


def test_non_target_initial_events_count_for_tsr_only():
    # e5 is an untouched initial event; the agent deletes it: no target fails, the timetable does.
    initial = [ev("e5", location="Dentist", start="2026-03-20T10:00")]
    c = case("a", initial, [([ins()], [ev("e5", location="Dentist", start="2026-03-20T10:00"), ev("e6")])])
    m = multi(dataset(c), run([("a", "multi", 1, [ins(), dele("e5")])]))
    assert (m["target_events"], m["esr"], m["tsr"]) == (1, 1.0, 0.0)


def test_deleted_event_turned_into_another_event_is_right():
    # gold: delete e1 and insert a different event; the agent updates e1 into that event instead.
    initial = [ev("e1", location="Old")]
    c = case("a", initial, [([dele("e1"), ins(location="New")], [ev("e2", location="New")])])
    rn = run([("a", "multi", 1, [upd("e1", "location", "New")])])
    m = multi(dataset(c), rn)
    assert (m["target_events"], m["esr"], m["tsr"]) == (2, 1.0, 1.0)


def test_missing_steps_count_as_empty_and_are_reported():
    c = case("a", [], [([ins()], [ev("e1")]), ([], [ev("e1")])])
    m = multi(dataset(c), run([("a", "multi", 1, [ins()])]))
    assert (m["missing"], m["esr"], m["tsr"]) == (1, 1.0, 1.0)


def test_matching_keeps_previous_partners():
    # two identical gold events; the agent's own copies: M_t must keep e1<->e1, e2<->e2 partners
    same = dict(location="Gym", start="2026-03-14T18:00")
    initial = [ev("e1", **same), ev("e2", **same)]
    c = case("a", initial, [([], [ev("e1", **same), ev("e2", **same)])])
    trace = replay_case(c, {1: []}, comparator_for(c))
    assert trace.steps[0].pairs == [("e1", "e1"), ("e2", "e2")]
    # the agent deletes e1: gold e1 keeps no partner, gold e2 keeps e2; e1 fails (gold still has it)
    trace = replay_case(c, {1: parse_ops([dele("e1")])}, comparator_for(c))
    assert trace.steps[0].pairs == [("e2", "e2")]
    assert trace.steps[0].event_ok == {"e1": False, "e2": True}


def test_esr_counts_over_cases():
    # case a: 1 target, right. case b: 2 targets, one wrong -> ESR 2/3; TSR 1/2
    a = case("a", [], [([ins()], [ev("e1")])])
    b = case("b", [], [([ins(), ins(location="Pool")], [ev("e1"), ev("e2", location="Pool")])])
    rn = run([("a", "multi", 1, [ins()]), ("b", "multi", 1, [ins(), ins(location="Lake")])])
    m = multi(dataset(a, b), rn)
    assert (m["cases"], m["target_events"], m["esr"], m["tsr"]) == (2, 3, 2 / 3, 0.5)
