"""``proevent evaluate``: score a run and print the metrics table."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.markup import escape
from rich.table import Table

from proevent.cli.common import (
    JudgeOption,
    MetricsVersionOption,
    app,
    console,
    fail,
    handle_errors,
    load_judges,
    loading_then_frozen,
    pct,
    say,
    warn,
)
from proevent.evaluate.judges import LATEST_VERSION as METRICS_VERSION

if TYPE_CHECKING:
    from proevent.evaluate.metrics import Metrics

__all__ = ["counts_line", "metrics_table"]


def metrics_table(metrics: Metrics, title: str | None = None) -> Table:
    """The metrics of one run as a rich table: value, 95% interval and ± sd across repeats (the
    catalogue's metrics of the modes the run has)."""
    from proevent.evaluate.metrics import CATALOGUE

    ci = metrics.ci or {}
    sd = metrics.repeats.sd
    table = Table(title=title, show_lines=False)
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% CI", justify="right")
    if metrics.repeats.n > 1:
        table.add_column("± sd", justify="right")
    modes = {"single": metrics.single is not None, "multi": metrics.multi is not None}
    for info in CATALOGUE:
        if not modes[info.key.split(".")[0]]:
            continue
        interval = ci.get(info.key)
        cells = [info.label + info.arrow, pct(metrics.value(info.key)),
                 "–" if not interval else f"{pct(interval[0])} – {pct(interval[1])}"]
        if len(table.columns) == 4:
            cells.append(pct(sd.get(info.key)))
        table.add_row(*cells)
    return table


def counts_line(metrics: Metrics) -> str:
    """The counts behind the ratios: questions, cases, what was missing or errored."""
    parts = []
    if (s := metrics.single) is not None:
        parts.append(f"single: {s.questions} questions, {s.missing} missing, {s.errors} errors, "
                     f"{s.invalid_ops} invalid ops")
    if (m := metrics.multi) is not None:
        parts.append(f"multi: {m.cases} cases, {m.target_events} target events, {m.missing} missing, {m.errors} errors")
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
    with loading_then_frozen() as loaded:  # the dataset, the run and the scores live until the command
        # ends: a collection would only walk them again. The locals of _evaluate_run are freed on its
        # return; what outlives it (the judge's and the parsers' caches: 244,000 objects at 10,000
        # cases, 0.07 s for the collection that walked them) is frozen before the collector resumes
        _evaluate_run(dataset, run, judge=judge, metrics_version=metrics_version, no_ci=no_ci, json_out=json_out,
                      n_boot=n_boot, seed=seed, only_answered=only_answered, no_validate=no_validate,
                      other_dataset=other_dataset, allow_judge_errors=allow_judge_errors)
        loaded()


def _evaluate_run(dataset: Path, run: Path, *, judge: str | None, metrics_version: int, no_ci: bool,
                  json_out: Path | None, n_boot: int, seed: int, only_answered: bool, no_validate: bool,
                  other_dataset: bool, allow_judge_errors: bool) -> None:
    from proevent.cli.rounds import judge_pending
    from proevent.evaluate import JudgeFailed, evaluate
    from proevent.io import METRICS_FILE, FormatError, load_dataset, load_run, write_judge_decisions
    from proevent.io import write_metrics as _write_metrics
    from proevent.io.run import RunWriteError
    from proevent.io.structure import require_structure
    from proevent.model import dataset_mismatch

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
                          seed=seed, only_answered=only_answered, allow_judge_errors=allow_judge_errors,
                          details=False)  # the metrics only: each case's scores are dropped once counted
    except JudgeFailed as exc:
        raise judge_pending(run, exc) or fail(f"{run}: {exc}; {METRICS_FILE} is unchanged") from None
    try:
        if not mismatch:
            _write_metrics(run / METRICS_FILE, result.metrics)
        if json_out is not None:
            _write_metrics(json_out, result.metrics)
        if result.judge_decisions and judge == "llm" and not mismatch:
            write_judge_decisions(run, result.judge_decisions)
    except RunWriteError as exc:
        raise fail(str(exc)) from None
    summary = result.summary
    title = f"{rn.manifest.agent}" + (f" ({rn.manifest.model})" if rn.manifest.model else "")
    console.print(metrics_table(summary, title=escape(f"{title} — judge {summary.judge}")))
    say(counts_line(summary))
    if only_answered:
        say(f"scored {summary.dataset.scored_cases} of {len(ds.cases)} cases (--only-answered)")
    if rn.duplicates:
        say(f"{rn.duplicates} duplicate prediction lines superseded (the last line of a key counts)")
    if not mismatch:
        say(f"wrote {run / METRICS_FILE}")
    elif json_out is not None:
        say(f"wrote {json_out}")
