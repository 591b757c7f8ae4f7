"""Requests-per-minute and tokens-per-minute limits as token buckets (asyncio, one event loop)."""

from __future__ import annotations

import asyncio
import time


class TokenBucket:
    """Holds up to ``per_minute`` units, refilled continuously; ``acquire(n)`` waits until n are there.

    A request larger than the bucket is let through once the bucket is full (it cannot ever fit),
    and ``debit`` may push the level below zero (a reply used more tokens than estimated), which
    delays the next requests accordingly.
    """

    def __init__(self, per_minute: float, *, clock=time.monotonic) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self._level = self.capacity
        self._clock = clock
        self._stamp = clock()
        self._lock = asyncio.Lock()

    def _refill(self) -> None:
        now = self._clock()
        self._level = min(self.capacity, self._level + (now - self._stamp) * self.rate)
        self._stamp = now

    async def acquire(self, n: float = 1.0) -> float:
        """Take ``n`` units; return the seconds waited."""
        waited = 0.0
        async with self._lock:
            need = min(n, self.capacity)
            while True:
                self._refill()
                if self._level >= need:
                    self._level -= n
                    return waited
                delay = (need - self._level) / self.rate
                waited += delay
                await asyncio.sleep(delay)

    def debit(self, n: float) -> None:
        self._refill()
        self._level -= n


class RateLimiter:
    """The RPM and TPM buckets of one client (either may be absent)."""

    def __init__(self, rpm: float | None, tpm: float | None) -> None:
        self.requests = TokenBucket(rpm) if rpm else None
        self.tokens = TokenBucket(tpm) if tpm else None
        self.limited = self.requests is not None or self.tokens is not None
        """Whether either limit is set: without one, :meth:`acquire` waits for nothing and a caller
        can skip the call (a coroutine made and awaited per request)."""

    async def acquire(self, estimated_tokens: int) -> None:
        if self.requests is not None:
            await self.requests.acquire(1)
        if self.tokens is not None:
            await self.tokens.acquire(estimated_tokens)

    def settle(self, estimated_tokens: int, actual_tokens: int) -> None:
        """Correct the TPM bucket once the real usage is known."""
        if self.tokens is not None and actual_tokens != estimated_tokens:
            self.tokens.debit(actual_tokens - estimated_tokens)
