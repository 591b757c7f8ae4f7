"""One rule, one place: change what a question counts for (``single.count_row``, which
``QuestionScore.counts`` reads) and evaluate's metrics, the report's table, the viewer's outcomes
and the inspect scorer's counts all follow."""

from __future__ import annotations

import pytest

from fixtures import FLAWED_RUN, TINY, load_example_run, load_tiny
from proevent.evaluate import evaluate, single
from proevent.evaluate.single import COUNT_KEYS
from proevent.report import build_table, load_scored_runs
from proevent.report.table import COLUMNS
from proevent.web.caseview import single_view
from proevent.web.scoring import load_run_view

_ORIGINAL = single.count_row
_P, _G, _M = (COUNT_KEYS.index(k) for k in ("p", "g", "m"))


def _lenient(*args, **kwargs) -> list[int]:
    """Another rule, for the test: an answer counts as the gold (|P| = |P∩G| = |G|)."""
    out = _ORIGINAL(*args, **kwargs)
    out[_P] = out[_M] = out[_G]
    return out


def test_a_changed_count_rule_reaches_report_viewer_and_inspect(monkeypatch) -> None:
    ds, run = load_tiny(), load_example_run("flawed")
    before = evaluate(ds, run, ci=False, judge="fuzzy").questions
    exact_before = [q.exact for q in before]

    monkeypatch.setattr(single, "count_row", _lenient)

    # evaluate, with the scores kept and without them (what `proevent evaluate` does)
    for details in (True, False):
        assert evaluate(ds, run, ci=False, judge="fuzzy", details=details).metrics["single"]["recall"] == 1.0

    # the report: its overall recall is the new rule's
    [scored] = load_scored_runs([FLAWED_RUN], dataset=TINY, judge="fuzzy", n_boot=0)
    recall = build_table([scored]).rows[0].cells[[c.key for c in COLUMNS].index("single.recall")].value
    assert recall == 1.0  # 8/13 under the real rule (examples/README.md)

    # the viewer: the case page marks a question exact by the new rule (and the step marks,
    # the solved filter read the same property); some questions flip
    view = load_run_view(0, FLAWED_RUN, ds, "fuzzy")
    flipped = 0
    for q, was_exact in zip(before, exact_before):
        lenient = not (q.missing or q.error or q.invalid)
        shown = single_view(view.questions[(q.case_id, q.t)], ds.case(q.case_id).timetable_before(q.t))
        assert shown["exact"] is lenient
        flipped += lenient and not was_exact
    assert flipped > 0

    # the inspect scorer: a question's counts are the new rule's
    pytest.importorskip("inspect_ai")
    from proevent.integrations.inspect_scorer import single_counts

    for q in before:
        line = run.lines.get((q.case_id, "single", q.t, 0))
        counts = single_counts(ds, q.case_id, q.t, line, "fuzzy")
        assert counts["m"] == counts["p"] == len(q.gold)
