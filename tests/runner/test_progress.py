"""The progress counters (the bar itself is rich's)."""

from __future__ import annotations

import io

from rich.console import Console

from proevent.model import PredictionLine, Usage
from proevent.runner.progress import RunProgress


def line(error=None, cost=None, tokens=(0, 0)):
    usage = Usage(prompt_tokens=tokens[0], completion_tokens=tokens[1]) if any(tokens) else None
    extra = {"cost_usd": cost} if cost is not None else {}
    return PredictionLine(case_id="c", mode="single", t=1, ops=[], error=error, usage=usage, **extra)


def test_counts_errors_tokens_and_cost():
    out = io.StringIO()
    with RunProgress(3, console=Console(file=out, width=200, force_terminal=False)) as bar:
        bar.add(line(cost=0.5, tokens=(100, 10)), priced=True)
        bar.add(line(error="boom"), priced=True)
        bar.add(line(cost=0.25, tokens=(50, 5)), priced=True)
    assert (bar.done, bar.errors, bar.prompt_tokens, bar.completion_tokens) == (3, 1, 150, 15)
    assert bar.stats() == "errors 1  tokens 150+15  cost $0.7500"
    assert "3/3" in out.getvalue()


def test_unpriced_model_shows_unknown_cost_not_zero():
    bar = RunProgress(2, enabled=False)
    bar.add(line(tokens=(100, 10)), priced=False)
    assert bar.cost is None and bar.cost_text() == "unknown"
