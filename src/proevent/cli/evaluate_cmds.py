"""``proevent evaluate``: score a run and print the metrics table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from proevent.cli.common import (
    JudgeOption,
    MetricsVersionOption,
    app,
    console,
    dataset_mismatch,
    fail,
    handle_errors,
    load_judges,
    pct,
    say,
    warn,
)
from proevent.evaluate.judges import LATEST_VERSION as METRICS_VERSION

__all__ = ["counts_line", "metrics_table", "pct"]  # pct: report/table.py reads it here (for now)


def metrics_table(metrics: dict[str, Any], title: str | None = None) -> Table:
    """The metrics of one run as a rich table: value, 95% interval and ± sd across repeats."""
    from proevent.evaluate.metrics import CATALOGUE, metric_value

    ci = metrics.get("ci") or {}
    sd = (metrics.get("repeats") or {}).get("sd") or {}
    table = Table(title=title, show_lines=False)
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% CI", justify="right")
    if (metrics.get("repeats") or {}).get("n", 1) > 1:
        table.add_column("± sd", justify="right")
    rows = [(info.label + info.arrow, info.key, metric_value(metrics, info.key))
            for info in CATALOGUE if metrics.get(info.key.split(".")[0])]
    for label, key, value in rows:
        interval = ci.get(key)
        cells = [label, pct(value), "–" if not interval else f"{pct(interval[0])} – {pct(interval[1])}"]
        if len(table.columns) == 4:
            cells.append(pct(sd.get(key)))
        table.add_row(*cells)
    return table


def counts_line(metrics: dict[str, Any]) -> str:
    parts = []
    if metrics.get("single"):
        s = metrics["single"]
        parts.append(
            f"single: {s['questions']} questions, {s['missing']} missing, {s['errors']} errors, "
            f"{s['invalid_ops']} invalid ops"
        )
    if metrics.get("multi"):
        m = metrics["multi"]
        parts.append(
            f"multi: {m['cases']} cases, {m['target_events']} target events, "
            f"{m['missing']} missing, {m['errors']} errors"
        )
    return "; ".join(parts) or "no predictions"


@app.command("evaluate")
@handle_errors
def evaluate_command(
    dataset: Path = typer.Argument(..., help="Dataset folder (cases.jsonl + dataset.json)."),
    run: Path = typer.Argument(..., help="Run folder (run.json + predictions.jsonl)."),
    judge: JudgeOption = None,
    metrics_version: MetricsVersionOption = METRICS_VERSION,
    no_ci: bool = typer.Option(False, "--no-ci", help="Skip the bootstrap intervals."),
    json_out: Path | None = typer.Option(None, "--json", help="Also write metrics.json here."),
    n_boot: int = typer.Option(1000, help="Bootstrap resamples."),
    seed: int = typer.Option(0, help="Bootstrap seed."),
    only_answered: bool = typer.Option(
        False, "--only-answered", help="Score only the cases the run answered (a sampled human run, --limit)."
    ),
    no_validate: bool = typer.Option(
        False, "--no-validate", help="Score even when DATASET has structural errors (`proevent validate`)."
    ),
    other_dataset: bool = typer.Option(
        False, "--other-dataset",
        help="Score a run made on another dataset (checksum differs): print the metrics and write --json, "
             "but leave RUN/metrics.json as it is.",
    ),
    allow_judge_errors: bool = typer.Option(
        False, "--allow-judge-errors",
        help="Accept location pairs the llm judge could not decide (counted as judge_errors, scored as different).",
    ),
) -> None:
    """Score RUN against DATASET; print the metrics and write RUN/metrics.json.

    DATASET must be the one the run was made on (same checksum) and pass the structural checks of
    `proevent validate`; --other-dataset and --no-validate lift these checks."""
    from proevent.evaluate import JudgeFailed, evaluate
    from proevent.generate.validate import require_structure
    from proevent.io import METRICS_FILE, FormatError, load_dataset, load_run, write_judge_decisions
    from proevent.io import write_metrics as _write_metrics
    from proevent.io.run import RunWriteError

    ds = load_dataset(dataset)
    rn = load_run(run)
    mismatch = dataset_mismatch(rn, ds, dataset)
    if mismatch and not other_dataset:
        raise FormatError([
            f"{run / 'run.json'}: dataset.sha256: {mismatch}; refused, {METRICS_FILE} is unchanged "
            f"(--other-dataset scores it anyway without writing {METRICS_FILE})"
        ])
    if not no_validate:
        require_structure(ds, dataset)
    if mismatch:
        warn(f"{mismatch}; {run / METRICS_FILE} is left as it is")
    load_judges(judge)
    try:
        result = evaluate(ds, rn, judge=judge, metrics_version=metrics_version, ci=not no_ci, n_boot=n_boot,
                          seed=seed, only_answered=only_answered, allow_judge_errors=allow_judge_errors)
    except JudgeFailed as exc:
        raise fail(f"{run}: {exc}; {METRICS_FILE} is unchanged") from None
    try:
        if not mismatch:
            _write_metrics(run / METRICS_FILE, result.metrics)
        if json_out is not None:
            _write_metrics(json_out, result.metrics)
        if result.judge_decisions and judge == "llm" and not mismatch:
            write_judge_decisions(run, result.judge_decisions)
    except RunWriteError as exc:
        raise fail(str(exc)) from None
    title = f"{rn.manifest.agent}" + (f" ({rn.manifest.model})" if rn.manifest.model else "")
    console.print(metrics_table(result.metrics, title=escape(f"{title} — judge {result.metrics['judge']}")))
    say(counts_line(result.metrics))
    if only_answered:
        say(f"scored {result.metrics['dataset']['scored_cases']} of {len(ds.cases)} cases (--only-answered)")
    if rn.duplicates:
        say(f"{rn.duplicates} duplicate prediction lines superseded (the last line of a key counts)")
    if not mismatch:
        say(f"wrote {run / METRICS_FILE}")
    elif json_out is not None:
        say(f"wrote {json_out}")
