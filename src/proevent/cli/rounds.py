"""The round reports of ``proevent run --batch-out``, ``proevent generate --batch-out`` and the llm
judge in batch mode: shared by those commands, so that command modules need not import each other."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from proevent.cli.common import fail, say

EXIT_PENDING = 6
"""``generate`` in batch mode: requests wait in the batch file, nothing of the dataset is written."""


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
