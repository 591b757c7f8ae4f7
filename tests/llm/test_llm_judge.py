"""The ``llm`` location judge through the evaluator, against the scripted server."""

from __future__ import annotations

import json

import pytest

from fixtures import load_example_run, load_tiny
from proevent.evaluate import evaluate, get_judge
from proevent.llm import LLMConfig
from proevent.llm.judge import LLMJudge, describe_context, parse_verdict
from proevent.model import make_event
from support.scripted_server import Reply


@pytest.fixture
def judge_env(scripted_server, monkeypatch, tmp_path):
    monkeypatch.setenv("PROEVENT_JUDGE_MODEL", "judge-model")
    monkeypatch.setenv("PROEVENT_JUDGE_BASE_URL", scripted_server.base_url)
    monkeypatch.setenv("PROEVENT_CACHE", str(tmp_path / "judge-cache.sqlite"))
    return scripted_server


def test_verdict_parsing_and_context():
    assert parse_verdict('{"same": true}') is True and parse_verdict('{"same": false}') is False
    assert parse_verdict("Yes, same place") is True and parse_verdict("no") is False
    assert parse_verdict('{"same": "maybe"}') is None
    ev = make_event(start="2026-03-14T09:00", location="X", participants=["Jerry Chen"], description="Hike")
    assert describe_context((ev, None)) == "Hike starting 2026-03-14T09:00 with Jerry Chen"


def test_llm_judge_decides_only_what_fuzzy_matching_cannot(judge_env):
    judge_env.default = lambda req: Reply(content='{"same": true}')
    ds, run = load_tiny(), load_example_run("flawed")
    fuzzy = evaluate(ds, run, judge="fuzzy", ci=False).metrics
    res = evaluate(ds, run, judge="llm", ci=False)
    asked = len(judge_env.requests)
    assert asked == len(res.judge_decisions) > 0  # one request per distinct pair, none for equal strings
    assert all(d["same"] for d in res.judge_decisions)
    assert res.metrics["single"]["recall"] >= fuzzy["single"]["recall"]
    prompt = judge_env.requests[0]["messages"][0]["content"]
    assert "Location A:" in prompt and "Event:" in prompt and judge_env.requests[0]["model"] == "judge-model"
    again = evaluate(ds, run, judge="llm", ci=False)  # the SQLite cache answers now
    assert len(judge_env.requests) == asked and again.metrics == res.metrics


def test_failed_requests_count_as_different_and_are_noted(scripted_server, tmp_path):
    scripted_server.default = lambda req: Reply(status=400)
    cfg = LLMConfig(model="j", base_urls=[scripted_server.base_url], cache=False, max_retries=0)
    judge = LLMJudge(cfg)
    assert judge.same("Cafe Nero", "Nero Cafe Downtown") is False
    (decision,) = judge.decisions()
    assert decision["same"] is False and decision["error"].startswith("request failed: HTTP 400")
    assert json.dumps(decision)  # writable beside the metrics


def test_get_judge_llm_needs_a_model(monkeypatch):
    for var in ("PROEVENT_JUDGE_MODEL", "PROEVENT_MODEL", "PROEVENT_JUDGE_PROFILE"):
        monkeypatch.delenv(var, raising=False)
    with pytest.raises(ValueError, match="no model"):
        get_judge("llm")
