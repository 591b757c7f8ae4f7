"""Issue 12, finding 9, in the viewer: ``t=²`` and a huge ``t`` answered 500, a case id holding ``/``
could not be opened, and ``serve --host 127.0.0.2`` refused the URL it printed."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from proevent.io import write_dataset
from proevent.web import ServeConfig, create_app
from proevent.web.params import ascii_int, step_param
from proevent.web.security import is_loopback_host

from .fixture_cases import all_cases

BASE = "http://127.0.0.1:8000"


def client(dataset_dir: Path, *runs: Path, **kw) -> TestClient:
    return TestClient(create_app(ServeConfig(dataset=dataset_dir, runs=list(runs), **kw)), base_url=BASE)


def current_step(html: str) -> str:
    return re.findall(r'class="stepbtn current"[^>]*>\s*(?:<[^>]+>\s*)*([0-9]+)', html)[0]


def test_step_param_reads_ascii_digits_only() -> None:
    assert [step_param(x, 4) for x in ("2", "²", "٣", "", "-1", "0", "99", "9" * 5000, " 2", "2.0")] == \
        [2, 1, 1, 1, 1, 1, 4, 4, 1, 1]
    assert step_param("3", 0) == 0
    assert [ascii_int(x) for x in ("0", "17", "²", "٣", "1" * 13, "")] == [0, 17, None, None, None, None]


@pytest.mark.parametrize(("t", "step"), [("²", "1"), ("٣", "1"), ("9" * 5000, "4"), ("99999999999", "4")])
def test_odd_step_numbers_show_a_step(dataset_dir: Path, t: str, step: str) -> None:
    res = client(dataset_dir).get("/case/pe-001", params={"t": t})  # 4 steps
    assert res.status_code == 200
    assert current_step(res.text) == step


def test_odd_run_numbers_are_ignored(dataset_dir: Path, run_dir: Path) -> None:
    c = client(dataset_dir, run_dir)
    for run in ("²", "9" * 5000):
        assert c.get("/", params={"run": run, "outcome": "failed"}).status_code == 200


def test_case_ids_with_a_slash_open_and_take_a_review(tmp_path: Path) -> None:
    cases = all_cases()
    cases[0] = cases[0].model_copy(update={"case_id": "team/a b?#%"})
    folder = tmp_path / "ds"
    write_dataset(folder, cases, name="slash", version="1", created="2026-11-29T12:00")
    out = tmp_path / "a.jsonl"
    c = client(folder, review="ann", out=out)
    links = re.findall(r'class="case-link" href="(/case/[^"?]+)', c.get("/").text)
    assert "/case/team%2Fa%20b%3F%23%25" in links
    page = c.get("/case/team%2Fa%20b%3F%23%25?t=2")
    assert page.status_code == 200 and "team/a b?#%" in page.text
    assert 'action="/review/team%2Fa%20b%3F%23%25"' in page.text
    res = c.post("/review/team%2Fa%20b%3F%23%25", data={"verdict": "valid"}, follow_redirects=False)
    assert res.status_code == 303 and '"case_id":"team/a b?#%"' in out.read_text()
    assert c.get("/case/team%2Fnope").status_code == 404


def test_every_loopback_address_is_a_loopback_host() -> None:
    assert all(map(is_loopback_host, ["127.0.0.1", "127.0.0.2", "127.255.0.9", "localhost", "LOCALHOST",
                                      "[::1]", "::1"]))
    assert not any(map(is_loopback_host, ["evil.example", "127.0.0.1.evil.example", "10.0.0.1", "[::2]",
                                          "0.0.0.0", "", "[", "localhost.evil"]))


def test_a_server_bound_to_127_0_0_2_answers_its_own_host(dataset_dir: Path) -> None:
    c = TestClient(create_app(ServeConfig(dataset=dataset_dir, host="127.0.0.2")), base_url="http://127.0.0.2:8000")
    assert c.get("/").status_code == 200
    assert c.get("/", headers={"host": "evil.example"}).status_code == 421


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def test_serve_127_0_0_2_opens_the_url_it_prints(dataset_dir: Path) -> None:
    """The real command in its own process: read the URL it prints, fetch it, stop it."""
    try:
        port = _free_port("127.0.0.2")
    except OSError:
        pytest.skip("127.0.0.2 is not a local address here")
    script = Path(sys.executable).parent / "proevent"
    cmd = [str(script)] if script.exists() else [sys.executable, "-c", "from proevent.cli import main; main()"]
    proc = subprocess.Popen([*cmd, "serve", str(dataset_dir), "--host", "127.0.0.2", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"})
    try:
        assert proc.stdout is not None
        url = None
        for line in proc.stdout:
            found = re.search(r"open (http://\S+)", line)
            if found:
                url = found.group(1)
                break
        assert url == f"http://127.0.0.2:{port}/"
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as res:
                    assert res.status == 200 and "pe-001" in res.read().decode()
                break
            except (ConnectionError, urllib.error.URLError):
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
