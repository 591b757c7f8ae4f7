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
"""Where the axes' titles stand (the top of the axes, below their pad): no axes has ticks or a label
on top, so this is where matplotlib's own placement would put them; given, it is not searched for at
every draw."""
RC = {
    "svg.hashsalt": "proevent",  # stable ids in the SVG
    "svg.fonttype": "none",  # text as text in the SVG (no glyph outlines to compute and write)
}
"""The rc settings of every figure, applied once around its drawing (:func:`_drawing`): each text's
font is then looked up in matplotlib's cache, never per figure."""


def plotting_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _drawing():
    from matplotlib import rc_context

    return rc_context(RC)


def _save(fig, out_base: Path) -> list[Path]:
    """Write ``.png`` (at :data:`DPI`) and ``.svg``: one draw each. The figure has no layout engine
    and a fixed size whose margins were set to fit its labels (:func:`_place`), so neither file is
    laid out, measured or cropped again."""
    out_base.parent.mkdir(parents=True, exist_ok=True)
    png, svg = out_base.with_suffix(".png"), out_base.with_suffix(".svg")
    fig.savefig(png, format="png", dpi=DPI, metadata={"Software": None})
    fig.savefig(svg, format="svg", metadata={"Date": None})
    return [png, svg]


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI, layout="none")
    FigureCanvasAgg(fig)
    return fig


def _place(fig, *, left: float, right: float, top: float, bottom: float, wspace: float = 0.0,
           hspace: float = 0.0) -> None:
    """Subplot parameters given in inches (margins from each edge of the figure; ``wspace`` and
    ``hspace`` the gaps between axes)."""
    width, height = fig.get_size_inches()
    grid = fig.axes[0].get_subplotspec().get_gridspec()
    cols, rows = grid.get_geometry()[1], grid.get_geometry()[0]
    axes_w = (width - left - right - wspace * (cols - 1)) / cols
    axes_h = (height - top - bottom - hspace * (rows - 1)) / rows
    fig.subplots_adjust(left=left / width, right=1 - right / width, bottom=bottom / height, top=1 - top / height,
                        wspace=wspace / axes_w, hspace=hspace / axes_h)


def _text_width(fig, texts: Sequence[str], size: float) -> float:
    """The widest of ``texts`` at font ``size``, in inches (one line each)."""
    from matplotlib.font_manager import FontProperties

    renderer = fig.canvas.get_renderer()
    prop = FontProperties(size=size)
    widest = max((renderer.get_text_width_height_descent(t, prop, ismath=False)[0] for t in texts), default=0.0)
    return widest / fig.dpi


def robustness_plot(
    runs: Sequence[ScoredRun], rows: Sequence[CaseRows], out_base: Path, *, n_boot: int = 1000, seed: int = 0
) -> list[Path]:
    """Recall and precision against negotiation turns, concurrent chats and per noise content kind,
    one line per run with 95% intervals; writes ``out_base`` .png and .svg and returns their paths."""
    with _drawing():
        return _save(robustness_figure(runs, rows, n_boot=n_boot, seed=seed), out_base)


def robustness_figure(runs: Sequence[ScoredRun], rows: Sequence[CaseRows], *, n_boot: int = 1000, seed: int = 0):
    """The figure :func:`robustness_plot` saves: a row per metric, a column per dimension, in each
    axes one errorbar container per run (its data line at the group's value in percent, its bars
    the 95% interval)."""
    n = len(runs)
    one_dataset = len({sr.dataset.sha256 for sr in runs}) == 1
    columns = []
    for dim, _ in DIMENSIONS:
        grouped: dict[int, dict[str, list[int]]] = {}  # runs of one report mostly share one dataset object
        for sr in runs:
            if id(sr.dataset) not in grouped:
                grouped[id(sr.dataset)] = group_cases(sr.dataset.cases, dim)
        per_run = [grouped[id(sr.dataset)] for sr in runs]
        labels = sorted({g for groups in per_run for g in groups}, key=label_order)
        counts = {g: len(idx) for g, idx in per_run[0].items()} if one_dataset else {}
        ticklabels = [g.replace("_", " ") + (f"\n(n={counts[g]})" if g in counts else "") for g in labels]
        columns.append((per_run, labels, ticklabels))
    fig = _figure(12.5, 6.8)
    # each column as wide as its tick labels need, side by side (within a floor): no label runs into the next
    needs = [len(ticks) * (_text_width(fig, [ln for t in ticks for ln in t.split("\n")], 8) + 0.15)
             for _, _, ticks in columns]
    floor = 0.5 * sum(needs) / len(needs) if any(needs) else 1.0
    widths = [max(need, floor) for need in needs]
    left, right, wspace = 0.62, 0.12, 0.42
    room = (12.5 - left - right - wspace * (len(widths) - 1)) / sum(widths)
    sizes = [8 if need <= room * width else 7 for need, width in zip(needs, widths)]  # smaller where crowded
    axes = fig.subplots(len(METRICS), len(DIMENSIONS), squeeze=False, gridspec_kw={"width_ratios": widths})
    _place(fig, left=left, right=right, top=0.62, bottom=1.0, wspace=wspace, hspace=0.78)
    metric_keys = [m for m, _ in METRICS]
    for col, ((dim, dim_label), (per_run, labels, ticklabels)) in enumerate(zip(DIMENSIONS, columns)):
        x_of = {g: i for i, g in enumerate(labels)}
        values = _group_values(rows, per_run, metric_keys, n_boot=n_boot, seed=seed)
        for row_i, (metric, metric_label) in enumerate(METRICS):
            ax = axes[row_i][col]
            if not [g for g in labels if g != "unknown"]:
                ax.text(0.5, 0.5, f"no case has meta.{dim}", ha="center", va="center", transform=ax.transAxes,
                        fontsize=9, color="#555555")
            for k, (sr, run_values) in enumerate(zip(runs, values)):
                xs, ys, lo, hi = _series(run_values[metric], x_of, k, n)
                ax.errorbar(
                    xs,
                    ys,
                    yerr=[lo, hi],
                    color=COLORS[k % len(COLORS)],
                    marker=MARKERS[k % len(MARKERS)],
                    linestyle="none" if dim == "noise_content" else LINESTYLES[k % len(LINESTYLES)],
                    linewidth=1.4,
                    markersize=6,
                    capsize=3,
                    elinewidth=0.9,
                    label=sr.label,
                    markerfacecolor="white" if k % 2 else COLORS[k % len(COLORS)],
                )
            ax.set_xlim(-0.5, len(labels) - 0.5)
            ax.set_ylim(-5, 105)
            _ticks(ax, "x", range(len(labels)), ticklabels, size=sizes[col],
                   label=dim_label if row_i == len(METRICS) - 1 else None)
            _ticks(ax, "y", YTICKS, [str(y) for y in YTICKS], size=10,
                   label=f"{metric_label} (%)" if col == 0 else None, grid=True)
            ax.set_title(f"{metric_label} by {dim_label}", fontsize=10, y=TITLE_Y)
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncols=min(max(len(names), 1), 6),
               frameon=False)
    fig.suptitle(
        "Robustness: single-step recall and precision by case difficulty (95% bootstrap intervals)", fontsize=11,
        y=1 - 0.08 / 6.8, va="top",
    )
    return fig


YTICKS = (0, 20, 40, 60, 80, 100)


TICK = 3.5
"""Tick length and the gap between a tick and its label, in points (matplotlib's defaults)."""
LABELPAD = 4.0
"""The gap between the tick labels and the axis label, in points (matplotlib's default)."""


def _ticks(ax, which: str, positions: Sequence[float], labels: Sequence[str], *, size: float,
           label: str | None = None, grid: bool = False) -> None:
    """Ticks, their labels, the axis label and the grid of one axis drawn as a few plain artists
    (one line of tick marks, one text per label, one collection of grid lines), as matplotlib's
    axis draws them with its defaults, in place of the axis itself: the axis object would make
    five artists a tick and measure every label again at each draw. The texts carry matplotlib's
    names as their ``label`` property (``xtick``, ``xlabel``...) for whoever reads them back."""
    from matplotlib.lines import TICKDOWN, TICKLEFT, Line2D
    from matplotlib.transforms import ScaledTranslation

    fig = ax.get_figure()
    pos = list(positions)
    x = which == "x"
    (ax.xaxis if x else ax.yaxis).set_visible(False)
    along = ax.get_xaxis_transform() if x else ax.get_yaxis_transform()  # data along the axis, axes across
    zeros = [0.0] * len(pos)
    ax.add_line(Line2D(pos if x else zeros, zeros if x else pos, transform=along, linestyle="none",
                       marker=TICKDOWN if x else TICKLEFT, markersize=TICK, markeredgewidth=0.8, color="black",
                       clip_on=False, label="_ticks"))
    gap = 2 * TICK / 72
    shift = ScaledTranslation(0, -gap, fig.dpi_scale_trans) if x else ScaledTranslation(-gap, 0, fig.dpi_scale_trans)
    texts = [ax.text(p if x else 0, 0 if x else p, t, transform=along + shift, fontsize=size, clip_on=False,
                     ha="center" if x else "right", va="top" if x else "center_baseline", label=f"_{which}tick")
             for p, t in zip(pos, labels)]
    if grid:
        ends = {"xmin": 0, "xmax": 1} if not x else {"ymin": 0, "ymax": 1}
        lines = (ax.vlines if x else ax.hlines)(pos, **ends, transform=along, colors="#dddddd", linewidth=0.6,
                                                zorder=0.5, label="_grid")
        lines.set_clip_on(True)
    if label is None:
        return
    renderer = fig.canvas.get_renderer()
    extent = max((t.get_window_extent(renderer) for t in texts), key=lambda b: b.height if x else b.width,
                 default=None)
    depth = (0 if extent is None else (extent.height if x else extent.width) * 72 / fig.dpi) + 2 * TICK + LABELPAD
    if x:
        ax.text(0.5, 0, label, transform=ax.transAxes + ScaledTranslation(0, -depth / 72, fig.dpi_scale_trans),
                ha="center", va="top", fontsize=10, label="_xlabel")
    else:
        ax.text(0, 0.5, label, transform=ax.transAxes + ScaledTranslation(-depth / 72, 0, fig.dpi_scale_trans),
                ha="center", va="bottom", rotation="vertical", rotation_mode="anchor", fontsize=10, label="_ylabel")


def _series(
    points: Sequence[GroupValue], x_of: dict[str, int], k: int, n: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where run ``k`` of ``n`` draws a metric's groups: x (the group's tick, shifted so that the
    runs stand side by side), the value in percent (nan without one) and the interval's distances
    below and above it (0 without one)."""
    offset = (k - (n - 1) / 2) * min(0.08, 0.5 / max(n, 1))
    xs = np.array([x_of[p.group] for p in points], dtype=float) + offset
    ys = np.array([np.nan if p.value is None else 100 * p.value for p in points])
    lo = np.array([0 if p.ci is None or p.value is None else 100 * (p.value - p.ci[0]) for p in points])
    hi = np.array([0 if p.ci is None or p.value is None else 100 * (p.ci[1] - p.value) for p in points])
    return xs, ys, lo, hi


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
    with _drawing():
        return _save(error_figure(labels, summaries), out_base)


def error_figure(labels: Sequence[str], summaries: Sequence[ErrorSummary]):
    """The figure :func:`error_plot` saves: one bar collection per run drawn (the bars' widths its
    shares in percent, category by category from the top), a count beside each bar that has one."""
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import Rectangle
    from matplotlib.ticker import MaxNLocator

    cats = [c for c in categories() if any(s.counts[c.key] for s in summaries)]
    shown = [(lab, s) for lab, s in zip(labels, summaries) if s.total]
    height_in = 1.0 + 0.3 * max(len(cats), 1) * max(1.0, 0.6 * len(shown))
    fig = _figure(8.0, height_in)
    ax = fig.subplots()
    if not shown:
        ax.text(0.5, 0.5, "no errors in any run", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return fig
    cat_labels = [c.label for c in cats]
    _place(fig, left=_text_width(fig, cat_labels, 9) + 0.2, right=0.45, top=0.4, bottom=0.85)
    height = 0.8 / len(shown)
    ys = np.arange(len(cats))
    top = 0.0
    handles = []
    for k, (lab, s) in enumerate(shown):
        shares = np.array([100 * s.counts[c.key] / s.total for c in cats])
        top = max(top, float(shares.max()))
        y0 = ys - 0.4 + height * (k + 0.5) - height * 0.46
        y1 = y0 + height * 0.92
        style = {"facecolor": COLORS[k % len(COLORS)], "alpha": 0.85, "hatch": HATCHES[k % len(HATCHES)],
                 "edgecolor": "black", "linewidth": 0.6}
        boxes = [((0, a), (w, a), (w, b), (0, b)) for w, a, b in zip(shares, y0, y1)]
        ax.add_collection(PolyCollection(boxes, label=f"{lab} ({s.total} errors)", **style), autolim=False)
        handles.append(Rectangle((0, 0), 1, 1, label=f"{lab} ({s.total} errors)", **style))
        for w, a, b, c in zip(shares, y0, y1, cats):
            if s.counts[c.key]:
                ax.text(w + 0.6, (a + b) / 2, str(s.counts[c.key]), va="center", fontsize=7)
    ax.set_ylim(len(cats) - 0.5, -0.5)  # the first category on top
    xmax = min(100.0, top * 1.15 + 5)
    ax.set_xlim(0, xmax)
    xticks = [x for x in MaxNLocator(nbins=9, steps=[1, 2, 2.5, 5, 10]).tick_values(0, xmax) if 0 <= x <= xmax]
    _ticks(ax, "y", ys, cat_labels, size=9)
    _ticks(ax, "x", xticks, [f"{x:g}" for x in xticks], size=10, label="share of the run's errors (%)", grid=True)
    fig.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.0), ncols=min(len(shown), 4), fontsize=8,
               frameon=False)
    clean = [lab for lab, s in zip(labels, summaries) if not s.total]
    title = "Error distribution (single-step, repeat 0)"
    if clean:
        title += f" — no errors: {', '.join(clean)}"
    ax.set_title(title, fontsize=10, y=TITLE_Y)
    return fig
