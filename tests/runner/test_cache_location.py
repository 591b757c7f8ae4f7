"""Issue 12 leftovers: the response cache's default place, and a run folder that cannot be written."""

from __future__ import annotations

import errno
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from runner_helpers import hashed_reply
from typer.testing import CliRunner

from fixtures import TINY
from proevent.cli import app


def run_cli(server, out: Path, *extra: str):
    return CliRunner().invoke(app, ["run", str(TINY), "--agent", "procot", "--model", "m", "--base-url",
                                    server.base_url, "--out", str(out), "--no-progress", "--mode", "single", *extra])


def test_a_second_identical_run_in_the_project_sends_nothing(scripted_server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PROEVENT_CACHE", raising=False)
    scripted_server.default = hashed_reply
    first = run_cli(scripted_server, tmp_path / "a")
    assert first.exit_code == 0, first.output
    sent = len(scripted_server.requests)
    assert sent == 13 and (tmp_path / ".proevent-cache" / "llm-cache.sqlite").is_file()
    second = run_cli(scripted_server, tmp_path / "b")  # another run folder, the same project
    assert second.exit_code == 0, second.output
    assert len(scripted_server.requests) == sent
    assert re.search(r"requests 0 \(cache hits 13\)", second.output)


def test_the_cache_place_can_be_named_by_the_environment(scripted_server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PROEVENT_CACHE", str(tmp_path / "elsewhere" / "c.sqlite"))
    scripted_server.default = hashed_reply
    result = run_cli(scripted_server, tmp_path / "a")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "elsewhere" / "c.sqlite").is_file() and not (tmp_path / ".proevent-cache").exists()


def test_a_run_folder_the_process_may_not_write_is_a_clear_error(tmp_path, monkeypatch):
    """Tests run as root, who may write anywhere: a read-only folder is simulated by making every
    ``os.open`` of a path inside it fail with EACCES, as the kernel does for a folder without write
    permission. What is checked is the runner's handling of that error: one message naming the
    path, exit 1, no traceback."""
    folder = tmp_path / "ro"
    folder.mkdir()
    real_open = os.open

    def deny(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(path).startswith(str(folder)) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", deny)
    result = CliRunner().invoke(app, ["run", str(TINY), "--agent", "rules", "--out", str(folder / "run"),
                                      "--no-progress"])
    assert result.exit_code == 1, result.output
    assert "Permission denied" in result.output and str(folder / "run") in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def _can_drop_to_nobody() -> bool:
    if os.geteuid() != 0:
        return False
    try:
        probe = subprocess.run([sys.executable, "-c", "import proevent"], capture_output=True,
                               preexec_fn=lambda: (os.setgid(65534), os.setuid(65534)))  # noqa: PLW1509
    except OSError:  # the interpreter itself cannot be read by that user
        return False
    return probe.returncode == 0


@pytest.mark.skipif(not _can_drop_to_nobody(), reason="needs root and a Python the 'nobody' user can run (the "
                    "interpreter here lives in a folder only root may read)")
def test_a_read_only_run_folder_for_a_real_unprivileged_process(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    tmp_path.chmod(0o755)
    proc = subprocess.run([sys.executable, "-c", "from proevent.cli import main; main()", "run", str(TINY),
                           "--agent", "rules", "--out", str(folder / "run"), "--no-progress"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          preexec_fn=lambda: (os.setgid(65534), os.setuid(65534)))  # noqa: PLW1509
    assert proc.returncode == 1 and "Permission denied" in proc.stderr and "Traceback" not in proc.stderr
