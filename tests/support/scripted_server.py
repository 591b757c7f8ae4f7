"""A scripted OpenAI-compatible HTTP server on 127.0.0.1, for offline end-to-end tests and benchmarks.

It speaks just enough HTTP/1.1 (keep-alive, Content-Length bodies) to serve
``POST /v1/chat/completions`` and ``GET /v1/models`` to any real client (httpx, aiohttp, the
``openai`` SDK). What it answers is scripted:

- ``server.script(Reply(...), ...)`` queues replies consumed in order, one per request;
- ``server.on("substring", Reply(...))`` answers requests whose last message contains a substring
  (rules are checked before the queue, first match wins, they are not consumed);
- otherwise ``server.default(request_json) -> Reply`` answers (an empty ``{"ops": []}`` by default).

A :class:`Reply` can be plain text, tool calls, a ``<think>`` block, malformed JSON, an HTTP error
with ``Retry-After``, a slow reply, a dropped connection, or a body that never ends (``endless``). The
server records every request body (``server.requests``), the peak number of requests in flight
(``server.max_inflight``) and the bytes it sent of endless bodies (``server.endless_sent``).

Run it in-process with :class:`ScriptedServer` (a background thread with its own event loop), or
as its own process (``python tests/support/scripted_server.py --delay 0.1``; it prints its base URL
on the first line of stdout) so that it is not the bottleneck of a benchmark.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reply:
    """One scripted answer. ``content`` is the assistant text; ``tool_calls`` a list of
    ``(name, arguments_dict_or_str)``; ``status`` != 200 sends an OpenAI-style error body."""

    content: str | None = ""
    tool_calls: list[tuple[str, Any]] | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    drop: bool = False
    """Close the connection without answering (after ``delay``)."""
    raw_body: bytes | None = None
    """Send these bytes as the body instead of a chat completion."""
    usage: tuple[int, int] | None = None
    """(prompt_tokens, completion_tokens); by default counted as words of the request and reply."""
    usage_extra: dict[str, Any] = field(default_factory=dict)
    """More ``usage`` fields, e.g. ``prompt_tokens_details`` (OpenAI) or ``prompt_cache_hit_tokens``."""
    finish_reason: str | None = None
    endless: bool = False
    """Send a 200 head announcing a huge body, then ``{"choices": [`` and spaces forever, until the
    client hangs up (a misbehaving proxy or server); the bytes sent are added to ``endless_sent``."""
    endless_announced: bool = True
    """With ``endless``: announce a ``Content-Length`` of 10 TB (``True``) or send none and no end
    (``Connection: close``, a body that lasts until the connection does)."""


def _completion_body(req: dict[str, Any], reply: Reply, n: int) -> bytes:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{n}_{i}",
                "type": "function",
                "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)},
            }
            for i, (name, args) in enumerate(reply.tool_calls)
        ]
    if reply.usage is not None:
        prompt_tokens, completion_tokens = reply.usage
    else:
        prompt_tokens = sum(len(str(m.get("content") or "").split()) for m in req.get("messages", []))
        completion_tokens = len((reply.content or "").split())
    body = {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": req.get("model", "scripted"),
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop"),
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            **reply.usage_extra,
        },
    }
    return json.dumps(body).encode()


_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 429: "Too Many Requests",
            500: "Internal Server Error", 503: "Service Unavailable"}


def _default_reply(_req: dict[str, Any]) -> Reply:
    return Reply(content='{"ops": []}')


class ScriptedServer:
    """The server. Use as a context manager (in-process, background thread) or via :func:`main`."""

    def __init__(self, delay: float = 0.0, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port
        self.delay = delay
        self.default: Callable[[dict[str, Any]], Reply] = _default_reply
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.inflight = 0
        self.max_inflight = 0
        self.endless_sent = 0
        self._queue: deque[Reply] = deque()
        self._rules: list[tuple[str, Reply]] = []
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._thread: threading.Thread | None = None
        self._n = 0
        self.record = True
        self.fixed_body: bytes | None = None
        """When set (the benchmark), every chat completion gets these bytes, without parsing the request."""

    # -- scripting -------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def on(self, needle: str, reply: Reply) -> None:
        with self._lock:
            self._rules.append((needle, reply))

    def reset(self, settle_s: float = 5.0) -> None:
        """Forget scripts, rules and records; first wait (up to ``settle_s``) for replies still in
        flight from an earlier test, so that ``max_inflight`` starts from a quiet server."""
        deadline = time.monotonic() + settle_s
        while self.inflight and time.monotonic() < deadline:
            time.sleep(0.01)
        with self._lock:
            self._queue.clear()
            self._rules.clear()
            self.requests.clear()
            self.headers.clear()
            self.max_inflight = 0
            self.endless_sent = 0
            self.default = _default_reply

    def _choose(self, req: dict[str, Any]) -> Reply:
        msgs = req.get("messages") or [{}]
        last = json.dumps(msgs[-1].get("content"))
        with self._lock:
            for needle, reply in self._rules:
                if needle in last:
                    return reply
            if self._queue:
                return self._queue.popleft()
        return self.default(req)

    # -- HTTP ------------------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                hdrs = {}
                for line in lines[1:]:
                    if ":" in line:
                        k, v = line.split(":", 1)
                        hdrs[k.strip().lower()] = v.strip()
                body = await reader.readexactly(int(hdrs.get("content-length", "0")))
                if not await self._respond(method, path, hdrs, body, writer):
                    return
        except (asyncio.CancelledError, ConnectionError):
            return
        finally:
            writer.close()

    async def _respond(self, method: str, path: str, hdrs: dict[str, str], body: bytes,
                       writer: asyncio.StreamWriter) -> bool:
        if method == "GET" and path.rstrip("/").endswith("/models"):
            self._send(writer, 200, json.dumps({"object": "list", "data": [{"id": "scripted"}]}).encode())
            return True
        if not (method == "POST" and path.rstrip("/").endswith("/chat/completions")):
            self._send(writer, 404, b'{"error": {"message": "not found"}}')
            return True
        if self.fixed_body is not None:
            self.inflight += 1
            self.max_inflight = max(self.max_inflight, self.inflight)
            await asyncio.sleep(self.delay)
            self.inflight -= 1
            self._send(writer, 200, self.fixed_body)
            return True
        req = json.loads(body or b"{}")
        self._n += 1
        n = self._n
        if self.record:
            self.requests.append(req)
            self.headers.append(hdrs)
        self.inflight += 1
        self.max_inflight = max(self.max_inflight, self.inflight)
        done = False
        try:
            reply = self._choose(req)
            wait = self.delay + reply.delay
            if wait:
                await asyncio.sleep(wait)
            # Counted as answered before the bytes leave, so that a client sending its next request
            # the instant it reads this reply is never seen as one request too many in flight.
            self.inflight -= 1
            done = True
            if reply.drop:
                writer.transport.abort()
                return False
            if reply.endless:
                await self._send_endless(writer, reply.endless_announced)
                return False
            if reply.raw_body is not None:
                payload = reply.raw_body
            elif reply.status != 200:
                payload = json.dumps({"error": {"message": f"scripted {reply.status}",
                                                "type": "scripted"}}).encode()
            else:
                payload = _completion_body(req, reply, n)
            self._send(writer, reply.status, payload, reply.headers)
            await writer.drain()
            return True
        finally:
            if not done:
                self.inflight -= 1

    async def _send_endless(self, writer: asyncio.StreamWriter, announced: bool) -> None:
        length = f"Content-Length: {10**13}\r\nConnection: keep-alive" if announced else "Connection: close"
        head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{length}\r\n\r\n"
        writer.write(head.encode() + b'{"choices": [')
        chunk = b" " * 65536
        try:
            while not writer.is_closing():
                writer.write(chunk)
                self.endless_sent += len(chunk)
                await writer.drain()
        except (ConnectionError, RuntimeError):
            pass
        writer.transport.abort()

    @staticmethod
    def _send(writer: asyncio.StreamWriter, status: int, payload: bytes,
              extra: dict[str, str] | None = None) -> None:
        head = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}",
                "Content-Type: application/json", f"Content-Length: {len(payload)}",
                "Connection: keep-alive"]
        head += [f"{k}: {v}" for k, v in (extra or {}).items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)

    async def start_async(self) -> None:
        self._server = await asyncio.start_server(self._handle, self.host, self.port, backlog=4096)
        self.port = self._server.sockets[0].getsockname()[1]

    # -- in-process use ---------------------------------------------------------------------
    def start(self) -> ScriptedServer:
        ready = threading.Event()

        def run() -> None:
            self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(self.start_async())
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name="scripted-server", daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        if self._loop is None:
            return
        loop = self._loop

        async def shutdown() -> None:
            assert self._server is not None
            self._server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            loop.stop()

        asyncio.run_coroutine_threadsafe(shutdown(), loop)
        if self._thread:
            self._thread.join(5)
        loop.close()
        self._loop = None

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    """Serve in this process until killed: answers every request with ``--reply`` after ``--delay``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--reply", default='{"ops": []}')
    args = ap.parse_args(argv)
    server = ScriptedServer(delay=args.delay, port=args.port)
    server.record = False
    fixed = Reply(content=args.reply, usage=(800, 8))
    server.fixed_body = _completion_body({"model": "scripted", "messages": []}, fixed, 0)

    async def serve() -> None:
        await server.start_async()
        print(server.base_url, flush=True)
        await asyncio.Event().wait()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
