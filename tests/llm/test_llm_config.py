"""Configuration precedence, profiles, prices, rate limits and reasoning stripping."""

from __future__ import annotations

import asyncio
import time

import pytest

from proevent.llm import LLMConfig, Price, find_price, load_llm_config, split_reasoning
from proevent.llm.client import parse_retry_after
from proevent.llm.pricing import UsageTotals, cost_usd
from proevent.llm.ratelimit import TokenBucket

TOML = """
[profiles.vllm]
model = "Qwen/Qwen3-32B"
base_urls = ["http://gpu1:8000/v1", "http://gpu2:8000/v1/"]
api_key_env = "VLLM_KEY"
concurrency = 128
temperature = 0.6

[profiles.bad]
model = "x"
temperature = "hot"
"""


def test_flags_over_environment_over_profile_over_defaults(tmp_path):
    path = tmp_path / "proevent.toml"
    path.write_text(TOML)
    cfg = load_llm_config(profile="vllm", config_file=path, environ={})
    assert cfg.model == "Qwen/Qwen3-32B" and cfg.base_urls == ["http://gpu1:8000/v1", "http://gpu2:8000/v1"]
    assert cfg.concurrency == 128 and cfg.temperature == 0.6 and cfg.seed == 0 and cfg.max_retries == 6
    env = {"PROEVENT_MODEL": "env-model", "PROEVENT_BASE_URL": "http://a/v1, http://b/v1"}
    cfg = load_llm_config(profile="vllm", config_file=path, environ=env)
    assert cfg.model == "env-model" and cfg.base_urls == ["http://a/v1", "http://b/v1"]
    cfg = load_llm_config(profile="vllm", config_file=path, environ=env,
                          overrides={"model": "flag-model", "concurrency": None})
    assert cfg.model == "flag-model" and cfg.concurrency == 128  # None flags do not override


def test_the_judge_reads_its_own_variables_above_the_runs(tmp_path):
    path = tmp_path / "proevent.toml"
    path.write_text(TOML)
    env = {"PROEVENT_MODEL": "run-model", "PROEVENT_BASE_URL": "http://run/v1",
           "PROEVENT_JUDGE_MODEL": "judge-model", "PROEVENT_JUDGE_BASE_URL": "http://judge/v1"}
    judge = load_llm_config(role="judge", environ=env)
    assert judge.model == "judge-model" and judge.base_urls == ["http://judge/v1"]
    run = load_llm_config(environ=env)  # a run never reads the judge's variables
    assert run.model == "run-model" and run.base_urls == ["http://run/v1"]
    partial = load_llm_config(role="judge", environ={**env, "PROEVENT_JUDGE_BASE_URL": ""})
    assert partial.model == "judge-model" and partial.base_urls == ["http://run/v1"]  # unset: as for runs
    cfg = load_llm_config(role="judge", config_file=path, environ={"PROEVENT_JUDGE_PROFILE": "vllm"})
    assert cfg.model == "Qwen/Qwen3-32B" and cfg.concurrency == 128
    cfg = load_llm_config(role="judge", environ=env, overrides={"model": "flag-model"})
    assert cfg.model == "flag-model" and cfg.base_urls == ["http://judge/v1"]
    with pytest.raises(ValueError, match="no model for the llm judge: set PROEVENT_JUDGE_MODEL"):
        load_llm_config(role="judge", environ={})


def test_config_errors_name_the_place(tmp_path):
    path = tmp_path / "proevent.toml"
    path.write_text(TOML)
    with pytest.raises(ValueError, match=r"proevent.toml:11: profiles.bad.temperature: Input should be a valid number"):
        load_llm_config(profile="bad", config_file=path, environ={})
    with pytest.raises(ValueError, match=r"no profile 'nope' \(known: bad, vllm\)"):
        load_llm_config(profile="nope", config_file=path, environ={})
    with pytest.raises(ValueError, match="no model"):
        load_llm_config(environ={})
    path.write_text("[profiles\n")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_llm_config(profile="x", config_file=path, environ={})


def test_key_only_from_the_environment(monkeypatch):
    monkeypatch.delenv("PROEVENT_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "k1")
    assert LLMConfig(model="m").api_key() == "k1"
    monkeypatch.setenv("PROEVENT_API_KEY", "k2")
    assert LLMConfig(model="m").api_key() == "k2"
    assert LLMConfig(model="m", api_key_env="NOPE_UNSET").api_key() is None
    with pytest.raises(ValueError):
        LLMConfig(model="m", api_key="sk-inline")  # no field can hold a key


def test_prices_and_unknown_cost():
    assert find_price("gpt-4o-mini") == Price(input=0.15, output=0.6, cached_input=0.075)
    assert find_price("openai/gpt-4o-mini") == find_price("gpt-4o-mini")
    assert find_price("gpt-4o-2024-08-06") == Price(input=2.5, output=10.0, cached_input=1.25)  # not gpt-4
    assert find_price("my-local-llama") is None
    assert cost_usd(None, 10, 10) is None
    totals = UsageTotals()
    totals.add(100, 10, 0.5)
    totals.add(100, 10, None)
    totals.add(100, 10, 0.5)
    assert totals.cost_usd is None and totals.as_dict()["prompt_tokens"] == 300


@pytest.mark.parametrize(("text", "answer", "reasoning"), [
    ('<think>hmm</think>{"ops": []}', '{"ops": []}', "hmm"),
    ('a<think>x</think>b<think>y</think>', "ab", "x\n\ny"),
    ('hmm, the user…</think>\n{"ops": []}', '{"ops": []}', "hmm, the user…"),  # opening tag swallowed
    ('{"ops": []}<think>never closed', '{"ops": []}', "never closed"),
    ('{"ops": []}', '{"ops": []}', None),
])
def test_reasoning_is_split_off(text, answer, reasoning):
    assert split_reasoning(text) == (answer, reasoning)


def test_retry_after_forms():
    assert parse_retry_after("2.5") == 2.5
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # a date in the past


def test_token_bucket_paces_requests():
    async def scenario() -> float:
        bucket = TokenBucket(600)  # 10 per second, starts full with 600
        bucket._level = 0
        t0 = time.perf_counter()
        for _ in range(3):
            await bucket.acquire(1)
        return time.perf_counter() - t0

    elapsed = asyncio.run(scenario())
    assert 0.25 <= elapsed < 0.6
