"""Benchmark: the realism report of the default dataset against the hand-written development set,
and issue 11's targets, each with PASS or FAIL; also the default dataset's generation time.

Generates the default dataset (1,279 cases, seed 0, template realiser) in a temporary folder, or
reads ``--dataset PATH``; the reference is ``examples/handwritten`` (built by
``python examples/handwritten/build.py``), or ``--reference PATH``. Exits 1 when a target other
than the generation time fails (timing is printed, never asserted).

The AUC is the mean of 5 rounds of sampling and 5-fold cross-validation (``realism_report``'s
default). ``--more-seeds 1 2`` also generates the datasets of those generator seeds and prints the
AUC of each: a figure that holds for one generator seed only is no result, so the AUC target is
then judged on every seed.

Usage: python bench/bench_realism.py [--dataset PATH] [--reference PATH] [--cases N] [--seed S]
       [--more-seeds S ...] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from proevent.generate import GeneratorConfig, generate_dataset
from proevent.generate.realism import PHENOMENA, RealismReport, realism_report, report_rows
from proevent.io import load_dataset

ROOT = Path(__file__).resolve().parent.parent
HANDWRITTEN = ROOT / "examples" / "handwritten"
FALLBACK = ROOT / "examples" / "tiny"
GENERATION_S = 30.0
MIN_PHENOMENON = 0.02


def targets(report: RealismReport) -> list[tuple[str, str, bool]]:
    """Issue 11's realism targets: ``(target, figure, passed)``; a figure that is n/a fails."""
    d = report.dataset

    def row(label: str, value: float | None, ok: bool, pct: bool = True) -> tuple[str, str, bool]:
        text = "n/a" if value is None else f"{value:.1%}" if pct else f"{value:.3f}"
        return label, text, value is not None and ok

    auc = report.auc.mean
    out = [
        row("classifier AUC <= 0.75", auc, auc is not None and auc <= 0.75, pct=False),
        row("repeated-phrase share <= 5%", d.repeated_phrase_share,
            d.repeated_phrase_share is not None and d.repeated_phrase_share <= 0.05),
        row("messages of three words or fewer >= 20%", d.short_share,
            d.short_share is not None and d.short_share >= 0.2),
        row("steps without messages <= 20%", d.quiet_step_share,
            d.quiet_step_share is not None and d.quiet_step_share <= 0.2),
        row("changes to initial events >= 30% of updates+deletes", d.initial_change_share,
            d.initial_change_share is not None and d.initial_change_share >= 0.3),
    ]
    if d.phenomena is None:
        out.append(("every phenomenon in >= 2% of cases", "n/a (no meta.phenomena)", False))
    else:
        low = [f"{t} {d.phenomena[t]:.1%}" for t in PHENOMENA if d.phenomena[t] < MIN_PHENOMENON]
        figure = f"{len(PHENOMENA) - len(low)} of {len(PHENOMENA)} tags" + (f"; below: {', '.join(low)}" if low else "")
        out.append(("every phenomenon in >= 2% of cases", figure, not low))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", type=Path, default=None, help="Judge this dataset instead of generating one.")
    ap.add_argument("--reference", type=Path, default=None, help="Reference dataset (default examples/handwritten).")
    ap.add_argument("--cases", type=int, default=GeneratorConfig().cases)
    ap.add_argument("--seed", type=int, default=0, help="Generator seed.")
    ap.add_argument("--json", type=Path, default=None, help="Also write the realism report as JSON.")
    ap.add_argument("--more-seeds", type=int, nargs="*", default=[],
                    help="Further generator seeds whose datasets' AUC is measured and judged too.")
    args = ap.parse_args()

    reference_path = args.reference or HANDWRITTEN
    if args.reference is None and not (HANDWRITTEN / "cases.jsonl").exists():
        print(f"note: {HANDWRITTEN} has no cases.jsonl yet (python examples/handwritten/build.py); "
              f"using {FALLBACK} as the reference")
        reference_path = FALLBACK
    reference = load_dataset(reference_path)

    with tempfile.TemporaryDirectory() as tmp:
        elapsed = None
        if args.dataset is not None:
            dataset = load_dataset(args.dataset)
        else:
            t0 = time.perf_counter()
            dataset = generate_dataset(GeneratorConfig(cases=args.cases, seed=args.seed), Path(tmp) / "synth")
            elapsed = time.perf_counter() - t0
        t1 = time.perf_counter()
        report = realism_report(dataset, reference)
        t_report = time.perf_counter() - t1

    print(f"dataset    {args.dataset or f'generated: {args.cases} cases, seed {args.seed}'}")
    print(f"reference  {reference_path}")
    width = max(len(label) for label, _, _ in report_rows(report))
    print(f"{'figure':<{width}}  {'dataset':<34} reference")
    for label, a, b in report_rows(report):
        print(f"{label:<{width}}  {a:<34} {b}")
    print()
    if elapsed is not None:
        print(f"generation of the dataset   {elapsed:.2f} s (target < {GENERATION_S:.0f} s: "
              f"{'PASS' if elapsed < GENERATION_S else 'FAIL'}; printed, not asserted)")
    print(f"realism report              {t_report:.2f} s")
    results = targets(report)
    if args.more_seeds:
        aucs = {args.seed: report.auc.mean}
        for seed in args.more_seeds:
            with tempfile.TemporaryDirectory() as tmp:
                other = generate_dataset(GeneratorConfig(cases=args.cases, seed=seed), Path(tmp) / "synth")
                aucs[seed] = realism_report(other, reference).auc.mean
        known = [a for a in aucs.values() if a is not None]
        figure = ", ".join(f"seed {k}: {'n/a' if a is None else f'{a:.3f}'}" for k, a in aucs.items())
        mean = f"; mean {sum(known) / len(known):.3f}" if known else ""
        results.append((f"classifier AUC <= 0.75 for each of {len(aucs)} generator seeds", figure + mean,
                        len(known) == len(aucs) and all(a <= 0.75 for a in known)))
    for label, figure, ok in results:
        print(f"{'PASS' if ok else 'FAIL'}  {label:<52} {figure}")
    if args.json is not None:
        args.json.write_text(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0 if all(ok for _, _, ok in results) else 1


if __name__ == "__main__":
    sys.exit(main())
