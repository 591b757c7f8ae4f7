"""Pure data: events, operations, timetables, cases and manifests. No file or network IO."""

from proevent.model.case import (
    CASE_FORMAT,
    DATASET_FORMAT,
    METRICS_FORMAT,
    MODES,
    RUN_FORMAT,
    Case,
    Chat,
    DatasetCounts,
    DatasetManifest,
    DatasetRef,
    Message,
    Mode,
    PredictionLine,
    PromptRecord,
    RunManifest,
    Step,
    Usage,
)
from proevent.model.containers import CASES_FILE, Dataset, Key, Run, dataset_mismatch
from proevent.model.events import (
    ATTRIBUTES,
    OP_TYPES,
    SCORED_ATTRIBUTES,
    AnyOp,
    DeleteOp,
    Event,
    EventData,
    InsertOp,
    InvalidOp,
    Operation,
    UpdateOp,
    make_event,
    op_to_json,
    parse_op,
    parse_ops,
)
from proevent.model.times import Time, TimeOrDate, is_date, normalize_time, parse_time
from proevent.model.timetable import OpError, StepResult, Timetable, diff_timetables, id_number

__all__ = [
    "CASES_FILE", "Dataset", "dataset_mismatch", "Key", "Run",
    "ATTRIBUTES", "CASE_FORMAT", "DATASET_FORMAT", "METRICS_FORMAT", "MODES", "OP_TYPES", "RUN_FORMAT",
    "SCORED_ATTRIBUTES", "AnyOp", "Case", "Chat", "DatasetCounts", "DatasetManifest", "DatasetRef",
    "DeleteOp", "Event", "EventData", "InsertOp", "InvalidOp", "Message", "Mode", "OpError", "Operation",
    "PredictionLine", "PromptRecord", "RunManifest", "Step", "StepResult", "Time", "TimeOrDate",
    "Timetable", "UpdateOp", "Usage", "diff_timetables", "id_number", "is_date", "make_event",
    "normalize_time", "op_to_json", "parse_op", "parse_ops", "parse_time",
]
