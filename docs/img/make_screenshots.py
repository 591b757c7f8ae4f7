"""Regenerate the viewer screenshots of the README and docs/viewer.md (needs Debian's chromium).

    python docs/img/make_screenshots.py

Generates 30 cases (seed 3) and a ``rules`` run in a temporary folder, serves them on 127.0.0.1
and saves ``case-page.png`` (pe-00016, step 2) and ``human-mode.png`` next to this script; runs
``proevent quickstart`` as the README's first line does (60 cases, seed 0) and saves the top of
its ``index.html`` as ``report.png``.

    python docs/img/make_screenshots.py report     # report.png only
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "tests"))

from proevent.web import ServeConfig, create_app  # noqa: E402
from web.server import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402


def report_screenshot(exe: str) -> None:
    """``report.png``: the page the quickstart writes, opened from disk as a reader opens it."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([exe, "quickstart"], cwd=tmp, check=True, capture_output=True)
        index = Path(tmp) / "proevent-quickstart" / "report" / "index.html"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(index.as_uri())
            page.screenshot(path=str(HERE / "report.png"))
            browser.close()
    print(f"wrote {HERE / 'report.png'}")


def main() -> None:
    from playwright.sync_api import sync_playwright

    exe = str(Path(sys.executable).with_name("proevent"))
    report_screenshot(exe)
    if sys.argv[1:] == ["report"]:
        return
    with tempfile.TemporaryDirectory() as tmp:
        ds, run = Path(tmp) / "proevent-synth", Path(tmp) / "rules"
        subprocess.run([exe, "generate", "--out", str(ds), "--cases", "30", "--seed", "3"], check=True,
                       capture_output=True)
        subprocess.run([exe, "run", str(ds), "--agent", "rules", "--mode", "both", "--out", str(run)],
                       check=True, capture_output=True)
        viewer = create_app(ServeConfig(dataset=ds, runs=[run]))
        human = create_app(ServeConfig(dataset=ds, human="Ann", out=Path(tmp) / "human", sample=5, seed=1))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            with serve(viewer) as base:
                page.goto(base + "/case/pe-00016?t=2")
                page.screenshot(path=str(HERE / "case-page.png"))
            with serve(human) as base:
                page.goto(base + "/")
                page.click("#submit-answer")
                page.screenshot(path=str(HERE / "human-mode.png"))
            browser.close()
    print(f"wrote {HERE / 'case-page.png'} and {HERE / 'human-mode.png'}")


if __name__ == "__main__":
    main()
