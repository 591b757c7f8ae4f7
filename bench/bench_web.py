"""How fast the viewer is on a paper-sized dataset: start-up, the case list, search, a case page.

    python bench/bench_web.py DATASET [RUN ...]

Without arguments it generates 1,279 cases (the paper's size) and a ``rules`` run in a temporary
folder first. Prints the start-up time (load, score every run, categorise errors) and the median
latency of each page over repeated requests through the ASGI app (no network).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _median_ms(fn, n: int = 15) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def main(argv: list[str]) -> None:
    from fastapi.testclient import TestClient

    from proevent.web import ServeConfig, create_app

    tmp = None
    if argv:
        dataset, runs = Path(argv[0]), [Path(p) for p in argv[1:]]
    else:
        tmp = tempfile.TemporaryDirectory()
        dataset, run = Path(tmp.name) / "ds", Path(tmp.name) / "rules"
        exe = str(Path(sys.executable).with_name("proevent"))
        subprocess.run([exe, "generate", "--out", str(dataset), "--cases", "1279", "--seed", "0"],
                       check=True, capture_output=True)
        subprocess.run([exe, "run", str(dataset), "--agent", "rules", "--mode", "both", "--out", str(run)],
                       check=True, capture_output=True)
        runs = [run]
    t0 = time.perf_counter()
    app = create_app(ServeConfig(dataset=dataset, runs=runs))
    startup = time.perf_counter() - t0
    state = app.state.web
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    cases = state.dataset.cases
    mid = cases[len(cases) // 2]
    longest = max(cases, key=lambda c: sum(len(s.messages) for s in c.steps))
    t = max(1, len(longest.steps) // 2)
    pages = {
        "case list (all cases)": "/",
        "filter: category + failed": f"/?category={cases[0].meta.get('category')}&run=0&outcome=failed",
        "search: two words": "/?q=dinner+friday",
        f"case page ({mid.case_id}, step 1)": f"/case/{mid.case_id}?t=1",
        f"longest case page ({longest.case_id}, step {t})": f"/case/{longest.case_id}?t={t}",
    }
    print(f"dataset: {len(cases)} cases, {sum(len(c.steps) for c in cases)} steps; runs: {len(runs)}")
    print(f"start-up (load, score, categorise errors): {startup:.2f} s")
    for label, url in pages.items():
        res = client.get(url)
        assert res.status_code == 200, (url, res.status_code)
        print(f"{label:45s} {_median_ms(lambda u=url: client.get(u)):8.1f} ms  ({len(res.content) // 1024} KiB)")
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main(sys.argv[1:])
