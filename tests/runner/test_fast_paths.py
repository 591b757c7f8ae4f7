"""The runner's per-request shortcuts give what the long way gives: redaction that looks at the
line's JSON text first, replies read without walking them when no escape can hold a surrogate, and
the collector's young threshold raised for the workers only."""

from __future__ import annotations

import asyncio
import gc
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures import load_tiny
from proevent.agents.protocol import Action, Observation
from proevent.llm import LLMClient, LLMConfig
from proevent.model import PredictionLine, Usage
from proevent.runner import RunConfig, execute
from proevent.runner.secrets import REDACTED, redact_line, redact_walk
from support.scripted_server import Reply

SECRETS = ["sk-test-0123456789", 'we"ird\\key-42', "k\u00e9y-\u00fcnicode"]
PIECES = ["http://", "HTTPS://", "u:pw@host.example", "/v1?api_key=abc&x=1", "Bearer ", "bAsIc\t",
          "abcdefghij0123", "\n", '"', "\\", "\u00e9", "'", " ", "ok", "://", ":\\/\\/", *SECRETS]
text = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)


@st.composite
def lines(draw: st.DrawFn) -> PredictionLine:
    extra = draw(st.dictionaries(st.sampled_from(["note", "finish_reason", "reasoning"]), text, max_size=2))
    ops = [{"op": "delete", "id": draw(text)}] if draw(st.booleans()) else []
    usage = Usage(prompt_tokens=draw(st.integers(0, 99)), completion_tokens=1) if draw(st.booleans()) else None
    return PredictionLine(case_id="case-" + draw(st.sampled_from(["1", "u:pw@h", "x://y"])), mode="single", t=1,
                          ops=ops, error=draw(st.none() | text), raw=draw(st.none() | text), usage=usage, **extra)


@settings(max_examples=400, deadline=None)
@given(line=lines(), secrets=st.lists(st.sampled_from(SECRETS), max_size=3))
def test_redact_line_equals_the_full_walk(line: PredictionLine, secrets: list[str]) -> None:
    assert redact_line(line, secrets).model_dump() == redact_walk(line, secrets).model_dump()


def test_a_clean_line_is_returned_as_it_is_and_a_key_anywhere_is_taken_out() -> None:
    line = PredictionLine(case_id="c1", mode="single", t=2, ops=[{"op": "delete", "id": "e1"}],
                          raw='{"ops": [{"op": "delete", "id": "e1"}]}',
                          usage=Usage(prompt_tokens=9, completion_tokens=3))
    assert redact_line(line, SECRETS) is line
    leaky = line.model_copy(update={"raw": f"echo {SECRETS[1]}\nBearer\nabcdefghijk"})
    assert redact_line(leaky, SECRETS).raw == f"echo {REDACTED}\nBearer {REDACTED}"
    escaped = line.model_copy(update={"error": f"echo {SECRETS[1]}, {SECRETS[2]}"})  # JSON writes them otherwise
    assert redact_line(escaped, SECRETS).error == f"echo {REDACTED}, {REDACTED}"


def _body(content_json: str) -> bytes:
    return (f'{{"choices": [{{"index": 0, "message": {{"role": "assistant", "content": {content_json}}},'
            ' "finish_reason": "stop"}], "usage": {"prompt_tokens": 3, "completion_tokens": 1}}').encode()


async def test_surrogate_escapes_in_either_case_are_replaced_and_an_escaped_backslash_is_text(scripted_server):
    scripted_server.script(Reply(raw_body=_body(r'"a \uD800 b \uDFFF c \\ud800"')),
                           Reply(raw_body=_body('"plain \u00e9 \\ud83d\\ude00"')))
    cfg = LLMConfig(model="scripted", base_urls=[scripted_server.base_url], backoff_s=0.01, cache=False)
    async with LLMClient(cfg) as client:
        first = await client.chat([{"role": "user", "content": "one"}])
        second = await client.chat([{"role": "user", "content": "two"}])
    assert first.text == "a \ufffd b \ufffd c \\ud800"
    assert second.text == "plain \u00e9 \U0001F600"  # a surrogate pair is one character
    json.dumps(first.raw, ensure_ascii=False).encode("utf-8")  # well-formed


class _ThresholdSpy:
    """An offline agent that notes the collector's thresholds while it answers."""

    def __init__(self) -> None:
        self.seen: set[tuple[int, int, int]] = set()

    async def act(self, obs: Observation) -> Action:
        self.seen.add(gc.get_threshold())
        return Action(ops=[])

    def describe(self) -> dict[str, Any]:
        return {"name": "spy"}


def test_young_collections_are_fewer_while_the_workers_run_and_restored_after(tmp_path) -> None:
    before = gc.get_threshold()
    spy = _ThresholdSpy()
    summary = asyncio.run(execute(RunConfig(agent="null", mode="single"), load_tiny(), tmp_path / "r",
                                  agent=spy, progress=False))
    assert summary.written > 0 and summary.errors == 0
    assert spy.seen == {(max(20_000, before[0]), *before[1:])}
    assert gc.get_threshold() == before


@settings(max_examples=200, deadline=None)
@given(line=lines(), secrets=st.lists(st.sampled_from(SECRETS), max_size=1))
def test_the_runner_redacts_each_line_as_redact_line_does_whatever_it_remembers(line: PredictionLine,
                                                                               secrets: list[str]) -> None:
    from proevent.runner.lines import redacted as _redacted

    for _ in range(2):  # the second time the case id's answer is remembered
        assert _redacted(line, secrets).model_dump() == redact_line(line, secrets).model_dump()
    bare = PredictionLine(case_id=line.case_id, mode="multi", t=3, ops=line.ops)  # an offline agent's line
    for _ in range(2):
        assert _redacted(bare, []).model_dump() == redact_line(bare, []).model_dump()
