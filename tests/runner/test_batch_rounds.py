"""Runs made in rounds through batch files equal the same runs against the live scripted server.

The "model" is a deterministic function of the request. Live, the scripted server answers with it;
in rounds, ``proevent run --batch-out`` writes the requests, an "offline runner" (the same function,
applied to each line's ``body``) writes an output file, and ``proevent batch import`` reads it back.
Prediction lines (all but ``latency_s``) and metrics must be identical.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fixtures import TINY, load_tiny
from proevent.cli import app
from proevent.evaluate import evaluate
from proevent.io import load_run
from support.scripted_server import Reply, _completion_body


def _h(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest(), 16)


def _first_event(req: dict[str, Any]) -> list[dict[str, Any]]:
    import re

    prompt = req["messages"][1]["content"] if len(req["messages"]) > 1 else req["messages"][0]["content"]
    ids = re.findall(r"(?m)^(e\d+) \|", prompt) or re.findall(r'"id": "(e\d+)"', prompt)
    return [{"op": "delete", "id": ids[0]}] if ids and _h(prompt) % 2 == 0 else []


def answer(req: dict[str, Any]) -> bytes:
    """The chat completion the model sends, as bytes; its tool call ids come from the request
    (the scripted server would number them by arrival, which differs between the two ways)."""
    return _completion_body(req, model(req), _h(json.dumps(req["messages"], sort_keys=True)) % 10**6)


def live_reply(req: dict[str, Any]) -> Reply:
    return Reply(raw_body=answer(req))


def model(req: dict[str, Any]) -> Reply:
    """procot: a third of first answers are prose (the agent sends a repair request, answered with
    JSON); tools: find_events first, then submit_operations (a tools round trip)."""
    messages = req["messages"]
    if req.get("tools"):
        if not any(m.get("role") == "tool" for m in messages):
            return Reply(content=None, tool_calls=[("find_events", {"query": "dentist"})], usage=(50, 5))
        return Reply(content=None, tool_calls=[("submit_operations", {
            "attendance_check": "checked", "ops": _first_event(req)})], usage=(80, 9))
    repaired = messages[-1]["role"] == "user" and len(messages) > 2
    if not repaired and _h(messages[-1]["content"]) % 3 == 0:
        return Reply(content="I think nothing changes here.", usage=(40, 6))
    return Reply(content=json.dumps({"ops": _first_event(req)}), usage=(100, 10))


def offline_runner(batch_in: Path, batch_out: Path, *, plain: bool) -> int:
    """Answer every line of a Batch API input file as the scripted server would; ``plain`` writes
    ``{"custom_id", "response"}`` lines, else the Batch API output format."""
    lines = [json.loads(t) for t in batch_in.read_text(encoding="utf-8").splitlines()]
    with batch_out.open("w", encoding="utf-8") as out:
        for n, line in enumerate(lines):
            assert line["method"] == "POST" and line["url"] == "/v1/chat/completions"
            body = json.loads(answer(line["body"]))
            if plain:
                record: dict[str, Any] = {"custom_id": line["custom_id"], "response": body}
            else:
                record = {"id": f"batch_req_{n}", "custom_id": line["custom_id"],
                          "response": {"status_code": 200, "request_id": f"req_{n}", "body": body}, "error": None}
            out.write(json.dumps(record) + "\n")
    return len(lines)


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


def comparable(path: Path) -> list[dict[str, Any]]:
    lines = [json.loads(t) for t in (path / "predictions.jsonl").read_text(encoding="utf-8").splitlines()]
    for d in lines:
        d.pop("latency_s", None)
    return sorted(lines, key=lambda d: (d["case_id"], d["mode"], d["t"], d["repeat"]))


@pytest.mark.parametrize("agent", ["procot", "tools"])
def test_a_run_in_rounds_equals_the_live_run(scripted_server, tmp_path, agent):
    scripted_server.default = live_reply
    common = ["run", str(TINY), "--agent", agent, "--model", "scripted-model", "--base-url",
              scripted_server.base_url, "--mode", "both", "--concurrency", "1", "--no-progress",
              "--price-in", "1", "--price-out", "2"]
    live = cli(*common, "--out", str(tmp_path / "live"), "--cache-path", str(tmp_path / "live.sqlite"))
    assert live.exit_code == 0, live.output
    sent_live = len(scripted_server.requests)
    live_bodies = [json.dumps(r, sort_keys=True) for r in scripted_server.requests]
    assert sent_live > 26  # repairs (procot) or tool rounds (tools) beyond one request a question
    scripted_server.reset()

    cache = str(tmp_path / "batch.sqlite")
    rounds = 0
    for rounds in range(1, 30):
        batch_in = tmp_path / f"requests-{rounds}.jsonl"
        result = cli(*common, "--out", str(tmp_path / "rounds"), "--cache-path", cache, "--batch-out", str(batch_in))
        assert result.exit_code == 0, result.output
        if not batch_in.exists():
            assert "every question is answered" in result.output
            break
        written = offline_runner(batch_in, tmp_path / f"answers-{rounds}.jsonl", plain=rounds % 2 == 0)
        assert f"{written} requests for" in result.output
        imported = cli("batch", "import", str(tmp_path / f"answers-{rounds}.jsonl"), "--cache-path", cache)
        assert imported.exit_code == 0, imported.output
        assert f"imported {written} answers and 0 errors" in imported.output
    assert scripted_server.requests == []  # nothing was sent in rounds
    # multi-step mode asks step after step, repairs and tool rounds need the answer before them
    assert rounds > 3
    # the same requests, as many times: a repeated prompt is answered from the cache in both ways
    files = [tmp_path / f"requests-{k}.jsonl" for k in range(1, rounds)]
    exported_bodies = sorted(json.dumps(json.loads(t)["body"], sort_keys=True)
                             for f in files for t in f.read_text().splitlines())
    assert exported_bodies == sorted(live_bodies)

    assert comparable(tmp_path / "rounds") == comparable(tmp_path / "live")
    ds = load_tiny()
    live_metrics = evaluate(ds, load_run(tmp_path / "live"), ci=False).metrics
    round_metrics = evaluate(ds, load_run(tmp_path / "rounds"), ci=False).metrics
    assert json.dumps(round_metrics, sort_keys=True) == json.dumps(live_metrics, sort_keys=True)
    usage = json.loads((tmp_path / "rounds" / "run.json").read_text())["usage"]
    live_usage = json.loads((tmp_path / "live" / "run.json").read_text())["usage"]
    assert usage == live_usage
