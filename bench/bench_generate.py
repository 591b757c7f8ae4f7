"""Benchmark: the default dataset (1,279 cases, template realiser) — cases/s, peak memory, and the
linguistic variety (distinct message texts, overall and among messages of >= 6 words; table 3).

Usage: python bench/bench_generate.py [--cases N] [--seed S] [--out DIR]
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

from proevent.generate import GeneratorConfig, compute_stats, generate_dataset
from proevent.generate.validate import validate_dataset


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cases", type=int, default=GeneratorConfig().cases)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    cfg = GeneratorConfig(cases=args.cases, seed=args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "proevent-synth"
        t0 = time.perf_counter()
        ds = generate_dataset(cfg, out, force=True)
        elapsed = time.perf_counter() - t0
        rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        t1 = time.perf_counter()
        report = validate_dataset(ds)
        t_validate = time.perf_counter() - t1
        st = compute_stats(ds)
        size = (out / "cases.jsonl").stat().st_size
    print(f"cases                     {st['cases']}")
    print(f"generate+write            {elapsed:.2f} s  ({st['cases'] / elapsed:.1f} cases/s)")
    print(f"validate (re-check)       {t_validate:.2f} s  errors={len(report.errors)}")
    print(f"peak memory               {rss_mb:.0f} MiB max RSS (after generating and writing)")
    print(f"cases.jsonl               {size / 2**20:.1f} MiB")
    print(f"steps / with gold         {st['steps']} / {st['questions_with_gold']}")
    print(f"operations                {st['operations']}")
    print(f"categories/subcategories  {st['n_categories']} / {st['n_subcategories']}")
    print(f"scheduling patterns       {st['scheduling_patterns']}")
    print(f"messages / distinct ratio {st['messages']} / {st['distinct_message_ratio']}  (short replies repeat, "
          "as in real chats; realism: bench/bench_realism.py)")
    print(f"distinct, >= 6 words      {st['distinct_long_message_ratio']}")
    table3 = st.get("linguistic_variations_detail") or {}
    for intent, row in table3.items():
        print(f"table 3 {intent:<17} {row['expressions']} expressions, {row['frames']} frames "
              f"in {row['sampled']} sampled of {row['messages']} messages")
    print(f"rejected attempts         {ds.manifest.generator.get('rejected')}")
    ok = (elapsed < 30 and st["questions_with_gold"] >= 2463 and st["scheduling_patterns"] >= 275
          and st["n_categories"] == 7 and st["n_subcategories"] == 56) if args.cases == 1279 else True
    return 0 if ok and report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
