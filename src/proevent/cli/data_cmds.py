"""Commands on the data format itself: ``proevent schema`` and ``proevent ics``."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from proevent.cli.common import app, fail, handle_errors, say, warn


@app.command()
@handle_errors
def schema(
    out: Path = typer.Option(..., "--out", "-o", help="Folder to write the *.schema.json files into."),
) -> None:
    """Write the JSON Schemas of the data format (one file per model) into a folder."""
    from proevent.io.schema import write_schemas

    for path in write_schemas(out):
        say(str(path))


@app.command()
@handle_errors
def ics(
    dataset: Path | None = typer.Argument(None, help="Dataset folder."),
    case_id: str | None = typer.Argument(None, help="Case whose timetable to export."),
    step: int | None = typer.Option(
        None, "--step", "-t", help="Step whose gold timetable to export (0 = initial; default the last)."
    ),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write the .ics here (default stdout); with --run: the folder for the .ics files."
    ),
    read: Path | None = typer.Option(
        None, "--read", help="Read this .ics file and print its events as JSON lines instead."
    ),
    timezone: str | None = typer.Option(
        None, "--timezone", help="With --read: IANA zone to express aware times in."
    ),
    run: Path | None = typer.Option(
        None, "--run", help="Export this run's own multi-step timetable of every case (one .ics per case)."
    ),
    run_dataset: Path | None = typer.Option(None, "--dataset", help="With --run: the dataset (or give DATASET)."),
    out_dir: Path | None = typer.Option(None, "--out", hidden=True, help="Deprecated: -o/--output."),
    repeat: int = typer.Option(0, "--repeat", help="With --run: which repeat to replay."),
    with_gold: bool = typer.Option(False, "--with-gold", help="With --run: also write <case>.gold.ics."),
) -> None:
    """Export a case's timetable to iCalendar, a run's timetables (--run), or read an .ics file back."""
    if out_dir is not None:
        if output is not None:
            raise fail("give -o/--output only (--out is its old name)")
        warn("--out is deprecated: use -o/--output")
        output = out_dir
    if run is not None:
        _export_run_calendars(run, run_dataset or dataset, output, case_id=case_id, step=step, repeat=repeat,
                              with_gold=with_gold)
        return
    from proevent.io.ics import gold_sequences, ics_to_events, timetable_to_ics
    from proevent.io.jsonl import dumps_line

    if read is not None:
        if dataset is not None or case_id is not None:
            raise fail("--read takes no DATASET or CASE_ID")
        if not read.is_file():
            raise fail(f"{read}: file not found")
        for ev in ics_to_events(read.read_bytes(), timezone=timezone):
            sys.stdout.write(dumps_line(ev.model_dump(mode="json")))
        return
    if dataset is None or case_id is None:
        raise fail("give DATASET and CASE_ID (or --read FILE.ics)")
    from proevent.io import load_dataset

    case = load_dataset(dataset).case(case_id)
    t = case.steps[-1].t if (step is None and case.steps) else (step or 0)
    if t == 0:
        events = case.initial_timetable
    else:
        found = [s for s in case.steps if s.t == t]
        if not found:
            known = ", ".join(str(s.t) for s in case.steps)
            raise fail(f"case {case_id!r} has no step {t} (steps: 0, {known})")
        events = found[0].gold_timetable
    data = timetable_to_ics(events, user=case.user, timezone=case.timezone, case_id=case.case_id,
                            sequences=gold_sequences(case, t))
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        output.write_bytes(data)
        say(f"wrote {len(events)} events to {output}")


def _export_run_calendars(run: Path, dataset: Path | None, out: Path | None, *, case_id: str | None,
                          step: int | None, repeat: int, with_gold: bool) -> None:
    """``proevent ics --run RUN --dataset DATASET -o DIR``: one .ics per case of the run's own timetable."""
    if dataset is None or out is None:
        raise fail("--run needs the dataset (--dataset DIR or DATASET) and -o/--output DIR")
    from proevent.integrations.ics_run import export_run_ics
    from proevent.io import load_dataset, load_run
    from proevent.model import dataset_mismatch

    ds, rn = load_dataset(dataset), load_run(run)
    mismatch = dataset_mismatch(rn, ds, dataset)
    if mismatch:
        warn(mismatch)
    result = export_run_ics(ds, rn, out, step=step, repeat=repeat, with_gold=with_gold,
                            cases=[case_id] if case_id else None)
    incomplete = [r.case_id for r in result.replays if r.missing_steps or r.error_steps]
    say(f"wrote {len(result.files)} calendars to {result.folder}")
    if incomplete:
        say(f"{len(incomplete)} case(s) with missing or errored steps (counted as no operation): "
            + ", ".join(incomplete[:10]) + (" ..." if len(incomplete) > 10 else ""))
