"""The runner: baselines through the evaluator, resume, drift refusal, modes, repeats, errors."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from runner_helpers import hashed_reply, keys_of

from fixtures import TINY, load_tiny
from proevent.agents import Action, Observation
from proevent.evaluate import evaluate
from proevent.io import load_run
from proevent.llm import LLMConfig
from proevent.runner import RunConfig, RunDriftError, execute, run_agent
from support.scripted_server import Reply


def test_oracle_scores_100_and_null_scores_fdr0_mnr1(tmp_path):
    ds = load_tiny()
    run_agent(ds, "oracle", tmp_path / "oracle")
    run_agent(TINY, "null", tmp_path / "null")  # a path works too
    m = evaluate(ds, load_run(tmp_path / "oracle"), ci=False).metrics
    single, multi = m["single"], m["multi"]
    for key in ("precision", "recall"):
        assert single[key] == 1.0
        for op in ("insert", "update", "delete"):
            assert single[op][key] == 1.0
    assert single["fdr"] == 0.0 and single["mnr"] == 0.0 and multi["esr"] == 1.0 and multi["tsr"] == 1.0
    assert single["missing"] == 0 and multi["missing"] == 0
    n = evaluate(ds, load_run(tmp_path / "null"), ci=False).metrics
    assert n["single"]["fdr"] == 0.0 and n["single"]["mnr"] == 1.0 and n["single"]["precision"] is None


def test_oracle_and_null_on_a_generated_dataset(tmp_path):
    gen = pytest.importorskip("proevent.generate")
    if not hasattr(gen, "generate_cases"):
        pytest.skip("generator not available yet")
    from proevent.io import write_dataset

    cases = list(gen.generate_cases(gen.GeneratorConfig(cases=12, seed=3)))
    ds = write_dataset(tmp_path / "ds", cases, name="gen", version="0")
    run_agent(ds, "oracle", tmp_path / "oracle")
    run_agent(ds, "null", tmp_path / "null")
    m = evaluate(ds, load_run(tmp_path / "oracle"), ci=False).metrics
    assert all(m["single"][k] in (1.0, None) for k in ("precision", "recall"))
    assert m["single"]["fdr"] in (0.0, None) and m["multi"]["esr"] == 1.0 and m["multi"]["tsr"] == 1.0
    n = evaluate(ds, load_run(tmp_path / "null"), ci=False).metrics
    assert n["single"]["fdr"] in (0.0, None) and n["single"]["mnr"] == 1.0


def test_prediction_lines_follow_the_data_format(tmp_path):
    run_agent(load_tiny(), "oracle", tmp_path / "r", mode="single", cases=["tiny-02"])
    lines = [json.loads(x) for x in (tmp_path / "r" / "predictions.jsonl").read_text().splitlines()]
    assert [(d["case_id"], d["mode"], d["t"], d["repeat"]) for d in lines] == [
        ("tiny-02", "single", 1, 0), ("tiny-02", "single", 2, 0), ("tiny-02", "single", 3, 0)]
    assert list(lines[0])[:9] == ["case_id", "mode", "t", "repeat", "ops", "error", "raw", "usage", "latency_s"]
    manifest = json.loads((tmp_path / "r" / "run.json").read_text())
    assert manifest["format"] == "proevent.run/1" and manifest["agent"] == "oracle"
    assert manifest["dataset"]["sha256"] == load_tiny().sha256 and len(manifest["config_hash"]) == 64


def test_resume_skips_answered_keys(tmp_path):
    ds = load_tiny()
    first = run_agent(ds, "rules", tmp_path / "r", limit=2)
    assert first.written == 2 * 2 * 3  # two cases of 3 steps, both modes
    second = run_agent(ds, "rules", tmp_path / "r")
    assert second.skipped == 12 and second.written == 28 - 12
    third = run_agent(ds, "rules", tmp_path / "r")
    assert third.written == 0 and third.skipped == 28
    keys = keys_of(tmp_path / "r" / "predictions.jsonl")
    assert len(keys) == len(set(keys)) == 28


def test_resume_into_another_configuration_is_refused(tmp_path):
    ds = load_tiny()
    run_agent(ds, "rules", tmp_path / "r", limit=1)
    with pytest.raises(RunDriftError, match=r"differs in: context_messages"):
        run_agent(ds, "rules", tmp_path / "r", context_messages=3)
    with pytest.raises(RunDriftError, match=r"differs in: agent"):
        run_agent(ds, "null", tmp_path / "r")
    summary = run_agent(ds, "null", tmp_path / "r", force=True)
    assert summary.written == 28 and load_run(tmp_path / "r").manifest.agent == "null"


class Recorder:
    """Inserts one event at step 1, sends one invalid op at step 2, and records what it saw."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str, int], list[str]] = {}

    def describe(self) -> dict[str, Any]:
        return {"strategy": "recorder"}

    async def act(self, obs: Observation) -> Action:
        self.seen[(obs.case_id, obs.mode, obs.t)] = [e.id for e in obs.timetable]
        if obs.t == 1:
            event = {"start": "2026-01-01", "end": None, "location": None, "participants": [obs.user],
                     "description": "mine"}
            return Action(ops=[{"op": "insert", "event": event}])
        if obs.t == 2:
            return Action(ops=[{"op": "delete", "id": "e99"}])
        raise RuntimeError("boom")


def test_multi_mode_carries_the_agents_own_timetable(tmp_path):
    ds = load_tiny()
    agent = Recorder()
    config = RunConfig(agent="null", mode="both", cases=["tiny-01"])
    summary = asyncio.run(execute(config, ds, tmp_path / "r", agent=agent, progress=False))
    # single: the gold S_{t-1}; multi: its own (e1 + its insert, numbered by its own history)
    assert agent.seen[("tiny-01", "single", 2)] == ["e1", "e2", "e3"]
    assert agent.seen[("tiny-01", "multi", 1)] == ["e1"]
    assert agent.seen[("tiny-01", "multi", 2)] == ["e1", "e2"]
    assert agent.seen[("tiny-01", "multi", 3)] == ["e1", "e2"]  # the invalid delete was not applied
    run = load_run(tmp_path / "r")
    assert run.lines[("tiny-01", "multi", 2, 0)].ops == [{"op": "delete", "id": "e99"}]  # kept as predicted
    errored = run.lines[("tiny-01", "multi", 3, 0)]
    assert errored.ops == [] and errored.error == "agent failed: RuntimeError: boom"
    assert summary.errors == 2


def test_errored_lines_are_asked_again_on_resume(scripted_server, tmp_path):
    ds = load_tiny()
    llm = LLMConfig(model="scripted", base_urls=[scripted_server.base_url], cache=False, max_retries=0)
    scripted_server.default = lambda req: Reply(status=500)
    first = asyncio.run(execute(RunConfig(agent="plain", mode="single", cases=["tiny-02"], llm=llm), ds,
                                tmp_path / "r", progress=False))
    assert first.errors == 3
    line = load_run(tmp_path / "r").lines[("tiny-02", "single", 1, 0)]
    assert line.ops == [] and line.error.startswith("request failed") and line.raw is None
    scripted_server.default = hashed_reply
    second = asyncio.run(execute(RunConfig(agent="plain", mode="single", cases=["tiny-02"], llm=llm), ds,
                                 tmp_path / "r", progress=False))
    assert second.written == 3 and second.errors == 0
    run = load_run(tmp_path / "r")
    assert run.duplicates == 3 and all(line.error is None for line in run.lines.values())


def test_repeats_give_independent_samples(scripted_server, tmp_path):
    ds = load_tiny()
    scripted_server.default = hashed_reply
    llm = LLMConfig(model="scripted", base_urls=[scripted_server.base_url], cache=True,
                    cache_path=tmp_path / "cache.sqlite")
    config = RunConfig(agent="plain", mode="both", repeats=2, cases=["tiny-01", "tiny-03"], llm=llm)
    summary = asyncio.run(execute(config, ds, tmp_path / "r", progress=False))
    assert summary.written == 2 * 2 * 5
    # repeat 1 is not served repeat 0's cached answer; tiny-01 step 3 has no message: no request
    assert summary.usage["requests"] == 2 * 2 * 4
    assert {r for (_, _, _, r) in load_run(tmp_path / "r").lines} == {0, 1}
    res = evaluate(ds, load_run(tmp_path / "r"), ci=False)
    assert res.metrics["repeats"]["n"] == 2


def test_concurrency_bounds_requests_in_flight(scripted_server, tmp_path):
    scripted_server.default = lambda req: hashed_reply(req, delay=0.05)
    llm = LLMConfig(model="scripted", base_urls=[scripted_server.base_url], cache=False, concurrency=3)
    config = RunConfig(agent="plain", mode="both", concurrency=3, llm=llm)
    asyncio.run(execute(config, load_tiny(), tmp_path / "r", progress=False))
    assert scripted_server.max_inflight == 3 and len(scripted_server.requests) == 28 - 2  # 2 quiet questions


def test_prompt_cache_hits_reach_the_lines_and_run_json(scripted_server, tmp_path):
    """A server that reports prompt-cache hits (DeepSeek's dialect here): each line keeps its hits
    in ``usage``, run.json sums them, and the cost charges them at the cached-input price."""
    scripted_server.default = lambda req: Reply(content='{"ops": []}', usage=(1000, 10),
                                                 usage_extra={"prompt_cache_hit_tokens": 600})
    llm = LLMConfig(model="deepseek-chat", base_urls=[scripted_server.base_url], cache=False)
    summary = asyncio.run(execute(RunConfig(agent="plain", mode="single", cases=["tiny-02"], llm=llm),
                                  load_tiny(), tmp_path / "r", progress=False))
    line = load_run(tmp_path / "r").lines[("tiny-02", "single", 1, 0)]
    assert line.usage.model_dump() == {"prompt_tokens": 1000, "completion_tokens": 10, "cached_prompt_tokens": 600}
    usage = json.loads((tmp_path / "r" / "run.json").read_text())["usage"]
    assert usage["requests"] == 3 and usage["cached_prompt_tokens"] == 1800
    # per request: 400 x $0.28 + 600 x $0.028 + 10 x $0.42, per million tokens
    assert usage["cost_usd"] == pytest.approx(3 * (400 * 0.28 + 600 * 0.028 + 10 * 0.42) / 1e6, abs=1e-6)
    assert summary.usage == usage


def test_a_budget_stops_new_work_and_a_second_call_finishes(scripted_server, tmp_path):
    """Each request costs 100 x $1 + 10 x $2 per million = $0.00012; with one question in flight
    at a time, a budget of $0.0005 stops after the 5th request (spent $0.0006 >= $0.0005)."""
    ds = load_tiny()
    scripted_server.default = hashed_reply
    llm = LLMConfig(model="m", base_urls=[scripted_server.base_url], cache=False,
                    price={"input": 1.0, "output": 2.0})
    config = RunConfig(agent="plain", mode="single", concurrency=1, llm=llm, max_cost_usd=0.0005)
    first = asyncio.run(execute(config, ds, tmp_path / "r", progress=False))
    assert first.budget_reached and first.usage["requests"] == 5
    assert first.usage["cost_usd"] == pytest.approx(5 * 0.00012)
    answered = len(load_run(tmp_path / "r").lines)
    assert 5 <= answered < 14
    second = asyncio.run(execute(config.model_copy(update={"max_cost_usd": 1.0}), ds, tmp_path / "r",
                                 progress=False))
    assert not second.budget_reached and second.skipped == answered
    assert len(load_run(tmp_path / "r").lines) == 14 and len(scripted_server.requests) == 13


def test_run_json_usage_is_the_sum_of_every_line_in_the_file_after_each_call(scripted_server, tmp_path):
    """The runner sums the usage as it appends lines (it no longer reads the file back): what
    run.json says, after a first call cut short by a budget and after the resume, is what
    ``run_usage`` reads from predictions.jsonl, odd costs (float sums) included."""
    from proevent.io.run import rounded_usage, run_usage

    ds = load_tiny()
    scripted_server.default = hashed_reply
    llm = LLMConfig(model="m", base_urls=[scripted_server.base_url], cache=False,
                    price={"input": 0.37, "output": 1.13})
    config = RunConfig(agent="plain", mode="single", concurrency=3, llm=llm, max_cost_usd=0.00015)
    for budget in (0.00015, 1.0):
        summary = asyncio.run(execute(config.model_copy(update={"max_cost_usd": budget}), ds, tmp_path / "r",
                                      progress=False))
        on_disk = json.loads((tmp_path / "r" / "run.json").read_text())["usage"]
        assert summary.usage == on_disk == rounded_usage(run_usage(tmp_path / "r"))
    assert on_disk["requests"] == 13


def test_a_budget_needs_a_priced_model(scripted_server, tmp_path):
    llm = LLMConfig(model="unpriced-model", base_urls=[scripted_server.base_url], cache=False)
    with pytest.raises(ValueError, match="a budget needs a priced model"):
        asyncio.run(execute(RunConfig(agent="plain", mode="single", llm=llm, max_cost_usd=1.0), load_tiny(),
                            tmp_path / "r", progress=False))
    assert not (tmp_path / "r").exists()  # refused before anything is written
