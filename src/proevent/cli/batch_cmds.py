"""``proevent batch import`` (the round reports of ``--batch-out`` are in :mod:`proevent.cli.rounds`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from proevent.cli.common import app, fail, handle_errors, say, warn

batch_app = typer.Typer(name="batch", help="Answers from batch endpoints and offline runners.", no_args_is_help=True)
app.add_typer(batch_app, name="batch")


def cache_file(cache_path: Path | None) -> Path:
    """The response cache a run would use: ``--cache-path``, ``$PROEVENT_CACHE``, else the default."""
    from proevent.llm.config import default_cache_path

    if cache_path is not None:
        return cache_path
    env = os.environ.get("PROEVENT_CACHE")
    return Path(env) if env else default_cache_path()


@batch_app.command("import")
@handle_errors
def import_cmd(
    files: Annotated[list[Path], typer.Argument(help="Batch output files (OpenAI Batch API, vLLM run_batch) "
                                                     "or lines {\"custom_id\", \"response\"}.")],
    cache_path: Annotated[Path | None, typer.Option(
        help="The runs' SQLite response cache (env PROEVENT_CACHE; default .proevent-cache/llm-cache.sqlite).")] = None,
    price_factor: Annotated[float, typer.Option(
        help="Scale the cost of these answers: 0.5 for the OpenAI Batch API's half price.")] = 1.0,
) -> None:
    """Put the answers of batch output files into the response cache; then run the same `proevent
    run` command again (with a new --batch-out for what is still to come)."""
    from proevent.llm.batchfile import import_batch_files
    from proevent.llm.cache import ResponseCache

    if price_factor < 0:
        raise fail(f"--price-factor must be 0 or more, not {price_factor:g}")
    for path in files:
        if not path.is_file():
            raise fail(f"{path}: no such file")
    path = cache_file(cache_path)
    cache = ResponseCache(path)
    try:
        report = import_batch_files(files, cache, price_factor=price_factor)
    finally:
        cache.close()
    for problem in report.problems[:20]:
        warn(f"{problem} (line left out)")
    if len(report.problems) > 20:
        warn(f"... and {len(report.problems) - 20} more lines left out")
    say(f"{path}: imported {report.answers} answers and {report.errors} errors from {report.lines} lines"
        f"{f'; {report.already} already answered in the cache' if report.already else ''}"
        f"{f'; {len(report.problems)} unreadable lines left out' if report.problems else ''}.")
    if report.lines and not (report.answers or report.errors or report.already):
        raise fail("nothing imported")
