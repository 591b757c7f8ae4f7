"""``proevent run --option`` with an option the agent does not have: one line, exit 1, nothing written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from fixtures import TINY
from proevent.cli import app


def test_unknown_option_is_a_usage_error(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["run", str(TINY), "--agent", "rules", "--out", str(out),
                                      "--option", "frobnicate=1"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == ("error: --option frobnicate: agent 'rules' has no option 'frobnicate'; "
                             "it takes no options\n")
    assert not out.exists()


def test_unknown_option_of_an_llm_agent_in_a_real_process(tmp_path: Path) -> None:
    """Refused before any request (the base URL is a closed port) and without a traceback."""
    script = Path(sys.executable).parent / "proevent"
    cmd = [str(script)] if script.exists() else [sys.executable, "-c", "from proevent.cli import main; main()"]
    proc = subprocess.run([*cmd, "run", str(TINY), "--agent", "tools", "--out", str(tmp_path / "run"), "--model",
                           "m", "--base-url", "http://127.0.0.1:9/v1", "--no-cache", "--option", "frobnicate=1"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr == ("error: --option frobnicate: agent 'tools' has no option 'frobnicate'; its options: "
                           "prompt_version, repair, skip_quiet, update_prompt, max_rounds\n")
