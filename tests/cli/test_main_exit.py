"""The console entry point leaves what a command kept alive out of the interpreter's final collection."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from fixtures import TINY

_PROBE = """
import gc, sys
from proevent.cli import main
before = gc.get_freeze_count()
try:
    main()
except SystemExit as exc:
    code = exc.code
print(before, gc.get_freeze_count() > 0, code, file=sys.stderr)
"""


def test_objects_are_frozen_after_the_command_and_its_output_is_whole(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", _PROBE, "stats", str(TINY)], capture_output=True, text=True,
                          timeout=60)
    assert proc.stderr.splitlines()[-1] == "0 True 0"
    assert proc.stdout.strip()  # the command printed its table before the freeze


def test_a_failing_command_keeps_its_exit_code_and_message(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", _PROBE, "stats", str(tmp_path / "nowhere")], capture_output=True,
                          text=True, timeout=60)
    *message, probe = proc.stderr.splitlines()
    assert probe == "0 True 1"
    assert any("nowhere" in line for line in message)
