"""``proevent generate``, ``proevent validate`` and ``proevent stats``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from proevent.cli.common import add_initial_ics, app, build_config, console, err_console, fail, handle_errors, say
from proevent.cli.rounds import EXIT_PENDING, generate_recording, generate_round

_FLAG_OPTIONS = {"cases": "--cases", "seed": "--seed", "realizer": "--realizer", "name": "--name",
                 "max_concurrent": "--max-concurrent", "window_minutes": "--window", "noise": "--noise",
                 "turns": "--turns", "variants": "--variant", "llm": "--profile"}


def _build_config(config_file: Path | None, flags: dict[str, Any]) -> Any:
    """Defaults < ``--config`` file < flags, validated once (unknown keys are errors)."""
    from proevent.generate.config import GeneratorConfig, merge_config, read_config_file

    data = GeneratorConfig().model_dump(mode="json")
    if config_file is not None:
        data = merge_config(data, read_config_file(config_file))
    given = {k: v for k, v in flags.items() if v is not None}
    data = merge_config(data, given)
    return build_config(GeneratorConfig, data, source=config_file,
                        flags={k: o for k, o in _FLAG_OPTIONS.items() if k in given})


def counts_text(counts: dict[str, Any]) -> str:
    """``{"a": 2, "b": 1}`` as ``a: 2, b: 1`` (nested counts as ``x (a: 2, b: 1)``), never a dict repr."""
    parts = []
    for key, value in counts.items():
        parts.append(f"{key} ({counts_text(value)})" if isinstance(value, dict) else f"{key}: {value}")
    return ", ".join(parts) or "none"


@app.command()
@handle_errors
def generate(
    out: Path = typer.Option(..., "--out", "-o", help="Dataset folder to write (cases.jsonl + dataset.json)."),
    cases: int | None = typer.Option(None, help="Number of cases (default 1279, the paper's size)."),
    seed: int | None = typer.Option(None, help="Random seed (default 0)."),
    realizer: str | None = typer.Option(None, help="template (offline, default) or llm."),
    profile: str | None = typer.Option(
        None, help="The llm realiser's endpoint: a profile of proevent.toml, as for `proevent run`."),
    window: str | None = typer.Option(None, help="Step window, e.g. 4h, 90m (default 4h)."),
    max_concurrent: int | None = typer.Option(None, help="Most chats running at once in a case (default 4)."),
    noise: str | None = typer.Option(
        None, help="e.g. 'message=0.3,chat=off,event=0.8,failed_planning=2' or 'off'."
    ),
    turns: str | None = typer.Option(None, help="Negotiation turns after the proposal, MIN-MAX (default 1-6)."),
    name: str | None = typer.Option(None, help="Dataset name in the manifest."),
    config: Path | None = typer.Option(None, "--config", help="JSON or TOML file with generator settings."),
    force: bool = typer.Option(False, "--force", help="Replace an existing dataset."),
    variant: list[str] = typer.Option(
        [], "--variant", help="Also write this paired variant beside OUT (OUT.SLUG): direct, "
        "noise=failed_planning, noise=none, noise_position=late... (repeatable)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing but errors."),
    initial_ics: Path | None = typer.Option(
        None, "--initial-ics", help="Add this .ics calendar's events to every case's initial timetable."
    ),
    initial_ics_align: str = typer.Option(
        "none", "--initial-ics-align", help="none (keep the file's dates) or week (move into each case's week)."
    ),
    batch_out: Path | None = typer.Option(
        None, "--batch-out", help="llm realiser: send nothing, write the requests the cache cannot answer as an "
        "OpenAI Batch API input file (also $PROEVENT_BATCH_OUT); while a case waits for an answer nothing is "
        f"written and the exit status is {EXIT_PENDING} (docs/backends.md)."),
) -> None:
    """Generate a ProEvent-style benchmark dataset.

    Exit status: 0 written; 1 an error, or fewer cases than asked for; 6 (batch mode) requests wait in
    the batch file: import the answers with `proevent batch import`, then run the same command again
    with a new --batch-out."""
    from proevent.generate.config import parse_noise, parse_turns, parse_window
    from proevent.generate.pipeline import CasesPending, generate_dataset
    from proevent.generate.stats import compute_stats

    flags: dict[str, Any] = {"cases": cases, "seed": seed, "realizer": realizer, "name": name,
                             "max_concurrent": max_concurrent, "variants": variant or None}
    if profile is not None:
        flags["llm"] = {"profile": profile}
    if window is not None:
        flags["window_minutes"] = parse_window(window)
    if noise is not None:
        flags["noise"] = parse_noise(noise)
    if turns is not None:
        flags["turns"] = parse_turns(turns)
    cfg = _build_config(config, flags)
    try:
        with generate_recording(batch_out, cfg.realizer) as recorder:
            if quiet:
                ds = generate_dataset(cfg, out, force=force)
            else:
                from rich.progress import Progress

                with Progress(console=err_console, transient=True) as bar:
                    task = bar.add_task("generating", total=cfg.cases)
                    ds = generate_dataset(cfg, out, force=force, progress=lambda i, n: bar.update(task, completed=i))
    except CasesPending as exc:
        raise generate_round(exc.result, cfg.cases, recorder) from None
    except Exception as exc:  # an LLM request that failed after the client's own retries
        if type(exc).__module__.startswith("proevent.llm"):
            raise fail(f"llm realiser: {exc}") from None
        raise
    if recorder is not None and not quiet:
        say(f"every case is complete: nothing written to {recorder.path}.")
    if initial_ics is not None:  # post-processing hook of the ecosystem integrations (integrations/ics_initial.py)
        ds = add_initial_ics(out, initial_ics, initial_ics_align)
    rejected = ds.manifest.generator.get("rejected", {})
    if not quiet:
        st = compute_stats(ds)
        say(f"wrote {out}: {st['cases']} cases, {st['steps']} steps, {st['questions_with_gold']} questions with "
            f"gold, {st['scheduling_patterns']} scheduling patterns, distinct messages "
            f"{st['distinct_message_ratio']}; rejected attempts: {counts_text(rejected)}")
    if len(ds.cases) < cfg.cases:
        raise fail(f"wrote {len(ds.cases)} of the {cfg.cases} cases asked for: every attempt at the others was "
                   f"rejected ({counts_text(rejected)})")


@app.command()
@handle_errors
def validate(
    dataset: Path = typer.Argument(..., help="Dataset folder."),
    structural_only: bool = typer.Option(False, "--structural-only", help="Skip the semantic checks (no flags)."),
    strict: bool = typer.Option(False, "--strict", help="Review flags fail too (exit 1 when there is one)."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the report as JSON."),
    limit: int = typer.Option(50, help="Print at most this many errors, flags and warnings."),
) -> None:
    """Check a dataset: structural errors (exit 1) and review flags, values a reader cannot find in
    the chats (exit 0 unless --strict)."""
    from proevent.generate.validate import validate_dataset
    from proevent.io import load_dataset

    ds = load_dataset(dataset)
    report = validate_dataset(ds, semantic=not structural_only)
    styles = {"error": "red", "flag": "magenta", "warning": "yellow"}
    for issue in (report.errors + report.flags + report.warnings)[:limit]:
        style = styles[issue.severity]
        err_console.print(f"[{style}]{issue.severity}[/{style}] \\[{issue.code}] {issue}", highlight=False)
    if json_out:
        json_out.write_text(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    flags = len(report.flags)
    console.print(
        f"{report.cases} cases: {len(report.errors)} errors"
        + (f" {report.by_reason()}" if report.errors else "")
        + f", {flags} flag{'' if flags == 1 else 's'}"
        + (f" in {len(report.flagged_cases())} cases {report.flags_by_reason()}" if flags else "")
        + f", {len(report.warnings)} warnings"
        + (" (--strict: flags fail)" if strict and flags else ""),
        highlight=False, markup=False,
    )
    if not report.passed(strict=strict):
        raise typer.Exit(1)


@app.command()
@handle_errors
def stats(
    dataset: Path = typer.Argument(..., help="Dataset folder."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the statistics as JSON ('-' for stdout)."),
    plots: Path | None = typer.Option(None, "--plots", help="Write PNG plots into this folder."),
    against: Path | None = typer.Option(
        None, "--against", help="Reference dataset: print the realism report of DATASET against it instead."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the realism report's classifier samples and folds."),
    auc_repeats: int = typer.Option(
        5, "--auc-repeats", min=1, help="Rounds of sampling and cross-validation the realism report's AUC averages."
    ),
) -> None:
    """Statistics of a dataset: counts, operations, categories, turns, chats, noise, patterns, variety.

    With --against REFERENCE: the realism report, DATASET and REFERENCE side by side (docs/generator.md)."""
    from rich.markup import escape
    from rich.table import Table

    from proevent.generate.stats import compute_stats, write_plots
    from proevent.io import load_dataset

    if against is not None:
        if plots is not None:
            raise fail("--plots does not go with --against")
        _realism(load_dataset(dataset), load_dataset(against), json_out, seed, auc_repeats)
        return
    st = compute_stats(load_dataset(dataset))
    if json_out is not None:
        text = json.dumps(st, indent=2, ensure_ascii=False)
        if str(json_out) == "-":
            console.print_json(text)
            return
        json_out.write_text(text + "\n", encoding="utf-8")
    table = Table(title=f"{dataset}", show_header=True)
    table.add_column("statistic")
    table.add_column("value", overflow="fold")
    for key, value in st.items():
        if key == "subcategories":
            value = f"{len(value)} subcategories"
        table.add_row(escape(key), escape(_value_text(value)))
    console.print(table)
    if plots is not None:
        for path in write_plots(st, plots):
            say(f"wrote {path}")
    if not st["cases"]:
        raise fail("the dataset has no cases")


def _value_text(value: Any) -> str:
    """A statistic as text: counts as ``key value, ...``, lists joined, never a Python repr."""
    if isinstance(value, dict):
        return counts_text(value)
    if isinstance(value, list | tuple):
        return ", ".join(_value_text(v) for v in value)
    return "–" if value is None else str(value)


def _realism(dataset: Any, reference: Any, json_out: Path | None, seed: int, repeats: int) -> None:
    """``stats --against``: the realism report as a table, and as JSON with ``--json``."""
    from rich.table import Table

    from proevent.generate.realism import realism_report, report_rows

    with err_console.status("computing the realism report"):
        report = realism_report(dataset, reference, seed=seed, repeats=repeats)
    if json_out is not None:
        text = json.dumps(report.to_json(), indent=2, ensure_ascii=False)
        if str(json_out) == "-":
            console.print_json(text)
            return
        json_out.write_text(text + "\n", encoding="utf-8")
    table = Table(title="realism report", show_header=True)
    table.add_column("figure")
    table.add_column(f"{dataset.path or report.dataset.name}", overflow="fold")
    table.add_column(f"{reference.path or report.reference.name}", overflow="fold")
    for row in report_rows(report):
        table.add_row(*row)
    console.print(table)
