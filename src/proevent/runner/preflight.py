"""Before a run: ask each endpoint for its models list, so that a dead endpoint or a refused key
stops the run in a second instead of after every question has been retried."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from proevent.llm.config import LLMConfig
from proevent.runner.secrets import redact, redact_url

if TYPE_CHECKING:  # imported when a preflight runs (--estimate sends nothing)
    import aiohttp

FATAL_STATUSES = (401, 403)
"""Answers to ``GET /models`` that no retry can fix. A 404 is not among them: some servers serve
chat completions without a models list (a 404 on the completions themselves stops the run)."""


class EndpointError(RuntimeError):
    """The endpoint cannot serve the run (unreachable, refused the key, or kept failing)."""


async def preflight(config: LLMConfig, *, timeout_s: float = 15.0) -> None:
    """``GET {base_url}/models`` on every base URL.

    Raises:
        EndpointError: naming the URL, when it cannot be reached or answers 401/403.
    """
    import aiohttp

    key = config.api_key()
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    timeout = aiohttp.ClientTimeout(total=min(timeout_s, config.timeout_s))
    async with aiohttp.ClientSession(timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()) as session:
        await asyncio.gather(*(_check(session, url, headers, key) for url in config.base_urls))


async def _check(session: aiohttp.ClientSession, url: str, headers: dict[str, str], key: str | None) -> None:
    import aiohttp

    shown = redact_url(url.rstrip("/") + "/models")
    try:
        async with session.get(url.rstrip("/") + "/models", headers=headers) as resp:
            status = resp.status
            body = (await resp.content.read(2000)).decode("utf-8", "replace")
    except (aiohttp.ClientError, asyncio.TimeoutError, ValueError) as exc:
        reason = redact(f"{type(exc).__name__}: {exc}".rstrip(": "), [key or ""])
        raise EndpointError(f"{shown}: the endpoint cannot be reached ({reason}); check --base-url "
                            "and that the server is running") from None
    if status in FATAL_STATUSES:
        hint = "check the API key (--api-key-env)" if status == 401 else "the key may not access this server"
        raise EndpointError(f"{shown} answered HTTP {status} ({redact(body.strip()[:200], [key or ''])}): {hint}")
