"""Benchmark of the report stage: the quickstart loop, and a report of three runs on a paper-sized dataset.

    python bench/bench_report.py [--cases 1279] [--quickstart-cases 60]

Prints wall times per stage. Everything is offline (template realiser; null, rules and oracle agents).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rich.console import Console


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1279, help="cases of the large dataset (paper: 1279)")
    parser.add_argument("--quickstart-cases", type=int, default=60)
    args = parser.parse_args()

    from proevent.generate import GeneratorConfig, generate_dataset
    from proevent.report import load_scored_runs, write_report
    from proevent.report.quickstart import run_quickstart
    from proevent.runner import run_agent

    quiet = Console(quiet=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        t = time.perf_counter()
        run_quickstart(root / "qs", cases=args.quickstart_cases, use_llm=False, console=quiet)
        print(f"quickstart, {args.quickstart_cases} cases, end to end: {time.perf_counter() - t:.1f} s")

        t = time.perf_counter()
        ds = generate_dataset(GeneratorConfig(cases=args.cases, seed=1), root / "big" / "dataset")
        print(f"generate {len(ds.cases)} cases ({ds.manifest.counts.steps} questions): {time.perf_counter() - t:.1f} s")
        paths = []
        t = time.perf_counter()
        for agent in ("null", "rules", "oracle"):
            path = root / "big" / "runs" / agent
            run_agent(ds, agent, path, "both")
            paths.append(path)
        print(f"run null, rules, oracle (both modes): {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        scored = load_scored_runs(paths, dataset=ds, n_boot=1000)
        print(f"evaluate 3 runs with 1000-resample intervals: {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        out = write_report(scored, root / "big" / "report", n_boot=1000)
        elapsed = time.perf_counter() - t
        size = sum(p.stat().st_size for p in out.files) / 1e6
        print(f"write the report (tables, error analysis, plots, index.html): {elapsed:.1f} s, {size:.1f} MB")
        print(f"errors categorized: {', '.join(f'{sr.label} {s.total}' for sr, s in zip(scored, out.summaries))}")


if __name__ == "__main__":
    main()
