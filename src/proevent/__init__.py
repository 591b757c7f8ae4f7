"""proevent: the ProEvent benchmark for proactive agents.

The public API: load datasets and runs, score runs, and the data model. The names are loaded on
first use, so that ``import proevent.model`` (or any one stage) loads that stage only.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "EvaluationResult": "proevent.evaluate", "evaluate": "proevent.evaluate",
    "FormatError": "proevent.io", "load_dataset": "proevent.io", "load_run": "proevent.io",
    "write_dataset": "proevent.io",
    "Case": "proevent.model", "Dataset": "proevent.model", "Event": "proevent.model", "Run": "proevent.model",
    "Timetable": "proevent.model",
}

__all__ = ["Case", "Dataset", "EvaluationResult", "Event", "FormatError", "Run", "Timetable", "__version__", "evaluate",
           "load_dataset", "load_run", "write_dataset"]

if TYPE_CHECKING:
    from proevent.evaluate import EvaluationResult, evaluate
    from proevent.io import FormatError, load_dataset, load_run, write_dataset
    from proevent.model import Case, Dataset, Event, Run, Timetable


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'proevent' has no attribute {name!r}")


class _Package(types.ModuleType):
    """``proevent.evaluate`` is the function (as ever), not the subpackage of the same name: the
    import system's binding of the loaded subpackage onto this package is declined."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "evaluate" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
