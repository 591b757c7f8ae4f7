"""End to end in a real browser: Debian's chromium driven by Playwright, against uvicorn on 127.0.0.1."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from proevent.evaluate import evaluate
from proevent.io import load_dataset, load_run
from proevent.web import ServeConfig, create_app

from .fixture_cases import HOSTILE
from .server import CHROMIUM, CHROMIUM_ARGS, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is not installed"),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1500, "height": 950})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.js_errors = errors
    yield pg
    context.close()


def rows(page) -> list[str]:  # type: ignore[no-untyped-def]
    return page.locator("a.case-link").all_inner_texts()


def test_list_filter_open_step_and_screenshot(page, dataset_dir: Path, run_dir: Path, tmp_path: Path) -> None:
    app = create_app(ServeConfig(dataset=dataset_dir, runs=[run_dir]))
    with serve(app) as base:
        page.goto(base + "/")
        assert rows(page) == ["pe-001", "pe-002", "pe-003"]
        page.select_option("select[name=category]", "dining")
        page.click("button[type=submit]")
        page.wait_for_url("**category=dining*")
        assert rows(page) == ["pe-002"]
        page.goto(base + "/?run=0&outcome=failed")
        assert rows(page) == ["pe-002", "pe-003"]
        page.goto(base + "/")
        page.keyboard.press("/")
        page.keyboard.type("north gate")
        page.keyboard.press("Enter")
        page.wait_for_url("**q=north+gate*")
        assert rows(page) == ["pe-001"]
        page.keyboard.press("Escape")  # leave the search box
        page.keyboard.press("j")
        page.keyboard.press("Enter")
        page.wait_for_url("**/case/pe-001*")
        assert page.inner_text("h1#case-title") == "pe-001"
        assert page.inner_text(".stepbtn.current .stepno") == "1"
        page.keyboard.press("ArrowRight")
        page.wait_for_url("**t=2*")
        assert page.inner_text(".panel h2").startswith("Step 2")
        assert "Hiking" in page.inner_text("#tt-after") and "Hiking" not in page.inner_text("#tt-before")
        assert page.locator("#run-0 li.op-matched").count() == 2
        page.keyboard.press("l")
        page.wait_for_url("**t=3*")
        assert page.inner_text("#tt-after .changed") == "North Gate"
        page.keyboard.press("ArrowLeft")
        page.wait_for_url("**t=2*")
        # the chats are columns on one time axis; the current window is marked
        assert page.locator("table.timeline thead th.chatcol").count() == 2
        assert page.locator("tbody.window.current#w2").count() == 1
        assert page.locator("tbody.window.future").count() == 2
        shot = Path(os.environ.get("PROEVENT_SCREENSHOT", tmp_path / "case-page.png"))
        page.goto(base + "/case/pe-001?t=3")
        page.screenshot(path=str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
        page.keyboard.press("]")
        page.wait_for_url("**/case/pe-002*")
        page.keyboard.press("u")
        page.wait_for_url(base + "/")
    assert page.js_errors == []


def test_hostile_message_shows_as_text(page, dataset_dir: Path) -> None:
    with serve(create_app(ServeConfig(dataset=dataset_dir))) as base:
        page.goto(base + "/case/pe-002?t=1")
        bubble = page.locator(".bubble .text").first
        assert bubble.inner_text() == HOSTILE
        assert bubble.locator("b").count() == 0 and page.locator(".bubble script").count() == 0
        assert page.evaluate("typeof window.__pwned") == "undefined"


def test_malformed_run_shows_a_banner(page, dataset_dir: Path, bad_run_dir: Path) -> None:
    with serve(create_app(ServeConfig(dataset=dataset_dir, runs=[bad_run_dir]))) as base:
        page.goto(base + "/case/pe-001?t=2")
        banner = page.locator(".banner-error")
        assert banner.count() == 1 and "predictions.jsonl:2" in banner.inner_text()
        assert page.inner_text(".panel h2").startswith("Step 2")  # the page still works


def _raw_get(base: str, target: str) -> tuple[int, str]:
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.decode("utf-8", "replace").partition("\r\n\r\n")
    return int(head.split()[1]), body


def test_paths_outside_the_dataset_are_refused(page, dataset_dir: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    with serve(create_app(ServeConfig(dataset=dataset_dir))) as base:
        for target in ("/static/../../../../etc/passwd", "/static/..%2f..%2f..%2f..%2fetc%2fpasswd",
                       f"/static/{secret}", f"/static/..%2f..%2f..%2f..{secret}", "/case/../../../etc/passwd",
                       "/static/%2e%2e/%2e%2e/cases.jsonl", "/cases.jsonl", "/dataset.json"):
            status, body = _raw_get(base, target)
            assert status in (404, 400), (target, status)
            assert "root:" not in body and "TOP SECRET" not in body and "proevent.case/1" not in body
        page.goto(base + "/static/..%2f..%2fweb%2fapp.py")
        assert "create_app" not in page.content()


def test_human_mode_insert_delete_resume_and_score(page, dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "human-ann"
    config = ServeConfig(dataset=dataset_dir, human="Ann", out=out)
    with serve(create_app(config)) as base:
        page.goto(base + "/")
        assert page.inner_text("#question-title") == "Question 1 of 8"
        assert "gold" not in page.content().lower()
        page.click("#submit-answer")  # pe-001 step 1: nothing to do
        assert page.inner_text("#question-title") == "Question 2 of 8"
        form = page.locator("#form-insert")
        form.locator("input[name=description]").fill("Hike")
        form.locator("input[name=start_date]").fill("2026-03-14")
        form.locator("input[name=start_time]").fill("09:00")
        form.locator("input[name=end_date]").fill("2026-03-14")
        form.locator("input[name=end_time]").fill("13:00")
        form.locator("input[name=location]").fill("Blue Ridge Trailhead")
        for name in ("Jerry Chen", "Tom Baker", "Ana Ruiz"):
            form.locator(f"input[name=participants][value='{name}']").check()
        form.locator("button[type=submit]").click()
        assert "Hike · Sat 2026-03-14" not in page.inner_text("#draft")  # plain dates in the draft
        assert "2026-03-14 09:00 – 2026-03-14 13:00" in page.inner_text("#draft")
        # a delete of an event that is not in the timetable is refused by the form's choices;
        # a draft survives a closed browser
        page.click("#box-delete summary")
        page.select_option("#form-delete select[name=id]", "e1")
        page.click("#form-delete button[type=submit]")
        assert page.locator("#draft li.op").count() == 2
        page.close()
        page2 = page.context.new_page()
        page2.goto(base + "/")
        assert page2.locator("#draft li.op").count() == 2
        page2.locator("#draft li.op").nth(1).locator("button").click()  # take the delete back
        assert page2.locator("#draft li.op").count() == 1
        page2.click("#submit-answer")
        page2.click("#submit-answer")  # step 3 (the move to North Gate) left unanswered: a miss
        # step 4 has no message: answered empty without being shown
        page2.click("#submit-answer")  # pe-002 step 1
        assert page2.inner_text("#question-title") == "Question 6 of 8"
        assert "can't make dinner" in page2.inner_text("#messages")
        page2.click("#box-delete summary")
        page2.select_option("#form-delete select[name=id]", "e1")
        page2.click("#form-delete button[type=submit]")
        page2.click("#submit-answer")
        # an update with a bad value is refused with a message naming the field
        page2.click("#submit-answer")  # pe-003 step 1 (a miss)
        page2.click("#box-update summary")
        page2.select_option("#update-attribute", "location")  # only the fitting value field shows
        assert page2.is_visible("#form-update input[name=value_text]")
        assert not page2.is_visible("#form-update input[name=value_date]")
        page2.select_option("#update-attribute", "start")
        assert not page2.is_visible("#form-update input[name=value_text]")
        page2.locator("#form-update input[name=value_time]").fill("10:00")
        page2.click("#form-update button[type=submit]")
        assert "start: a time of day needs a date" in page2.inner_text("#form-error")
        page2.click("#submit-answer")
        assert "All 8 questions answered" in page2.inner_text("#done")
        assert f"proevent evaluate {dataset_dir} {out}" in page2.inner_text("#done")
    lines = [json.loads(x) for x in (out / "predictions.jsonl").read_text().splitlines()]
    assert len(lines) == 8
    assert [(x["case_id"], x["t"]) for x in lines if x["ops"]] == [("pe-001", 2), ("pe-002", 2)]
    assert lines[1]["ops"][0]["event"]["location"] == "Blue Ridge Trailhead"
    assert lines[5]["ops"] == [{"op": "delete", "id": "e1"}]
    ds = load_dataset(dataset_dir)
    run = load_run(out)
    assert run.manifest.agent == "human:Ann"
    single = evaluate(ds, run, ci=False).metrics["single"]
    assert (single["missing"], single["errors"]) == (0, 0)
    assert single["precision"] == 1.0 and single["recall"] == pytest.approx(2 / 5)
    assert single["fdr"] == 0.0 and single["mnr"] == pytest.approx(3 / 5)  # missed pe-001/3, pe-003/1, pe-003/2


def test_review_mode_in_the_browser(page, dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "annotations.jsonl"
    with serve(create_app(ServeConfig(dataset=dataset_dir, review="ann", out=out, flagged_first=False))) as base:
        page.goto(base + "/")
        page.click("text=next unreviewed: pe-001")
        page.check("input[name=verdict][value=invalid]")
        page.click("#save-review")
        assert "needs a reason" in page.inner_text("#review")
        page.select_option("select[name=reason]", "wrong_location")
        page.fill("textarea[name=note]", "trailhead vs gate")
        page.click("#save-review")
        page.wait_for_url("**/case/pe-002")
        page.click("#save-review")  # valid
        page.wait_for_url("**/case/pe-003")
    saved = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(a["case_id"], a["verdict"], a["reason"]) for a in saved] == [
        ("pe-001", "invalid", "wrong_location"), ("pe-002", "valid", None)]


PROEVENT = shutil.which("proevent") or str(Path(sys.executable).with_name("proevent"))


@pytest.mark.skipif(not Path(PROEVENT).exists(), reason="console script not installed")
def test_serve_command_starts_on_loopback(dataset_dir: Path) -> None:
    import subprocess
    import time
    import urllib.request

    from .server import free_port

    port = free_port()
    proc = subprocess.Popen([PROEVENT, "serve", str(dataset_dir), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as res:
                    assert res.status == 200 and "pe-003" in res.read().decode()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.2)
        with socket.socket() as s:  # bound to loopback only
            other = socket.gethostbyname(socket.gethostname())
            if not other.startswith("127."):
                assert s.connect_ex((other, port)) != 0
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=10)
    assert f"open http://127.0.0.1:{port}/" in out


def test_human_mode_take_back(page, dataset_dir: Path, tmp_path: Path) -> None:
    config = ServeConfig(dataset=dataset_dir, human="Ann", out=tmp_path / "h")
    with serve(create_app(config)) as base:
        page.goto(base + "/")
        assert page.locator("#take-back").count() == 0  # nothing answered yet
        page.click("#submit-answer")
        assert page.inner_text("#question-title") == "Question 2 of 8"
        page.click("#take-back")
        assert page.inner_text("#question-title") == "Question 1 of 8"
        assert "step 1 of 4" in page.inner_text(".questionhead")
        page.click("#submit-answer")
        assert page.inner_text("#question-title") == "Question 2 of 8"
