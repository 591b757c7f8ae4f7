"""Ecosystem commands: ``proevent export hf``, ``proevent import hf`` and ``proevent import-inspect``.

Each needs an optional extra (``hf`` or ``inspect``), imported inside the command, so the core
install and ``proevent --help`` never need them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from proevent.cli.common import app, console, fail, handle_errors

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
