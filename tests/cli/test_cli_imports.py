"""The command line starts without the scorer: its command modules import what their options need
(the judges' names), and each command imports the rest when it runs. The commands that load a
dataset or runs keep them out of the collector's walks (``loading_then_frozen``)."""

from __future__ import annotations

import subprocess
import sys


def test_starting_the_cli_loads_neither_numpy_nor_the_scorer():
    code = "import sys, proevent.cli; print(' '.join(sorted(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert "numpy" not in loaded and "matplotlib" not in loaded
    assert not {"proevent.evaluate.api", "proevent.evaluate.aggregate", "proevent.report"} & set(loaded)


def test_loading_then_frozen_pauses_then_freezes_and_restores():
    import gc

    import pytest

    from proevent.cli.common import loading_then_frozen

    assert gc.isenabled() and gc.get_freeze_count() == 0
    with loading_then_frozen() as loaded:
        assert not gc.isenabled()
        kept = [[i] for i in range(1000)]
        loaded()
        assert gc.isenabled() and gc.get_freeze_count() >= 1000
        frozen = gc.get_freeze_count()
        loaded()  # once
        assert gc.get_freeze_count() == frozen
    assert gc.isenabled() and gc.get_freeze_count() == 0 and kept
    with pytest.raises(ValueError), loading_then_frozen():  # an error while loading: paused, then as before
        assert not gc.isenabled()
        raise ValueError
    assert gc.isenabled() and gc.get_freeze_count() == 0
