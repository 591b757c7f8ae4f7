"""An async client for any OpenAI-compatible ``/chat/completions`` endpoint.

The hot path uses aiohttp directly: measured on the 2-core dev machine against a scripted server
answering after 100 ms (``bench/bench_runner.py``'s server), a loop of this client's ``chat`` at
concurrency 256 costs 0.04-0.07 ms CPU per request more than a bare aiohttp loop sending the same
body (0.25-0.34 against 0.21-0.27 ms at load averages 2-3; headers set once on the session, body
and reply through msgspec), where the ``openai`` SDK spends 3-4 ms per request and reaches 0.09
of the ideal rate, and httpx 0.28 about 14 ms. The client adds: several base URLs (least busy
first), bounded concurrency, retries with backoff on 429/5xx/timeouts/dropped connections
honouring ``Retry-After`` (capped by the backoff ceiling and the request timeout), RPM/TPM limits,
the SQLite response cache, JSON mode and tool calls with fallbacks, reasoning stripping, and
token/cost accounting.

What a server sends is checked before anything uses it: the body is read in chunks up to
``max_response_mb`` (a body that never ends is cut off), its shape and usage are validated (usage
non-negative and finite, else the reply counts as malformed and is retried), and every string is
made well-formed Unicode (:mod:`proevent.llm.text`). Only answers an agent could use are cached:
not an empty answer, an unclosed ``<think>``, no JSON where JSON was asked, or a malformed tool
call, so that asking again (a resume of errored lines) really sends a request.

Batch mode (:mod:`proevent.llm.batchfile`): a client with a recorder (``recorder=``, or
``$PROEVENT_BATCH_OUT`` for every client of the process) sends nothing; a request the cache does
not answer is written to the batch file and raises :class:`PendingError`. Answers imported from
batch output files are taken from the cache as the server's own replies, by any client.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import math
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec
from pydantic_core import PydanticSerializationError, to_json

from proevent.llm.batchfile import (
    PENDING_TEXT,
    BatchRecorder,
    RequestPending,
    current_tracker,
    note_answered,
    recorder_from_env,
)
from proevent.llm.cache import ResponseCache, cache_key
from proevent.llm.config import LLMConfig
from proevent.llm.pricing import UsageTotals, cached_prompt_tokens, cost_usd, find_price
from proevent.llm.ratelimit import RateLimiter
from proevent.llm.reasoning import split_reasoning, unclosed_reasoning
from proevent.llm.text import clean_strings

if TYPE_CHECKING:  # aiohttp is imported by the first request: a command that sends none (--estimate) skips it
    import aiohttp


class LLMError(Exception):
    """A request failed for good (after retries, or with an error that retrying cannot fix).

    ``status`` is the last HTTP status (``None`` when no response came: refused connection,
    timeout, dropped connection) and ``url`` the endpoint that was asked.
    """

    def __init__(self, message: str, *, status: int | None = None, url: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.url = url


class EndpointRefused(LLMError):
    """HTTP 401, 403 or 404 (outside a tools fallback): a bad or missing key, no access, or a wrong
    URL or model name. Every further request would fail the same way, so a runner should stop the
    run at once with this message (it names the URL and the status) instead of going on."""


class ResponseTooLarge(LLMError):
    """The response body exceeded ``max_response_mb``; reading stopped there (not retried)."""


class UnsupportedFeature(LLMError):
    """The server refused a feature (``tools``); the caller should fall back to plain text."""

    def __init__(self, feature: str, message: str) -> None:
        self.feature = feature
        super().__init__(f"server does not support {feature}: {message}")


class PendingError(LLMError, RequestPending):
    """The request went into the batch file instead of to a server (batch mode): no answer yet."""


def status_error(status: int, message: str, url: str, *, tools: bool) -> LLMError:
    """The error a non-retryable (or finally failed) HTTP status makes: refused (401/403/404),
    unsupported tools, or a plain failure."""
    if tools and status in (400, 404, 422) and "tool" in message.lower():
        return UnsupportedFeature("tools", message)
    if status in _FATAL_STATUS:
        return EndpointRefused(f"{url}/chat/completions: HTTP {status}: {message}", status=status, url=url)
    return LLMError(f"HTTP {status}: {message}", status=status, url=url)


_UNSET: Any = object()


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: Any
    """The JSON text the model produced (a server may send something else, e.g. an object);
    :meth:`args` parses it."""

    def args(self) -> dict[str, Any]:
        """The arguments as a dict.

        Raises:
            ValueError: not a string holding a JSON object (the caller can tell the model so).
        """
        if self.arguments is None or self.arguments == "":
            return {}
        if not isinstance(self.arguments, str):
            raise ValueError(f"tool arguments must be a JSON string, not {type(self.arguments).__name__}")
        try:
            value = json.loads(self.arguments)
        except RecursionError:  # "[[[[..." nested past the parser's stack
            raise ValueError("tool arguments are nested too deeply") from None
        if not isinstance(value, dict):
            raise ValueError("tool arguments must be a JSON object")
        return value


@dataclass
class Completion:
    """One answer. ``text`` has reasoning stripped; ``raw`` is the content as the server sent it."""

    text: str
    raw: str
    reasoning: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)
    message: dict[str, Any] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    """Of ``prompt_tokens``, those the server read from its prompt cache (not our response cache)."""
    cost_usd: float | None = None
    latency_s: float = 0.0
    cached: bool = False
    finish_reason: str | None = None


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_RETRYABLE_EXC: tuple[type[BaseException], ...] = (asyncio.TimeoutError,)
"""With aiohttp's connection and payload errors, added when the first session opens."""
_FATAL_STATUS = (401, 403, 404)


def _encode_body(body: dict[str, Any]) -> bytes:
    """The request as UTF-8 JSON (a batch file's line); a lone surrogate in a message (a dataset may
    hold one) is sent as U+FFFD."""
    try:
        return _ENCODE(body).encode("utf-8")
    except UnicodeEncodeError:
        return _ENCODE(clean_strings(body)).encode("utf-8")


def _encode_payload(body: dict[str, Any]) -> bytes:
    """The request as compact UTF-8 JSON for the wire (the same values, without the spaces after ``,``
    and ``:``): a body of plain JSON values (:func:`_plain`) by msgspec's encoder (a third of
    pydantic-core's time, a fifteenth of the standard library's on a typical prompt), any other
    (a value that msgspec would write otherwise, such as ``NaN`` or bytes) and one msgspec refuses
    (a lone surrogate) by pydantic-core's, a lone surrogate sent as U+FFFD as by :func:`_encode_body`."""
    if _plain(body):
        try:
            return _WIRE_ENCODE(body)
        except UnicodeEncodeError:
            pass
    try:
        return to_json(body)
    except PydanticSerializationError:
        return to_json(clean_strings(body))


_WIRE_ENCODE = msgspec.json.Encoder().encode
_LEAVES = frozenset({str, int, bool, type(None)})


def _plain(value: Any) -> bool:
    """``value`` holds only strings, ints, bools, ``None``, finite floats, lists and dicts with string
    keys (exact types): what msgspec and pydantic-core write as the same JSON values. Written as
    loops, not ``all()`` over generators: asked of every request body (the messages' dicts), the
    generators' frames cost more than the test (2.2 -> 1.2 us a typical body)."""
    kind = type(value)
    if kind is dict:
        for k, v in value.items():
            if type(k) is not str or (type(v) not in _LEAVES and not _plain(v)):
                return False
        return True
    if kind is list:
        for v in value:
            if type(v) not in _LEAVES and not _plain(v):
                return False
        return True
    if kind in _LEAVES:
        return True
    if kind is float:
        return math.isfinite(value)
    return False
_WIRE_DECODE = msgspec.json.Decoder().decode


def decode_reply(raw: bytes | bytearray) -> Any:
    """``json.loads(raw.decode("utf-8", "replace"))``: by msgspec (a quarter of the time) where it
    decodes the body, else by the standard library, which takes what msgspec refuses and the
    standard library reads (invalid UTF-8, ``NaN``, a lone surrogate escape, a number out of a
    float's range) or raises its ``ValueError``.

    Raises:
        ValueError: not JSON (as :func:`json.loads`).
    """
    try:
        return _WIRE_DECODE(raw)
    except msgspec.MsgspecError:
        return json.loads(raw.decode("utf-8", "replace"))
_CHUNK = 1 << 16
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
"""A JSON escape of a UTF-16 surrogate (``\\ud800``): bytes decoded as UTF-8 hold no other way to one."""


async def _read_limited(resp: aiohttp.ClientResponse, limit: int, url: str) -> bytes | bytearray:
    """The body: read at once when its uncompressed length is declared and within ``limit``, else in
    chunks (never more than ``limit`` bytes held, plus one chunk); more than ``limit`` bytes raise
    :class:`ResponseTooLarge` and drop the connection."""
    if resp.content_length is not None:
        if resp.content_length > limit:
            raise ResponseTooLarge(f"response body of {resp.content_length} bytes exceeds the limit of "
                                   f"{_megabytes(limit)} (max_response_mb)", status=resp.status, url=url)
        if resp.headers.get("Content-Encoding", "identity").lower() == "identity":
            return await resp.read()  # the parser stops at Content-Length: at most ``limit`` bytes
    buf = bytearray()
    async for chunk in resp.content.iter_chunked(_CHUNK):
        buf += chunk
        if len(buf) > limit:
            raise ResponseTooLarge(f"response body exceeds the limit of {_megabytes(limit)} (max_response_mb); "
                                   "reading stopped there", status=resp.status, url=url)
    return buf


def _megabytes(limit: int) -> str:
    """The limit as the error says it (formatted only for the error, not for every reply)."""
    return f"{limit / 2**20:g} MB"


def _count_problem(name: str, value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"usage.{name} is not a number: {value!r}"
    if not math.isfinite(value) or value < 0:
        return f"usage.{name} must be finite and non-negative: {value!r}"
    return None


_COUNTS = ("prompt_tokens", "completion_tokens", "total_tokens", "prompt_cache_hit_tokens")


def shape_problem(data: Any) -> str | None:
    """What makes a decoded ``/chat/completions`` body unusable (``None`` when it is fine): no
    ``choices[0].message`` object, content neither text nor null, or usage counts that are not
    finite non-negative numbers."""
    if not isinstance(data, dict):
        return "the body is not a JSON object"
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return "no choices[0]"
    message = choices[0].get("message")
    if not isinstance(message, dict):
        return "choices[0].message is not an object"
    if not isinstance(message.get("content"), (str, type(None))):
        return "choices[0].message.content is neither text nor null"
    if not isinstance(message.get("tool_calls"), (list, type(None))):
        return "choices[0].message.tool_calls is not a list"
    usage = data.get("usage")
    if usage is None:
        return None
    if not isinstance(usage, dict):
        return "usage is not an object"
    for name in _COUNTS:
        value = usage.get(name)
        if value is None or type(value) is int and value >= 0:  # the usual counts: nothing to say
            continue
        problem = _count_problem(name, value)
        if problem:
            return problem
    details = usage.get("prompt_tokens_details")
    if isinstance(details, dict):
        return _count_problem("prompt_tokens_details.cached_tokens", details.get("cached_tokens"))
    return None


_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_DECODER = json.JSONDecoder()


def holds_json(text: str) -> bool:
    """Whether ``text`` holds a JSON object or array: the whole text, a fenced block, or one
    decoding from one of its first 64 ``{``/``[`` (prose around it is tolerated, as the agents do)."""
    for candidate in [text.strip(), *_FENCE.findall(text)]:
        try:
            if isinstance(json.loads(candidate), (dict, list)):
                return True
        except ValueError:
            pass
    starts = [i for i, ch in enumerate(text) if ch in "{["][:64]
    for i in starts:
        try:
            _DECODER.raw_decode(text, i)
        except ValueError:
            continue
        return True
    return False


def unusable_reason(completion: Completion, *, json_asked: bool) -> str | None:
    """Why an agent could not use this answer (``None`` when it could): such answers are returned
    to the caller but never cached."""
    message = completion.message
    raw_calls = message.get("tool_calls") or []
    for i, call in enumerate(raw_calls):
        fn = call.get("function") if isinstance(call, dict) else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str) or not fn["name"]:
            return f"tool call {i + 1} has no function name"
    for call in completion.tool_calls:
        try:
            call.args()
        except ValueError as exc:
            return f"tool call {call.name}: {exc}"
    if unclosed_reasoning(completion.raw):
        return "the reasoning block is never closed"
    if not raw_calls and not completion.text.strip():
        return "the answer is empty"
    if json_asked and not raw_calls and not holds_json(completion.text):
        return "no JSON in the answer"
    return None


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _error_message(body: bytes | bytearray) -> str:
    try:
        data = json.loads(body)
        err = data.get("error", data) if isinstance(data, dict) else data
        msg = err.get("message") if isinstance(err, dict) else err
        return str(msg)[:300]
    except (ValueError, AttributeError):
        return body[:300].decode("utf-8", "replace")


class LLMClient:
    """Use ``async with LLMClient(config) as client: await client.chat(messages)``."""

    def __init__(
        self,
        config: LLMConfig,
        *,
        cache: ResponseCache | None = None,
        use_cache: bool | None = None,
        rng: random.Random | None = None,
        recorder: BatchRecorder | None = _UNSET,
    ) -> None:
        self.config = config
        use = config.cache if use_cache is None else use_cache
        self.recorder = recorder_from_env() if recorder is _UNSET else recorder
        """Batch mode: requests go to this file instead of a server (see :mod:`proevent.llm.batchfile`)."""
        if self.recorder is not None and not use:
            raise ValueError("batch mode (--batch-out / PROEVENT_BATCH_OUT) needs the response cache: its "
                             "answers are imported into it (drop --no-cache)")
        self.cache = cache if cache is not None else (ResponseCache(config.resolved_cache_path()) if use else None)
        if not use:
            self.cache = None
        self.totals = UsageTotals()
        self._price = config.price or find_price(config.model)
        self._rng = rng or random.Random(0)
        self._limiter = RateLimiter(config.rpm, config.tpm)
        self._sem: asyncio.Semaphore | None = None
        self._session: aiohttp.ClientSession | None = None
        self._inflight = {url: 0 for url in config.base_urls}
        self._server = "|".join(sorted(config.base_urls))
        self._json_ok = True
        self.consecutive_failures = 0
        """Requests in a row that failed for good (:class:`LLMError` raised); 0 after any answer.
        A runner can stop after N of them (a circuit breaker); cache hits leave it unchanged."""
        self.not_cached = 0
        """Answers returned but not cached because an agent could not use them."""

    # -- lifecycle -----------------------------------------------------------------------------
    def _ensure(self) -> aiohttp.ClientSession:
        if self._session is None:
            global _RETRYABLE_EXC
            import aiohttp

            _RETRYABLE_EXC = (asyncio.TimeoutError, aiohttp.ClientConnectionError, aiohttp.ClientPayloadError)
            self._sem = asyncio.Semaphore(self.config.concurrency)
            connector = aiohttp.TCPConnector(limit=self.config.concurrency, limit_per_host=0, ttl_dns_cache=300)
            # the headers of every request, the key read from the environment as the session opens (it
            # stays in memory only): per request, two missed environment lookups and a header dict
            # merged into the session's cost more than a tenth of the client's own CPU time
            headers = {"Content-Type": "application/json", "Accept-Encoding": "identity"}
            api_key = self.config.api_key()
            if api_key:
                headers["Authorization"] = f"Bearer {api_key}"
            self._session = aiohttp.ClientSession(
                connector=connector,
                cookie_jar=aiohttp.DummyCookieJar(),
                timeout=aiohttp.ClientTimeout(total=self.config.timeout_s),
                skip_auto_headers=("User-Agent",),
                headers=headers,
            )
        return self._session

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self.cache is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.cache.release)

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    @property
    def priced(self) -> bool:
        return self._price is not None

    # -- requests ------------------------------------------------------------------------------
    async def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        tools: list[dict[str, Any]] | None = None,
        json_mode: bool | None = None,
        repeat: int = 0,
        accept: Callable[[Completion], str | None] | None = None,
    ) -> Completion:
        """One chat completion, from the cache when the same request was answered before.

        An answer is cached only when :func:`unusable_reason` finds nothing wrong with it and
        ``accept`` (if given: the caller's own check, returning what is wrong or ``None``) agrees.

        Raises:
            EndpointRefused: HTTP 401/403/404 — stop, every further request fails the same way.
            ResponseTooLarge: the body exceeded ``max_response_mb``.
            UnsupportedFeature: the server refused ``tools``.
            LLMError: the request failed after the configured retries.
            CacheError: the cache file turned out corrupt (the message suggests ``--no-cache``).
        """
        cfg = self.config
        want_json = cfg.json_mode if json_mode is None else json_mode
        json_asked = bool(want_json and not tools)
        params = cfg.request_params()
        cache = self.cache
        key = None
        if cache is not None:
            key = cache_key(cfg.model, messages, dict(params, json_mode=json_asked, tools=tools), repeat, self._server)
        if cache is not None and key is not None:
            tracker = current_tracker()
            found = await cache.alookup(key, cfg.model, keep=tracker is not None)
            if found is not None and found[0] == "imported":
                if tracker is not None:
                    tracker.taken.append(key)
                if not (found[1][0] != 200 and tracker is not None and tracker.ask_again_on_error
                        and self.recorder is not None):
                    return await self._imported(key, found[1], json_asked, accept, bool(tools))
                await cache.aforget_imported([key])  # an error line: the request goes into this round's file again
                found = None
            if found is not None:
                try:
                    data = json.loads(found[1])
                except ValueError:
                    data = None
                if shape_problem(data) is None:
                    done = self._completion(clean_strings(data), 0.0, cached=True)
                    if self._cacheable(done, json_asked, accept):
                        self.totals.cache_hits += 1
                        note_answered()
                        return done
        body: dict[str, Any] = {"model": cfg.model, "messages": messages, **params}
        if tools:
            body["tools"] = tools
            body["tool_choice"] = "auto"
        elif want_json and self._json_ok:
            body["response_format"] = {"type": "json_object"}
        if self.recorder is not None and key is not None:
            self.recorder.record(key, body, _encode_body)
            raise PendingError(f"{PENDING_TEXT}: the request is in the batch file {self.recorder.path} "
                               f"(custom_id {key})")
        session = self._ensure()
        assert self._sem is not None
        async with self._sem:
            start = time.perf_counter()
            try:
                data = await self._post(session, body, bool(tools))
            except LLMError:
                self.consecutive_failures += 1
                raise
            latency = time.perf_counter() - start
        return await self._answered(key, data, latency, json_asked, accept)

    async def _answered(self, key: str | None, data: dict[str, Any], latency: float, json_asked: bool,
                        accept: Callable[[Completion], str | None] | None, price_factor: float = 1.0,
                        stored: bool = False) -> Completion:
        """A reply the server sent (or a batch answer, as one, ``stored`` in the cache already by
        :meth:`ResponseCache.take`): counted, and cached only if usable."""
        self.consecutive_failures = 0
        done = self._completion(data, latency, cached=False, price_factor=price_factor)
        if self.cache is not None and key is not None:
            if self._cacheable(done, json_asked, accept):
                if not stored:
                    await self.cache.aput(key, self.config.model, json.dumps(data, ensure_ascii=False))
            else:
                self.not_cached += 1
                if stored:
                    await self.cache.adelete(key)
        note_answered()
        return done

    async def _imported(self, key: str, taken: tuple[int, str, float], json_asked: bool,
                        accept: Callable[[Completion], str | None] | None, tools: bool) -> Completion:
        """An answer imported from a batch output file, used as the reply the server sends now."""
        status, body, factor = taken
        self.totals.requests += 1
        data: Any = None
        if status == 200:
            try:
                data = json.loads(body)
            except ValueError:
                data = None
            problem = shape_problem(data) if data is not None else "not JSON"
            if problem is None:
                return await self._answered(key, clean_strings(data), 0.0, json_asked, accept, factor, stored=True)
            assert self.cache is not None
            await self.cache.adelete(key)
            status, body = 502, f"malformed response body ({problem})"
        self.totals.failures += 1
        self.consecutive_failures += 1
        url = self._server or "batch"
        raise status_error(status, f"{body} (a batch answer)", url, tools=tools)

    @staticmethod
    def _cacheable(done: Completion, json_asked: bool, accept: Callable[[Completion], str | None] | None) -> bool:
        return unusable_reason(done, json_asked=json_asked) is None and (accept is None or accept(done) is None)

    async def _post(self, session: aiohttp.ClientSession, body: dict[str, Any], tools: bool) -> dict[str, Any]:
        cfg = self.config
        payload = _encode_payload(body)
        estimate = len(payload) // 4 + (cfg.max_tokens or 256)
        last_error = "no attempt made"
        limit = int(cfg.max_response_mb * 2**20)
        attempt = 0
        while True:
            if self._limiter.limited:
                await self._limiter.acquire(estimate)
            url = min(self._inflight, key=self._inflight.__getitem__)
            self._inflight[url] += 1
            retry_after: float | None = None
            try:
                self.totals.requests += 1
                async with session.post(url + "/chat/completions", data=payload) as resp:
                    status = resp.status
                    retry_after = parse_retry_after(resp.headers.get("Retry-After"))
                    raw = await _read_limited(resp, limit, url)
            except ResponseTooLarge:
                self.totals.failures += 1
                raise
            except _RETRYABLE_EXC as exc:
                status, raw = 0, b""
                last_error = f"{type(exc).__name__}: {exc}".rstrip(": ") or type(exc).__name__
            finally:
                self._inflight[url] -= 1
            if status == 200:
                try:
                    data = decode_reply(raw)
                except ValueError:
                    data, problem = None, "not JSON"
                else:
                    problem = shape_problem(data)
                if problem is None:
                    if _ESCAPED_SURROGATE.search(raw) is not None:  # only an escape can make a lone surrogate
                        data = clean_strings(data)
                    if self._limiter.limited:
                        usage = data.get("usage") or {}
                        self._limiter.settle(estimate, int(usage.get("total_tokens") or estimate))
                    return data
                last_error = f"malformed response body ({problem}): {raw[:200]!r}"
            elif status:
                message = _error_message(raw)
                last_error = f"HTTP {status}: {message}"
                lowered = message.lower()
                if status in (400, 422) and "response_format" in body and (
                    "response_format" in lowered or "json" in lowered
                ):
                    self._json_ok = False
                    body = {k: v for k, v in body.items() if k != "response_format"}
                    payload = _encode_payload(body)
                    continue
                if status != 429 and status < 500 and status != 408:
                    error = status_error(status, message, url, tools=tools)
                    if not isinstance(error, UnsupportedFeature):
                        self.totals.failures += 1
                    raise error
            if attempt >= cfg.max_retries:
                self.totals.failures += 1
                raise LLMError(f"request failed after {attempt + 1} attempts: {last_error}",
                               status=status or None, url=url)
            backoff = min(cfg.backoff_max_s, cfg.backoff_s * 2**attempt) * (0.5 + self._rng.random() / 2)
            attempt += 1
            self.totals.retries += 1
            # A server's Retry-After is honoured up to the backoff ceiling and never beyond the request
            # timeout: a "Retry-After: 3600" must not stall a run for an hour.
            wait = backoff if retry_after is None else min(retry_after, cfg.backoff_max_s, cfg.timeout_s)
            await asyncio.sleep(wait)

    def _completion(self, data: dict[str, Any], latency: float, *, cached: bool,
                    price_factor: float = 1.0) -> Completion:
        choice = data["choices"][0]
        message = choice.get("message") or {}
        raw = message.get("content") or ""
        text, reasoning = split_reasoning(raw)
        extra_reasoning = message.get("reasoning_content") or message.get("reasoning")
        if extra_reasoning:
            reasoning = f"{extra_reasoning}\n\n{reasoning}" if reasoning else str(extra_reasoning)
        calls = [
            ToolCall(id=str(c.get("id") or f"call_{i}"), name=str(c["function"]["name"]),
                     arguments=c["function"].get("arguments") or "{}")
            for i, c in enumerate(message.get("tool_calls") or [])
            if isinstance(c, dict) and isinstance(c.get("function"), dict) and c["function"].get("name")
        ]
        usage = data.get("usage") or {}
        pt, ct = int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
        hit = cached_prompt_tokens(usage)
        cost = cost_usd(self._price, pt, ct, hit)
        if cost is not None and price_factor != 1.0:
            cost *= price_factor
        if not cached:
            self.totals.add(pt, ct, cost, hit)
        assistant: dict[str, Any] = {"role": "assistant", "content": raw}
        if message.get("tool_calls"):
            assistant["tool_calls"] = message["tool_calls"]
        return Completion(
            text=text, raw=raw, reasoning=reasoning, tool_calls=calls, message=assistant,
            prompt_tokens=pt, completion_tokens=ct, cached_prompt_tokens=hit, cost_usd=cost, latency_s=latency,
            cached=cached,
            finish_reason=choice.get("finish_reason"),
        )
