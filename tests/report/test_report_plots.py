"""The report's figures plot what was computed: values read back from the figures' artists, and a
sanity check of the files (no byte comparison: the images' bytes may change with matplotlib)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from fixtures import FLAWED_RUN, PERFECT_RUN, TINY
from proevent.evaluate import categories, group_cases, label_order
from proevent.evaluate.breakdowns import group_values_of
from proevent.report import load_scored_runs

pytest.importorskip("matplotlib")

from proevent.report import plots  # noqa: E402
from proevent.report.error_summary import summarize_errors  # noqa: E402

N_BOOT = 60


def texts(ax, name: str) -> list[str]:
    """The texts an axes draws as ``name`` (``xtick``, ``ytick``, ``xlabel``, ``ylabel``; see ``plots._ticks``)."""
    return [t.get_text() for t in ax.texts if t.get_label() == f"_{name}"]


@pytest.fixture(scope="module")
def runs():
    return load_scored_runs([FLAWED_RUN, PERFECT_RUN], dataset=TINY, n_boot=N_BOOT)


@pytest.fixture(scope="module")
def summaries(runs):
    return [summarize_errors(sr.dataset, sr.result, judge=sr.judge) for sr in runs]


def test_robustness_figure_plots_each_groups_value_and_interval(runs):
    with plots._drawing():
        fig = plots.robustness_figure(runs, [sr.result.rows for sr in runs], n_boot=N_BOOT, seed=2)
    axes = np.array(fig.axes).reshape(len(plots.METRICS), len(plots.DIMENSIONS))
    for col, (dim, dim_label) in enumerate(plots.DIMENSIONS):
        groups = group_cases(runs[0].dataset.cases, dim)
        labels = sorted(groups, key=label_order)
        for row, (metric, metric_label) in enumerate(plots.METRICS):
            ax = axes[row][col]
            assert ax.get_title() == f"{metric_label} by {dim_label}"
            assert texts(ax, "xtick") == [f"{g.replace('_', ' ')}\n(n={len(groups[g])})" for g in labels]
            assert texts(ax, "ytick") == ["0", "20", "40", "60", "80", "100"]
            assert texts(ax, "xlabel") == ([dim_label] if row == len(plots.METRICS) - 1 else [])
            assert texts(ax, "ylabel") == ([f"{metric_label} (%)"] if col == 0 else [])
            assert len(ax.containers) == len(runs)
            for k, (sr, container) in enumerate(zip(runs, ax.containers)):
                points = group_values_of(sr.result.rows, groups, [metric], n_boot=N_BOOT, seed=2)[metric]
                assert [p.group for p in points] == labels
                line, _caps, (bars,) = container
                xs, ys = line.get_xdata(), line.get_ydata()
                offset = (k - (len(runs) - 1) / 2) * min(0.08, 0.5 / len(runs))
                np.testing.assert_allclose(xs, np.arange(len(labels)) + offset)
                want = [np.nan if p.value is None else 100 * p.value for p in points]
                np.testing.assert_allclose(ys, want)
                # each bar spans the interval (a point without a value or an interval: no length)
                for seg, p in zip(bars.get_segments(), points):
                    lo, hi = sorted(seg[:, 1])
                    if p.value is None:
                        assert np.isnan(lo) or lo == hi
                    elif p.ci is None:
                        assert lo == hi == pytest.approx(100 * p.value)
                    else:
                        assert (lo, hi) == (pytest.approx(100 * p.ci[0]), pytest.approx(100 * p.ci[1]))
                assert container.get_label() == sr.label
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [sr.label for sr in runs]
    assert fig.get_suptitle().startswith("Robustness: single-step recall and precision")


def test_error_figure_plots_each_runs_shares_and_counts(runs, summaries):
    labels = [sr.label for sr in runs]
    with plots._drawing():
        fig = plots.error_figure(labels, summaries)
    (ax,) = fig.axes
    cats = [c for c in categories() if any(s.counts[c.key] for s in summaries)]
    shown = [(lab, s) for lab, s in zip(labels, summaries) if s.total]
    clean = [lab for lab, s in zip(labels, summaries) if not s.total]
    assert cats and shown and clean == ["perfect"]
    assert texts(ax, "ytick") == [c.label for c in cats]
    assert ax.get_title() == f"Error distribution (single-step, repeat 0) — no errors: {', '.join(clean)}"
    assert texts(ax, "xlabel") == ["share of the run's errors (%)"]
    assert texts(ax, "xtick")[0] == "0" and float(texts(ax, "xtick")[-1]) <= ax.get_xlim()[1]
    assert ax.yaxis_inverted()  # the first category on top
    bar_sets = [c for c in ax.collections if not c.get_label().startswith("_")]  # not the grid
    assert len(bar_sets) == len(shown)
    counts = [(t.get_position(), t.get_text()) for t in ax.texts if not t.get_label().startswith("_")]
    for (lab, s), bars in zip(shown, bar_sets):
        assert bars.get_label() == f"{lab} ({s.total} errors)"
        widths = [path.vertices[:, 0].max() - path.vertices[:, 0].min() for path in bars.get_paths()]
        np.testing.assert_allclose(widths, [100 * s.counts[c.key] / s.total for c in cats])
        for path, c in zip(bars.get_paths(), cats):
            y = (path.vertices[:, 1].min() + path.vertices[:, 1].max()) / 2
            assert round(y) == cats.index(c)  # each bar within its category's row
            if s.counts[c.key]:
                assert any(text == str(s.counts[c.key]) and abs(pos[1] - y) < 1e-9 for pos, text in counts)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [f"{lab} ({s.total} errors)" for lab, s in shown]


def test_titles_stand_where_the_automatic_placement_puts_them(runs, summaries, monkeypatch):
    def title_boxes():
        with plots._drawing():
            figs = [plots.robustness_figure(runs, [sr.result.rows for sr in runs], n_boot=N_BOOT),
                    plots.error_figure([sr.label for sr in runs], summaries)]
            for fig in figs:
                fig.canvas.draw()
            return [tuple(ax.title.get_window_extent().bounds) for fig in figs for ax in fig.axes]

    given = title_boxes()
    monkeypatch.setattr(plots, "TITLE_Y", None)  # matplotlib places each title itself
    assert title_boxes() == given


def test_the_files_are_images_of_the_figures_size(runs, summaries, tmp_path):
    from PIL import Image

    files = plots.robustness_plot(runs, [sr.result.rows for sr in runs], tmp_path / "robustness", n_boot=N_BOOT)
    files += plots.error_plot([sr.label for sr in runs], summaries, tmp_path / "errors")
    assert [p.name for p in files] == ["robustness.png", "robustness.svg", "errors.png", "errors.svg"]
    with plots._drawing():
        sizes = [plots.robustness_figure(runs, [sr.result.rows for sr in runs], n_boot=N_BOOT).get_size_inches(),
                 plots.error_figure([sr.label for sr in runs], summaries).get_size_inches()]
    for (png, svg), size in zip((files[:2], files[2:]), sizes):
        with Image.open(png) as img:
            assert img.format == "PNG" and img.size == tuple(round(x * plots.DPI) for x in size)
            pixels = np.asarray(img.convert("L"))
        assert (pixels < 128).mean() > 0.005  # something is drawn, not a blank page
        root = ET.fromstring(svg.read_bytes())
        text = " ".join(root.itertext())
        assert "Recall by negotiation turns" in text or "Error distribution" in text  # the SVG's text is text
