"""Reading and writing datasets, runs, JSON Schemas and iCalendar files."""

from proevent.io.dataset import (
    CASES_FILE,
    MANIFEST_FILE,
    Dataset,
    iter_cases,
    load_dataset,
    sha256_file,
    write_dataset,
)
from proevent.io.errors import FormatError
from proevent.io.jsonl import dumps_line, load_jsonl, read_json
from proevent.io.run import (
    JUDGE_DECISIONS_FILE,
    METRICS_FILE,
    PREDICTIONS_FILE,
    RUN_FILE,
    PredictionWriter,
    Run,
    load_run,
    metrics_text,
    write_judge_decisions,
    write_metrics,
    write_run_manifest,
)

__all__ = [
    "CASES_FILE", "JUDGE_DECISIONS_FILE", "MANIFEST_FILE", "METRICS_FILE", "PREDICTIONS_FILE", "RUN_FILE", "Dataset",
    "FormatError", "PredictionWriter", "Run", "dumps_line", "iter_cases", "load_dataset", "load_jsonl",
    "load_run", "read_json", "sha256_file", "metrics_text", "write_dataset", "write_judge_decisions",
    "write_metrics", "write_run_manifest",
]
