"""Benchmark: the CPU time of both modes of the ``rules`` agent on a dataset (issue 16: <= 8 s on the
default dataset, linear in the number of messages), next to the ``null`` agent's run (the runner and
the observations: the floor no agent goes under).

CPU time (user + system of this process), not wall time: the machine may be shared. Each agent runs
in a fresh child process so that no cache of one run helps the next. ``--profile FILE`` writes the
``rules`` run's cProfile stats (``python -m pstats FILE``); ``--same-as RUN`` checks that the
predictions equal those of an earlier run folder (sorted by key, latency aside): a speed change
must not change what the agent predicts.

Usage: python bench/bench_rules_speed.py DATASET [--profile FILE] [--same-as RUN] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = """
import cProfile, resource, sys
from proevent.runner import run_agent
dataset, agent, out, profile = sys.argv[1:5]
before = resource.getrusage(resource.RUSAGE_SELF)
if profile:
    cProfile.run("run_agent(dataset, agent, out, mode='both')", profile)
else:
    run_agent(dataset, agent, out, mode="both")
after = resource.getrusage(resource.RUSAGE_SELF)
print(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, after.ru_maxrss)
"""


def cpu_of_run(dataset: Path, agent: str, out: Path, profile: str = "") -> tuple[float, float]:
    """CPU seconds (user + system) of ``run_agent`` in a fresh process (imports not counted), and
    the process's peak resident memory in MB."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(dataset), agent, str(out), profile],
                          check=True, capture_output=True, text=True)
    cpu, rss_kb = done.stdout.strip().splitlines()[-1].split()
    return float(cpu), int(rss_kb) / 1024


def predictions(run: Path) -> list[str]:
    """The run's prediction lines, latency removed, sorted by (case, mode, repeat, step)."""
    rows = []
    for line in (run / "predictions.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        row.pop("latency_s", None)
        rows.append(((row["case_id"], row["mode"], row["repeat"], row["t"]), json.dumps(row, sort_keys=True)))
    return [text for _, text in sorted(rows)]


def messages_of(dataset: Path) -> tuple[int, int]:
    """(cases, messages) of a dataset's ``cases.jsonl``."""
    cases = messages = 0
    with (dataset / "cases.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            case = json.loads(line)
            cases += 1
            messages += sum(len(s["messages"]) for s in case["steps"])
    return cases, messages


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("--profile", help="write the rules run's cProfile stats here")
    ap.add_argument("--same-as", type=Path, help="a run folder whose predictions must be the same")
    ap.add_argument("--keep", type=Path, help="write the rules run here (default: a temporary folder)")
    ap.add_argument("--skip-null", action="store_true", help="do not measure the null agent's run")
    args = ap.parse_args(argv)
    cases, messages = messages_of(args.dataset)
    print(f"{args.dataset}: {cases} cases, {messages} messages; load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp) / "rules"
        rules, rss = cpu_of_run(args.dataset, "rules", out, args.profile or "")
        print(f"rules, both modes: {rules:.2f} s CPU ({rules / messages * 1e6:.0f} us a message), peak memory "
              f"{rss:.0f} MB" + (" (under cProfile)" if args.profile else ""))
        if not args.skip_null:
            null, null_rss = cpu_of_run(args.dataset, "null", Path(tmp) / "null")
            print(f"null, both modes:  {null:.2f} s CPU, peak memory {null_rss:.0f} MB; rules' own share "
                  f"{rules - null:.2f} s")
        if not args.profile:
            print(f"  both modes <= 8 s: {'PASS' if rules <= 8.0 else 'FAIL'}")
        if args.same_as is not None:
            same = predictions(out) == predictions(args.same_as)
            print(f"  predictions the same as {args.same_as}: {'yes' if same else 'NO'}")
            if not same:
                return 1
    print(f"load average after {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
