"""The LLM client against the scripted server: real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from proevent.llm import LLMClient, LLMConfig, LLMError, Price, ResponseCache, UnsupportedFeature
from proevent.llm.pricing import cost_usd
from support.scripted_server import Reply

MSG = [{"role": "user", "content": "hello"}]


def make_config(server, **kw) -> LLMConfig:
    base = {"model": "scripted", "base_urls": [server.base_url], "backoff_s": 0.01, "cache": False}
    base.update(kw)
    return LLMConfig(**base)


async def test_plain_answer_and_usage(scripted_server):
    scripted_server.script(Reply(content='{"ops": []}', usage=(120, 7)))
    async with LLMClient(make_config(scripted_server)) as client:
        out = await client.chat(MSG)
    assert out.text == '{"ops": []}'
    assert (out.prompt_tokens, out.completion_tokens) == (120, 7)
    assert out.cost_usd is None and client.totals.cost_usd is None  # unpriced model: unknown, not 0
    req = scripted_server.requests[0]
    assert req["temperature"] == 0.0 and req["seed"] == 0
    assert req["response_format"] == {"type": "json_object"}


async def test_priced_model_cost(scripted_server):
    scripted_server.script(Reply(content="x", usage=(1_000_000, 500_000)))
    async with LLMClient(make_config(scripted_server, model="gpt-4o-mini")) as client:
        out = await client.chat(MSG)
    assert out.cost_usd == pytest.approx(0.15 + 0.3)
    assert client.totals.cost_usd == pytest.approx(0.45)


async def test_prompt_cache_hits_are_read_in_both_dialects_and_priced(scripted_server):
    scripted_server.script(
        Reply(content="x", usage=(1_000_000, 0), usage_extra={"prompt_tokens_details": {"cached_tokens": 800_000}}),
        Reply(content="x", usage=(1_000_000, 0),
              usage_extra={"prompt_cache_hit_tokens": 600_000, "prompt_cache_miss_tokens": 400_000}),
        Reply(content="x", usage=(1_000_000, 0), usage_extra={"prompt_tokens_details": None}),
    )
    async with LLMClient(make_config(scripted_server, model="deepseek-chat")) as client:
        outs = [await client.chat([{"role": "user", "content": f"q{i}"}]) for i in range(3)]
    assert [o.cached_prompt_tokens for o in outs] == [800_000, 600_000, 0]
    # deepseek-chat: $0.28 per million prompt tokens, $0.028 per million read from the prompt cache
    assert [o.cost_usd for o in outs] == pytest.approx([0.2 * 0.28 + 0.8 * 0.028, 0.4 * 0.28 + 0.6 * 0.028, 0.28])
    assert client.totals.as_dict()["cached_prompt_tokens"] == 1_400_000
    unpriced = Price(input=1.0, output=1.0)  # no cached_input: cache hits are charged as input
    assert cost_usd(unpriced, 1_000_000, 0, 800_000) == pytest.approx(1.0)


async def test_think_block_is_stripped_but_kept_raw(scripted_server):
    scripted_server.script(Reply(content='<think>the user said hi</think>\n{"ops": []}'))
    async with LLMClient(make_config(scripted_server)) as client:
        out = await client.chat(MSG)
    assert out.text == '{"ops": []}'
    assert out.reasoning == "the user said hi"
    assert "<think>" in out.raw


async def test_retries_on_429_500_and_dropped_connection_then_success(scripted_server):
    scripted_server.script(
        Reply(status=429, headers={"Retry-After": "0.3"}),
        Reply(status=500),
        Reply(drop=True),
        Reply(content="finally"),
    )
    async with LLMClient(make_config(scripted_server)) as client:
        t0 = time.perf_counter()
        out = await client.chat(MSG)
        elapsed = time.perf_counter() - t0
    assert out.text == "finally"
    assert len(scripted_server.requests) == 4
    assert client.totals.retries == 3
    assert elapsed >= 0.3  # Retry-After honoured


async def test_timeout_is_retried(scripted_server):
    scripted_server.script(Reply(content="slow", delay=0.6), Reply(content="fast"))
    async with LLMClient(make_config(scripted_server, timeout_s=0.3)) as client:
        out = await client.chat(MSG)
    assert out.text == "fast"


async def test_gives_up_after_max_retries(scripted_server):
    scripted_server.script(*[Reply(status=503)] * 3)
    async with LLMClient(make_config(scripted_server, max_retries=2)) as client:
        with pytest.raises(LLMError, match="after 3 attempts: HTTP 503"):
            await client.chat(MSG)


async def test_client_error_is_not_retried(scripted_server):
    scripted_server.script(Reply(status=401), Reply(content="never"))
    async with LLMClient(make_config(scripted_server)) as client:
        with pytest.raises(LLMError, match="HTTP 401"):
            await client.chat(MSG)
    assert len(scripted_server.requests) == 1


async def test_json_mode_falls_back_when_refused(scripted_server):
    refused = Reply(status=400, raw_body=b'{"error": {"message": "response_format is not supported"}}')
    scripted_server.script(refused, Reply(content="ok"), Reply(content="ok2"))
    async with LLMClient(make_config(scripted_server)) as client:
        assert (await client.chat(MSG)).text == "ok"
        assert (await client.chat([{"role": "user", "content": "again"}])).text == "ok2"
    first, second, third = scripted_server.requests
    assert "response_format" in first and "response_format" not in second
    assert "response_format" not in third  # remembered


async def test_tool_calls_parsed_and_unsupported_tools_reported(scripted_server):
    tools = [{"type": "function", "function": {"name": "weekday", "parameters": {"type": "object"}}}]
    scripted_server.script(Reply(content=None, tool_calls=[("weekday", {"date": "2026-03-14"})]))
    async with LLMClient(make_config(scripted_server)) as client:
        out = await client.chat(MSG, tools=tools)
        assert out.tool_calls[0].name == "weekday"
        assert out.tool_calls[0].args() == {"date": "2026-03-14"}
        assert out.message["tool_calls"][0]["function"]["name"] == "weekday"
        assert "response_format" not in scripted_server.requests[0]
        assert scripted_server.requests[0]["tools"] == tools
        scripted_server.script(Reply(status=400, raw_body=b'{"error": {"message": "tools are not supported"}}'))
        with pytest.raises(UnsupportedFeature):
            await client.chat([{"role": "user", "content": "x"}], tools=tools)


async def test_concurrency_never_exceeds_limit(scripted_server):
    scripted_server.default = lambda req: Reply(content="ok", delay=0.05)
    async with LLMClient(make_config(scripted_server, concurrency=5)) as client:
        await asyncio.gather(*(client.chat([{"role": "user", "content": str(i)}]) for i in range(40)))
    assert scripted_server.max_inflight == 5


async def test_cache_second_run_makes_zero_requests(scripted_server, tmp_path):
    # JSON is asked (json_mode), so answers are JSON: a non-JSON answer would not be cached
    scripted_server.default = lambda req: Reply(content=json.dumps({"echo": req["messages"][-1]["content"].upper()}))
    cfg = make_config(scripted_server, cache=True, cache_path=tmp_path / "c.sqlite")
    prompts = [[{"role": "user", "content": f"q{i}"}] for i in range(5)]
    async with LLMClient(cfg) as client:
        first = [(await client.chat(p)).text for p in prompts]
    assert len(scripted_server.requests) == 5
    async with LLMClient(cfg) as client:
        second = [(await client.chat(p)).text for p in prompts]
        assert client.totals.cache_hits == 5 and client.totals.requests == 0
        await client.chat(prompts[0], repeat=1)  # another repeat index is another sample
    assert first == second == [json.dumps({"echo": f"Q{i}"}) for i in range(5)]
    assert len(scripted_server.requests) == 6
    async with LLMClient(cfg, use_cache=False) as client:  # --no-cache
        await client.chat(prompts[0])
    assert len(scripted_server.requests) == 7
    assert len(ResponseCache(cfg.cache_path)) == 6


async def test_several_base_urls_share_the_load(scripted_server):
    from support.scripted_server import ScriptedServer

    with ScriptedServer() as other:
        for s in (scripted_server, other):
            s.default = lambda req: Reply(content="ok", delay=0.05)
        cfg = make_config(scripted_server, base_urls=[scripted_server.base_url, other.base_url], concurrency=8)
        async with LLMClient(cfg) as client:
            await asyncio.gather(*(client.chat([{"role": "user", "content": str(i)}]) for i in range(16)))
        assert len(scripted_server.requests) == 8 and len(other.requests) == 8


async def test_api_key_sent_as_bearer_from_environment(scripted_server, monkeypatch):
    monkeypatch.setenv("MY_KEY", "sk-secret-123")
    async with LLMClient(make_config(scripted_server, api_key_env="MY_KEY")) as client:
        await client.chat(MSG)
    assert scripted_server.headers[0]["authorization"] == "Bearer sk-secret-123"
    assert "sk-secret" not in json.dumps(make_config(scripted_server, api_key_env="MY_KEY").model_dump(mode="json"))
