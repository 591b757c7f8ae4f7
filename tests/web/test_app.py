"""The viewer's pages through FastAPI's test client (no browser): content, filters, safety."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from proevent.web import ServeConfig, create_app

from .fixture_cases import HOSTILE

BASE = "http://127.0.0.1:8000"


def client(dataset_dir: Path, *runs: Path, **kw) -> TestClient:
    return TestClient(create_app(ServeConfig(dataset=dataset_dir, runs=list(runs), **kw)), base_url=BASE)


def case_ids(html: str) -> list[str]:
    return re.findall(r'class="case-link" href="/case/([^"?]+)', html)


def test_case_list_and_filters(dataset_dir: Path, run_dir: Path) -> None:
    c = client(dataset_dir, run_dir)
    assert case_ids(c.get("/").text) == ["pe-001", "pe-002", "pe-003"]
    assert case_ids(c.get("/?category=dining").text) == ["pe-002"]
    assert case_ids(c.get("/?turns=2").text) == ["pe-003"]
    assert case_ids(c.get("/?chats=2").text) == ["pe-001"]
    assert case_ids(c.get("/?noise=none").text) == ["pe-002"]
    assert case_ids(c.get("/?q=north+gate").text) == ["pe-001"]
    assert case_ids(c.get("/?q=sync+lee").text) == ["pe-003"]
    assert case_ids(c.get("/?run=0&outcome=solved").text) == ["pe-001"]
    assert case_ids(c.get("/?run=0&outcome=failed").text) == ["pe-002", "pe-003"]
    assert case_ids(c.get("/?run=0&outcome=failed&category=work").text) == ["pe-003"]
    page = c.get("/?category=nothing")
    assert page.status_code == 200 and "No case matches" in page.text
    # unknown or hostile filter values are ignored or shown escaped, never trusted
    assert case_ids(c.get("/?run=9&outcome=<b>").text) == ["pe-001", "pe-002", "pe-003"]
    assert "<b>x" not in c.get("/?q=<b>x").text


def test_case_page_colours_runs_against_gold(dataset_dir: Path, run_dir: Path) -> None:
    c = client(dataset_dir, run_dir)
    html = c.get("/case/pe-002?t=2").text
    assert "Timetable before (S<sub>1</sub>)" in html
    assert re.search(r'op-invalid.*?delete.*?e9', html, re.S)  # unknown id: invalid, with the reason
    assert "unknown id &#39;e9&#39;" in html
    assert re.search(r'op-missed"><span class="opkind opkind-delete">delete</span> <span class="optext">e1', html)
    step1 = c.get("/case/pe-002?t=1").text
    assert re.search(r'op-spurious"><span class="opkind opkind-delete">delete', step1)
    hike = c.get("/case/pe-001?t=2").text
    assert hike.count("op-matched") == 2  # the predicted insert and the gold insert
    assert "timetable right" in hike
    sync = c.get("/case/pe-003?t=1").text
    assert "op-spurious" in sync and "op-missed" in sync  # room 4C vs room 4B


def test_case_navigation_keeps_the_filter(dataset_dir: Path) -> None:
    c = client(dataset_dir)
    html = c.get("/case/pe-001?t=2&noise=off_topic").text
    assert 'id="prev-step" class="stepnav" href="/case/pe-001?noise=off_topic&amp;t=1"' in html
    assert 'id="next-step" class="stepnav" href="/case/pe-001?noise=off_topic&amp;t=3"' in html
    assert 'id="next-case"' not in html  # pe-001 is the only case with off-topic noise
    html = c.get("/case/pe-002").text
    assert 'id="prev-case" href="/case/pe-001"' in html and 'id="next-case" href="/case/pe-003"' in html
    assert c.get("/case/pe-001?t=99").text.count('stepbtn current') == 1  # clamped to the last step


def test_hostile_text_is_escaped(dataset_dir: Path) -> None:
    html = client(dataset_dir).get("/case/pe-002?t=1").text
    assert HOSTILE not in html and "<script>window" not in html
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt; &amp; &#34;quotes&#34;" in html


@pytest.mark.parametrize(
    "path",
    ["/static/../../../../etc/passwd", "/static/..%2f..%2f..%2fetc%2fpasswd", "/static/%2e%2e/%2e%2e/etc/passwd",
     "/case/..%2f..%2f..%2fetc%2fpasswd", "/..%2f..%2fetc/passwd", "/static/__init__.py",
     "/static/", "/case/", "/dataset.json", "/cases.jsonl"],
)
def test_paths_outside_the_dataset_are_refused(dataset_dir: Path, path: str) -> None:
    res = client(dataset_dir).get(path)
    assert res.status_code == 404
    assert "root:" not in res.text and '"format"' not in res.text


def test_static_assets_and_headers(dataset_dir: Path) -> None:
    c = client(dataset_dir)
    css = c.get("/static/style.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    page = c.get("/")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "https://" not in page.text  # nothing loaded from elsewhere (no CDN)


def test_loopback_server_refuses_foreign_host_and_cross_site_posts(dataset_dir: Path, tmp_path: Path) -> None:
    c = client(dataset_dir, review="ann", out=tmp_path / "a.jsonl")
    assert c.get("/", headers={"host": "evil.example"}).status_code == 421
    res = c.post("/review/pe-001", data={"verdict": "valid"}, headers={"origin": "http://evil.example"})
    assert res.status_code == 403 and not (tmp_path / "a.jsonl").exists()
    res = c.post("/review/pe-001", data={"verdict": "valid"}, headers={"sec-fetch-site": "cross-site"})
    assert res.status_code == 403


def test_malformed_run_shows_a_banner(dataset_dir: Path, run_dir: Path, bad_run_dir: Path) -> None:
    c = client(dataset_dir, run_dir, bad_run_dir)
    for url in ("/", "/case/pe-001?t=2"):
        res = c.get(url)
        assert res.status_code == 200
        assert "Run run-bad is not shown" in res.text
        assert "predictions.jsonl:2: (line): not valid JSON" in res.text
        assert "predictions.jsonl:3: mode:" in res.text
    assert 'op-matched' in c.get("/case/pe-001?t=2").text  # the good run is still coloured


def test_missing_run_folder_and_other_dataset_warn(dataset_dir: Path, run_dir: Path, tmp_path: Path) -> None:
    import json

    other = tmp_path / "other-run"
    other.mkdir()
    manifest = json.loads((run_dir / "run.json").read_text())
    manifest["dataset"]["sha256"] = "0" * 64
    (other / "run.json").write_text(json.dumps(manifest))
    html = client(dataset_dir, tmp_path / "nowhere", other).get("/").text
    assert "nowhere: not a run folder" in html
    assert "not on the dataset served" in html


def test_review_mode_saves_and_moves_on(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "rev" / "annotations.jsonl"
    c = client(dataset_dir, review="ann", out=out)
    page = c.get("/case/pe-001")
    assert 'action="/review/pe-001"' in page.text
    res = c.post("/review/pe-001", data={"verdict": "invalid", "reason": "", "note": "x", "back": "t=2"},
                 follow_redirects=False)
    assert res.status_code == 400 and "an invalid verdict needs a reason" in res.text
    res = c.post("/review/pe-001", data={"verdict": "invalid", "reason": "wrong_time", "note": "<i>late</i>"},
                 follow_redirects=False)
    assert res.status_code == 303 and res.headers["location"] == "/case/pe-002"
    assert '"verdict":"invalid"' in out.read_text() and '"note":"<i>late</i>"' in out.read_text()
    listing = c.get("/").text
    assert "Reviewed 1 of 3 cases" in listing and "verdict-invalid" in listing
    assert "&lt;i&gt;late&lt;/i&gt;" in c.get("/case/pe-001").text
    assert c.post("/review/nope", data={"verdict": "valid"}).status_code == 404


def test_human_mode_hides_the_gold(dataset_dir: Path, tmp_path: Path) -> None:
    c = client(dataset_dir, human="ann", out=tmp_path / "h")
    page = c.get("/")
    assert page.status_code == 200 and "Question 1 of 8" in page.text
    assert c.get("/case/pe-001").status_code == 404  # no case page, so no gold, in human mode
    assert "gold" not in page.text.lower()
