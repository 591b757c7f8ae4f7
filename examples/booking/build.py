"""Compile the booking dialogues: ``src/*.txt`` -> ``cases.jsonl`` + ``dataset.json``.

Dialogues between a user and a booking assistant service (a restaurant's booking bot, a clinic's
reception, a hotel's assistant), written for tuning the ``rules`` agent (issue 16). The source
format and the checks are those of the hand-written development set: this script reuses
``examples/handwritten/build.py`` and only names the dataset differently.

Run ``python examples/booking/build.py``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "proevent-booking"
VERSION = "1.0.0"


def _builder():
    spec = importlib.util.spec_from_file_location("handwritten_build", HERE.parent / "handwritten" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def main() -> int:
    hw = _builder()
    try:
        cases = hw.build(HERE / "src")
    except hw.BuildError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    from proevent.io import write_dataset

    write_dataset(HERE, cases, name=NAME, version=VERSION, created=hw.CREATED,
                  generator={"builder": "examples/booking/build.py", "source": "hand-written"}, overwrite=True)
    print(f"{len(cases)} cases, {sum(len(c.steps) for c in cases)} steps -> {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
