"""The scorer's package loads its modules on first use, and the resamples shared by the runs of a
report give the same intervals as each run drawing its own."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from proevent.evaluate import aggregate, bootstrap_intervals, evaluate, shared_resamples
from proevent.evaluate.aggregate import resample_blocks, weight_blocks, weighted_sums
from proevent.evaluate.groupboot import shared_group_values
from proevent.io import load_dataset, load_run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ev = importlib.import_module("proevent.evaluate")  # the package (``proevent.evaluate`` is also the function)


def test_every_public_name_resolves_to_its_module():
    assert sorted(ev.__all__) == sorted(ev._MODULE_OF) and len(ev.__all__) == len(set(ev.__all__))
    for name in ev.__all__:
        value = getattr(ev, name)
        module = f"proevent.evaluate.{ev._MODULE_OF[name]}"
        assert getattr(sys.modules[module], name) is value
    assert set(ev.__all__) <= set(dir(ev))
    with pytest.raises(AttributeError):
        ev.no_such_name  # noqa: B018


def test_a_submodule_loads_alone():
    """What the CLI's command modules import at startup (the judges' names, the percent format)
    loads neither numpy nor the scorer."""
    code = ("import sys, proevent.evaluate.judges, proevent.evaluate.metrics; "
            "print(' '.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "numpy" not in loaded
    assert "proevent.evaluate.api" not in loaded and "proevent.evaluate.aggregate" not in loaded


def test_weighted_sums_are_the_integer_product():
    rng = np.random.default_rng(5)
    weights = rng.integers(0, 6, size=(37, 211))
    counts = rng.integers(0, 40, size=(211, 9))
    got = weighted_sums(weights.astype(np.float64), counts.astype(np.float64))
    assert (got == weights @ counts).all()


def test_shared_blocks_are_the_drawn_ones_and_drawn_once(monkeypatch):
    drawn = []
    real = aggregate.weight_blocks

    def counting(*args, **kwargs):
        drawn.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(aggregate, "weight_blocks", counting)
    alone = [b.copy() for b in resample_blocks(50, 250, 4)]
    with shared_resamples():
        first = list(resample_blocks(50, 250, 4))
        with shared_resamples():  # an inner block shares the outer one's
            second = list(resample_blocks(50, 250, 4))
        other = list(resample_blocks(51, 250, 4))
    after = list(resample_blocks(50, 250, 4))
    assert drawn == [(50, 250, 4), (50, 250, 4), (51, 250, 4), (50, 250, 4)]
    for blocks in (first, second, after):
        assert len(blocks) == len(alone) and all((a == b).all() and b.dtype == np.float64
                                                 for a, b in zip(alone, blocks))
    assert len(other) == len(alone) and other[0].shape == (100, 51)
    assert (np.vstack(alone) == np.vstack(list(weight_blocks(50, 250, 4)))).all()


@pytest.mark.parametrize("name", ["flawed", "perfect"])
def test_intervals_with_shared_resamples_are_the_same(name):
    ds = load_dataset(EXAMPLES / "tiny")
    run = load_run(EXAMPLES / "runs" / name)
    alone = evaluate(ds, run, judge="fuzzy", n_boot=300, seed=2)
    with shared_resamples():
        shared = [evaluate(ds, run, judge="fuzzy", n_boot=300, seed=2) for _ in range(2)]
    assert all(s.metrics == alone.metrics for s in shared)
    assert bootstrap_intervals(alone.rows, n_boot=300, seed=2) == alone.metrics["ci"]


def test_group_values_with_shared_resamples_are_the_same():
    ds = load_dataset(EXAMPLES / "tiny")
    rows = [evaluate(ds, load_run(EXAMPLES / "runs" / n), judge="fuzzy", ci=False).rows for n in ("flawed", "perfect")]
    groups = {"a": [0, 2, 3], "b": [1, 4], "c": list(range(len(ds.cases)))}
    groups = {k: [i for i in v if i < len(ds.cases)] for k, v in groups.items()}
    metrics = ["single.recall", "single.precision", "multi.esr"]
    alone = shared_group_values(rows, groups, metrics, n_boot=200, seed=1)
    with shared_resamples():
        shared = shared_group_values(rows, groups, metrics, n_boot=200, seed=1)
    assert shared == alone


class _CountingJudge:
    """Answers as the places judge, counting the questions it is asked."""

    def __init__(self) -> None:
        from proevent.evaluate import get_judge

        self.inner = get_judge("places")
        self.name = self.inner.name
        self.asked: list[tuple] = []

    def same(self, a, b, context=None) -> bool:
        self.asked.append((a, b))
        return self.inner.same(a, b, context)


def test_the_very_string_is_the_same_place_without_asking_the_judge():
    from proevent.evaluate.equivalence import Comparator
    from proevent.evaluate.normalize import People
    from proevent.model import make_event

    judge = _CountingJudge()
    comp = Comparator(People(["Ana"]), judge)  # type: ignore[arg-type]
    assert comp.same_place("Blue Bottle, Oakland", "Blue Bottle, Oakland") and comp.same_place(None, None)
    assert comp.value_equal("location", "Heathrow T5", "Heathrow T5")
    a = make_event(start="2026-01-05T10:00", location="Café Nero")
    assert comp.events_equal(a, make_event(start="2026-01-05T10:00", location="Café Nero"))
    assert judge.asked == []
    assert not comp.same_place("Café Nero", None) and comp.same_place("Cafe Nero", "café nero")
    assert judge.asked == [("Café Nero", None), ("Cafe Nero", "café nero")]  # anything else is the judge's


def test_the_judge_answers_every_identical_pair_as_the_same_place():
    """What ``Comparator.same_place`` leaves unasked is what every judge answers anyway."""
    from proevent.evaluate import get_judge

    for name in ("exact", "fuzzy", "places"):
        judge = get_judge(name)
        for text in ("Blue Bottle, Oakland", "her place", "Heathrow Terminal 5", "", None):
            assert judge.same(text, text, None)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 40, 999, 1000])
def test_both_bounds_in_one_call_are_those_of_one_call_each(n):
    from proevent.evaluate.aggregate import percentile_interval

    rng = np.random.default_rng(n)
    for values in (rng.random(n), rng.integers(0, 5, n) / 5, np.where(rng.random(n) < 0.2, np.nan, rng.random(n))):
        kept = values[~np.isnan(values)]
        expected = None if kept.size == 0 else (float(np.percentile(kept, 2.5)), float(np.percentile(kept, 97.5)))
        assert percentile_interval(values) == expected
