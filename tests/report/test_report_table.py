"""The table's numbers are evaluate()'s; the paper's highlighting; the four formats."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures import FLAWED_RUN, PERFECT_RUN, load_example_run, load_tiny
from proevent.evaluate import METRIC_KEYS, EvaluationResult, evaluate
from proevent.evaluate.metrics import metric_value
from proevent.report.collect import ScoredRun, load_scored_runs
from proevent.report.table import COLUMNS, build_table, rich_table, table_notes, to_csv, to_latex, to_markdown


def _fake(label: str, agent: str, values: dict[str, float | None], *, sd: dict | None = None, n: int = 1) -> ScoredRun:
    """A scored run whose metrics are exactly ``values`` (dotted keys), for highlighting tests: a
    real metrics object (the perfect run's, without intervals) with those values put in."""
    ds = load_tiny()
    run = load_example_run("perfect")
    metrics = evaluate(ds, run, ci=False, breakdowns=False).metrics
    for key, v in values.items():
        node = metrics
        parts = key.split(".")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = v
    metrics["repeats"] = {"n": n, "sd": sd or {}}
    fake_run = type(run)(manifest=run.manifest.model_copy(update={"agent": agent}), lines={}, path=Path(label))
    return ScoredRun(label=label, path=Path(label), run=fake_run, result=EvaluationResult(metrics=metrics), dataset=ds)


def _all(value: float) -> dict[str, float]:
    return {c.key: value for c in COLUMNS}


def test_table_numbers_equal_evaluate():
    runs = load_scored_runs([PERFECT_RUN, FLAWED_RUN], dataset=load_tiny(), n_boot=200)
    table = build_table(runs)
    for sr, row in zip(runs, table.rows):
        direct = evaluate(load_tiny(), sr.run, judge="fuzzy", ci=True, n_boot=200, seed=0).metrics
        for col, cell in zip(COLUMNS, row.cells):
            assert cell.value == metric_value(direct, col.key)
            assert (list(cell.ci) if cell.ci else None) == direct["ci"].get(col.key)
    flawed = table.rows[1]
    by_key = {c.key: cell.value for c, cell in zip(COLUMNS, flawed.cells)}
    # hand-computed in examples/README.md (fuzzy judge)
    assert by_key["single.fdr"] == 2 / 3 and by_key["single.mnr"] == 1 / 11
    assert by_key["single.precision"] == 8 / 16 and by_key["single.recall"] == 8 / 13
    assert by_key["single.insert.precision"] == 5 / 7 and by_key["single.update.recall"] == 2 / 6
    assert by_key["multi.esr"] == 7 / 9 and by_key["multi.tsr"] == 2 / 5
    assert flawed.missing == 1 and flawed.errored_lines == 0


def test_case_rows_reproduce_the_metrics():
    ds = load_tiny()
    for name in ("perfect", "flawed"):
        res = evaluate(ds, load_example_run(name), ci=False)
        ratios = res.rows.ratios()
        for key in METRIC_KEYS:
            assert ratios[key] == metric_value(res.metrics, key), (name, key)
    rows = evaluate(ds, load_example_run("flawed"), ci=False).rows
    assert rows.single.shape[0] == 5 and int(rows.single[:, 0].sum()) == 14  # 14 questions
    assert np.array_equal(rows.multi[:, 0], np.ones(5))


def test_best_excludes_oracle_and_human_and_respects_direction():
    a = _fake("a", "plain", {**_all(0.5), "single.fdr": 0.3, "single.mnr": 0.95, "multi.tsr": 0.05})
    b = _fake("b", "procot", {**_all(0.6), "single.fdr": 0.2, "single.mnr": 0.4, "single.recall": None})
    o = _fake("o", "oracle", _all(1.0) | {"single.fdr": 0.0, "single.mnr": 0.0})
    h = _fake("h", "human:ann", _all(0.99) | {"single.fdr": 0.0})
    table = build_table([a, b, o, h])
    col = {c.key: k for k, c in enumerate(COLUMNS)}
    ra, rb, ro, rh = table.rows
    assert rb.cells[col["single.fdr"]].best and not ro.cells[col["single.fdr"]].best  # lower is better
    assert not rh.cells[col["single.fdr"]].best
    assert rb.cells[col["single.precision"]].best and not ra.cells[col["single.precision"]].best
    assert ra.cells[col["single.recall"]].best  # b's is undefined
    assert ra.cells[col["single.mnr"]].problematic and not ra.cells[col["single.fdr"]].problematic
    assert ra.cells[col["multi.tsr"]].problematic and not rb.cells[col["multi.tsr"]].problematic
    assert ro.reference and rh.reference and not ra.reference
    # ties are all bold
    t = build_table([_fake("x", "x", _all(0.5)), _fake("y", "y", _all(0.5))])
    assert all(c.best for r in t.rows for c in r.cells)


def test_markdown_latex_csv_html_rows():
    a = _fake("my_run", "plain", {**_all(0.5), "single.fdr": 0.966})
    a.result.metrics["ci"] = {"single.fdr": [0.9, 0.99]}
    b = _fake("other", "procot", {**_all(0.25), "single.recall": None}, sd={"single.fdr": 0.02}, n=3)
    table = build_table([a, b])
    md = to_markdown(table)
    assert "| my_run (plain) | <ins>96.6%</ins> [90.0–99.0] |" in md
    assert "**50.0%**" in md and "25.0 ± 2.0%" in md and "| – |" in md
    tex = to_latex(table)
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex and r"\cmidrule(lr){2-3}" in tex
    assert r"my\_run (plain)" in tex and r"\underline{96.6}\,{\scriptsize[90.0, 99.0]}" in tex
    assert r"\textbf{50.0}" in tex and r"25.0 $\pm$ 2.0" in tex
    assert "–" not in tex and " & -- & " in tex  # undefined values as an ASCII en dash
    rows = list(csv.DictReader(io.StringIO(to_csv(table))))
    assert rows[0]["run"] == "my_run" and float(rows[0]["single.fdr"]) == 0.966
    assert float(rows[0]["single.fdr.ci_low"]) == 0.9 and rows[1]["single.recall"] == ""
    assert float(rows[1]["single.fdr.sd"]) == 0.02 and rows[1]["repeats"] == "3"
    from rich.console import Console

    console = Console(width=100, record=True)
    console.print(rich_table(table))
    text = console.export_text()
    assert "96.6%" in text and "my_run" in text and "errored lines" in text


def test_notes_are_built_for_the_shape_they_are_printed_in():
    table = build_table([_fake("x", "x", _all(0.5))])
    assert table.notes == table_notes("rows") and "best value of the column (oracle and human rows" in table.notes[1]
    table.notes[:0] = ["Every run is scored on the same 3 cases."]  # a note on the runs, put in front
    printed = table.notes_for("columns")  # the terminal's table: a column per run
    assert printed[0] == "Every run is scored on the same 3 cases." and printed[1:] == table_notes("columns")
    assert "best value of the row (oracle and human columns excluded)" in printed[2]
    assert table.notes_for("rows") == table.notes
    table.notes.append("a note after the table's own")
    with pytest.raises(ValueError, match="must close"):
        table.notes_for("columns")


_NO_FLOATS = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63) | st.text(alphabet=st.characters(codec=None)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=15,
)


@settings(max_examples=300, deadline=None)
@given(data=_NO_FLOATS)
def test_indented_json_is_the_standard_librarys_text(data):
    """errors.json is written by pydantic-core; for data without floats its text is json.dumps's
    (indent 2, non-ASCII kept, control characters escaped), lone surrogates included."""
    from proevent.report.build import indented_json

    assert indented_json(data) == json.dumps(data, indent=2, ensure_ascii=False)
