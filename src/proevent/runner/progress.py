"""A rich progress bar with ETA, errors, tokens and cost so far (quiet when not a terminal)."""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from proevent.io.run import line_usage
from proevent.model import PredictionLine


class RunProgress:
    """Counts lines as they are written; refreshes the bar at most ten times a second."""

    def __init__(self, total: int, *, enabled: bool = True, console: Console | None = None) -> None:
        self.total = total
        self.done = 0
        self.errors = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.cost: float | None = 0.0
        self._last = 0.0
        self._progress: Progress | None = None
        if enabled and total:
            self._progress = Progress(
                TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                TextColumn("{task.fields[stats]}"), console=console, transient=False, auto_refresh=False,
            )
            self._task = self._progress.add_task("run", total=total, stats="")

    def __enter__(self) -> RunProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._refresh()
            self._progress.stop()

    def cost_text(self) -> str:
        return "unknown" if self.cost is None else f"${self.cost:.4f}"

    def stats(self) -> str:
        return (f"errors {self.errors}  tokens {self.prompt_tokens:,}+{self.completion_tokens:,}  "
                f"cost {self.cost_text()}")

    def add(self, line: PredictionLine, *, priced: bool, usage: dict[str, Any] | None = None) -> None:
        """Count a written line, with :func:`proevent.io.run.line_usage` (what the run summary and
        ``run.json`` count too); ``usage`` when the caller has it already."""
        self.done += 1
        if line.error:
            self.errors += 1
        part = usage if usage is not None else line_usage(line)
        self.prompt_tokens += part["prompt_tokens"]
        self.completion_tokens += part["completion_tokens"]
        cost = part["cost_usd"]
        if (cost is None or not priced) and (line.usage is not None or part["requests"]):
            self.cost = None
        elif self.cost is not None and cost is not None:
            self.cost += cost
        now = time.monotonic()
        if self._progress is not None and (now - self._last > 0.1 or self.done == self.total):
            self._last = now
            self._refresh()

    def _refresh(self) -> None:
        assert self._progress is not None
        self._progress.update(self._task, completed=self.done, stats=self.stats())
        self._progress.refresh()
