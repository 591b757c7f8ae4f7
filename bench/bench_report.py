"""Benchmark of the report stage: ``proevent report`` of three runs on a paper-sized dataset, and the quickstart.

    python bench/bench_report.py [--work DIR] [--repeat 3] [--quickstart-cases 60]

The dataset (1,279 cases, seed 0) and its ``rules`` run are the ones ``bench/bench_evaluate.py``
keeps under ``--work`` (made here when missing, not timed); the ``null`` and ``oracle`` runs are
added beside them. Measured, each in a fresh process, median of ``--repeat``:

- ``proevent report null rules oracle``: CPU seconds (user + system, from ``os.wait4``) and peak
  memory of the whole command: loading, scoring the three runs with 1,000-resample intervals,
  tables, error analysis, both plots and index.html;
- the same inside one process, split into scoring (``load_scored_runs``) and writing
  (``write_report``: tables, errors, plots, page), the part issue 14 bounds at 3 s;
- the quickstart loop end to end (wall seconds), when ``--quickstart-cases`` is not 0.

Everything is offline (template realiser; null, rules and oracle agents).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_evaluate import CLI, measure, prepare  # noqa: E402

SPLIT = """
import sys, time
from pathlib import Path
from proevent.report import load_scored_runs, write_report
t0 = time.process_time()
runs = load_scored_runs([Path(p) for p in sys.argv[1:4]], dataset=Path("ds"), n_boot=1000)
t1 = time.process_time()
write_report(runs, sys.argv[4], n_boot=1000, force=True)
print(t1 - t0, time.process_time() - t1)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "proevent-bench-evaluate")
    parser.add_argument("--cases", type=int, default=1279, help="cases of the dataset (paper: 1279)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quickstart-cases", type=int, default=60, help="0 skips the quickstart")
    args = parser.parse_args()
    py = sys.executable
    folder = prepare(args.work, args.cases)
    for agent in ("null", "oracle"):
        if not (folder / agent / "predictions.jsonl").exists():
            shutil.rmtree(folder / agent, ignore_errors=True)
            measure([py, "-c", CLI, "run", "ds", "--agent", agent, "--mode", "both", "-o", agent], folder)
    runs = ["null", "rules", "oracle"]
    out = folder / "report"
    whole = [measure([py, "-c", CLI, "report", *runs, "--dataset", "ds", "-o", str(out), "--force"], folder)
             for _ in range(args.repeat)]
    split = []
    for _ in range(args.repeat):
        text = subprocess.run([py, "-c", SPLIT, *runs, str(out)], cwd=folder, check=True, capture_output=True,
                              text=True).stdout
        split.append(tuple(float(x) for x in text.split()))
    cpu, mb = statistics.median(w[0] for w in whole), max(w[1] for w in whole)
    score, write = statistics.median(s[0] for s in split), statistics.median(s[1] for s in split)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 1e6
    print(f"proevent report of 3 runs (null, rules, oracle), {args.cases:,} cases, 1,000 resamples: "
          f"{cpu:.2f} s CPU, {mb:.0f} MB peak, {size:.1f} MB written")
    print(f"  in one process: scoring the runs {score:.2f} s CPU, writing the report (tables, errors, plots, "
          f"index.html) {write:.2f} s CPU -> target <= 3 s: {'OK' if write <= 3 else 'MISSED'}")
    if args.quickstart_cases:
        from rich.console import Console

        from proevent.report.quickstart import run_quickstart

        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            run_quickstart(Path(tmp) / "qs", cases=args.quickstart_cases, use_llm=False, console=Console(quiet=True))
            print(f"quickstart, {args.quickstart_cases} cases, end to end: {time.perf_counter() - t:.1f} s wall")


if __name__ == "__main__":
    main()
