"""The paper's table 1 for several runs: Markdown, LaTeX (booktabs), CSV, HTML rows and a terminal table.

One row per run, the columns of table 1 (FDR, MNR; insert, update, delete and overall recall and
precision; event and timetable success), each with its 95% interval and, where the run has
repeats, the mean ± sd. As in the paper, problematic values are underlined (FDR or MNR above 90%,
any other metric below 10%) and the best value of each column is in bold, leaving out the oracle
and human rows.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from proevent.evaluate.metrics import CATALOGUE, MetricInfo, catalogue_groups
from proevent.evaluate.metrics import percent as pct
from proevent.report.collect import ScoredRun

PROBLEM_HIGH = 0.9
"""FDR and MNR above this are problematic."""
PROBLEM_LOW = 0.1
"""Every other metric below this is problematic."""
_TIE = 1e-12


COLUMNS: tuple[MetricInfo, ...] = CATALOGUE
"""The table's metric columns: the catalogue's metrics, in its order (``title`` heads a column
without the group row, ``group`` and ``heading`` head it in two rows)."""
GROUPS: tuple[tuple[str, int], ...] = catalogue_groups()

RunsAre = Literal["rows", "columns"]
"""How a table lays out its runs: the report's tables have a row per run, the terminal's a column."""


def table_notes(runs_are: RunsAre = "rows") -> list[str]:
    """The notes printed under the table, for the shape it is printed in."""
    best, left_out = ("column", "rows") if runs_are == "rows" else ("row", "columns")
    return [
        "Percentages; 95% case-level bootstrap intervals in brackets; mean ± sd over repeats where a run has several.",
        f"Bold: best value of the {best} (oracle and human {left_out} excluded). Underlined: problematic "
        "(FDR or MNR above 90%, any other metric below 10%). ↓: lower is better. –: undefined (no denominator).",
    ]


@dataclass
class Cell:
    value: float | None
    ci: tuple[float, float] | None = None
    sd: float | None = None
    best: bool = False
    problematic: bool = False


@dataclass
class Row:
    label: str
    agent: str
    model: str | None
    reference: bool
    cells: list[Cell]
    errored_lines: int
    missing: int
    cost_usd: float | None
    uses_model: bool
    repeats: int = 1


@dataclass
class ReportTable:
    rows: list[Row]
    columns: tuple[MetricInfo, ...] = COLUMNS
    notes: list[str] = field(default_factory=table_notes)
    """The notes under the table with runs as rows: notes on the runs may be put in front; the
    table's own (:func:`table_notes`) close the list."""

    def notes_for(self, runs_are: RunsAre) -> list[str]:
        """The notes, the table's own built for a table whose runs are ``runs_are``."""
        own = table_notes()
        lead = len(self.notes) - len(own)
        if lead < 0 or self.notes[lead:] != own:
            raise ValueError("the table's own notes must close ReportTable.notes (put notes on the runs in front)")
        return [*self.notes[:lead], *table_notes(runs_are)]


def build_table(runs: Sequence[ScoredRun]) -> ReportTable:
    """The table model: values, intervals, sd, and the paper's highlighting."""
    rows: list[Row] = []
    for sr in runs:
        m = sr.result.summary
        ci = m.ci or {}
        sd = m.repeats.sd
        n = m.repeats.n
        cells = []
        for col in COLUMNS:
            value = m.value(col.key)
            interval = ci.get(col.key)
            problematic = value is not None and (value > PROBLEM_HIGH if col.lower_is_better else value < PROBLEM_LOW)
            cells.append(
                Cell(
                    value=value,
                    ci=tuple(interval) if interval else None,
                    sd=sd.get(col.key) if n > 1 else None,
                    problematic=problematic,
                )
            )
        rows.append(
            Row(
                label=sr.label,
                agent=sr.agent,
                model=sr.manifest.model,
                reference=sr.is_reference,
                cells=cells,
                errored_lines=sr.errored_lines,
                missing=sr.missing,
                cost_usd=sr.cost_usd,
                uses_model=sr.uses_model,
                repeats=n,
            )
        )
    for k, col in enumerate(COLUMNS):
        values = [r.cells[k].value for r in rows if not r.reference and r.cells[k].value is not None]
        if not values:
            continue
        best = min(values) if col.lower_is_better else max(values)
        for r in rows:
            v = r.cells[k].value
            if not r.reference and v is not None and abs(v - best) <= _TIE:
                r.cells[k].best = True
    return ReportTable(rows=rows)


def _num(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def value_text(cell: Cell, *, percent_sign: bool = True) -> str:
    """``48.1%``, or ``48.1 ± 2.0%`` with repeats, or ``–``."""
    if cell.value is None:
        return "–"
    text = pct(cell.value) if percent_sign else _num(cell.value)
    if cell.sd is not None:
        text = f"{_num(cell.value)} ± {_num(cell.sd)}" + ("%" if percent_sign else "")
    return text


def interval_text(cell: Cell, sep: str = "–") -> str:
    return "" if cell.ci is None else f"[{_num(cell.ci[0])}{sep}{_num(cell.ci[1])}]"


def cost_text(row: Row) -> str:
    if not row.uses_model:
        return "–"
    return "unknown" if row.cost_usd is None else f"${row.cost_usd:.4f}"


def _run_name(row: Row) -> str:
    return row.label if row.label == row.agent else f"{row.label} ({row.agent})"


def to_markdown(table: ReportTable) -> str:
    head = ["Run", *(c.title for c in table.columns), "Errored lines", "Missing", "Cost"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---"] + ["---:"] * (len(head) - 1)) + " |"]
    for row in table.rows:
        cells = []
        for cell in row.cells:
            text = value_text(cell)
            if cell.problematic:
                text = f"<ins>{text}</ins>"
            if cell.best:
                text = f"**{text}**"
            interval = interval_text(cell)
            cells.append(f"{text} {interval}".strip())
        lines.append(
            "| "
            + " | ".join([_md_escape(_run_name(row)), *cells, str(row.errored_lines), str(row.missing), cost_text(row)])
            + " |"
        )
    return "\n".join(lines) + "\n\n" + "\n".join(f"{n}" for n in table.notes) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def to_latex(table: ReportTable, caption: str = "Evaluation results on ProEvent (percentages).") -> str:
    """A booktabs ``table*``; needs ``\\usepackage{booktabs}`` (and ``graphicx`` for the resize)."""
    ncols = len(table.columns)
    out = [
        r"\begin{table*}[t]",
        r"\centering",
        r"\resizebox{\textwidth}{!}{%",
        r"\begin{tabular}{l" + "r" * ncols + "rr}",
        r"\toprule",
    ]
    group_cells, rules, col = [], [], 2
    for name, span in GROUPS:
        group_cells.append(rf"\multicolumn{{{span}}}{{c}}{{{name}}}")
        rules.append(rf"\cmidrule(lr){{{col}-{col + span - 1}}}")
        col += span
    out.append(" & " + " & ".join(group_cells) + r" & & \\")
    out.append(" ".join(rules))
    shorts = [c.heading.replace("↓", r"$\downarrow$") for c in table.columns]
    out.append("Run & " + " & ".join(shorts) + r" & Err. & Cost \\")
    out.append(r"\midrule")
    for row in table.rows:
        cells = []
        for cell in row.cells:
            text = latex_escape(value_text(cell, percent_sign=False)).replace("±", r"$\pm$").replace("–", "--")
            if cell.problematic:
                text = rf"\underline{{{text}}}"
            if cell.best:
                text = rf"\textbf{{{text}}}"
            if cell.ci is not None:
                text += rf"\,{{\scriptsize[{_num(cell.ci[0])}, {_num(cell.ci[1])}]}}"
            cells.append(text)
        out.append(
            " & ".join(
                [
                    latex_escape(_run_name(row)),
                    *cells,
                    str(row.errored_lines),
                    latex_escape(cost_text(row)).replace("–", "--"),
                ]
            )
            + r" \\"
        )
    out += [
        r"\bottomrule",
        r"\end{tabular}}",
        rf"\caption{{{latex_escape(caption)} Bold: best per column (oracle and human excluded); "
        r"underlined: problematic (FDR, MNR $>90\%$; others $<10\%$). Brackets: 95\% bootstrap interval.}",
        r"\end{table*}",
    ]
    return "\n".join(out) + "\n"


def to_csv(table: ReportTable) -> str:
    """Machine-readable: fractions, one row per run, ``<key>``, ``<key>.ci_low``, ``<key>.ci_high``, ``<key>.sd``."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    header = ["run", "agent", "model", "repeats", "errored_lines", "missing", "cost_usd"]
    for c in table.columns:
        header += [c.key, f"{c.key}.ci_low", f"{c.key}.ci_high", f"{c.key}.sd"]
    writer.writerow(header)
    for row in table.rows:
        out: list[Any] = [
            row.label,
            row.agent,
            row.model or "",
            row.repeats,
            row.errored_lines,
            row.missing,
            "" if row.cost_usd is None else row.cost_usd,
        ]
        for cell in row.cells:
            out += [
                _csv_num(cell.value),
                _csv_num(cell.ci[0] if cell.ci else None),
                _csv_num(cell.ci[1] if cell.ci else None),
                _csv_num(cell.sd),
            ]
        writer.writerow(out)
    return buf.getvalue()


def _csv_num(value: float | None) -> str:
    return "" if value is None else repr(float(value))


def rich_table(table: ReportTable, title: str | None = None):
    """The table for the terminal, transposed to fit 80 columns: one row per metric, one column per
    run (value, interval below; bold best, underlined problematic)."""
    from rich.table import Table

    out = Table(title=title, show_lines=False, header_style="bold")
    out.add_column("metric")
    for row in table.rows:
        out.add_column(row.label, justify="right", overflow="fold")
    for k, col in enumerate(table.columns):
        cells = []
        for row in table.rows:
            cell = row.cells[k]
            style = " ".join(s for s, on in (("bold", cell.best), ("underline", cell.problematic)) if on)
            text = value_text(cell)
            text = f"[{style}]{text}[/{style}]" if style else text
            interval = interval_text(cell)
            cells.append(text + (f"\n[dim]{interval}[/dim]" if interval else ""))
        out.add_row(col.title, *cells)
    out.add_section()
    out.add_row("errored lines", *(str(r.errored_lines) for r in table.rows))
    out.add_row("missing", *(str(r.missing) for r in table.rows))
    out.add_row("cost", *(cost_text(r) for r in table.rows))
    return out
