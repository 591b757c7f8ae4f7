"""Reports: the paper's table, robustness plots, error analysis, run comparison and the HTML page.

matplotlib and jinja2 (the ``report`` extra) are imported only when plots or the page are made.
"""

from proevent.report.build import ReportOutput, write_report
from proevent.report.collect import MixedDatasetsError, ScoredRun, check_same_dataset, load_scored_runs
from proevent.report.compare import comparison_json
from proevent.report.error_summary import ErrorSummary, summarize_errors
from proevent.report.table import COLUMNS, ReportTable, build_table, to_csv, to_latex, to_markdown

__all__ = [
    "COLUMNS",
    "ErrorSummary",
    "MixedDatasetsError",
    "ReportOutput",
    "ReportTable",
    "ScoredRun",
    "build_table",
    "check_same_dataset",
    "comparison_json",
    "load_scored_runs",
    "summarize_errors",
    "to_csv",
    "to_latex",
    "to_markdown",
    "write_report",
]
