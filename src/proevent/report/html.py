"""The self-contained ``index.html``: the table, the runs, the plots (embedded) and the error examples.

Rendered with Jinja2 (the ``report`` extra) from ``templates/report.html.j2``; images are embedded
as data URIs, so the page opens from disk, alone, and the SVG/PNG files beside it are linked too.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from proevent import __version__
from proevent.evaluate import categories
from proevent.report.ablation import Ablation, table_rows
from proevent.report.collect import ScoredRun, describe_run
from proevent.report.error_summary import ErrorSummary
from proevent.report.table import GROUPS, ReportTable, cost_text, interval_text, value_text


def html_available() -> bool:
    try:
        import jinja2  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass
class Figure:
    png: str
    svg: str
    src: str


def embed_figure(out: Path, png: Path, svg: Path) -> Figure:
    data = base64.b64encode(png.read_bytes()).decode("ascii")
    return Figure(
        png=png.relative_to(out).as_posix(), svg=svg.relative_to(out).as_posix(), src=f"data:image/png;base64,{data}"
    )


def _error_runs(runs: Sequence[ScoredRun], summaries: Sequence[ErrorSummary]) -> list[dict[str, Any]]:
    out = []
    for sr, s in zip(runs, summaries):
        top = max(s.counts.values(), default=0) or 1
        rows = []
        for c in categories():
            count = s.counts[c.key]
            if not count:
                continue
            share = s.share(c.key)
            rows.append(
                {
                    "key": c.key,
                    "label": c.label,
                    "description": c.description,
                    "count": count,
                    "share": f"{100 * share:.1f}%" if share is not None else "–",
                    "width": int(160 * count / top),
                    "examples": s.examples.get(c.key, []),
                }
            )
        out.append({"label": sr.label, "total": s.total, "rows": rows})
    return out


def _most_varied(runs: Sequence[ScoredRun], summaries: Sequence[ErrorSummary]) -> str | None:
    """The run whose errors spread over the most categories (shown opened on the page)."""
    best, label = 0, None
    for sr, s in zip(runs, summaries):
        kinds = sum(1 for v in s.counts.values() if v)
        if kinds > best:
            best, label = kinds, sr.label
    return label


def render_html(
    *,
    runs: Sequence[ScoredRun],
    table: ReportTable,
    summaries: Sequence[ErrorSummary],
    robustness: Figure | None,
    errors_plot: Figure | None,
    plots_skipped: str | None,
    files: Sequence[str],
    n_boot: int,
    seed: int,
    title: str = "ProEvent report",
    ablations: Sequence[Ablation] = (),
) -> str:
    """The page as a string (needs jinja2)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(
        loader=PackageLoader("proevent.report", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(value_text=value_text, interval_text=interval_text, cost_text=cost_text)
    described = []
    for sr in runs:
        d = describe_run(sr)
        m = sr.result.metrics
        d["questions"] = (m.get("single") or {}).get("questions")
        d["cases"] = (m.get("multi") or {}).get("cases")
        described.append(d)
    datasets = sorted({f"{sr.dataset.manifest.name} {sr.dataset.manifest.version}" for sr in runs})
    judges = sorted({str(sr.result.metrics.get("judge")) for sr in runs})
    return env.get_template("report.html.j2").render(
        title=title,
        runs=described,
        table=table,
        groups=GROUPS,
        datasets=datasets,
        judge=", ".join(judges),
        n_boot=n_boot,
        seed=seed,
        version=__version__,
        created=datetime.now().strftime("%Y-%m-%d %H:%M"),
        robustness=robustness,
        errors_plot=errors_plot,
        plots_skipped=plots_skipped,
        error_runs=_error_runs(runs, summaries),
        files=files,
        first_with_errors=_most_varied(runs, summaries),
        ablations=[{"base": ab.base, "subset": ab.subset, "n_boot": ab.n_boot, "seed": ab.seed,
                    "table": table_rows(ab)} for ab in ablations],
    )
