"""Benchmark the ecosystem integrations on a generated dataset (the paper's size by default).

Generates the dataset with the template realiser and an oracle run (not timed), then times:

- ``export_hf`` / ``import_hf`` (Parquet sizes, and that the round trip is byte-identical);
- ``export_run_ics`` (one .ics per case from the run's multi-step lines);
- ``apply_initial_ics`` (a 20-event calendar added to every case, re-validated);
- with ``--inspect`` (needs ``proevent[inspect]``): ``inspect eval`` of ``proevent_single`` with
  the ``oracle`` agent (no model) over ``--inspect-cases`` cases — samples per second through
  inspect's machinery, and that the reported figures equal ``proevent evaluate``.

    python bench/bench_integrations.py [--cases 1279] [--seed 0] [--inspect] [--inspect-cases 200]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def _timed(label: str, fn, *args, **kwargs):  # noqa: ANN001, ANN202 - a tiny helper
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    print(f"{label:<44} {time.perf_counter() - start:8.2f} s")
    return out


def _calendar(path: Path) -> Path:
    from proevent.io.ics import timetable_to_ics
    from proevent.model import make_event

    events = [make_event(f"x{i}", start=f"2026-02-{2 + i:02d}T{8 + i % 9:02d}:00",
                         end=f"2026-02-{2 + i:02d}T{9 + i % 9:02d}:00", location=f"Room {i}",
                         participants=["Someone Else"], description=f"Meeting {i}") for i in range(20)]
    path.write_bytes(timetable_to_ics(events, user="me", timezone="Europe/Berlin"))
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=1279)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--inspect", action="store_true")
    ap.add_argument("--inspect-cases", type=int, default=200)
    args = ap.parse_args()

    from proevent.generate.config import GeneratorConfig
    from proevent.generate.pipeline import generate_dataset
    from proevent.integrations.hf import export_hf, import_hf
    from proevent.integrations.ics_initial import apply_initial_ics
    from proevent.integrations.ics_run import export_run_ics
    from proevent.io import load_run
    from proevent.runner import run_agent

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        ds = _timed(f"generate {args.cases} cases (setup)", generate_dataset,
                    GeneratorConfig(cases=args.cases, seed=args.seed), tmp / "ds")
        steps = sum(len(c.steps) for c in ds.cases)
        print(f"dataset: {len(ds.cases)} cases, {steps} steps, cases.jsonl "
              f"{(tmp / 'ds' / 'cases.jsonl').stat().st_size / 1e6:.1f} MB")
        _timed("oracle run, both modes (setup)", run_agent, tmp / "ds", "oracle", tmp / "run")

        result = _timed("export hf", export_hf, tmp / "ds", tmp / "hf")
        sizes = {p.name: p.stat().st_size / 1e6 for p in result.files}
        print(f"  cases.parquet {sizes['cases.parquet']:.1f} MB, questions.parquet "
              f"{sizes['questions.parquet']:.1f} MB ({result.questions} rows)")
        _timed("import hf (incl. validation)", import_hf, tmp / "hf", tmp / "back")
        same = (tmp / "ds" / "cases.jsonl").read_bytes() == (tmp / "back" / "cases.jsonl").read_bytes()
        print(f"  round trip byte-identical: {same}")

        run = load_run(tmp / "run")
        exported = _timed("ics --run (one .ics per case)", export_run_ics, ds, run, tmp / "ics")
        print(f"  {len(exported.files)} files, {sum(p.stat().st_size for p in exported.files) / 1e6:.1f} MB")
        _timed("ics-initial (20 events, re-validated)", apply_initial_ics, tmp / "ds",
               _calendar(tmp / "cal.ics"), out=tmp / "with-ics")

        if args.inspect:
            _bench_inspect(tmp, ds, args.inspect_cases)


def _bench_inspect(tmp: Path, ds, n_cases: int) -> None:  # noqa: ANN001
    from inspect_ai import eval as inspect_eval

    from proevent.evaluate import evaluate
    from proevent.integrations.inspect_log import import_inspect_logs
    from proevent.integrations.inspect_tasks import proevent_single
    from proevent.io import load_run

    cases = ",".join(c.case_id for c in ds.cases[:n_cases])
    n = sum(len(c.steps) for c in ds.cases[:n_cases])
    start = time.perf_counter()
    logs = inspect_eval(proevent_single(dataset=str(tmp / "ds"), agent="oracle", cases=cases),
                        model="mockllm/model", log_dir=str(tmp / "logs"), display="none")
    took = time.perf_counter() - start
    print(f"{'inspect eval proevent_single, oracle':<44} {took:8.2f} s  ({n} samples, {n / took:.0f}/s)")
    import_inspect_logs([logs[0].location], tmp / "inspect-run")
    sub = type(ds)(manifest=ds.manifest, cases=ds.cases[:n_cases], path=ds.path)
    single = evaluate(sub, load_run(tmp / "inspect-run"), ci=False).summary.single
    assert single is not None and single.recall is not None
    reported = {k: v.value for s in logs[0].results.scores for k, v in s.metrics.items()}
    print(f"  status {logs[0].status}; recall inspect {reported['recall']:.3f} = proevent {single.recall:.3f}")


if __name__ == "__main__":
    main()
