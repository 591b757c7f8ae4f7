"""``proevent run`` end to end: CLI, the key never on disk, cache, and kill -9 then resume."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from runner_helpers import files_containing, hashed_reply, keys_of
from typer.testing import CliRunner

from fixtures import TINY, load_tiny
from proevent.cli import app
from proevent.evaluate import evaluate
from proevent.io import load_run

SECRET = "sk-test-DO-NOT-LEAK-4f9a2c"


def run_cli(*args: str):
    return CliRunner().invoke(app, ["run", str(TINY), *args, "--no-progress"])


def test_cli_run_writes_run_and_never_the_key(scripted_server, tmp_path, monkeypatch):
    monkeypatch.setenv("PROEVENT_API_KEY", SECRET)
    scripted_server.default = hashed_reply
    out, cache = tmp_path / "run", tmp_path / "cache.sqlite"
    result = run_cli("--agent", "procot", "--model", "scripted-model", "--base-url", scripted_server.base_url,
                     "--out", str(out), "--cache-path", str(cache), "--price-in", "1", "--price-out", "2")
    assert result.exit_code == 0, result.output
    # 28 questions; step 3 of tiny-01 has no message, so each mode answers it without a request
    assert "wrote 28 lines (2 for steps without messages, no request)" in result.output
    # 26 requests; single and multi step 1 ask the same prompt, so one may come from the cache
    sent, hits = map(int, re.search(r"requests (\d+) \(cache hits (\d+)\)", result.output).groups())
    assert sent + hits == 26 and sent == len(scripted_server.requests)
    assert f"cost ${sent * 0.00012:.4f}" in result.output  # (100 x $1 + 10 x $2) / 1e6 a request sent
    assert scripted_server.headers[0]["authorization"] == f"Bearer {SECRET}"  # it was used...
    assert files_containing(out, SECRET) == [] and files_containing(tmp_path, SECRET) == []  # ...never written
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["model"] == "scripted-model" and manifest["strategy"] == "procot"
    assert manifest["parameters"] == {"temperature": 0.0, "seed": 0}
    assert "needs_action" in manifest["prompt"]["text"] and manifest["usage"]["requests"] == sent
    lines = {(d["case_id"], d["mode"], d["t"]): d
             for d in map(json.loads, (out / "predictions.jsonl").read_text().splitlines())}
    line = lines["tiny-01", "single", 1]
    assert line["usage"] == {"prompt_tokens": 100, "completion_tokens": 10} and line["cost_usd"] == 0.00012
    quiet = lines["tiny-01", "multi", 3]
    assert quiet["ops"] == [] and quiet["skipped"] == "no new messages" and quiet["requests"] == 0
    assert quiet.get("usage") is None and "cost_usd" not in quiet
    assert manifest["identity"]["agent_description"]["skip_quiet"] is True


def test_cli_second_identical_run_makes_zero_requests(scripted_server, tmp_path):
    scripted_server.default = hashed_reply
    cache = tmp_path / "cache.sqlite"
    common = ["--agent", "plain", "--model", "m", "--base-url", scripted_server.base_url,
              "--cache-path", str(cache)]
    assert run_cli(*common, "--out", str(tmp_path / "a")).exit_code == 0
    n = len(scripted_server.requests)
    second = run_cli(*common, "--out", str(tmp_path / "b"))
    assert second.exit_code == 0 and "requests 0 (cache hits 26)" in second.output
    assert len(scripted_server.requests) == n
    assert (tmp_path / "a" / "predictions.jsonl").read_text().count("\n") == 28
    a, b = (evaluate(load_tiny(), load_run(tmp_path / x), ci=False).metrics for x in "ab")
    assert a["single"] == b["single"] and a["multi"] == b["multi"]
    third = run_cli(*common, "--out", str(tmp_path / "c"), "--no-cache")
    assert third.exit_code == 0 and len(scripted_server.requests) == n + 26


def test_cli_errors_are_clear(tmp_path, monkeypatch):
    monkeypatch.delenv("PROEVENT_MODEL", raising=False)
    result = run_cli("--agent", "plain", "--out", str(tmp_path / "r"))
    assert result.exit_code == 1 and "no model: pass --model" in result.output
    result = run_cli("--agent", "bogus", "--out", str(tmp_path / "r"))
    assert result.exit_code == 1 and "unknown agent 'bogus'" in result.output
    result = run_cli("--agent", "null", "--out", str(tmp_path / "r"), "--cases", "tiny-01,nope")
    assert result.exit_code == 1 and "unknown case ids: nope" in result.output
    (tmp_path / "proevent.toml").write_text('[profiles.local]\nmodel = "m"\nconcurency = 3\n')
    result = run_cli("--agent", "plain", "--out", str(tmp_path / "r"), "--profile", "local",
                     "--config", str(tmp_path / "proevent.toml"))
    assert result.exit_code == 1 and "profiles.local.concurency: Extra inputs are not permitted" in result.output


@pytest.mark.slow
def test_kill_9_then_resume_loses_and_duplicates_nothing(scripted_server, tmp_path):
    scripted_server.default = lambda req: hashed_reply(req, delay=0.15)
    args = ["--agent", "plain", "--model", "m", "--base-url", scripted_server.base_url, "--no-cache",
            "--concurrency", "2", "--no-progress"]
    code = "from proevent.cli import main; main()"
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-c", code, "run", str(TINY), "--out", str(out), *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pred = out / "predictions.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not pred.exists() or pred.read_text().count("\n") < 6):
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = pred.read_text().count("\n")
    assert 6 <= before < 28
    rerun = subprocess.run([sys.executable, "-c", code, "run", str(TINY), "--out", str(out), *args], env=env,
                           capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert f"skipped {before} already answered" in rerun.stdout
    keys = keys_of(pred)
    assert len(keys) == len(set(keys)) == 28
    whole = tmp_path / "whole"
    subprocess.run([sys.executable, "-c", code, "run", str(TINY), "--out", str(whole), *args], env=env,
                   check=True, capture_output=True, timeout=120)
    ds = load_tiny()
    resumed, reference = (evaluate(ds, load_run(p), ci=False).metrics for p in (out, whole))
    assert resumed["single"] == reference["single"] and resumed["multi"] == reference["multi"]
    assert any(line.ops for line in load_run(whole).lines.values())  # the scripted model did act


def test_cli_budget_stops_and_says_how_to_go_on(scripted_server, tmp_path):
    scripted_server.default = hashed_reply
    common = ["--agent", "plain", "--model", "m", "--base-url", scripted_server.base_url, "--no-cache",
              "--price-in", "1", "--price-out", "2", "--concurrency", "1", "--out", str(tmp_path / "r")]
    # requests cost $0.00012; tiny-01's single steps take 2 ($0.00024, under the budget), then its
    # multi-step case runs whole (2 more): $0.00048 >= $0.0003, so nothing else starts
    first = run_cli(*common, "--max-cost", "0.0003")
    assert first.exit_code == 5 and "wrote 6 lines" in first.output and "requests 4 " in first.output
    assert "stopped at the budget of $0.0003 (the run has spent $0.0005): run the same command again" in first.output
    # the budget is the whole run's: the same budget again answers nothing more (it was per call before)
    again = run_cli(*common, "--max-cost", "0.0003")
    assert again.exit_code == 5 and "wrote 0 lines, skipped 6" in again.output
    assert len(scripted_server.requests) == 4
    refused = run_cli(*common, "--max-cost", "0")
    assert refused.exit_code == 1 and "--max-cost must be above 0 dollars, not 0" in refused.output
    second = run_cli(*common)
    assert second.exit_code == 0 and "stopped" not in second.output
    assert "The run so far: requests 26, cost $0.0031." in second.output
    assert len(load_run(tmp_path / "r").lines) == 28


def test_cli_summary_counts_the_servers_prompt_cache(scripted_server, tmp_path):
    from support.scripted_server import Reply

    scripted_server.default = lambda req: Reply(content='{"ops": []}', usage=(100, 10),
                                                 usage_extra={"prompt_tokens_details": {"cached_tokens": 60}})
    result = run_cli("--agent", "plain", "--model", "m", "--base-url", scripted_server.base_url, "--no-cache",
                     "--mode", "single", "--cases", "tiny-02", "--out", str(tmp_path / "r"))
    assert result.exit_code == 0 and "tokens 300+30 (180 prompt tokens from the server's prompt cache)" in result.output
