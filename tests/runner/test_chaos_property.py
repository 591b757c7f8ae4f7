"""Property (issue 12): for any sequence of server replies (answers, 500s, dropped connections,
malformed bodies, negative usage, error bodies echoing the key) and interruptions (the run task
cancelled after k lines, sometimes leaving a torn line as a kill mid-write would), resuming until
nothing is errored gives the same predictions as an uninterrupted run: no line lost, no answer
duplicated, ``run.json``'s usage equal to the sum of the lines, and no stored file holding the key."""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections import deque
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runner_helpers import files_containing, hashed_reply, sum_lines

from fixtures import load_tiny
from proevent.io import load_run
from proevent.llm import LLMConfig
from proevent.runner import RunConfig, execute
from proevent.runner.batch import RunStopped
from support.scripted_server import Reply

SECRET = "sk-chaos-DO-NOT-LEAK-77e1"
KEY_ENV = "PROEVENT_CHAOS_TEST_KEY"
KINDS = ("ok", "500", "drop", "malformed", "echo", "negative", "garbage")


def fault(kind: str, req: dict) -> Reply:
    if kind == "500":
        return Reply(status=500)
    if kind == "drop":
        return Reply(drop=True)
    if kind == "malformed":
        return Reply(raw_body=b'{"choices": [{"message": ')
    if kind == "echo":
        return Reply(status=503, raw_body=json.dumps({"error": {"message": f"bad key Bearer {SECRET}"}}).encode())
    if kind == "negative":
        return Reply(content='{"ops": []}', usage=(-1000, 5))
    if kind == "garbage":
        return Reply(content=f"no JSON here, but the key: {SECRET}")
    return hashed_reply(req)


def config(server) -> RunConfig:
    llm = LLMConfig(model="m", base_urls=[server.base_url], cache=False, max_retries=1, backoff_s=0.001,
                    backoff_max_s=0.002, api_key_env=KEY_ENV, price={"input": 1.0, "output": 2.0})
    # no repair request: an unparseable answer is an errored line (asked again), not a second answer
    return RunConfig(agent="plain", mode="both", concurrency=3, llm=llm, agent_options={"repair": False})


async def _run_until(cfg: RunConfig, out: Path, stop_after: int | None) -> None:
    """Run; with ``stop_after``, cancel the run once that many more lines are on disk."""
    pred = out / "predictions.jsonl"
    start = pred.read_bytes().count(b"\n") if pred.exists() else 0
    task = asyncio.ensure_future(execute(cfg, load_tiny(), out, progress=False))
    while stop_after is not None and not task.done():
        if pred.exists() and pred.read_bytes().count(b"\n") >= start + stop_after:
            task.cancel()
            break
        await asyncio.sleep(0.002)
    try:
        await task
    except (asyncio.CancelledError, RunStopped):
        pass


_REFERENCE: dict[str, dict] = {}


def reference(server) -> dict:
    if "lines" not in _REFERENCE:
        server.reset()
        server.default = hashed_reply
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(_run_until(config(server), Path(tmp) / "r", None))
            _REFERENCE["lines"] = {k: line.ops for k, line in load_run(Path(tmp) / "r").lines.items()}
    return _REFERENCE["lines"]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(replies=st.lists(st.sampled_from(KINDS), max_size=40),
       cuts=st.lists(st.tuples(st.integers(min_value=0, max_value=12), st.booleans()), max_size=3))
def test_any_replies_and_interruptions_end_as_an_uninterrupted_run(scripted_server, replies, cuts):
    want = reference(scripted_server)
    scripted_server.reset()
    schedule = deque(replies)

    def reply(req: dict) -> Reply:
        try:
            kind = schedule.popleft()
        except IndexError:
            kind = "ok"
        return fault(kind, req)

    scripted_server.default = reply
    os.environ[KEY_ENV] = SECRET
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "r"
            cfg = config(scripted_server)
            for stop_after, torn in cuts:
                asyncio.run(_run_until(cfg, out, stop_after))
                if torn and (out / "predictions.jsonl").exists():  # a kill in the middle of a write
                    with (out / "predictions.jsonl").open("ab") as fh:
                        fh.write(b'{"case_id":"tiny-0')
            for _ in range(8):  # resume until nothing is errored (the faults are finite)
                asyncio.run(_run_until(cfg, out, None))
                if not any(line.error for line in load_run(out).lines.values()):
                    break
            run = load_run(out)
            assert {k: line.ops for k, line in run.lines.items()} == want  # none lost, same answers
            assert not any(line.error for line in run.lines.values())
            lines = [json.loads(x) for x in (out / "predictions.jsonl").read_text().splitlines()]
            answered = [(d["case_id"], d["mode"], d["t"], d["repeat"]) for d in lines
                        if d["error"] is None and d["mode"] == "single"]
            assert len(answered) == len(set(answered))  # no question answered twice
            usage = json.loads((out / "run.json").read_text())["usage"]
            total = sum_lines(out / "predictions.jsonl")
            assert (usage["prompt_tokens"], usage["completion_tokens"]) == (total["prompt_tokens"],
                                                                           total["completion_tokens"])
            assert usage["requests"] + usage["cache_hits"] == total["calls"]
            assert abs(usage["cost_usd"] - total["cost_usd"]) < 1e-6
            assert files_containing(Path(tmp), SECRET) == []
    finally:
        os.environ.pop(KEY_ENV, None)
