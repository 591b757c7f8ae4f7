import math

from eval_helpers import case, dataset, ev, ins, run

from proevent.evaluate import CaseRows, bootstrap_intervals, evaluate


def _cases():
    a = case("a", [], [([ins()], [ev("e1")])], meta={"negotiation_turns": 2, "noise_content": ["off_topic"],
                                                     "category": "sports"})
    b = case("b", [], [([], [])], meta={"negotiation_turns": 3, "noise_content": []})
    return dataset(a, b)


def test_repeats_mean_and_sample_sd():
    # repeat 0: a right (recall 1); repeat 1: a missed (recall 0) -> mean 0.5, sd sqrt(0.5)
    rn = run([
        {"case_id": "a", "mode": "single", "t": 1, "repeat": 0, "ops": [ins()]},
        {"case_id": "b", "mode": "single", "t": 1, "repeat": 0, "ops": []},
        {"case_id": "a", "mode": "single", "t": 1, "repeat": 1, "ops": []},
        {"case_id": "b", "mode": "single", "t": 1, "repeat": 1, "ops": []},
    ])
    m = evaluate(_cases(), rn, ci=False).metrics
    assert m["repeats"]["n"] == 2
    assert m["single"]["recall"] == 0.5
    assert math.isclose(m["repeats"]["sd"]["single.recall"], math.sqrt(0.5))
    assert m["repeats"]["sd"]["single.fdr"] == 0.0
    assert m["repeats"]["sd"]["single.precision"] is None  # defined in repeat 0 only
    assert m["single"]["precision"] == 1.0


def test_repeat_without_lines_in_a_mode_is_wholly_missing():
    rn = run([
        {"case_id": "a", "mode": "multi", "t": 1, "repeat": 0, "ops": [ins()]},
        {"case_id": "b", "mode": "multi", "t": 1, "repeat": 0, "ops": []},
        {"case_id": "a", "mode": "single", "t": 1, "repeat": 1, "ops": [ins()]},
    ])
    m = evaluate(_cases(), rn, ci=False).metrics
    assert m["multi"]["missing"] == 2  # repeat 1 has no multi line at all: both steps missing
    assert m["multi"]["esr"] == 0.5  # repeat 0: 1.0, repeat 1: 0.0
    assert m["single"]["missing"] == 2 + 1  # repeat 0: both; repeat 1: case b


def test_breakdowns_by_meta():
    rn = run([("a", "single", 1, [ins()]), ("b", "single", 1, [ins()])])
    b = evaluate(_cases(), rn, ci=False).metrics["breakdowns"]
    assert b["negotiation_turns"]["2"]["single.recall"] == 1.0
    assert b["negotiation_turns"]["3"]["single.fdr"] == 1.0
    assert b["negotiation_turns"]["3"]["single.recall"] is None
    assert set(b["noise_content"]) == {"off_topic", "none"}
    assert b["category"]["unknown"]["cases"] == 1
    assert set(b["concurrent_chats"]) == {"unknown"}


def test_bootstrap_is_seeded_and_undefined_when_always_undefined():
    rn = run([("a", "single", 1, [ins()]), ("b", "single", 1, [])])
    m1 = evaluate(_cases(), rn, n_boot=200).metrics["ci"]
    m2 = evaluate(_cases(), rn, n_boot=200).metrics["ci"]
    assert m1 == m2
    assert m1["single.recall"] == [1.0, 1.0]
    assert m1["single.update.recall"] is None
    assert m1["single.fdr"] == [0.0, 0.0]


def test_bootstrap_interval_brackets_the_estimate():
    import numpy as np

    from proevent.evaluate.aggregate import SINGLE_FIELDS

    col = SINGLE_FIELDS.index
    counts = np.zeros((40, len(SINGLE_FIELDS)), dtype=np.int64)
    # 40 cases, each one question with one gold op; the first 20 answered right: recall 0.5, precision 1
    counts[:, col("need")] = 1
    counts[:, col("g")] = 1
    counts[:20, col("m")] = 1
    counts[:20, col("p")] = 1
    counts[20:, col("mn")] = 1
    ci = bootstrap_intervals(CaseRows([f"c{i}" for i in range(40)], counts, None), n_boot=500, seed=1)
    lo, hi = ci["single.recall"]
    assert 0.25 < lo < 0.5 < hi < 0.75
    assert ci["single.precision"] == [1.0, 1.0]


def test_only_answered_scores_the_answered_cases():
    # the run answers case a only: by default case b's question is missing (FDR defined on b's empty step)
    rn = run([("a", "single", 1, [ins()])])
    full = evaluate(_cases(), rn, ci=False).metrics
    part = evaluate(_cases(), rn, ci=False, only_answered=True).metrics
    assert full["single"]["missing"] == 1 and full["single"]["fdr"] == 0.0
    assert part["single"]["missing"] == 0 and part["single"]["fdr"] is None
    assert part["single"]["questions"] == 1 and part["dataset"]["scored_cases"] == 1
    assert "scored_cases" not in full["dataset"]
