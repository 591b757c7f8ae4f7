"""``proevent evaluate``: score a run and print the metrics table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from proevent.cli.common import app, console, dataset_mismatch, fail, handle_errors, pct, say, warn
from proevent.model import OP_TYPES

__all__ = ["counts_line", "metrics_table", "pct"]  # pct: report/table.py reads it here (for now)


def metrics_table(metrics: dict[str, Any], title: str | None = None) -> Table:
    """The metrics of one run as a rich table: value, 95% interval and ± sd across repeats."""
    ci = metrics.get("ci") or {}
    sd = (metrics.get("repeats") or {}).get("sd") or {}
    table = Table(title=title, show_lines=False)
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% CI", justify="right")
    if (metrics.get("repeats") or {}).get("n", 1) > 1:
        table.add_column("± sd", justify="right")
    rows: list[tuple[str, str, float | None]] = []
    single, multi = metrics.get("single"), metrics.get("multi")
    if single:
        rows += [("FDR ↓", "single.fdr", single["fdr"]), ("MNR ↓", "single.mnr", single["mnr"])]
        for t in OP_TYPES:
            rows += [
                (f"{t} recall", f"single.{t}.recall", single[t]["recall"]),
                (f"{t} precision", f"single.{t}.precision", single[t]["precision"]),
            ]
        rows += [
            ("overall recall", "single.recall", single["recall"]),
            ("overall precision", "single.precision", single["precision"]),
        ]
    if multi:
        rows += [
            ("event success (ESR)", "multi.esr", multi["esr"]),
            ("timetable success (TSR)", "multi.tsr", multi["tsr"]),
        ]
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


def _write(path: Path, text: str) -> None:
    """Write a result file; a folder in the way, no permission or a full disk is one clear error."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise fail(f"{path}: cannot write: {exc.strerror or exc}") from None


@app.command("evaluate")
@handle_errors
def evaluate_command(
    dataset: Path = typer.Argument(..., help="Dataset folder (cases.jsonl + dataset.json)."),
    run: Path = typer.Argument(..., help="Run folder (run.json + predictions.jsonl)."),
    judge: str | None = typer.Option(
        None, help="Location judge: exact, fuzzy, places or llm (default: the metrics version's: places; fuzzy for 1)."
    ),
    metrics_version: int = typer.Option(2, "--metrics-version", help="Metrics version (1 reproduces old figures)."),
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
) -> None:
    """Score RUN against DATASET; print the metrics and write RUN/metrics.json.

    DATASET must be the one the run was made on (same checksum) and pass the structural checks of
    `proevent validate`; --other-dataset and --no-validate lift these checks."""
    from proevent.evaluate import evaluate
    from proevent.generate.validate import require_structure
    from proevent.io import METRICS_FILE, FormatError, load_dataset, load_run

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
    result = evaluate(ds, rn, judge=judge, metrics_version=metrics_version, ci=not no_ci, n_boot=n_boot, seed=seed,
                      only_answered=only_answered)
    text = json.dumps(result.metrics, indent=2, ensure_ascii=False) + "\n"
    if not mismatch:
        _write(run / METRICS_FILE, text)
    if json_out is not None:
        _write(json_out, text)
    if result.judge_decisions and judge == "llm" and not mismatch:
        _write(run / "judge_decisions.jsonl",
               "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in result.judge_decisions))
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
