"""The llm realiser against a scripted OpenAI-compatible server on 127.0.0.1 (real HTTP)."""

from __future__ import annotations

import json
import re

from proevent.generate import GeneratorConfig, generate
from proevent.generate.validate import validate_dataset
from support.scripted_server import Reply

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _request(req: dict) -> dict:
    return json.loads(req["messages"][1]["content"])


def faithful(req: dict) -> Reply:
    """A model that rewrites each draft lightly but keeps every value."""
    lines = _request(req)["lines"]
    return Reply(content=json.dumps({"messages": [{"i": ln["i"], "text": ln["draft"]} for ln in lines]}))


def contradicting(req: dict) -> Reply:
    """A model that moves the proposal to another day: it mentions a day the plan never had."""
    lines = _request(req)["lines"]
    out = []
    for ln in lines:
        text = ln["draft"]
        if "day" in ln["must_express"]:
            wrong = WEEKDAYS[(WEEKDAYS.index(ln["must_express"]["day"].split("(")[1][:-1]) + 3) % 7]
            text = f"{text} (actually make it {wrong}, sorry)"
        out.append({"i": ln["i"], "text": text})
    return Reply(content=json.dumps({"messages": out}))


def config(server, **kw) -> GeneratorConfig:
    base = {"cases": 4, "seed": 11, "realizer": "llm", "max_attempts": 1,
            "llm": {"model": "scripted-120b", "base_url": server.base_url, "cache": False, "retries": 0}}
    base.update(kw)
    return GeneratorConfig.model_validate(base)


def test_faithful_replies_make_valid_cases(scripted_server):
    scripted_server.default = faithful
    result = generate(config(scripted_server))
    assert len(result.cases) == 4 and result.given_up == 0
    assert all(c.meta["realizer"] == "llm:scripted-120b" for c in result.cases)
    assert validate_dataset(result.cases).ok
    req = scripted_server.requests[0]
    assert req["model"] == "scripted-120b" and req["response_format"] == {"type": "json_object"}
    assert "Hard rules" in req["messages"][0]["content"]
    sent = _request(req)
    assert {"chat", "people", "lines"} <= set(sent)
    assert any(ln["must_express"] for r in scripted_server.requests for ln in _request(r)["lines"])


def test_a_contradicting_reply_is_dropped(scripted_server):
    scripted_server.default = contradicting
    result = generate(config(scripted_server, cases=2))
    assert result.cases == [] and result.given_up == 2
    assert result.rejected == {"llm_check_failed": 2}


def test_a_contradiction_is_retried_with_the_problems(scripted_server):
    calls = {"n": 0}

    def first_wrong(req: dict) -> Reply:
        calls["n"] += 1
        if len(req["messages"]) == 2:
            return contradicting(req)
        return faithful(req)

    scripted_server.default = first_wrong
    result = generate(config(scripted_server, cases=1, llm={
        "model": "m", "base_url": scripted_server.base_url, "cache": False, "retries": 1}))
    assert len(result.cases) == 1
    retry = [r for r in scripted_server.requests if len(r["messages"]) == 4]
    assert retry and re.search(r"contradicts the plan|not expressed", retry[0]["messages"][3]["content"])


def test_malformed_json_counts_as_a_failed_check(scripted_server):
    scripted_server.default = lambda req: Reply(content="sure! here you go: messages...")
    result = generate(config(scripted_server, cases=1))
    assert result.rejected == {"llm_check_failed": 1}


def test_cli_generate_with_the_llm_realizer(scripted_server, tmp_path):
    from typer.testing import CliRunner

    from proevent.cli import app

    scripted_server.default = faithful
    cfg = tmp_path / "gen.toml"
    cfg.write_text(f'cases = 3\nseed = 5\n[llm]\nmodel = "m-120b"\nbase_url = "{scripted_server.base_url}"\n'
                   "cache = false\nretries = 1\n")
    r = CliRunner().invoke(app, ["generate", "--out", str(tmp_path / "ds"), "--config", str(cfg),
                                 "--realizer", "llm", "-q"])
    assert r.exit_code == 0, r.output
    lines = (tmp_path / "ds" / "cases.jsonl").read_text().splitlines()
    assert len(lines) == 3 and all('"realizer":"llm:m-120b"' in ln for ln in lines)
    assert CliRunner().invoke(app, ["validate", str(tmp_path / "ds")]).exit_code == 0


def test_cli_reports_an_unreachable_server(tmp_path):
    import socket

    from typer.testing import CliRunner

    from proevent.cli import app

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = tmp_path / "gen.json"
    cfg.write_text(json.dumps({"cases": 1, "llm": {"base_url": f"http://127.0.0.1:{port}/v1", "cache": False,
                                                   "timeout_s": 2, "request_retries": 0}}))
    r = CliRunner().invoke(app, ["generate", "--out", str(tmp_path / "ds"), "--config", str(cfg),
                                 "--realizer", "llm", "-q"])
    assert r.exit_code == 1 and "llm realiser" in r.output
    assert not (tmp_path / "ds" / "cases.jsonl").exists()
