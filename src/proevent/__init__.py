"""proevent: the ProEvent benchmark for proactive agents.

The public API: load datasets and runs, score runs, and the data model.
"""

from proevent.evaluate import EvaluationResult, evaluate
from proevent.io import Dataset, FormatError, Run, load_dataset, load_run, write_dataset
from proevent.model import Case, Event, Timetable

__version__ = "0.1.0"

__all__ = [
    "Case", "Dataset", "EvaluationResult", "Event", "FormatError", "Run", "Timetable", "__version__",
    "evaluate", "load_dataset", "load_run", "write_dataset",
]
