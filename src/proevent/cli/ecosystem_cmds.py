"""Ecosystem commands: ``proevent export hf``, ``proevent import hf`` and ``proevent import-inspect``.

Each needs an optional extra (``hf`` or ``inspect``), imported inside the command, so the core
install and ``proevent --help`` never need them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from proevent.cli.common import add_initial_ics, app, console, fail, handle_errors, warn

export_app = typer.Typer(name="export", help="Export a dataset for other tools.", no_args_is_help=True)
import_app = typer.Typer(name="import", help="Import a dataset exported for other tools.", no_args_is_help=True)
app.add_typer(export_app, name="export")
app.add_typer(import_app, name="import")


def _need(module: str, extra: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise fail(f"this command needs {module}: pip install 'proevent[{extra}]'")


@export_app.command("hf")
@handle_errors
def export_hf_cmd(
    dataset: Annotated[Path, typer.Argument(help="Dataset folder (cases.jsonl + dataset.json).")],
    out: Annotated[Path, typer.Argument(help="Folder to write the Parquet tables and the dataset card into.")],
    force: Annotated[bool, typer.Option(help="Replace an existing export.")] = False,
) -> None:
    """Write a dataset as Hugging Face Parquet tables (cases, single-step questions) plus a dataset card."""
    _need("pyarrow", "hf")
    from proevent.integrations.hf import export_hf

    result = export_hf(dataset, out, overwrite=force)
    console.print(
        f"wrote {result.cases} cases and {result.questions} questions to {result.folder} "
        f"({', '.join(p.name for p in result.files)})",
        markup=False, highlight=False,
    )


@import_app.command("hf")
@handle_errors
def import_hf_cmd(
    folder: Annotated[Path, typer.Argument(help="Export folder of `proevent export hf` (or its cases.parquet).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Dataset folder to write.")],
    force: Annotated[bool, typer.Option(help="Replace an existing dataset.")] = False,
) -> None:
    """Read a Hugging Face export back into a proevent dataset folder (lossless)."""
    _need("pyarrow", "hf")
    from proevent.integrations.hf import import_hf

    dest = import_hf(folder, out, overwrite=force)
    console.print(f"wrote dataset {dest}", markup=False, highlight=False)


@app.command("ics-initial")
@handle_errors
def ics_initial_cmd(
    dataset: Annotated[Path, typer.Argument(help="Dataset folder (rewritten in place unless --out is given).")],
    ics_file: Annotated[Path, typer.Argument(help="The .ics calendar whose events join every case's timetable.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the result here instead.")] = None,
    align: Annotated[str, typer.Option(
        help="none: keep the file's dates; week: move the events by whole weeks into each case's first week.",
    )] = "none",
    timezone: Annotated[str | None, typer.Option(help="IANA zone to express aware times in.")] = None,
    force: Annotated[bool, typer.Option(help="Replace an existing dataset at --out.")] = False,
) -> None:
    """Add the events of an .ics file to the initial (and every gold) timetable of each case.

    The same as `proevent generate --initial-ics FILE`, applied to an existing dataset. The events
    get ids ics-1, ics-2 ...; gold operations and gold ids are unchanged; the result is validated.
    """
    ds = add_initial_ics(dataset, ics_file, align, out=out, timezone=timezone, overwrite=force)
    n = ds.manifest.generator["initial_ics"]["events"]
    console.print(f"added {n} events to the {len(ds.cases)} cases of {ds.path}", markup=False, highlight=False)


@app.command("import-inspect")
@handle_errors
def import_inspect_cmd(
    logs: Annotated[list[Path], typer.Argument(help="inspect log(s) of proevent/proevent_single or _multi.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Run folder to write (run.json + predictions.jsonl).")],
    strict: Annotated[bool, typer.Option(help="Refuse a log whose status is not success.")] = False,
    force: Annotated[bool, typer.Option(help="Replace an existing run.")] = False,
) -> None:
    """Turn inspect_ai logs of the proevent tasks into a proevent run folder (then `proevent evaluate`)."""
    _need("inspect_ai", "inspect")
    from proevent.integrations.inspect_log import InspectLogError, import_inspect_logs

    try:
        summary = import_inspect_logs(logs, out, strict=strict, overwrite=force)
    except InspectLogError as exc:
        raise fail(str(exc)) from None
    for warning in summary.warnings:
        warn(warning)
    if summary.samples_without_answer:
        console.print(f"{len(summary.samples_without_answer)} sample(s) without an answer (missing in the run): "
                      + ", ".join(summary.samples_without_answer[:10]), markup=False, highlight=False)
    console.print(f"wrote {summary.lines} prediction lines from {summary.samples} samples to {summary.folder}",
                  markup=False, highlight=False)
