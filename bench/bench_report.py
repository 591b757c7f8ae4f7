"""Benchmark of the report stage: ``proevent report`` of three runs on a paper-sized dataset, and the quickstart.

    python bench/bench_report.py [--work DIR] [--repeat 3] [--quickstart-cases 60] [--baseline SRC]

The dataset (1,279 cases, seed 0) and its ``rules`` run are the ones ``bench/bench_evaluate.py``
keeps under ``--work`` (made here when missing, not timed); the ``null`` and ``oracle`` runs are
added beside them. Measured, each in a fresh process, median of ``--repeat``:

- ``proevent report null rules oracle``: CPU seconds (user + system, from ``os.wait4``) and peak
  memory of the whole command as users run it: startup and imports, loading, scoring the three
  runs with 1,000-resample intervals, tables, error analysis, both plots and index.html, exit;
  the figure issue 14 bounds at 3 s;
- the same inside one process, split into scoring (``load_scored_runs``, called as the command
  calls it: ``traces=False`` where the tree has it) and writing (``write_report``: tables,
  errors, plots, page);
- the quickstart loop end to end (wall seconds), when ``--quickstart-cases`` is not 0.

Each tree's ``src`` is byte-compiled first (``compileall``), as an installed package is: where
``PYTHONDONTWRITEBYTECODE`` is set, every start compiled proevent's modules again (about 0.1 s
of the command). ``--no-compile`` leaves that out.

Each figure is printed as the median and the range of the tries. ``--baseline SRC`` (the ``src``
folder of another tree, e.g. ``git worktree add /tmp/report_base HEAD``) runs every try with that
code too, alternated with this tree's, so that both meet the same load on a shared machine.

Everything is offline (template realiser; null, rules and oracle agents).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_evaluate import CLI, ROOT, compile_trees, measure, prepare, spread  # noqa: E402

SPLIT = """
import inspect, sys, time
from pathlib import Path
from proevent.report import load_scored_runs, write_report
as_the_command = {"traces": False} if "traces" in inspect.signature(load_scored_runs).parameters else {}
t0 = time.process_time()
runs = load_scored_runs([Path(p) for p in sys.argv[1:4]], dataset=Path("ds"), n_boot=1000, **as_the_command)
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
    parser.add_argument("--baseline", type=Path, help="another tree's src folder, measured alternated with this one")
    parser.add_argument("--no-compile", action="store_true", help="do not byte-compile the trees first")
    args = parser.parse_args()
    py = sys.executable
    if not args.no_compile:
        compile_trees(ROOT / "src", args.baseline)
    folder = prepare(args.work, args.cases)
    for agent in ("null", "oracle"):
        if not (folder / agent / "predictions.jsonl").exists():
            shutil.rmtree(folder / agent, ignore_errors=True)
            measure([py, "-c", CLI, "run", "ds", "--agent", agent, "--mode", "both", "-o", agent], folder)
    runs = ["null", "rules", "oracle"]
    out = folder / "report"
    trees: list[tuple[str, Path | None]] = [("this", None)]
    if args.baseline:
        trees.insert(0, ("baseline", args.baseline.resolve()))
    whole: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in trees}
    split: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in trees}
    for i in range(args.repeat):
        for name, src in trees if i % 2 == 0 else trees[::-1]:  # alternated, each first in turn
            whole[name].append(measure([py, "-c", CLI, "report", *runs, "--dataset", "ds", "-o", str(out), "--force"],
                                       folder, src))
            env = None if src is None else {**os.environ, "PYTHONPATH": str(src)}
            text = subprocess.run([py, "-c", SPLIT, *runs, str(out)], cwd=folder, check=True, capture_output=True,
                                  text=True, env=env).stdout
            split[name].append(tuple(float(x) for x in text.split()))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 1e6
    print(f"proevent report of 3 runs (null, rules, oracle), {args.cases:,} cases, 1,000 resamples, "
          f"{size:.1f} MB written; medians (ranges) of {args.repeat} tries, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end:")
    for name, _ in trees:
        score, write = (sorted(s[k] for s in split[name]) for k in (0, 1))
        cpu = sorted(t[0] for t in whole[name])
        median = statistics.median(cpu)
        print(f"  {name + ': ' if args.baseline else ''}whole command "
              f"{spread(whole[name])} -> target <= 3 s: "
              f"{'OK' if cpu[-1] <= 3 else 'OK by the median' if median <= 3 else 'MISSED'}; in one process: "
              f"scoring the runs {statistics.median(score):.2f} s CPU ({score[0]:.2f}-{score[-1]:.2f}), writing "
              f"the report (tables, errors, plots, index.html) {statistics.median(write):.2f} s CPU "
              f"({write[0]:.2f}-{write[-1]:.2f})")
    if args.quickstart_cases:
        from rich.console import Console

        from proevent.report.quickstart import run_quickstart

        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            run_quickstart(Path(tmp) / "qs", cases=args.quickstart_cases, use_llm=False, console=Console(quiet=True))
            print(f"quickstart, {args.quickstart_cases} cases, end to end: {time.perf_counter() - t:.1f} s wall")


if __name__ == "__main__":
    main()
