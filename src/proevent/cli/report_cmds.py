"""``proevent report``, ``proevent compare`` and ``proevent quickstart``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from proevent.cli.common import (
    JudgeOption,
    MetricsVersionOption,
    app,
    console,
    handle_errors,
    load_judges,
    loading_then_frozen,
    pct,
    say,
    warn,
)
from proevent.evaluate.judges import LATEST_VERSION as METRICS_VERSION

if TYPE_CHECKING:
    from proevent.report.build import ReportOutput

_DATASET_HELP = "Dataset folder; default: run.json's dataset.path, else a folder with the run's checksum nearby."


@app.command("report")
@handle_errors
def report_cmd(
    runs: Annotated[list[Path], typer.Argument(help="Run folders (run.json + predictions.jsonl).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Report folder (must be new or empty, or --force).")],
    dataset: Annotated[Path | None, typer.Option(help=_DATASET_HELP)] = None,
    allow_mixed: Annotated[bool, typer.Option("--allow-mixed", help="Accept runs on different datasets.")] = False,
    judge: JudgeOption = None,
    metrics_version: MetricsVersionOption = METRICS_VERSION,
    n_boot: Annotated[int, typer.Option(help="Bootstrap resamples.")] = 1000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    plots: Annotated[bool, typer.Option("--plots/--no-plots", help="Draw the figures (needs matplotlib).")] = True,
    title: Annotated[str, typer.Option(help="Title of the HTML page.")] = "ProEvent report",
    force: Annotated[bool, typer.Option(help="Write into a folder that is not empty.")] = False,
    only_answered: Annotated[
        bool, typer.Option("--only-answered", help="Score each run on the cases it answered (a sampled human run).")
    ] = False,
) -> None:
    """The paper's table (Markdown, LaTeX, CSV), robustness plots, error analysis and index.html for RUNs."""
    from proevent.report import load_scored_runs, write_report
    from proevent.report.mplimport import import_for_drawing

    load_judges(judge)
    with loading_then_frozen() as loaded:  # the loaded runs out of the collector's walks (0.24 s here)
        scored = load_scored_runs(
            runs, dataset=dataset, allow_mixed=allow_mixed, judge=judge, metrics_version=metrics_version,
            n_boot=n_boot, seed=seed, only_answered=only_answered, traces=False,  # the report reads no trace
        )
        loaded()
        if plots:
            import_for_drawing()  # matplotlib without its artists' docstrings (0.1 s CPU)
        output = write_report(scored, out, force=force, plots=plots, n_boot=n_boot, seed=seed, title=title)
    print_report_summary(output)


def print_report_summary(output: ReportOutput) -> None:
    """The table, what was skipped and where the page is (shared with the quickstart)."""
    from rich.markup import escape

    from proevent.report.table import rich_table

    console.print(rich_table(output.table, title="ProEvent results (%, 95% intervals below)"))
    for note in output.table.notes_for("columns"):  # the terminal's table has a column per run
        console.print(f"[dim]{escape(note)}[/dim]", highlight=False)
    if output.plots_skipped:
        warn(f"plots skipped: {output.plots_skipped}")
    if output.html_skipped:
        warn(f"index.html skipped: {output.html_skipped}")
    say(f"report folder: {output.out}")
    if output.index is not None:
        say(f"open: {output.index.resolve()}")


def p_text(p: float | None) -> str:
    """A p-value to three decimals; below 0.001 as ``< 0.001`` (a bootstrap p is never exactly 0)."""
    if p is None:
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def metric_label(key: str) -> str:
    """The catalogue's title of a metric key, as the report's terminal table shows it (``single.fdr``
    -> ``FDR ↓``); an unknown key stands for itself."""
    from proevent.evaluate.metrics import CATALOGUE

    return next((info.title for info in CATALOGUE if info.key == key), key)


@app.command("compare")
@handle_errors
def compare_cmd(
    run_a: Annotated[Path, typer.Argument(help="Run A.")],
    run_b: Annotated[Path, typer.Argument(help="Run B (the difference is A - B).")],
    dataset: Annotated[Path | None, typer.Option(help=_DATASET_HELP)] = None,
    judge: JudgeOption = None,
    metrics_version: MetricsVersionOption = METRICS_VERSION,
    n_boot: Annotated[int, typer.Option(help="Bootstrap resamples.")] = 1000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    show: Annotated[int, typer.Option(help="Disagreeing cases to list (0: all).")] = 20,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the comparison as JSON here.")] = None,
) -> None:
    """Paired case-level bootstrap of A - B for every metric (interval, p-value) and the cases where they disagree."""
    from rich.markup import escape
    from rich.table import Table

    from proevent.evaluate import compare_results
    from proevent.report import comparison_json, load_scored_runs

    load_judges(judge)
    with loading_then_frozen() as loaded:
        a, b = load_scored_runs([run_a, run_b], dataset=dataset, judge=judge, metrics_version=metrics_version,
                                n_boot=0, seed=seed)
        loaded()
        cmp = compare_results(a.dataset, a.result, b.result, n_boot=n_boot, seed=seed)
    reps = "" if cmp.repeats == (1, 1) else f"; means over {cmp.repeats[0]} and {cmp.repeats[1]} repeats"
    table = Table(title=escape(f"A = {a.label}, B = {b.label}: paired bootstrap over {cmp.cases} cases "
                               f"({n_boot} resamples{reps})"))
    for name in ("metric", "A", "B", "A − B", "95% CI of A − B", "p"):
        table.add_column(name, justify="left" if name == "metric" else "right")
    for d in cmp.metrics:
        diff = "–" if d.diff is None else f"{100 * d.diff:+.1f} pt"
        ci = "–" if d.ci is None else f"[{100 * d.ci[0]:+.1f}, {100 * d.ci[1]:+.1f}]"
        style = "bold" if d.p_value is not None and d.p_value < 0.05 else ""
        table.add_row(escape(metric_label(d.key)), pct(d.a), pct(d.b), diff, escape(ci), p_text(d.p_value),
                      style=style)
    console.print(table)
    on = " (repeat 0)" if cmp.repeats != (1, 1) else ""
    say(f"{len(cmp.disagreements)} of {cmp.cases} cases disagree{on}")
    listed = cmp.disagreements if show <= 0 else cmp.disagreements[:show]
    for dis in listed:
        parts = []
        if dis.single_steps:
            steps = ", ".join(f"t{t} {'A' if ok_a else 'B'}" for t, ok_a, ok_b in dis.single_steps)
            parts.append(f"single exact only in: {steps}")
        if dis.tsr:
            parts.append(f"timetable success A {'✓' if dis.tsr[0] else '✗'} B {'✓' if dis.tsr[1] else '✗'}")
        if dis.esr:
            parts.append(f"events right A {dis.esr[0]}/{dis.esr[2]} B {dis.esr[1]}/{dis.esr[2]}")
        say(f"  {dis.case_id}: " + "; ".join(parts))
    if len(listed) < len(cmp.disagreements):
        say(f"  … {len(cmp.disagreements) - len(listed)} more (--show 0 lists all)")
    if json_out is not None:
        json_out.write_text(json.dumps(comparison_json(cmp, a.label, b.label), indent=2) + "\n", encoding="utf-8")
        say(f"wrote {json_out}")


@app.command("quickstart")
@handle_errors
def quickstart_cmd(
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Output folder (default: a new ./proevent-quickstart*).")
    ] = None,
    cases: Annotated[int, typer.Option(help="Cases to generate.")] = 60,
    seed: Annotated[int, typer.Option(help="Generator seed.")] = 0,
    llm: Annotated[bool, typer.Option("--llm/--no-llm", help="Also run procot when an endpoint is configured.")] = True,
    force: Annotated[bool, typer.Option(help="Reuse a folder given with --out that is not empty.")] = False,
) -> None:
    """The whole loop offline: generate a small dataset, run null, rules and oracle, evaluate, report."""
    from proevent.report.mplimport import import_for_drawing
    from proevent.report.quickstart import run_quickstart

    import_for_drawing()  # matplotlib without its artists' docstrings (0.1 s CPU)
    output = run_quickstart(out, cases=cases, seed=seed, use_llm=llm, force=force, console=console)
    print_report_summary(output)
