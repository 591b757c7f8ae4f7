"""Robustness plots like the paper's figure 4, and the error-distribution chart like its figure 5.

matplotlib is imported inside the functions (the ``report`` extra) and used through the object API
with the Agg canvas: no pyplot state, no display. Every run gets its own marker, line style and
hatch as well as a colour, so the figures stay readable printed in black and white.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from proevent.evaluate import CaseRows, categories, group_cases, label_order
from proevent.evaluate.breakdowns import GroupValue
from proevent.evaluate.groupboot import shared_group_values
from proevent.report.collect import ScoredRun
from proevent.report.error_summary import ErrorSummary

DIMENSIONS: tuple[tuple[str, str], ...] = (
    ("negotiation_turns", "negotiation turns (T)"),
    ("concurrent_chats", "concurrent chats (N)"),
    ("noise_content", "noise content"),
)
METRICS: tuple[tuple[str, str], ...] = (("single.recall", "Recall"), ("single.precision", "Precision"))
COLORS = ("#1b1b1b", "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#56b4e9", "#e69f00", "#7f7f7f")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), (0, (1, 3)), (0, (8, 2)))
HATCHES = ("", "///", "...", "xxx", "\\\\\\", "---", "+++", "ooo")
DPI = 150
TITLE_Y = 1.0
"""Where the axes' titles stand (the top of the axes, below their pad): where matplotlib's automatic
placement puts them here, since no axes has ticks or a label on top; given, it is not searched for
at every draw (the tick and spine extents of every axes measured again: a tenth of the drawing)."""


def plotting_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True

def _save(fig, out_base: Path) -> list[Path]:
    """Write ``.png`` and ``.svg`` with two draws in all: the png's draw solves the constrained
    layout and rasterises the whole figure at :data:`DPI`; the tight box (measured with that draw's
    text extents, so no text is laid out again) crops its pixels; the layout is then frozen and the
    svg draws once within the same box. (``savefig(bbox_inches="tight")`` drew the png twice, once
    only to measure, and the box was measured again at another resolution.)"""
    from matplotlib import rc_context

    out_base.parent.mkdir(parents=True, exist_ok=True)
    png, svg = out_base.with_suffix(".png"), out_base.with_suffix(".svg")
    fig.set_dpi(DPI)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    bbox = fig.get_tightbbox(renderer).padded(0.1)  # savefig's pad_inches
    _write_cropped_png(png, np.asarray(renderer.buffer_rgba()), bbox, fig.get_figheight())
    with rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
        fig.set_layout_engine(None)  # no engine at all: savefig would draw once more for one
    fig.savefig(svg, format="svg", dpi=DPI, metadata={"Date": None}, bbox_inches=bbox)
    return [png, svg]


def _write_cropped_png(path: Path, rgba: np.ndarray, bbox, fig_height: float) -> None:
    """The part of the rendered figure within ``bbox`` (inches from the bottom left, as
    ``get_tightbbox`` gives it) as a png; what lies outside the figure is white, as savefig pads."""
    from matplotlib.image import imsave

    x0, x1 = round(bbox.x0 * DPI), round(bbox.x1 * DPI)
    top, bottom = round((fig_height - bbox.y1) * DPI), round((fig_height - bbox.y0) * DPI)
    out = np.full((bottom - top, x1 - x0, 4), 255, dtype=np.uint8)
    height, width = rgba.shape[:2]
    sy0, sy1, sx0, sx1 = max(top, 0), min(bottom, height), max(x0, 0), min(x1, width)
    out[sy0 - top:sy1 - top, sx0 - x0:sx1 - x0] = rgba[sy0:sy1, sx0:sx1]
    imsave(path, out, format="png", origin="upper", dpi=DPI, metadata={"Software": None})


def _figure(width: float, height: float):
    from matplotlib import rcParams
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    rcParams["svg.hashsalt"] = "proevent"  # stable ids in the SVG
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def robustness_plot(
    runs: Sequence[ScoredRun], rows: Sequence[CaseRows], out_base: Path, *, n_boot: int = 1000, seed: int = 0
) -> list[Path]:
    """Recall and precision against negotiation turns, concurrent chats and per noise content kind,
    one line per run with 95% intervals; writes ``out_base`` .png and .svg and returns their paths."""
    fig = _figure(12.5, 6.8)
    axes = fig.subplots(len(METRICS), len(DIMENSIONS), squeeze=False)
    n = len(runs)
    one_dataset = len({sr.dataset.sha256 for sr in runs}) == 1
    for col, (dim, dim_label) in enumerate(DIMENSIONS):
        grouped: dict[int, dict[str, list[int]]] = {}  # runs of one report mostly share one dataset object
        for sr in runs:
            if id(sr.dataset) not in grouped:
                grouped[id(sr.dataset)] = group_cases(sr.dataset.cases, dim)
        per_run = [grouped[id(sr.dataset)] for sr in runs]
        labels = sorted({g for groups in per_run for g in groups}, key=label_order)
        x_of = {g: i for i, g in enumerate(labels)}
        metric_keys = [m for m, _ in METRICS]
        values = _group_values(rows, per_run, metric_keys, n_boot=n_boot, seed=seed)
        for row_i, (metric, metric_label) in enumerate(METRICS):
            ax = axes[row_i][col]
            if not [g for g in labels if g != "unknown"]:
                ax.text(
                    0.5,
                    0.5,
                    f"no case has meta.{dim}",
                    ha="center",
                    va="center",
                    transform=ax.transAxes,
                    fontsize=9,
                    color="#555555",
                )
            for k, (sr, run_values) in enumerate(zip(runs, values)):
                pts = run_values[metric]
                offset = (k - (n - 1) / 2) * min(0.08, 0.5 / max(n, 1))
                xs = np.array([x_of[p.group] for p in pts], dtype=float) + offset
                ys = np.array([np.nan if p.value is None else 100 * p.value for p in pts])
                lo = np.array([0 if p.ci is None or p.value is None else 100 * (p.value - p.ci[0]) for p in pts])
                hi = np.array([0 if p.ci is None or p.value is None else 100 * (p.ci[1] - p.value) for p in pts])
                categorical = dim == "noise_content"
                ax.errorbar(
                    xs,
                    ys,
                    yerr=[lo, hi],
                    color=COLORS[k % len(COLORS)],
                    marker=MARKERS[k % len(MARKERS)],
                    linestyle="none" if categorical else LINESTYLES[k % len(LINESTYLES)],
                    linewidth=1.4,
                    markersize=6,
                    capsize=3,
                    elinewidth=0.9,
                    label=sr.label,
                    markerfacecolor="white" if k % 2 else COLORS[k % len(COLORS)],
                )
            ax.set_xticks(range(len(labels)))
            counts = {g: len(idx) for g, idx in per_run[0].items()} if one_dataset else {}
            ax.set_xticklabels(
                [g.replace("_", " ") + (f"\n(n={counts[g]})" if g in counts else "") for g in labels], fontsize=8
            )
            ax.set_ylim(-5, 105)
            ax.grid(axis="y", color="#dddddd", linewidth=0.6)
            ax.set_axisbelow(True)
            if row_i == len(METRICS) - 1:
                ax.set_xlabel(dim_label)
            if col == 0:
                ax.set_ylabel(f"{metric_label} (%)")
            ax.set_title(f"{metric_label} by {dim_label}", fontsize=10, y=TITLE_Y)
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="outside lower center", ncols=min(len(names), 6), frameon=False)
    fig.suptitle(
        "Robustness: single-step recall and precision by case difficulty (95% bootstrap intervals)", fontsize=11
    )
    return _save(fig, out_base)


def _group_values(
    rows: Sequence[CaseRows], per_run: Sequence[dict[str, list[int]]], metrics: list[str], *, n_boot: int, seed: int
) -> list[dict[str, list[GroupValue]]]:
    """``group_values_of`` of each run, the runs that share their groups (their dataset) drawing each
    group's resamples once (:func:`shared_group_values`)."""
    shared: dict[int, list[int]] = {}
    for i, groups in enumerate(per_run):
        shared.setdefault(id(groups), []).append(i)
    out: list[dict[str, list[GroupValue]]] = [{} for _ in rows]
    for members in shared.values():
        got = shared_group_values([rows[i] for i in members], per_run[members[0]], metrics, n_boot=n_boot, seed=seed)
        for i, values in zip(members, got):
            out[i] = values
    return out


def error_plot(labels: Sequence[str], summaries: Sequence[ErrorSummary], out_base: Path) -> list[Path]:
    """Share of each error category per run (horizontal bars, counts at the bar ends), like figure 5.
    Runs without any error are named in the title instead of drawn."""
    cats = [c for c in categories() if any(s.counts[c.key] for s in summaries)]
    shown = [(lab, s) for lab, s in zip(labels, summaries) if s.total]
    fig = _figure(8.0, 1.0 + 0.3 * max(len(cats), 1) * max(1.0, 0.6 * len(shown)))
    ax = fig.subplots()
    if not shown:
        ax.text(0.5, 0.5, "no errors in any run", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return _save(fig, out_base)
    height = 0.8 / len(shown)
    ys = np.arange(len(cats))
    top = 0.0
    for k, (lab, s) in enumerate(shown):
        shares = np.array([100 * s.counts[c.key] / s.total for c in cats])
        top = max(top, float(shares.max()))
        pos = ys - 0.4 + height * (k + 0.5)
        bars = ax.barh(
            pos,
            shares,
            height=height * 0.92,
            color=COLORS[k % len(COLORS)],
            alpha=0.85,
            hatch=HATCHES[k % len(HATCHES)],
            edgecolor="black",
            linewidth=0.6,
            label=f"{lab} ({s.total} errors)",
        )
        for bar, c in zip(bars, cats):
            if s.counts[c.key]:
                ax.text(
                    bar.get_width() + 0.6,
                    bar.get_y() + bar.get_height() / 2,
                    str(s.counts[c.key]),
                    va="center",
                    fontsize=7,
                )
    ax.set_yticks(ys)
    ax.set_yticklabels([c.label for c in cats], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, min(100.0, top * 1.15 + 5))
    ax.set_xlabel("share of the run's errors (%)")
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)
    fig.legend(loc="outside lower center", ncols=min(len(shown), 4), fontsize=8, frameon=False)
    clean = [lab for lab, s in zip(labels, summaries) if not s.total]
    title = "Error distribution (single-step, repeat 0)"
    if clean:
        title += f" — no errors: {', '.join(clean)}"
    ax.set_title(title, fontsize=10, y=TITLE_Y)
    return _save(fig, out_base)
