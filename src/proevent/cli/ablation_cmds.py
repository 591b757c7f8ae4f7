"""``proevent ablation``: the paired table of a base run and its arms (table 2, figure 4(b), appendix E)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from proevent.cli.common import JudgeOption, app, console, handle_errors, load_judges, say


@app.command("ablation")
@handle_errors
def ablation_cmd(
    base: Annotated[Path, typer.Argument(help="The base run (on the base dataset, default options).")],
    arms: Annotated[list[Path], typer.Argument(help="Runs on paired variants of the base dataset, or on it with "
                                                    "other options (update_prompt=true).")],
    metric: Annotated[list[str], typer.Option("--metric", help="Metric key (repeatable); default single.recall "
                                                               "and single.precision.")] = [],  # noqa: B006
    on_errors_of: Annotated[Path | None, typer.Option("--on-errors-of", help="Only the cases this run got wrong "
                                                                             "on the base dataset.")] = None,
    judge: JudgeOption = None,
    n_boot: Annotated[int, typer.Option(help="Bootstrap resamples.")] = 1000,
    seed: Annotated[int, typer.Option(help="Bootstrap seed.")] = 0,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the table as JSON here.")] = None,
    markdown_out: Annotated[Path | None, typer.Option("--markdown", help="Also write the table as Markdown.")] = None,
    plot_out: Annotated[Path | None, typer.Option("--plot", help="Draw the bars (figure 4(b)) into this PNG.")] = None,
) -> None:
    """Each metric on the base and on every arm, and the paired difference with its bootstrap interval."""
    from rich.markup import escape
    from rich.table import Table

    from proevent.evaluate import METRIC_KEYS
    from proevent.report.ablation import DEFAULT_METRICS, ablation, markdown, plot, table_rows, write_json
    from proevent.report.collect import load_scored_runs

    metrics = tuple(metric) or DEFAULT_METRICS
    unknown = [m for m in metrics if m not in METRIC_KEYS]
    if unknown:
        raise typer.BadParameter(f"unknown metric {unknown[0]!r}; known: {', '.join(METRIC_KEYS)}",
                                 param_hint="--metric")
    extra = on_errors_of is not None and on_errors_of.resolve() not in {p.resolve() for p in (base, *arms)}
    paths = [base, *arms, *([on_errors_of] if extra else [])]
    load_judges(judge)
    scored = load_scored_runs(paths, allow_mixed=True, judge=judge, n_boot=0, seed=seed)
    errors_of = None
    if on_errors_of is not None:
        errors_of = scored[-1] if extra else next(s for s in scored if s.path.resolve() == on_errors_of.resolve())
    ab = ablation(scored[0], scored[1:1 + len(arms)], metrics=metrics, on_errors_of=errors_of, n_boot=n_boot,
                  seed=seed, judge=judge)
    head, rows = table_rows(ab)
    where = f", {ab.subset}" if ab.subset else ""
    table = Table(title=escape(f"ablation: paired bootstrap ({n_boot} resamples{where})"))
    for i, name in enumerate(head):
        table.add_column(escape(name), justify="left" if i < 2 else "right")
    for r in rows:
        table.add_row(*(escape(x) for x in r), style="bold" if r[0] == "Δ" else "")
    console.print(table)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        write_json(ab, json_out)
        say(f"wrote {json_out}")
    if markdown_out is not None:
        markdown_out.parent.mkdir(parents=True, exist_ok=True)
        markdown_out.write_text(markdown(ab), encoding="utf-8")
        say(f"wrote {markdown_out}")
    if plot_out is not None:
        say(f"wrote {plot(ab, plot_out)}")
