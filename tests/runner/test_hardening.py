"""Issue 12: runs against endpoints that misbehave the way real ones do (findings 1, 6, 7, 8).

Every test talks to a real HTTP server on 127.0.0.1 (``tests/support/scripted_server.py``) or to
a closed port, through the CLI where the exit code is the point.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import os
import re
import resource
import signal
import subprocess
import sys
import time

import pytest
from rich.console import Console
from runner_helpers import ModelsServer, closed_port_url, files_containing, hashed_reply, keys_of, sum_lines
from typer.testing import CliRunner

from fixtures import TINY, load_tiny
from proevent.agents import Action, Observation
from proevent.cli import app
from proevent.io import load_run
from proevent.llm import LLMConfig
from proevent.runner import RunConfig, execute, run_agent
from proevent.runner.secrets import redact, redact_url
from support.scripted_server import Reply

SECRET = "sk-test-DO-NOT-LEAK-4f9a2c"
CODE = "from proevent.cli import main; main()"


def run_cli(*args: str):
    return CliRunner().invoke(app, ["run", str(TINY), *args, "--no-progress"])


def model_args(server, *extra: str) -> list[str]:
    return ["--agent", "plain", "--model", "m", "--base-url", server.base_url, "--no-cache", *extra]


@pytest.fixture
def models_server():
    with ModelsServer() as server:
        yield server


# -- finding 1: fail fast ---------------------------------------------------------------------------

def test_a_dead_endpoint_stops_the_run_in_seconds_with_its_url(tmp_path):
    url = closed_port_url()
    start = time.monotonic()
    result = run_cli("--agent", "plain", "--model", "m", "--base-url", url, "--no-cache", "--out", str(tmp_path / "r"))
    assert time.monotonic() - start < 10  # it retried for 205 s before
    assert result.exit_code == 4, result.output
    assert f"{url}/models: the endpoint cannot be reached" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "r" / "predictions.jsonl").read_text()  # nothing asked, nothing written


def test_a_401_on_the_models_list_stops_before_any_question(models_server, tmp_path, monkeypatch):
    monkeypatch.setenv("PROEVENT_API_KEY", SECRET)
    models_server.models_status = 401
    result = run_cli(*model_args(models_server, "--out", str(tmp_path / "r")))
    assert result.exit_code == 4 and f"{models_server.base_url}/models answered HTTP 401" in result.output
    assert models_server.requests == []  # no chat completion was sent
    assert files_containing(tmp_path, SECRET) == []


def test_a_401_on_a_question_stops_the_run_at_once(scripted_server, tmp_path):
    scripted_server.default = lambda req: Reply(status=401)
    result = run_cli(*model_args(scripted_server, "--concurrency", "1", "--out", str(tmp_path / "r")))
    assert result.exit_code == 4, result.output
    assert scripted_server.base_url in result.output and "answered HTTP 401" in result.output
    assert "stopped at once" in result.output and "Traceback" not in result.output
    assert len(scripted_server.requests) == 1  # it went on through every question before (26)
    assert len(load_run(tmp_path / "r").lines) == 1


def test_failed_requests_in_a_row_trip_the_breaker(scripted_server, tmp_path):
    scripted_server.default = lambda req: Reply(status=500)
    result = run_cli(*model_args(scripted_server, "--concurrency", "1", "--max-retries", "0",
                                 "--max-consecutive-failures", "3", "--out", str(tmp_path / "r")))
    assert result.exit_code == 4 and "3 requests in a row failed, the last with HTTP 500" in result.output
    assert len(scripted_server.requests) == 3


def test_errored_lines_make_the_exit_code_non_zero(scripted_server, tmp_path):
    """One question's request fails (a 500), one answer cannot be parsed: by default only the
    request failure counts; ``--max-errors`` sets how many errored lines a run may have."""
    scripted_server.default = hashed_reply
    scripted_server.on("I hurt my wrist", Reply(status=500))  # tiny-05 step 3, its last
    common = model_args(scripted_server, "--max-retries", "0", "--mode", "single")
    result = run_cli(*common, "--out", str(tmp_path / "a"))
    assert result.exit_code == 3, result.output
    assert "the run has 1 of its lines have a failed request" in result.output
    assert run_cli(*common, "--out", str(tmp_path / "b"), "--max-errors", "1").exit_code == 0
    assert run_cli(*common, "--out", str(tmp_path / "c"), "--max-errors", "0").exit_code == 3
    scripted_server.on("I hurt my wrist", Reply(content="not json at all"))
    scripted_server._rules.reverse()  # the unparseable answer first
    unparseable = run_cli(*common, "--option", "repair=false", "--out", str(tmp_path / "d"))
    assert unparseable.exit_code == 0 and "1 errors" in unparseable.output  # the agent's, not the server's


# -- finding 6: accounting ---------------------------------------------------------------------------

def test_usage_in_run_json_adds_up_over_resumes(scripted_server, tmp_path):
    scripted_server.default = hashed_reply
    llm = LLMConfig(model="m", base_urls=[scripted_server.base_url], cache=False, price={"input": 1.0, "output": 2.0})
    out = tmp_path / "r"
    for limit in (1, 2, 3, None):  # four calls, each answering more cases
        asyncio.run(execute(RunConfig(agent="plain", mode="both", llm=llm, limit=limit), load_tiny(), out,
                            progress=False))
    usage = json.loads((out / "run.json").read_text())["usage"]
    lines = sum_lines(out / "predictions.jsonl")
    assert usage["requests"] == lines["calls"] == len(scripted_server.requests) == 26  # the last call's 12 before
    assert (usage["prompt_tokens"], usage["completion_tokens"]) == (lines["prompt_tokens"], lines["completion_tokens"])
    assert usage["cost_usd"] == pytest.approx(26 * 0.00012)
    # a priced rerun that answers nothing keeps the cost (it set it to $0.00 before)
    again = asyncio.run(execute(RunConfig(agent="plain", mode="both", llm=llm), load_tiny(), out, progress=False))
    assert again.written == 0 and again.usage["cost_usd"] == pytest.approx(26 * 0.00012)
    assert json.loads((out / "run.json").read_text())["usage"] == usage


def test_the_budget_counts_what_earlier_calls_spent(scripted_server, tmp_path):
    scripted_server.default = hashed_reply
    llm = LLMConfig(model="m", base_urls=[scripted_server.base_url], cache=False, price={"input": 1.0, "output": 2.0})
    config = RunConfig(agent="plain", mode="single", concurrency=1, llm=llm, max_cost_usd=0.0005)
    first = asyncio.run(execute(config, load_tiny(), tmp_path / "r", progress=False))
    assert first.budget_reached and len(scripted_server.requests) == 5  # $0.0006 >= $0.0005
    second = asyncio.run(execute(config, load_tiny(), tmp_path / "r", progress=False))
    assert second.budget_reached and second.written == 0 and len(scripted_server.requests) == 5
    assert second.usage["cost_usd"] == pytest.approx(5 * 0.00012)


def test_negative_usage_is_refused_and_never_lowers_the_totals(scripted_server, tmp_path):
    scripted_server.default = lambda req: Reply(content='{"ops": []}', usage=(-100000, 10))
    llm = LLMConfig(model="m", base_urls=[scripted_server.base_url], cache=False, max_retries=0,
                    price={"input": 1.0, "output": 2.0})
    summary = asyncio.run(execute(RunConfig(agent="plain", mode="single", cases=["tiny-02"], llm=llm,
                                            max_cost_usd=0.001), load_tiny(), tmp_path / "r", progress=False))
    run = load_run(tmp_path / "r")
    assert all(line.error for line in run.lines.values()) and summary.errors == 3
    usage = json.loads((tmp_path / "r" / "run.json").read_text())["usage"]
    assert usage["prompt_tokens"] >= 0 and usage["cost_usd"] >= 0


class NegativeAgent:
    """An agent whose client reported negative usage (any client: the runner checks it too)."""

    name = "negative"

    def describe(self):
        return {"strategy": "negative"}

    async def act(self, obs: Observation) -> Action:
        return Action(ops=[], prompt_tokens=-5000, completion_tokens=3, cost_usd=-0.5, extra={"requests": 1})


def test_the_runner_refuses_negative_usage_whatever_the_client(tmp_path):
    summary = asyncio.run(execute(RunConfig(agent="null", mode="single", cases=["tiny-02"]), load_tiny(),
                                  tmp_path / "r", agent=NegativeAgent(), progress=False))
    line = load_run(tmp_path / "r").lines[("tiny-02", "single", 1, 0)]
    assert summary.errors == 3 and line.usage is None and "invalid usage (prompt_tokens -5000)" in line.error


def test_the_progress_bar_and_the_summary_count_the_same_thing(scripted_server, tmp_path):
    scripted_server.default = hashed_reply
    llm = LLMConfig(model="m", base_urls=[scripted_server.base_url], cache=True, cache_path=tmp_path / "c.sqlite",
                    price={"input": 1.0, "output": 2.0})
    config = RunConfig(agent="plain", mode="single", llm=llm, concurrency=1)
    asyncio.run(execute(config, load_tiny(), tmp_path / "a", progress=False))
    out = io.StringIO()
    summary = asyncio.run(execute(config, load_tiny(), tmp_path / "b", progress=True,
                                  console=Console(file=out, width=300, force_terminal=False)))
    # the second run is answered from the response cache: tokens in both, cost nothing in both
    shown = re.search(r"tokens ([\d,]+)\+([\d,]+)\s+cost \$([\d.]+)", out.getvalue()).groups()
    call = summary.call_usage
    assert call["cache_hits"] == 13 and call["requests"] == 0
    assert (int(shown[0].replace(",", "")), int(shown[1].replace(",", ""))) == (call["prompt_tokens"],
                                                                               call["completion_tokens"])
    assert call["prompt_tokens"] == 1300 and float(shown[2]) == call["cost_usd"] == 0.0


# -- finding 7: writes -------------------------------------------------------------------------------

def _limit_file_size(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_a_full_disk_is_a_clear_error_and_leaves_no_torn_line(tmp_path):
    """RLIMIT_FSIZE makes the kernel cut a write short at 3,000 bytes, as a full disk does."""
    out = tmp_path / "r"
    proc = subprocess.run([sys.executable, "-c", CODE, "run", str(TINY), "--agent", "rules", "--out", str(out),
                           "--no-progress"], capture_output=True, text=True, timeout=120,
                          preexec_fn=_limit_file_size(3000))
    assert proc.returncode == 1, proc.stderr
    assert f"{out / 'predictions.jsonl'}: cannot write: File too large" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    data = (out / "predictions.jsonl").read_bytes()
    assert data and data.endswith(b"\n") and len(data) <= 3000  # whole lines only
    assert json.loads((out / "run.json").read_text())["agent"] == "rules"
    resumed = subprocess.run([sys.executable, "-c", CODE, "run", str(TINY), "--agent", "rules", "--out", str(out),
                              "--no-progress"], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    keys = keys_of(out / "predictions.jsonl")
    assert len(keys) == len(set(keys)) == 28


def test_a_failed_run_json_rewrite_leaves_the_old_one_whole(tmp_path):
    out = tmp_path / "r"
    run_agent(load_tiny(), "rules", out, limit=1)
    before = (out / "run.json").read_bytes()
    proc = subprocess.run([sys.executable, "-c", CODE, "run", str(TINY), "--agent", "rules", "--out", str(out),
                           "--no-progress"], capture_output=True, text=True, timeout=120,
                          preexec_fn=_limit_file_size(600))  # below run.json's size: its rewrite fails
    assert proc.returncode == 1 and f"{out / 'run.json'}: cannot write: File too large" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert (out / "run.json").read_bytes() == before  # truncated to 2,048 bytes before
    assert sorted(p.name for p in out.iterdir()) == [".lock", "predictions.jsonl", "run.json"]  # no temp file left


def test_an_unwritable_run_folder_is_a_clear_error(tmp_path):
    (tmp_path / "file").write_text("x")
    result = run_cli("--agent", "rules", "--out", str(tmp_path / "file" / "run"))
    assert result.exit_code == 1 and "Not a directory" in result.output and str(tmp_path / "file") in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_second_process_on_the_same_run_folder_is_refused(scripted_server, tmp_path):
    # after the first lines the replies slow down, so that the first run is still writing when the
    # second process starts, however loaded the machine (26 requests at concurrency 2: ~10 s)
    asked = itertools.count()
    scripted_server.default = lambda req: hashed_reply(req, delay=0.1 if next(asked) < 4 else 0.8)
    out = tmp_path / "r"
    args = [sys.executable, "-c", CODE, "run", str(TINY), "--out", str(out), "--no-progress",
            *model_args(scripted_server, "--concurrency", "2")]
    first = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pred = out / "predictions.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not pred.exists() or pred.read_text().count("\n") < 2):
        time.sleep(0.02)
    second = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert second.returncode == 1 and f"another process (pid {first.pid}) is writing to this run folder" \
        in second.stderr
    assert first.wait(120) == 0, first.stderr.read()
    keys = keys_of(pred)
    assert len(keys) == len(set(keys)) == 28  # 928 lines, 464 duplicates before


def test_the_lock_goes_with_a_killed_process(scripted_server, tmp_path):
    scripted_server.default = lambda req: hashed_reply(req, delay=0.1)
    out = tmp_path / "r"
    args = [sys.executable, "-c", CODE, "run", str(TINY), "--out", str(out), "--no-progress",
            *model_args(scripted_server, "--concurrency", "2")]
    first = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pred = out / "predictions.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not pred.exists() or pred.read_text().count("\n") < 2):
        time.sleep(0.02)
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    again = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    keys = keys_of(pred)
    assert len(keys) == len(set(keys)) == 28


# -- finding 8: secrets ------------------------------------------------------------------------------

def test_an_error_body_that_echoes_the_key_is_not_stored(scripted_server, tmp_path, monkeypatch):
    monkeypatch.setenv("PROEVENT_API_KEY", SECRET)
    echo = json.dumps({"error": {"message": f"Incorrect API key provided: Bearer {SECRET}"}}).encode()
    scripted_server.default = lambda req: Reply(status=500, raw_body=echo)
    result = run_cli(*model_args(scripted_server, "--max-retries", "0", "--mode", "single",
                                 "--max-consecutive-failures", "100", "--out", str(tmp_path / "r")))
    assert result.exit_code == 3, result.output
    run = load_run(tmp_path / "r")
    assert len(run.lines) == 14 and all("Incorrect API key provided" in line.error for line in run.lines.values()
                                        if line.error)
    assert files_containing(tmp_path, SECRET) == []  # 8 of 8 lines held it before
    assert SECRET not in result.output
    one = run_cli(*model_args(scripted_server, "--max-retries", "0", "--concurrency", "1",
                              "--max-consecutive-failures", "1", "--out", str(tmp_path / "s")))
    assert one.exit_code == 4 and "Incorrect API key provided: Bearer [redacted]" in one.output  # shown, as stored
    assert files_containing(tmp_path, SECRET) == []


def test_credentials_in_a_base_url_are_not_written_to_run_json(scripted_server, tmp_path, monkeypatch):
    monkeypatch.delenv("PROEVENT_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    scripted_server.default = hashed_reply
    url = scripted_server.base_url.replace("http://", "http://alice:pa55-DO-NOT-LEAK@")
    result = run_cli("--agent", "plain", "--model", "m", "--base-url", url, "--no-cache", "--mode", "single",
                     "--out", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    assert scripted_server.headers[-1]["authorization"].startswith("Basic ")  # the credentials were used...
    assert files_containing(tmp_path, "pa55-DO-NOT-LEAK") == []  # ...and not written
    urls = json.loads((tmp_path / "r" / "run.json").read_text())["config"]["llm"]["base_urls"]
    assert urls == [scripted_server.base_url.replace("http://", "http://alice:[redacted]@")]


def test_redaction_by_hand():
    assert redact_url("https://u:p4ss@h.example/v1?api-key=abc&x=1") == \
        "https://u:[redacted]@h.example/v1?api-key=[redacted]&x=1"
    assert redact_url("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"
    assert redact(f"HTTP 401: key {SECRET} refused; Authorization: Bearer abcdefgh12345", [SECRET]) == \
        "HTTP 401: key [redacted] refused; Authorization: Bearer [redacted]"
