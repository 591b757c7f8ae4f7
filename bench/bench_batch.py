"""Exporting a run's requests as a Batch API input file (issue 18).

On the default-size generated dataset (seed 0; ``--cases N`` for fewer), ``procot`` in single-step
mode: the time ``proevent run --batch-out`` takes to write every request of the first round
(an empty response cache: nothing is answered, nothing sent), the file's size, and its request
count against ``--estimate``'s request count for the same run. Target: under 30 s, counts equal.
The generation of the dataset is not timed.

Run: ``python bench/bench_batch.py [--cases N] [--agent procot] [--mode single]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from proevent.generate import GeneratorConfig, generate_cases
from proevent.io import write_dataset
from proevent.llm import LLMConfig
from proevent.runner import RunConfig, estimate_run, execute


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=None, help="cases to generate (default: the default dataset size)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agent", default="procot")
    ap.add_argument("--mode", default="single")
    args = ap.parse_args()
    config = GeneratorConfig(seed=args.seed) if args.cases is None else GeneratorConfig(cases=args.cases,
                                                                                           seed=args.seed)
    with tempfile.TemporaryDirectory(prefix="proevent-bench-batch-") as tmpdir:
        tmp = Path(tmpdir)
        ds = write_dataset(tmp / "ds", generate_cases(config), name="bench", version="0")
        llm = LLMConfig(model="gpt-4o-mini", cache_path=tmp / "cache.sqlite")
        run = RunConfig(agent=args.agent, mode=args.mode, llm=llm, concurrency=64)  # type: ignore[arg-type]
        est = asyncio.run(estimate_run(run, ds))
        batch = tmp / "requests.jsonl"
        start = time.perf_counter()
        summary = asyncio.run(execute(run, ds, tmp / "run", progress=False, batch_out=batch))
        elapsed = time.perf_counter() - start
        lines = batch.read_bytes().splitlines()
        ids = {json.loads(line)["custom_id"] for line in lines}
    print(f"dataset: {len(ds.cases)} cases, {est.questions} questions ({args.agent}, {args.mode} mode)")
    print(f"--batch-out: {len(lines)} requests ({len(ids)} distinct custom_id) written in {elapsed:.1f} s "
          f"({elapsed / max(1, len(lines)) * 1000:.2f} ms a request), {sum(map(len, lines)) / 2**20:.1f} MB; "
          f"{summary.written} lines written (no request needed), {summary.pending.questions} questions pending, "
          f"at most {summary.pending.max_requests} requests in at most {summary.pending.max_rounds} rounds")
    print(f"--estimate: {est.requests} requests; equal: {est.requests == len(lines)}; "
          f"target < 30 s: {'met' if elapsed < 30 else 'NOT met'}")


if __name__ == "__main__":
    main()
