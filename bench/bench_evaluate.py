"""Benchmark what users run: `proevent evaluate` (and `run --agent oracle`) on generated datasets.

For each size (default 1,279, 5,000 and 10,000 cases, seed 0) the script generates a dataset and a
`rules` run in both modes once (kept under --work and reused by later calls), then measures, each
in a fresh process and as the median of --repeat tries:

- `proevent evaluate DATASET RUN` with the bootstrap intervals and breakdowns (what the command
  does by default), and with `--no-ci`;
- the independent stdlib reference scorer (bench/reference_scorer.py) on the same files;
- `proevent run DATASET --agent oracle --mode both` into a new folder.

Printed: CPU seconds (user + system of the process; the median, and the range of the tries),
peak resident memory, and the CPU seconds per 1,000 cases with the slope between sizes. With
``--baseline SRC`` (the ``src`` folder of another tree, e.g. ``git archive HEAD~5 | tar -x -C
/tmp/base``) each try of evaluate and oracle runs that tree's code too, alternated with this
one's, so that both see the same load on a shared machine. Both trees are byte-compiled first
(``--no-compile`` leaves that out). Targets at 10,000 cases on a 2-core machine
(issue 14): evaluate with intervals <= 5 s CPU and <= 600 MB, the per-1,000-case slope at 10k
within 10% of the slope at 1k, faster than the reference scorer; `run --agent oracle` <= 6 s CPU
and <= 600 MB.

    python bench/bench_evaluate.py [--sizes 1279 5000 10000] [--repeat 3] [--work DIR] [--baseline SRC]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = "import sys; from proevent.cli import main; sys.exit(main())"


def compile_trees(*srcs: Path | None) -> None:
    """Byte-compile each ``src`` folder, as an installed package is: where PYTHONDONTWRITEBYTECODE
    is set, every start compiled proevent's modules again (about 0.1 s of each command)."""
    for src in srcs:
        if src is not None:
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(src)], check=True, stdout=subprocess.DEVNULL)


def measure(args: list[str], cwd: Path, src: Path | None = None) -> tuple[float, float]:
    """CPU seconds and peak memory (MB) of one child process, from os.wait4's resource usage
    (``src``: import proevent from there instead)."""
    env = None if src is None else {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"failed ({status}): {' '.join(args)}\n{proc.stderr.read().decode()[-2000:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def median_of(repeat: int, args: list[str], cwd: Path, before=None) -> tuple[float, float]:
    tries = []
    for _ in range(repeat):
        if before:
            before()
        tries.append(measure(args, cwd))
    return statistics.median(t[0] for t in tries), max(t[1] for t in tries)


def alternated(repeat: int, args: list[str], cwd: Path, baseline: Path, before=None) -> dict[str, list[tuple]]:
    """``repeat`` tries of ``args`` with the baseline's code and with this tree's, alternated."""
    tries: dict[str, list[tuple]] = {"baseline": [], "this": []}
    for _ in range(repeat):
        for name, src in (("baseline", baseline), ("this", None)):
            if before:
                before()
            tries[name].append(measure(args, cwd, src))
    return tries


def spread(tries: list[tuple]) -> str:
    cpu = sorted(t[0] for t in tries)
    return (f"{statistics.median(cpu):5.2f} s CPU ({cpu[0]:.2f}-{cpu[-1]:.2f}), "
            f"{max(t[1] for t in tries):4.0f} MB")


def prepare(work: Path, cases: int) -> Path:
    folder = work / f"n{cases}"
    if not (folder / "rules" / "predictions.jsonl").exists():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        print(f"  preparing {cases:,} cases in {folder} (generate + rules run, not timed) ...", flush=True)
        for step in (["generate", "-o", "ds", "--cases", str(cases), "--seed", "0", "-q"],
                     ["run", "ds", "--agent", "rules", "--mode", "both", "-o", "rules"]):
            measure([sys.executable, "-c", CLI, *step], folder)
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1279, 5000, 10000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "proevent-bench-evaluate")
    ap.add_argument("--baseline", type=Path, help="another tree's src folder: evaluate and oracle alternated with it")
    ap.add_argument("--no-compile", action="store_true", help="do not byte-compile the trees first")
    args = ap.parse_args()
    py = sys.executable
    if not args.no_compile:
        compile_trees(ROOT / "src", args.baseline)
    rows = []
    for n in args.sizes:
        folder = prepare(args.work, n)
        oracle = folder / "oracle"
        if args.baseline is not None:
            for what, cmd, before in (
                    ("evaluate", [py, "-c", CLI, "evaluate", "ds", "rules"], None),
                    ("run --agent oracle", [py, "-c", CLI, "run", "ds", "--agent", "oracle", "--mode", "both", "-o",
                                            "oracle"], lambda o=oracle: shutil.rmtree(o, True))):
                tries = alternated(args.repeat, cmd, folder, args.baseline, before)
                print(f"{n:>7,} cases: {what}: baseline {spread(tries['baseline'])} | this tree "
                      f"{spread(tries['this'])}", flush=True)
        row = {
            "n": n,
            "eval": median_of(args.repeat, [py, "-c", CLI, "evaluate", "ds", "rules"], folder),
            "eval_noci": median_of(args.repeat, [py, "-c", CLI, "evaluate", "ds", "rules", "--no-ci"], folder),
            "reference": median_of(1, [py, str(ROOT / "bench" / "reference_scorer.py"), "ds", "rules"], folder),
            "oracle": median_of(args.repeat, [py, "-c", CLI, "run", "ds", "--agent", "oracle", "--mode", "both",
                                              "-o", "oracle"], folder, lambda o=oracle: shutil.rmtree(o, True)),
        }
        rows.append(row)
        print(f"{n:>7,} cases: evaluate {row['eval'][0]:6.2f} s CPU {row['eval'][1]:6.0f} MB | --no-ci "
              f"{row['eval_noci'][0]:6.2f} s {row['eval_noci'][1]:6.0f} MB | reference scorer "
              f"{row['reference'][0]:6.2f} s {row['reference'][1]:5.0f} MB | run --agent oracle "
              f"{row['oracle'][0]:6.2f} s {row['oracle'][1]:6.0f} MB", flush=True)
    print("\nCPU seconds per 1,000 cases (evaluate with intervals):")
    for a, b in zip(rows, rows[1:]):
        slope = (b["eval"][0] - a["eval"][0]) / (b["n"] - a["n"]) * 1000
        print(f"  {a['n']:,} -> {b['n']:,}: slope {slope:.2f} s")
    for r in rows:
        print(f"  at {r['n']:,}: {r['eval'][0] / r['n'] * 1000:.2f} s per 1,000 (evaluate), "
              f"{r['reference'][0] / r['eval'][0]:.1f}x faster than the reference scorer")
    big = rows[-1]
    if big["n"] >= 10000:
        first, last = rows[0]["eval"][0] / rows[0]["n"], big["eval"][0] / big["n"]
        checks = [("evaluate <= 5 s CPU", big["eval"][0] <= 5), ("evaluate <= 600 MB", big["eval"][1] <= 600),
                  ("per-case cost at 10k within 10% of 1k", last <= 1.1 * first),
                  ("faster than the reference", big["eval"][0] < big["reference"][0]),
                  ("run --agent oracle <= 6 s CPU", big["oracle"][0] <= 6),
                  ("run --agent oracle <= 600 MB", big["oracle"][1] <= 600)]
        print("targets at 10,000 cases: " + "; ".join(f"{name} {'OK' if ok else 'MISSED'}" for name, ok in checks))


if __name__ == "__main__":
    main()
