"""``proevent batch import``, and the round reports of ``proevent run --batch-out`` and
``proevent generate --batch-out``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from proevent.cli.common import app, fail, handle_errors, say, warn

EXIT_PENDING = 6
"""``generate`` in batch mode: requests wait in the batch file, nothing of the dataset is written."""

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


def _files(batch_out: Path) -> str:
    from proevent.llm.batchfile import files_text, part_path

    parts, n = [], 1
    while (part := part_path(batch_out, n)).exists():
        parts.append(part)
        n += 1
    return files_text(parts) or str(batch_out)


def print_round(summary: Any, batch_out: Path) -> None:
    """What a ``run --batch-out`` call left to do: requests written, and at most what is to come."""
    pending = summary.pending
    if not summary.batch_requests and not pending.questions:
        say(f"every question is answered: nothing written to {batch_out}.")
        return
    say(f"{_files(batch_out)}: {summary.batch_requests} requests for {pending.questions} questions still to answer; "
        f"at most {pending.max_requests} requests and {pending.max_rounds} rounds to come, this one included "
        "(a repair or tool round, or a later step, needs the answer before it). Send the file, import the "
        "answers with `proevent batch import OUTPUT`, then run the same command with a new --batch-out.")


@contextmanager
def generate_recording(batch_out: Path | None, realizer: str) -> Iterator[Any]:
    """The recorder of a ``generate`` call: ``--batch-out``'s (the clients made in the block record
    to it), else ``$PROEVENT_BATCH_OUT``'s, else ``None``; only the ``llm`` realiser asks anything."""
    if batch_out is not None and realizer != "llm":
        raise fail("--batch-out needs the llm realiser (--realizer llm): the template realiser asks nothing")
    if realizer != "llm":
        yield None
        return
    from proevent.llm.batchfile import BatchRecorder, recorder_from_env, recording

    if batch_out is None:
        yield recorder_from_env()
        return
    with recording(BatchRecorder(batch_out)) as recorder:
        yield recorder


def generate_round(result: Any, asked: int, recorder: Any) -> typer.Exit:
    """What a ``generate --batch-out`` round left to do (nothing of the dataset is written), and the
    exit to raise (:data:`EXIT_PENDING`)."""
    where = files_of(recorder) if recorder is not None else "the batch file"
    requests = recorder.count if recorder is not None else 0
    say(f"{where}: {requests} requests for {result.pending} of the {asked} cases; {len(result.cases)} cases "
        f"complete, nothing of the dataset written yet. At most {result.pending_rounds} rounds to come, this one "
        "included (a reply that fails the realiser's check is asked again, a rejected attempt is drawn again). "
        "Send the file, import the answers with `proevent batch import OUTPUT`, then run the same command with a "
        "new --batch-out; the dataset is written once every case is complete.")
    return typer.Exit(EXIT_PENDING)


def files_of(recorder: Any) -> str:
    """The files a recorder wrote, in words."""
    from proevent.llm.batchfile import files_text

    recorder.close()
    return files_text(recorder.paths) or str(recorder.path)


def judge_pending(run: Path, exc: Any) -> typer.Exit | None:
    """``evaluate --judge llm`` with ``$PROEVENT_BATCH_OUT``: the pairs whose request waits in the
    batch file, and the one round to come (the judge asks once per pair, no repair); ``None`` when
    no pair waits (``exc``: the :class:`~proevent.evaluate.JudgeFailed` raised)."""
    from proevent.llm.batchfile import PENDING_TEXT, recorder_from_env

    waiting = [f for f in exc.failures if PENDING_TEXT in str(f.get("error", ""))]
    recorder = recorder_from_env() if os.environ.get("PROEVENT_BATCH_OUT") else None
    if not waiting or recorder is None:
        return None
    others = len(exc.failures) - len(waiting)
    return fail(f"{run}: the llm judge's requests for {len(waiting)} location pairs are in {files_of(recorder)} "
                f"({recorder.count} requests); 1 round to come (the judge asks once per pair). Send the file, "
                "import the answers with `proevent batch import OUTPUT`, then run the same command again with a "
                f"new PROEVENT_BATCH_OUT; metrics.json is unchanged"
                + (f". {others} more pairs failed otherwise: {exc}" if others else ""), code=EXIT_PENDING)
