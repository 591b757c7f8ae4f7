"""``proevent serve`` (viewer, human, review and annotate modes) and ``proevent agreement``."""

from __future__ import annotations

from pathlib import Path

import typer

from proevent.cli.common import app, build_config, console, err_console, fail, handle_errors, pct, say, warn


@app.command("serve")
@handle_errors
def serve_command(
    dataset: Path = typer.Argument(..., help="Dataset folder (cases.jsonl + dataset.json)."),
    runs: list[Path] = typer.Argument(None, help="Run folders to show against the gold (viewer only)."),
    host: str = typer.Option("127.0.0.1", help="Address to bind; anything but loopback exposes the data."),
    port: int = typer.Option(8000, help="Port."),
    human: str | None = typer.Option(None, help="Human mode: play the agent under this name."),
    review: str | None = typer.Option(None, help="Review mode: judge each case under this annotator name."),
    annotate: str | None = typer.Option(None, help="Annotate mode: write the gold operations under this name."),
    export: Path | None = typer.Option(
        None, help="Annotate mode: write the annotated dataset to this folder and exit (no server)."),
    sample: int | None = typer.Option(
        None, help="Human mode: sample this many cases; review mode: review this many, the flagged ones first "
        "(default: all)."),
    seed: int = typer.Option(0, help="Human mode: sampling seed."),
    mode: str = typer.Option("single", help="Human mode: single (gold timetable given) or multi."),
    context: int = typer.Option(20, help="Human mode: earlier messages shown per chat."),
    out: Path | None = typer.Option(
        None, help="Human mode: run folder (default human-NAME); review mode: annotations file "
        "(default review-NAME/annotations.jsonl); annotate mode: gold file (default DATASET/gold-NAME.jsonl)."),
    judge: str | None = typer.Option(
        None, help="Location judge used to colour the runs: exact, fuzzy or places (default: the metrics version's)."),
    flagged_first: bool = typer.Option(
        True, "--flagged-first/--dataset-order",
        help="Review mode: the cases `proevent validate` flags come first (default), or dataset order."),
) -> None:
    """Browse DATASET and RUNs in a browser, play the agent (--human), review cases (--review) or write
    the gold step by step (--annotate)."""
    from rich.markup import escape

    from proevent.web.config import ServeConfig

    settings = {"dataset": dataset, "runs": runs or [], "host": host, "port": port, "human": human,
                "review": review, "annotate": annotate, "sample": sample, "seed": seed, "mode": mode,
                "context": context, "out": out, "judge": judge, "flagged_first": flagged_first}
    config = build_config(ServeConfig, settings, source="proevent serve",
                          flags={k: f"--{k.replace('_', '-')}" for k in settings if k not in ("dataset", "runs")})
    try:
        import uvicorn

        from proevent.web import create_app
    except ImportError as exc:
        raise fail(f"the web viewer needs the 'web' extra: pip install 'proevent[web]' ({exc.name} missing)") from None

    if not config.is_loopback:
        warn(f"binding {host}: anyone who can reach this address can read the dataset and write answers")
    if export is not None and annotate is None:
        raise fail("--export writes an annotated dataset: give --annotate NAME too")
    web_app = create_app(config)
    state = web_app.state.web
    if export is not None:
        from proevent.web.annotate import export_report, report_text

        try:
            say(report_text(export_report(state.annotate, export)))
        finally:
            state.annotate.close()
        return
    for banner in state.banners():
        err_console.print(f"[yellow]{escape(banner['level'])}:[/yellow] {escape(banner['title'])}", highlight=False)
        for line in banner["lines"]:
            err_console.print(f"  {line}", markup=False, highlight=False)
    flagged = len(state.review.flags) if state.review is not None else 0
    first = f"; {flagged} cases flagged by the validator come first" if flagged and flagged_first else ""
    what = {"viewer": f"{len(state.dataset.cases)} cases, {len(state.runs)} run(s)",
            "human": f"human mode as {human}, answers in {config.output_path}",
            "review": f"review mode as {review}, annotations in {config.output_path}{first}",
            "annotate": f"annotate mode as {annotate}, gold in {config.output_path}"}[config.serve_mode]
    shown_host = f"[{host}]" if ":" in host else host
    say(f"proevent serve: {what}\nopen http://{shown_host}:{port}/  (Ctrl-C to stop)")
    try:
        uvicorn.run(web_app, host=host, port=port, log_level="warning")
    finally:
        for session in (state.human, state.annotate):
            if session is not None:
                session.close()


@app.command("agreement")
@handle_errors
def agreement_command(
    first: Path = typer.Argument(..., help="annotations.jsonl of the first annotator."),
    second: Path = typer.Argument(..., help="annotations.jsonl of the second annotator."),
) -> None:
    """Agreement of two annotators: percent, Cohen's kappa and the disputed cases."""
    from rich.markup import escape
    from rich.table import Table

    from proevent.web.review import agreement, load_annotations

    res = agreement(load_annotations(first), load_annotations(second))
    a, b = res.annotators
    if res.n == 0:
        raise fail("the two files have no case in common")
    kappa = f"{res.kappa:.3f}" if res.kappa is not None else "undefined (every verdict the same)"
    say(f"{a} vs {b}: {res.n} cases judged by both")
    say(f"agreement: {res.agreed}/{res.n} = {pct(res.percent)}")
    say(f"Cohen's kappa: {kappa}")
    table = Table(title="verdicts", show_edge=False)
    table.add_column(escape(f"{a} \\ {b}"))
    table.add_column("valid", justify="right")
    table.add_column("invalid", justify="right")
    for row in ("valid", "invalid"):
        table.add_row(row, str(res.table[(row, "valid")]), str(res.table[(row, "invalid")]))
    console.print(table)
    if res.disputed:
        say(f"disputed cases ({len(res.disputed)}):")
        for case_id, x, y in res.disputed:
            say(f"  {case_id}: {a} {_verdict(x)} / {b} {_verdict(y)}")
    else:
        say("disputed cases: none")
    if res.only_first or res.only_second:
        say(f"judged by one annotator only: {len(res.only_first)} by {a}, {len(res.only_second)} by {b}")


def _verdict(ann) -> str:  # type: ignore[no-untyped-def]
    text = ann.verdict + (f" ({ann.reason})" if ann.reason else "")
    return text + (f" — {ann.note}" if ann.note else "")
