"""Paired ablation tables (the paper's table 2, figure 4(b), appendix E).

The first run is the *base*; every other run is an *arm*: a run on a paired variant of the base
dataset (:mod:`proevent.generate.variants`: the same case ids, windows, timetables and gold) or a
run on the base dataset itself with another option (``update_prompt=true``). For each arm and
metric: the value on the base, on the arm, and the paired difference arm - base with the bootstrap
interval of :func:`proevent.evaluate.compare_results` over the cases both share (optionally only
those a given run got wrong on the base: the paper's table 2 uses a model's error cases).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from proevent.evaluate import compare_results, evaluate
from proevent.evaluate.metrics import percent
from proevent.io import Dataset
from proevent.report.collect import ScoredRun

DEFAULT_METRICS = ("single.recall", "single.precision")


@dataclass
class ArmRow:
    label: str
    factor: str
    """What the arm changes: the variant (``noise=failed_planning``) or the options that differ."""
    cases: int
    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    """metric -> base, arm, delta, ci (of arm - base), p, resamples."""


@dataclass
class Ablation:
    base: str
    rows: list[ArmRow]
    metrics: tuple[str, ...]
    n_boot: int
    seed: int
    subset: str | None = None
    """``errors of RUN`` when the table is restricted to a run's error cases on the base."""

    def to_json(self) -> dict[str, Any]:
        return {"base": self.base, "metrics": list(self.metrics), "n_boot": self.n_boot, "seed": self.seed,
                "subset": self.subset,
                "rows": [{"label": r.label, "factor": r.factor, "cases": r.cases, "values": r.values}
                         for r in self.rows]}


def factor_of(base: ScoredRun, arm: ScoredRun) -> str:
    """The variant the arm's dataset records, else the run options that differ from the base's."""
    variant = (arm.dataset.manifest.generator or {}).get("variant")
    if arm.dataset.sha256 != base.dataset.sha256 and isinstance(variant, dict):
        return str(variant.get("name"))
    a, b = _options(base), _options(arm)
    diff = [f"{k}={b.get(k)}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    if base.manifest.agent != arm.manifest.agent:
        diff.insert(0, f"agent={arm.manifest.agent}")
    return ", ".join(diff) or "(same dataset and options)"


def _options(run: ScoredRun) -> dict[str, Any]:
    cfg = run.manifest.config or {}
    return dict(cfg.get("options") or {})


def check_paired(base: Dataset, arm: Dataset) -> list[str]:
    """The case ids both datasets hold, in base order, after checking that those cases are paired
    (same windows, initial timetable and gold); a ``ValueError`` names the first case that is not."""
    from proevent.generate.variants import same_gold

    if arm.sha256 == base.sha256:
        return [c.case_id for c in base.cases]
    theirs = {c.case_id: c for c in arm.cases}
    shared = [c.case_id for c in base.cases if c.case_id in theirs]
    if not shared:
        raise ValueError(f"{arm.manifest.name} shares no case id with {base.manifest.name}: not a paired variant")
    for cid in shared:
        if not same_gold(base.case(cid), theirs[cid]):
            raise ValueError(f"{arm.manifest.name}: case {cid} has other windows, timetables or gold than in "
                             f"{base.manifest.name}: not a paired variant")
    return shared


def error_cases(run: ScoredRun) -> list[str]:
    """The cases ``run`` got wrong: a single-step question not answered exactly (or, for a run with
    only multi-step lines, a timetable not right at the end)."""
    if run.result.questions:
        return list(dict.fromkeys(q.case_id for q in run.result.questions if not q.exact))
    return [c.case_id for c in run.result.cases if not c.timetable_success]


def _rescored(run: ScoredRun, ids: list[str], judge: str | None) -> tuple[Dataset, Any]:
    if [c.case_id for c in run.dataset.cases] == ids:
        return run.dataset, run.result
    sub = run.dataset.subset(ids)
    return sub, evaluate(sub, run.run, judge=judge, ci=False, breakdowns=False)


def ablation(base: ScoredRun, arms: Sequence[ScoredRun], *, metrics: Sequence[str] = DEFAULT_METRICS,
             on_errors_of: ScoredRun | None = None, n_boot: int = 1000, seed: int = 0,
             judge: str | None = None) -> Ablation:
    """The paired table: each arm against the base on the cases they share (and, with
    ``on_errors_of``, that run got wrong on the base dataset)."""
    subset = None
    wrong: set[str] | None = None
    if on_errors_of is not None:
        check_paired(base.dataset, on_errors_of.dataset)
        wrong = set(error_cases(on_errors_of))
        subset = f"errors of {on_errors_of.label}"
    rows = []
    for arm in arms:
        shared = check_paired(base.dataset, arm.dataset)
        ids = [c for c in shared if wrong is None or c in wrong]
        row = ArmRow(arm.label, factor_of(base, arm), len(ids))
        if ids:
            base_ds, base_res = _rescored(base, shared, judge)
            _, arm_res = _rescored(arm, shared, judge)
            cmp = compare_results(base_ds, arm_res, base_res, n_boot=n_boot, seed=seed, case_ids=ids)
            by_key = {d.key: d for d in cmp.metrics}
            for key in metrics:
                d = by_key.get(key)
                if d is not None:
                    row.values[key] = {"base": d.b, "arm": d.a, "delta": d.diff,
                                       "ci": list(d.ci) if d.ci else None, "p": d.p_value, "resamples": d.resamples}
        rows.append(row)
    return Ablation(base.label, rows, tuple(metrics), n_boot, seed, subset)


def _pt(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:+.1f}"


def table_rows(ab: Ablation) -> tuple[list[str], list[list[str]]]:
    """The table as header and rows of text: the base row, then per arm its values and its Δ row (the
    base row again before an arm whose shared cases give other base values)."""
    head = ["", "factor", "cases", *(k.split(".", 1)[1] for k in ab.metrics)]
    out: list[list[str]] = []
    shown: list[str] | None = None
    for r in ab.rows:
        base_vals = [str(r.cases), *(percent(r.values.get(k, {}).get("base")) for k in ab.metrics)]
        if base_vals != shown:
            out.append([ab.base, "base", *base_vals])
            shown = base_vals
        out.append([r.label, r.factor, str(r.cases), *(percent(r.values.get(k, {}).get("arm")) for k in ab.metrics)])
        deltas = []
        for k in ab.metrics:
            v = r.values.get(k, {})
            ci = v.get("ci")
            deltas.append(f"{_pt(v.get('delta'))} pt" + (f" [{_pt(ci[0])}, {_pt(ci[1])}]" if ci else ""))
        out.append(["Δ", "", "", *deltas])
    return head, out


def markdown(ab: Ablation) -> str:
    head, rows = table_rows(ab)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    where = f", on the {ab.subset}" if ab.subset else ""
    lines.append("")
    lines.append(f"Δ = arm − base in points, 95% paired bootstrap interval ({ab.n_boot} resamples, seed "
                 f"{ab.seed}) over the shared cases{where}.")
    return "\n".join(lines) + "\n"


def plot(ab: Ablation, path: str | Path) -> Path:
    """Figure 4(b): per metric, the base and every arm as bars; an arm's error bar is its paired Δ
    interval placed on the base value (base + CI of arm − base)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = ["base", *(r.factor for r in ab.rows)]
    fig, axes = plt.subplots(1, len(ab.metrics), figsize=(3.2 * len(ab.metrics) + 1, 3.4), squeeze=False)
    for ax, key in zip(axes[0], ab.metrics):
        base = next((r.values[key]["base"] for r in ab.rows if key in r.values and r.values[key]["base"] is not None),
                    None)
        vals = [base, *(r.values.get(key, {}).get("arm") for r in ab.rows)]
        heights = [100 * (v or 0.0) for v in vals]
        err_lo, err_hi = [0.0], [0.0]
        for r in ab.rows:
            v = r.values.get(key, {})
            ci, arm = v.get("ci"), v.get("arm")
            if ci and arm is not None and base is not None:
                err_lo.append(max(0.0, 100 * (arm - (base + ci[0]))))
                err_hi.append(max(0.0, 100 * ((base + ci[1]) - arm)))
            else:
                err_lo.append(0.0)
                err_hi.append(0.0)
        colours = ["#888888", *(["#3b75af"] * len(ab.rows))]
        ax.bar(range(len(vals)), heights, yerr=[err_lo, err_hi], color=colours, capsize=3)
        ax.set_xticks(range(len(vals)), labels, rotation=30, ha="right", fontsize=8)
        ax.set_title(key.split(".", 1)[1])
        ax.set_ylim(0, 100)
        ax.set_ylabel("%")
    title = ab.base + (f" ({ab.subset})" if ab.subset else "")
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def write_json(ab: Ablation, path: str | Path) -> None:
    Path(path).write_text(json.dumps(ab.to_json(), indent=2) + "\n", encoding="utf-8")


__all__ = ["DEFAULT_METRICS", "Ablation", "ArmRow", "ablation", "check_paired", "error_cases", "factor_of",
           "markdown", "plot", "table_rows", "write_json"]
