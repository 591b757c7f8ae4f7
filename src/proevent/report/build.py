"""``write_report``: every output of ``proevent report`` into one folder.

```
OUT/index.html            the page (self-contained: images embedded)
OUT/table.md .tex .csv    the paper's table 1
OUT/errors.json           every categorized error, per run
OUT/metrics/<run>.json    each run's metrics.json
OUT/plots/robustness.png .svg, OUT/plots/errors.png .svg
OUT/ablation.md .json     paired ablation tables, when ablations are given (the quickstart's pair)
```

Without matplotlib the plots are skipped (and said so); without jinja2 the page is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic_core import PydanticSerializationError, to_json

from proevent.model.bulk import gc_frozen
from proevent.report.ablation import Ablation
from proevent.report.ablation import markdown as ablation_markdown
from proevent.report.collect import ScoredRun
from proevent.report.error_summary import ErrorSummary, summarize_errors
from proevent.report.table import ReportTable, build_table, to_csv, to_latex, to_markdown

INDEX = "index.html"
REPORT_MARKER = "report.json"
"""Written last; its presence tells a later run that the folder holds a finished report."""


@dataclass
class ReportOutput:
    out: Path
    table: ReportTable
    summaries: list[ErrorSummary]
    files: list[Path] = field(default_factory=list)
    index: Path | None = None
    plots_skipped: str | None = None
    html_skipped: str | None = None


def prepare_folder(out: Path, *, force: bool = False) -> None:
    """Create ``out``; refuse a folder that already holds files unless ``force`` (then our files are
    replaced, other files left alone)."""
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"{out}: exists and is not a folder")
    if out.exists() and any(out.iterdir()) and not force:
        raise FileExistsError(f"{out}: folder exists and is not empty; choose another --out or pass --force")
    out.mkdir(parents=True, exist_ok=True)


def indented_json(data: object) -> str:
    """``json.dumps(data, indent=2, ensure_ascii=False)``, written by pydantic-core: the standard
    library's indenting encoder is pure Python (0.1-0.2 s for the 3 MB errors.json of three runs,
    a quarter of that here). Only for data without floats (the two encoders spell some floats
    differently, ``1e-05`` and ``1e-5``); a test holds the texts equal. Text pydantic-core cannot
    write (a lone surrogate) goes to the standard library, as before."""
    try:
        return to_json(data, indent=2).decode("utf-8")
    except PydanticSerializationError:
        return json.dumps(data, indent=2, ensure_ascii=False)


def _safe(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", label).strip("_") or "run"


def answered_note(runs: Sequence[ScoredRun]) -> list[str]:
    """The caption's line for a report scored with ``--only-answered``: on which cases every row stands."""
    counts = {(sr.result.metrics["dataset"].get("scored_cases"), sr.result.metrics["dataset"].get("of_cases"))
              for sr in runs}
    if len(counts) != 1 or None in next(iter(counts)):
        return []
    (scored, of), = counts
    return [f"Every run is scored on the same {scored} of the dataset's {of} cases, those every run answered "
            "(--only-answered: the sample of a human run)."]


def write_report(
    runs: Sequence[ScoredRun],
    out: str | Path,
    *,
    force: bool = False,
    plots: bool = True,
    n_boot: int = 1000,
    seed: int = 0,
    title: str = "ProEvent report",
    ablations: Sequence[Ablation] = (),
) -> ReportOutput:
    """Write the report of ``runs`` (scored by :func:`proevent.report.load_scored_runs`) into ``out``;
    ``ablations`` (:func:`proevent.report.ablation.ablation` tables) get a section of their own.

    The loaded datasets and runs (half a million objects for three runs of the default dataset)
    are left out of the collector's walks meanwhile (:func:`gc_frozen`): the report makes tens of
    thousands of objects of its own (error items, figures), enough for a full collection that
    walked the whole heap again for nothing (0.5-0.7 s of 2.3-2.5). What the report makes is
    still collected."""
    with gc_frozen():
        return _write_report(runs, Path(out), force=force, plots=plots, n_boot=n_boot, seed=seed, title=title,
                             ablations=ablations)


def _write_report(
    runs: Sequence[ScoredRun],
    out: Path,
    *,
    force: bool,
    plots: bool,
    n_boot: int,
    seed: int,
    title: str,
    ablations: Sequence[Ablation],
) -> ReportOutput:
    prepare_folder(out, force=force)
    (out / REPORT_MARKER).unlink(missing_ok=True)
    table = build_table(runs)
    table.notes[:0] = answered_note(runs)
    comparators: dict = {}  # the runs of a report mostly share their dataset: one comparator per case
    summaries = [summarize_errors(sr.dataset, sr.result, judge=sr.judge, comparators=comparators) for sr in runs]
    result = ReportOutput(out=out, table=table, summaries=summaries)

    def write(rel: str, text: str) -> None:
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        result.files.append(path)

    write("table.md", to_markdown(table))
    write("table.tex", to_latex(table))
    write("table.csv", to_csv(table))
    names = {sr.label: _safe(sr.label) for sr in runs}
    for sr in runs:
        write(f"metrics/{names[sr.label]}.json", json.dumps(sr.result.metrics, indent=2, ensure_ascii=False) + "\n")
    if ablations:
        write("ablation.md", "\n".join(f"## {ab.base}\n\n{ablation_markdown(ab)}" for ab in ablations))
        tables = {"format": "proevent.ablation/1", "tables": [ab.to_json() for ab in ablations]}
        write("ablation.json", json.dumps(tables, indent=2, ensure_ascii=False) + "\n")
    errors = {sr.label: s.as_json() for sr, s in zip(runs, summaries)}
    write("errors.json", indented_json({"format": "proevent.errors/1", "runs": errors}) + "\n")

    from proevent.report.plots import error_plot, plotting_available, robustness_plot

    figures: dict[str, tuple[Path, Path]] = {}
    if not plots:
        result.plots_skipped = "turned off (--no-plots)"
    elif not plotting_available():
        result.plots_skipped = 'matplotlib is not installed (pip install "proevent[report]")'
    else:
        rows = [sr.result.rows for sr in runs]
        png, svg = robustness_plot(runs, rows, out / "plots" / "robustness", n_boot=n_boot, seed=seed)
        figures["robustness"] = (png, svg)
        png2, svg2 = error_plot([sr.label for sr in runs], summaries, out / "plots" / "errors")
        figures["errors"] = (png2, svg2)
        result.files += [png, svg, png2, svg2]

    from proevent.report.html import embed_figure, html_available, render_html

    if not html_available():
        result.html_skipped = 'jinja2 is not installed (pip install "proevent[report]")'
    else:
        figs = {k: embed_figure(out, *v) for k, v in figures.items()}
        listed = [p.relative_to(out).as_posix() for p in result.files]
        page = render_html(
            runs=runs,
            table=table,
            summaries=summaries,
            robustness=figs.get("robustness"),
            errors_plot=figs.get("errors"),
            plots_skipped=result.plots_skipped,
            files=listed,
            n_boot=n_boot,
            seed=seed,
            title=title,
            ablations=ablations,
        )
        write(INDEX, page)
        result.index = out / INDEX
    marker = {
        "format": "proevent.report/1",
        "runs": [str(sr.path) for sr in runs],
        "files": [p.relative_to(out).as_posix() for p in result.files],
    }
    (out / REPORT_MARKER).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
    return result
