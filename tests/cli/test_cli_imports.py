"""The command line starts without the scorer: its command modules import what their options need
(the judges' names), and each command imports the rest when it runs."""

from __future__ import annotations

import subprocess
import sys


def test_starting_the_cli_loads_neither_numpy_nor_the_scorer():
    code = "import sys, proevent.cli; print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "numpy" not in loaded and "matplotlib" not in loaded
    assert not {"proevent.evaluate.api", "proevent.evaluate.aggregate", "proevent.report"} & set(loaded)
