"""Chaos mix for issue 12 (not a test: ``python tests/runner/chaos_mix.py RUNS SEED``).

Each run is a series of ``proevent run`` subprocesses against a scripted server on 127.0.0.1 that
answers a random 30% of requests (during the first six calls) with one of nine faults; half of
those calls are killed with SIGKILL at a random moment. Calls go on until one exits 0 with no
errored line left. Printed as JSON: the faults sent, the exit codes, the kills, and what went wrong
against an uninterrupted run: lines lost, answers that differ, answers duplicated, runs whose
``run.json`` usage is not the sum of their lines, tracebacks shown, files holding the key.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from runner_helpers import files_containing, hashed_reply, sum_lines  # noqa: E402

from fixtures import TINY  # noqa: E402
from proevent.io import load_run  # noqa: E402
from support.scripted_server import Reply, ScriptedServer  # noqa: E402

SECRET = "sk-chaos-LEAK-CHECK-91d2"
KINDS = ["500", "429", "drop", "malformed", "echo", "negative", "garbage", "slow", "401"]


def _echo(status: int) -> Reply:
    return Reply(status=status, raw_body=json.dumps({"error": {"message": f"bad key {SECRET}"}}).encode())


FAULTS: dict[str, Any] = {
    "500": lambda req: Reply(status=500),
    "429": lambda req: Reply(status=429, headers={"Retry-After": "0"}),
    "drop": lambda req: Reply(drop=True),
    "malformed": lambda req: Reply(raw_body=b'{"choices": ['),
    "echo": lambda req: _echo(502),
    "negative": lambda req: Reply(content='{"ops": []}', usage=(-500, 3)),
    "garbage": lambda req: Reply(content=f"nope {SECRET}"),
    "slow": lambda req: hashed_reply(req, delay=0.5),
    "401": lambda req: _echo(401),
}


def main(runs: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = {"p": 0.0}
    sent: Counter[str] = Counter()

    def reply(req: dict[str, Any]) -> Reply:
        if rng.random() < state["p"]:
            kind = rng.choice(KINDS)
            sent[kind] += 1
            return FAULTS[kind](req)
        return hashed_reply(req, delay=0.02)

    def cli(out: Path, server: ScriptedServer) -> list[str]:
        return [sys.executable, "-c", "from proevent.cli import main; main()", "run", str(TINY), "--agent", "plain",
                "--option", "repair=false", "--model", "m", "--base-url", server.base_url, "--no-cache",
                "--max-retries", "1", "--concurrency", "4", "--no-progress", "--price-in", "1", "--price-out", "2",
                "--out", str(out)]

    env = {**os.environ, "PROEVENT_API_KEY": SECRET}
    totals: Counter[str] = Counter()
    codes: Counter[int] = Counter()
    with ScriptedServer() as server, tempfile.TemporaryDirectory() as tmp:
        server.default = reply
        ref = Path(tmp) / "ref"
        subprocess.run(cli(ref, server), env=env, check=True, capture_output=True)
        want = {k: line.ops for k, line in load_run(ref).lines.items()}
        for r in range(runs):
            out = Path(tmp) / f"run{r}"
            for call in range(30):
                state["p"] = 0.3 if call < 6 else 0.0
                proc = subprocess.Popen(cli(out, server), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
                if call < 6 and rng.random() < 0.5:
                    time.sleep(rng.uniform(0.0, 1.2))
                    if proc.poll() is None:
                        os.kill(proc.pid, signal.SIGKILL)
                        totals["kills"] += 1
                _, err = proc.communicate()
                codes[proc.returncode] += 1
                totals["tracebacks"] += "Traceback" in err
                if proc.returncode == 0 and not any(line.error for line in load_run(out).lines.values()):
                    break
            totals["calls"] += call + 1
            run = load_run(out)
            got = {k: line.ops for k, line in run.lines.items()}
            totals["lost"] += len(set(want) - set(got))
            totals["differ"] += sum(1 for k in want if k in got and got[k] != want[k])
            lines = [json.loads(x) for x in (out / "predictions.jsonl").read_text().splitlines()]
            answered = [(d["case_id"], d["mode"], d["t"], d["repeat"]) for d in lines
                        if d["error"] is None and d["mode"] == "single"]
            totals["duplicates"] += len(answered) - len(set(answered))
            usage = json.loads((out / "run.json").read_text())["usage"]
            total = sum_lines(out / "predictions.jsonl")
            mine = (usage["prompt_tokens"], usage["completion_tokens"], usage["requests"] + usage["cache_hits"])
            theirs = (total["prompt_tokens"], total["completion_tokens"], total["calls"])
            totals["usage_mismatch"] += mine != theirs or abs(usage["cost_usd"] - total["cost_usd"]) > 1e-6
        totals["leaks"] = len(files_containing(Path(tmp), SECRET))
    return {"runs": runs, "faults_sent": dict(sent), "exit_codes": dict(codes), **totals}


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    print(json.dumps(main(*(args + [10, 0][len(args):]))))
