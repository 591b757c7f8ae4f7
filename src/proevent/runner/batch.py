"""The batch layer: work items, bounded workers, the append-only store, resume and progress."""

from __future__ import annotations

import asyncio
import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from proevent.agents.protocol import QUIET, Agent
from proevent.agents.registry import create_agent, get_spec
from proevent.io import Dataset
from proevent.io.run import Key, add_usage, empty_usage, rounded_usage, run_usage
from proevent.llm import LLMClient
from proevent.llm.batchfile import BatchRecorder, current_tracker, track_pending
from proevent.model import Case, PredictionLine
from proevent.runner.config import RunConfig
from proevent.runner.core import run_multi, run_single
from proevent.runner.lines import prepared
from proevent.runner.preflight import EndpointError, preflight
from proevent.runner.progress import RunProgress
from proevent.runner.rounds import PendingWork, later_steps_with_messages, requests_per_question
from proevent.runner.secrets import redact_url
from proevent.runner.store import RunStore, open_store


@dataclass
class RunSummary:
    """What a call of the runner did."""

    path: Path
    written: int = 0
    skipped: int = 0
    errors: int = 0
    quiet: int = 0
    """Lines written for steps without new messages, answered without a request."""
    budget_reached: bool = False
    """The call stopped taking new work at ``max_cost_usd``; what is left is answered on resume."""
    usage: dict[str, Any] = field(default_factory=dict)
    """The whole run's usage, summed from its prediction lines (as in ``run.json``)."""
    call_usage: dict[str, Any] = field(default_factory=dict)
    """This call's share: the lines it wrote (what the progress bar counts)."""
    errored_lines: int = 0
    """Errored lines of the run (the last line of each question) after this call."""
    failed_requests: int = 0
    """Of those, lines whose request failed (HTTP errors, unreachable endpoint)."""
    failed: bool = False
    """More errored lines than ``max_errors``, or (by default) any failed request: the CLI exits non-zero."""
    stopped: str | None = None
    """Why the circuit breaker stopped the run (then :class:`RunStopped` is raised)."""
    batch_requests: int = 0
    """Batch mode: requests written to the batch file (each key once)."""
    pending: PendingWork = field(default_factory=PendingWork)
    """Batch mode: questions left unanswered for want of an answer, and what they need at most."""


def select_cases(dataset: Dataset, config: RunConfig) -> list[Case]:
    cases = dataset.cases
    if config.cases:
        wanted = set(config.cases)
        unknown = wanted - {c.case_id for c in cases}
        if unknown:
            raise ValueError(f"unknown case ids: {', '.join(sorted(unknown))}")
        cases = [c for c in cases if c.case_id in wanted]
    if config.limit is not None:
        cases = cases[: config.limit]
    return cases


def _answered(existing: dict[Key, PredictionLine], retry_errors: bool) -> set[Key]:
    return {k for k, line in existing.items() if not (retry_errors and line.error)}


def plan(cases: list[Case], config: RunConfig, answered: set[Key]) -> tuple[list[tuple[Any, ...]], int, int]:
    """Work items still to do: ``("single", case, t, r)`` and ``("multi", case, r, done_lines)``.

    Returns (items, questions to answer, questions skipped). In multi-step mode a case resumes
    after its last answered step in a row; later lines of that case, if any, are answered again.
    """
    items: list[tuple[Any, ...]] = []
    todo = skipped = 0
    modes = config.modes()
    for r in range(config.repeats):
        for case in cases:
            if "single" in modes:
                for step in case.steps:
                    if (case.case_id, "single", step.t, r) in answered:
                        skipped += 1
                    else:
                        items.append(("single", case, step.t, r))
                        todo += 1
            if "multi" in modes:
                done: list[int] = []
                for step in case.steps:
                    if (case.case_id, "multi", step.t, r) not in answered:
                        break
                    done.append(step.t)
                skipped += len(done)
                if len(done) < len(case.steps):
                    items.append(("multi", case, r, done))
                    todo += len(case.steps) - len(done)
    return items, todo, skipped


def request_failure(line: PredictionLine) -> int | None:
    """``None`` when the line's request did not fail; else the HTTP status the server answered
    (0 when it answered none: unreachable, timed out, dropped). Read from the error text the
    agents write (``request failed: HTTP 401: ...``, ``request failed: request failed after 7
    attempts: ClientConnectorError ...``)."""
    return error_failure(line.error)


def error_failure(error: str | None) -> int | None:
    """:func:`request_failure` of a line whose error text is ``error``."""
    error = error or ""
    if not (error.startswith("request failed") or "LLMError" in error):
        return None
    match = _STATUS.search(error)
    return int(match.group(1)) if match else 0


_STATUS = re.compile(r"\bHTTP (\d{3})\b")
FATAL_STATUSES = (401, 403, 404)
"""A request answered with one of these stops the run at once: no other question will fare better."""


class RunStopped(RuntimeError):
    """The run was stopped by its circuit breaker (or the preflight); the lines written are kept.
    ``summary`` says what was done."""

    def __init__(self, message: str, summary: RunSummary) -> None:
        super().__init__(message)
        self.summary = summary


_YOUNG_THRESHOLD = 20_000
_relaxed = [0, (700, 10, 10)]  # blocks open, the thresholds before the first


@contextmanager
def _fewer_young_collections() -> Iterator[None]:
    """The collector's first threshold raised to 20,000 allocations while the workers run, then as it
    was. Hundreds of requests in flight keep their prompts, replies and sockets' objects alive, so a
    collection every 700 allocations walks (and promotes) them again and again: 11% of the runner's
    CPU at concurrency 256 (0.07 s instead of 0.9 s for 7,900 requests). Overlapping runs in one
    process share one setting, restored when the last ends."""
    if _relaxed[0] == 0:
        _relaxed[1] = gc.get_threshold()
        gc.set_threshold(max(_YOUNG_THRESHOLD, _relaxed[1][0]), *_relaxed[1][1:])
    _relaxed[0] += 1
    try:
        yield
    finally:
        _relaxed[0] -= 1
        if _relaxed[0] == 0:
            gc.set_threshold(*_relaxed[1])


def _urls(config: RunConfig) -> str:
    return ", ".join(redact_url(u) for u in config.llm.base_urls) if config.llm else "the endpoint"


async def execute(
    config: RunConfig,
    dataset: Dataset,
    out: Path,
    *,
    agent: Agent | None = None,
    client: LLMClient | None = None,
    progress: bool = True,
    force: bool = False,
    console: Console | None = None,
    batch_out: Path | None = None,
) -> RunSummary:
    """Run ``config`` on ``dataset`` into the folder ``out`` (created, or resumed).

    With ``batch_out`` nothing is sent: the requests the cache does not answer go to that file
    (OpenAI Batch API input lines, see :mod:`proevent.llm.batchfile`), the questions waiting for
    them get no line, and ``summary.pending`` says what is still to come; import the answers and
    run again.

    Raises:
        RunStopped: the endpoint is unreachable or refuses (preflight), a request was answered
            401/403/404, or ``max_consecutive_failures`` requests failed in a row.
        RunLockedError: another process is writing to ``out``.
        RunWriteError: a file of the run cannot be written (the message names it).
    """
    spec = get_spec(config.agent)
    own_client = False
    if agent is None:
        options = dict(config.agent_options)
        if spec.needs_llm:
            if config.llm is None:
                raise ValueError(f"agent {config.agent!r} needs a model: pass --model (and --base-url)")
            if client is None:
                recorder = BatchRecorder(batch_out) if batch_out is not None else None
                client = LLMClient(config.llm, recorder=recorder) if recorder else LLMClient(config.llm)
                own_client = True
            options["client"] = client
        if spec.needs_gold:
            options["dataset"] = dataset
        agent = create_agent(config.agent, **options)
    elif batch_out is not None:
        raise ValueError("batch_out needs the runner to make the agent and its client")
    description = agent.describe()
    per_question = requests_per_question(description)
    recording = client is not None and getattr(client, "recorder", None) is not None
    priced = client.priced if client is not None else True
    budget = config.max_cost_usd if client is not None else None
    if budget is not None and not priced:
        raise ValueError(f"a budget needs a priced model: {config.llm.model if config.llm else '?'} has no "
                         "price (--price-in/--price-out)")
    secrets = [k for k in [config.llm.api_key() if config.llm else None] if k]
    try:
        store = open_store(config, description, dataset, out, uses_llm=spec.needs_llm, force=force)
    except BaseException:
        if own_client and client is not None:
            await client.aclose()
        raise
    summary = RunSummary(path=Path(out))
    stop: list[str] = []
    # the run's usage: the file's before this call plus each line as it is appended, in file order,
    # so the sum is the one ``run_usage`` would read back at the end (it read the whole file again)
    whole: dict[str, Any] | None = None
    try:
        cases = select_cases(dataset, config)
        by_id = {c.case_id: c for c in cases}
        items, todo, summary.skipped = plan(cases, config, _answered(store.existing, config.retry_errors))
        prior = run_usage(store.path)
        whole, call = dict(prior), empty_usage()
        # each question's last error (None: answered), all the summary reads of its lines: the lines
        # themselves, kept to the end, were walked again by each young collection while the workers
        # ran (bench at concurrency 256: 91-140 ms of collections a run, 34-52 ms without them)
        final: dict[Key, str | None] = {key: line.error for key, line in store.existing.items()}
        if items and own_client and config.llm is not None and config.preflight and not recording:
            try:
                await preflight(config.llm)
            except EndpointError as exc:
                stop.append(str(exc))
                items = []

        def over_budget() -> bool:
            if budget is None:
                return False
            spent = prior["cost_usd"]
            if spent is not None and call["cost_usd"] is not None:
                spent += call["cost_usd"]
            return spent is not None and spent >= budget

        failures_in_row = 0
        tasks: list[asyncio.Task[None]] = []

        def trip(message: str) -> None:
            if not stop:
                stop.append(message)
                for task in tasks:
                    if task is not asyncio.current_task():
                        task.cancel()

        with RunProgress(todo if items else 0, enabled=progress, console=console) as bar:

            def emit(line: PredictionLine) -> None:
                nonlocal failures_in_row
                tracker = current_tracker()
                if tracker is not None and tracker.pending:
                    if line.mode == "multi":
                        case = by_id[line.case_id]
                        summary.pending.add(per_question, tracker.answered, later_steps_with_messages(case, line.t))
                        raise _Stop
                    summary.pending.add(per_question, tracker.answered)
                    return
                line, data, part = prepared(line, secrets)
                store.write(line, data)
                if tracker is not None:
                    if tracker.taken and client is not None and client.cache is not None:
                        client.cache.forget_imported_later(tracker.taken)
                    tracker.answered, tracker.taken = 0, []  # the next step of a multi-step case counts afresh
                final[line.key] = line.error
                add_usage(call, part)
                add_usage(whole, part)
                summary.written += 1
                summary.errors += line.error is not None
                summary.quiet += (line.__pydantic_extra__ or {}).get("skipped") == QUIET  # no getattr miss
                bar.add(line, priced=priced, usage=part)
                status = request_failure(line)
                if status is None:
                    if line.error is not None or part["requests"] or part["cache_hits"]:
                        failures_in_row = 0
                    return
                failures_in_row += 1
                shown = f"HTTP {status}" if status else "no answer"
                if status in FATAL_STATUSES:
                    trip(f"{_urls(config)} answered {shown}: {line.error}; stopped at once (no other "
                         "question would fare better)")
                elif failures_in_row >= config.max_consecutive_failures:
                    trip(f"{_urls(config)}: {failures_in_row} requests in a row failed, the last with {shown}: "
                         f"{line.error}; stopped (--max-consecutive-failures {config.max_consecutive_failures})")
                if stop:
                    raise _Stop

            queue: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
            for item in items:
                queue.put_nowait(item)

            async def worker() -> None:
                while not stop:
                    if over_budget():
                        summary.budget_reached |= not queue.empty()
                        return
                    try:
                        item = queue.get_nowait()
                    except asyncio.QueueEmpty:
                        return
                    try:
                        with track_pending():
                            await _one(item)
                    except _Stop:
                        if stop:
                            return

            async def _one(item: tuple[Any, ...]) -> None:
                if item[0] == "single":
                    _, case, t, r = item
                    emit(await run_single(agent, case, t, repeat=r, context_messages=config.context_messages))
                else:
                    _, case, r, done = item
                    done_lines = {t: store.existing[(case.case_id, "multi", t, r)] for t in done}
                    await run_multi(agent, case, repeat=r, context_messages=config.context_messages,
                                    done=done_lines, emit=emit)

            tasks.extend(asyncio.ensure_future(worker())
                         for _ in range(min(config.concurrency, max(1, len(items)))))
            with _fewer_young_collections():
                results = await asyncio.gather(*tasks, return_exceptions=True)
            for result in results:
                if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
                    raise result
        summary.call_usage = rounded_usage(call)
        errored = [error for error in final.values() if error is not None]
        failed = [error for error in errored if error_failure(error) is not None]
        summary.errored_lines, summary.failed_requests = len(errored), len(failed)
        summary.failed = bool(failed) if config.max_errors is None else len(errored) > config.max_errors
    except BaseException:
        _finish(store, summary, client, priced, quiet=True)
        if own_client and client is not None:
            await client.aclose()
        raise
    _finish(store, summary, client, priced, quiet=False, usage=whole)
    if own_client and client is not None:
        await client.aclose()
    if recording:
        summary.batch_requests = client.recorder.count  # type: ignore[union-attr]
        client.recorder.close()  # type: ignore[union-attr]
    if stop:
        summary.stopped = stop[0]
        raise RunStopped(stop[0], summary)
    return summary


class _Stop(Exception):
    """Raised by ``emit`` once the circuit breaker tripped: the worker ends its case there."""


def _finish(store: RunStore, summary: RunSummary, client: LLMClient | None, priced: bool, *, quiet: bool,
            usage: dict[str, Any] | None = None) -> None:
    """Write ``run.json`` with the run's usage summed from its lines (``usage``: summed as they were
    written; else read back from the file), and close the store. With ``quiet`` (an error is on its
    way up already) a failed write does not hide that error."""
    try:
        if client is None:
            usage = None
        else:
            usage = rounded_usage(usage if usage is not None else run_usage(store.path))
        if usage is not None and not priced:
            usage["cost_usd"] = None
        summary.usage = usage or {}
        store.write_manifest(usage=usage, last_call=client.totals.as_dict() if client is not None else None)
    except (OSError, ValueError):
        if not quiet:
            raise
    finally:
        store.close()
