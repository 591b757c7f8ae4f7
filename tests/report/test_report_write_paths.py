"""The faster ways ``write_report`` takes give what the plain ways gave."""

from __future__ import annotations

import gc

from fixtures import FLAWED_RUN, PERFECT_RUN, TINY
from proevent.report import load_scored_runs, write_report


def test_write_report_gives_the_collector_back_as_it_was(tmp_path):
    runs = load_scored_runs([FLAWED_RUN, PERFECT_RUN], dataset=TINY, n_boot=50)
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    write_report(runs, tmp_path / "a", plots=False, n_boot=50)
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    gc.freeze()  # a caller's frozen objects stay frozen
    try:
        frozen = gc.get_freeze_count()
        write_report(runs, tmp_path / "b", plots=False, n_boot=50)
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
    assert (tmp_path / "a" / "errors.json").read_bytes() == (tmp_path / "b" / "errors.json").read_bytes()
