"""The client against misbehaving servers (issue 12, findings 2-5): Retry-After, endless bodies, lone
surrogates, malformed usage, unusable answers, the server in the cache key. Real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import email.utils
import json
import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fixtures import TINY, load_tiny
from proevent.agents import build_observation
from proevent.agents.llm.base import LLMAgent
from proevent.agents.llm.parsing import extract_ops
from proevent.cli import app
from proevent.io.run import PredictionWriter, load_run
from proevent.llm import LLMClient, LLMConfig, LLMError, ResponseCache
from proevent.llm.client import EndpointRefused, ResponseTooLarge
from proevent.llm.text import well_formed
from proevent.model import PredictionLine, Timetable
from support.scripted_server import Reply, ScriptedServer

MSG = [{"role": "user", "content": "hello"}]
OK = Reply(content='{"ops": []}', usage=(10, 2))
TOOLS = [{"type": "function", "function": {"name": "weekday", "parameters": {"type": "object"}}}]


def make_config(server, **kw) -> LLMConfig:
    base = {"model": "scripted", "base_urls": [server.base_url], "backoff_s": 0.01, "cache": False}
    base.update(kw)
    return LLMConfig(**base)


def body(content_json: str, usage: str = '{"prompt_tokens": 3, "completion_tokens": 1}', extra: str = "") -> bytes:
    """A completion body written by hand, so that it can hold what ``json.dumps`` never writes."""
    return (f'{{"choices": [{{"index": 0, "message": {{"role": "assistant", "content": {content_json}{extra}}},'
            f' "finish_reason": "stop"}}], "usage": {usage}}}').encode()


# -- finding 3: Retry-After and the response size ----------------------------------------------
@pytest.mark.parametrize("retry_after", ["3600", "http-date"])
async def test_retry_after_is_capped_by_the_backoff_ceiling(scripted_server, retry_after):
    if retry_after == "http-date":
        retry_after = email.utils.formatdate(time.time() + 3600, usegmt=True)
    scripted_server.script(Reply(status=429, headers={"Retry-After": retry_after}), OK)
    async with LLMClient(make_config(scripted_server, backoff_max_s=0.2)) as client:
        t0 = time.perf_counter()
        out = await asyncio.wait_for(client.chat(MSG), 10)
        elapsed = time.perf_counter() - t0
    assert out.text == '{"ops": []}' and len(scripted_server.requests) == 2
    assert 0.2 <= elapsed < 2


async def test_retry_after_is_bounded_by_the_request_timeout(scripted_server):
    scripted_server.script(Reply(status=503, headers={"Retry-After": "3600"}), OK)
    async with LLMClient(make_config(scripted_server, timeout_s=0.3)) as client:  # backoff ceiling 60 s
        t0 = time.perf_counter()
        await asyncio.wait_for(client.chat(MSG), 10)
        elapsed = time.perf_counter() - t0
    assert 0.3 <= elapsed < 2


@pytest.mark.parametrize("announced", [True, False], ids=["with a huge Content-Length", "without one"])
async def test_a_body_that_never_ends_is_cut_off_at_the_limit(scripted_server, announced):
    scripted_server.script(Reply(endless=True, endless_announced=announced), OK)
    async with LLMClient(make_config(scripted_server, max_response_mb=1, timeout_s=30)) as client:
        t0 = time.perf_counter()
        with pytest.raises(ResponseTooLarge, match=r"exceeds the limit of 1 MB"):
            await asyncio.wait_for(client.chat(MSG), 20)
        assert time.perf_counter() - t0 < 10
        assert client.totals.failures == 1 and client.consecutive_failures == 1
        # not retried: the same server would send the same endless body again
        assert len(scripted_server.requests) == 1
        # the connection was dropped at the limit: the server got no further than its socket buffers
        assert scripted_server.endless_sent < 64 * 2**20
        assert (await client.chat([{"role": "user", "content": "next"}])).text == '{"ops": []}'
        assert client.consecutive_failures == 0


async def test_a_body_announced_too_long_is_refused_without_reading_it(scripted_server):
    scripted_server.script(Reply(raw_body=b" " * (3 * 2**20)))
    async with LLMClient(make_config(scripted_server, max_response_mb=2)) as client:
        with pytest.raises(ResponseTooLarge, match=r"3145728 bytes exceeds the limit of 2 MB"):
            await client.chat(MSG)


# -- finding 2: any Unicode survives -------------------------------------------------------------
async def test_lone_surrogates_become_replacement_characters_and_are_cached(scripted_server, tmp_path):
    content = r'"{\"ops\": [], \"note\": \"bad \ud800 good \ud83d\ude00\"}"'
    reasoning = r', "reasoning_content": "think \udfff"'
    scripted_server.script(Reply(raw_body=body(content, extra=reasoning)))
    cfg = make_config(scripted_server, cache=True, cache_path=tmp_path / "c.sqlite")
    async with LLMClient(cfg) as client:
        out = await client.chat(MSG)
    assert json.loads(out.text) == {"ops": [], "note": "bad \ufffd good \U0001F600"}  # the pair stays an emoji
    assert out.reasoning == "think \ufffd"
    out.raw.encode("utf-8")  # well-formed
    async with LLMClient(cfg) as client:  # from the cache, the same
        again = await client.chat(MSG)
        assert again.cached and again.text == out.text and client.totals.requests == 0


async def test_a_surrogate_reply_goes_through_the_agent_into_predictions_jsonl(scripted_server, tmp_path):
    """The agent parses the cleaned text and ``PredictionWriter`` writes it; the line reads back."""
    scripted_server.script(Reply(raw_body=body(r'"{\"ops\": []} \ud800"')))
    async with LLMClient(make_config(scripted_server)) as client:
        action = await LLMAgent(client, "plain").act(obs_of())
    assert action.error is None and action.ops == [] and action.raw == '{"ops": []} \ufffd'
    path = tmp_path / "predictions.jsonl"
    with PredictionWriter(path) as writer:
        writer.write(PredictionLine(case_id="tiny-01", mode="single", t=1, ops=action.ops, raw=action.raw))
    assert json.loads(path.read_text(encoding="utf-8"))["raw"] == '{"ops": []} \ufffd'


def test_a_run_whose_replies_hold_lone_surrogates_completes(scripted_server, tmp_path):
    """End to end through ``proevent run``, cache on: every line written, the rerun from the cache too."""
    scripted_server.default = lambda req: Reply(raw_body=body(r'"{\"ops\": [], \"why\": \"\ud800\"}"'))
    out, cache = tmp_path / "run", tmp_path / "cache.sqlite"
    args = ["run", str(TINY), "--agent", "plain", "--model", "scripted", "--base-url", scripted_server.base_url,
            "--cache-path", str(cache), "--no-progress"]
    first = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert first.exit_code == 0, first.output
    lines = [json.loads(x) for x in (out / "predictions.jsonl").read_text(encoding="utf-8").splitlines()]
    asked = [d for d in lines if d.get("raw")]
    assert len(asked) == 26 and all(d["raw"] == '{"ops": [], "why": "\ufffd"}' and not d.get("error")
                                    for d in asked)
    sent = len(scripted_server.requests)
    second = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "again")])
    assert second.exit_code == 0, second.output
    assert len(scripted_server.requests) == sent  # all from the cache


async def test_a_lone_surrogate_in_a_message_is_sent_as_a_replacement_character(scripted_server, tmp_path):
    cfg = make_config(scripted_server, cache=True, cache_path=tmp_path / "c.sqlite")
    async with LLMClient(cfg) as client:
        await client.chat([{"role": "user", "content": "lunch \ud800 at 1?"}])
        assert (await client.chat([{"role": "user", "content": "lunch \ud800 at 1?"}])).cached
    assert scripted_server.requests[0]["messages"][0]["content"] == "lunch \ufffd at 1?"


def test_operations_parsed_from_text_holding_a_lone_surrogate_can_be_written():
    ops, error = extract_ops('{"ops": [{"op": "delete", "id": "e1\ud800"}]} \udfff')
    assert error is None and ops == [{"op": "delete", "id": "e1\ufffd"}]
    json.dumps(ops, ensure_ascii=False).encode("utf-8")


def test_well_formed_keeps_good_text_and_replaces_only_lone_surrogates():
    good = "ascii, ünïcode, 日本, \U0001F600"
    assert well_formed(good) is good
    assert well_formed("a\ud800b\udc00c") == "a\ufffdb\ufffdc"


# -- finding 5: replies validated, only usable answers cached ------------------------------------
@pytest.mark.parametrize("bad", [
    '{"prompt_tokens": NaN, "completion_tokens": 1}',
    '{"prompt_tokens": -5, "completion_tokens": 1}',
    '{"prompt_tokens": 3, "completion_tokens": Infinity}',
    '{"prompt_tokens": "many", "completion_tokens": 1}',
    '{"prompt_tokens": 3, "completion_tokens": 1, "prompt_tokens_details": {"cached_tokens": -1}}',
    '[3, 1]',
])
async def test_bad_usage_is_a_malformed_reply_and_retried(scripted_server, bad):
    scripted_server.script(Reply(raw_body=body('"{}"', usage=bad)), Reply(content="{}", usage=(7, 3)))
    async with LLMClient(make_config(scripted_server)) as client:
        out = await client.chat(MSG)
    assert (out.prompt_tokens, out.completion_tokens) == (7, 3) and len(scripted_server.requests) == 2
    assert client.totals.prompt_tokens == 7 and client.totals.retries == 1


@pytest.mark.parametrize("raw", [
    b'{"choices": []}', b'{"choices": [{"message": "text"}]}', b'{"choices": [{"message": {"content": 5}}]}',
    b'{"choices": [{"message": {"content": "x", "tool_calls": {"a": 1}}}]}', b'[1, 2]', b'{"choices": [',
])
async def test_wrong_shapes_fail_after_retries(scripted_server, raw):
    scripted_server.script(*[Reply(raw_body=raw)] * 2)
    async with LLMClient(make_config(scripted_server, max_retries=1)) as client:
        with pytest.raises(LLMError, match="after 2 attempts: malformed response body"):
            await client.chat(MSG)


def _unusable_cases() -> list[tuple[str, Reply, bool]]:
    """(what, reply, with tools): answers returned to the caller but never cached."""
    return [
        ("empty", Reply(content=""), False),
        ("null content", Reply(content=None), False),
        ("whitespace", Reply(content="  \n"), False),
        ("no JSON where JSON was asked", Reply(content="I think you should go."), False),
        ("truncated JSON", Reply(content='{"ops": [{"op": "delete"', finish_reason="length"), False),
        ("unclosed think", Reply(content='<think>the user wants {"ops": []}'), False),
        ("tool call without a name", Reply(raw_body=body("null", extra=', "tool_calls": [{"id": "a", '
                                                         '"function": {"arguments": "{}"}}]')), True),
        ("tool arguments as an object", Reply(raw_body=body("null", extra=', "tool_calls": [{"id": "a", '
                                                            '"function": {"name": "weekday", "arguments": '
                                                            '{"date": "2026-03-14"}}}]')), True),
        ("tool arguments not JSON", Reply(content=None, tool_calls=[("weekday", '{"date": ')]), True),
    ]


@pytest.mark.parametrize(("what", "reply", "tools"), _unusable_cases(), ids=[c[0] for c in _unusable_cases()])
async def test_unusable_answers_are_not_cached_so_asking_again_sends_a_request(scripted_server, tmp_path,
                                                                              what, reply, tools):
    cfg = make_config(scripted_server, cache=True, cache_path=tmp_path / "c.sqlite")
    scripted_server.script(reply, reply)
    kw = {"tools": TOOLS} if tools else {}
    for run in range(2):  # a run, then its resume
        async with LLMClient(cfg) as client:
            out = await client.chat(MSG, **kw)
            assert not out.cached and client.totals.requests == 1
        assert len(scripted_server.requests) == run + 1
    assert len(ResponseCache(cfg.cache_path)) == 0
    assert client.not_cached == 1


def test_errored_lines_asked_again_on_resume_really_send_requests(scripted_server, tmp_path):
    """``proevent run`` twice on one folder, cache on: the first run's answers were unusable (no JSON),
    so the resume finds nothing in the cache for its errored lines and asks the server again."""
    scripted_server.default = lambda req: Reply(content="Sorry, I cannot help with that.")
    out, cache = tmp_path / "run", tmp_path / "cache.sqlite"
    args = ["run", str(TINY), "--agent", "plain", "--model", "scripted", "--base-url", scripted_server.base_url,
            "--cache-path", str(cache), "--out", str(out), "--no-progress", "--max-errors", "1000"]
    first = CliRunner().invoke(app, args)
    lines = [json.loads(x) for x in (out / "predictions.jsonl").read_text().splitlines()]
    errored = [d for d in lines if d.get("error")]
    assert len(errored) == 26, first.output  # each with its repair request: 52 requests
    assert len(scripted_server.requests) == 52 and len(ResponseCache(cache)) == 0
    scripted_server.default = lambda req: Reply(content='{"ops": []}')
    resumed = CliRunner().invoke(app, args)
    assert resumed.exit_code == 0, resumed.output
    sent, hits = map(int, re.search(r"requests (\d+) \(cache hits (\d+)\)", resumed.output).groups())
    # every errored line asked anew; single and multi step 1 ask the same prompt, so one of them may be
    # answered from what this resume itself just stored (the first run stored nothing)
    assert sent + hits == 26 and hits <= 1 and len(scripted_server.requests) == 52 + sent
    final = load_run(out).lines
    assert len(final) == 28 and not any(line.error for line in final.values())


async def test_tool_arguments_as_an_object_are_an_error_the_agent_can_report(scripted_server):
    scripted_server.script(Reply(raw_body=body("null", extra=', "tool_calls": [{"id": "a", "function": '
                                                  '{"name": "weekday", "arguments": {"date": "x"}}}]')))
    async with LLMClient(make_config(scripted_server)) as client:
        out = await client.chat(MSG, tools=TOOLS)
    with pytest.raises(ValueError, match="must be a JSON string, not dict"):
        out.tool_calls[0].args()


async def test_usable_answers_are_cached_and_the_callers_check_is_honoured(scripted_server, tmp_path):
    cfg = make_config(scripted_server, cache=True, cache_path=tmp_path / "c.sqlite")
    scripted_server.default = lambda req: Reply(content='Sure:\n```json\n{"ops": []}\n```')  # fenced JSON counts
    refuse = [{"role": "user", "content": "refused"}]
    async with LLMClient(cfg) as client:
        await client.chat(MSG)
        await client.chat(MSG, tools=TOOLS)  # with tools a text answer needs no JSON; another key
        await client.chat(refuse, accept=lambda c: "not what I need")
    async with LLMClient(cfg) as client:
        assert (await client.chat(MSG)).cached and (await client.chat(MSG, tools=TOOLS)).cached
        assert not (await client.chat(refuse, accept=lambda c: "not what I need")).cached
    assert len(scripted_server.requests) == 4


async def test_a_stored_unusable_entry_is_not_served(scripted_server, tmp_path):
    """An older cache may hold what is no longer cached (an empty answer): it is asked again."""
    cfg = make_config(scripted_server, cache=True, cache_path=tmp_path / "c.sqlite")
    async with LLMClient(cfg) as client:
        await client.chat(MSG)
    cache = ResponseCache(cfg.cache_path)
    (key,) = [row[0] for row in cache._db.execute("SELECT key FROM responses")]
    cache.put(key, "scripted", body('""').decode())
    async with LLMClient(cfg) as client:
        assert not (await client.chat(MSG)).cached
    assert len(scripted_server.requests) == 2


# -- finding 5: the server is part of the key ----------------------------------------------------
async def test_a_second_server_with_the_same_model_name_is_not_answered_from_the_cache(scripted_server, tmp_path):
    path = tmp_path / "c.sqlite"
    scripted_server.default = lambda req: Reply(content='{"from": "first"}')
    with ScriptedServer() as other:
        other.default = lambda req: Reply(content='{"from": "second"}')
        async with LLMClient(make_config(scripted_server, cache=True, cache_path=path)) as client:
            assert json.loads((await client.chat(MSG)).text) == {"from": "first"}
        async with LLMClient(make_config(other, cache=True, cache_path=path)) as client:
            out = await client.chat(MSG)
        assert json.loads(out.text) == {"from": "second"} and not out.cached and len(other.requests) == 1
        both = make_config(scripted_server, base_urls=[other.base_url, scripted_server.base_url], cache=True,
                           cache_path=path)
        async with LLMClient(both) as client:  # replicas listed together share answers, in any order
            await client.chat(MSG)
        async with LLMClient(both.model_copy(update={"base_urls": both.base_urls[::-1]})) as client:
            assert (await client.chat(MSG)).cached


# -- the runner's hooks --------------------------------------------------------------------------
@pytest.mark.parametrize("status", [401, 403, 404])
async def test_refusals_raise_endpoint_refused_with_url_and_status(scripted_server, status):
    scripted_server.script(Reply(status=status))
    async with LLMClient(make_config(scripted_server)) as client:
        with pytest.raises(EndpointRefused, match=rf"127\.0\.0\.1:\d+/v1/chat/completions: HTTP {status}") as err:
            await client.chat(MSG)
    assert err.value.status == status and err.value.url == scripted_server.base_url
    assert len(scripted_server.requests) == 1


async def test_consecutive_failures_count_and_reset(scripted_server):
    scripted_server.script(Reply(status=500), Reply(status=500), OK)
    async with LLMClient(make_config(scripted_server, max_retries=0)) as client:
        for n in (1, 2):
            with pytest.raises(LLMError):
                await client.chat([{"role": "user", "content": str(n)}])
            assert client.consecutive_failures == n
        await client.chat(MSG)
        assert client.consecutive_failures == 0


def obs_of():
    case = load_tiny().case("tiny-01")
    return build_observation(case, 1, Timetable(case.initial_timetable), mode="single", repeat=0)


def test_tool_arguments_nested_past_the_parser_stack_are_a_value_error():
    from proevent.llm.client import ToolCall

    call = ToolCall(id="c1", name="weekday", arguments="[" * 100_000)
    with pytest.raises(ValueError, match="nested too deeply"):
        call.args()


# -- the wire encoder ----------------------------------------------------------------------------
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.characters(codec=None)),  # lone surrogates included
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(body=st.dictionaries(st.text(max_size=8), _JSON, max_size=5))
def test_the_wire_encoder_sends_what_the_batch_encoder_writes(body):
    """The request on the wire (pydantic-core, compact) decodes to the same value as the batch
    file's line (the standard library's), lone surrogates made U+FFFD in both."""
    from proevent.llm.client import _encode_body, _encode_payload

    assert json.loads(_encode_payload(body)) == json.loads(_encode_body(body))


async def test_a_lone_surrogate_in_a_prompt_is_sent_as_a_replacement_character(scripted_server):
    scripted_server.script(Reply(raw_body=body(r'"{\"ops\": []}"')))
    async with LLMClient(make_config(scripted_server)) as client:
        await client.chat([{"role": "user", "content": "bad \ud800 good \U0001F600"}])
    assert scripted_server.requests[0]["messages"][0]["content"] == "bad \ufffd good \U0001F600"
