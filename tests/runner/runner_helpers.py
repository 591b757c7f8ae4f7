"""Helpers for runner tests: a deterministic scripted model and a file scanner."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from support.scripted_server import Reply, ScriptedServer


class ModelsServer(ScriptedServer):
    """The scripted server, with ``GET /models`` answering ``models_status`` (the preflight's
    question; 200 by default, as the scripted server does)."""

    models_status = 200

    async def _respond(self, method, path, hdrs, body, writer):  # type: ignore[no-untyped-def]
        if method == "GET" and path.rstrip("/").endswith("/models") and self.models_status != 200:
            self.headers.append(hdrs)
            self._send(writer, self.models_status, b'{"error": {"message": "invalid api key"}}')
            return True
        return await super()._respond(method, path, hdrs, body, writer)


def hashed_reply(req: dict[str, Any], delay: float = 0.0) -> Reply:
    """A deterministic 'model': deletes the first event of the timetable when the prompt's hash is
    even, else answers nothing. Same prompt, same answer, so interrupted and whole runs agree."""
    prompt = req["messages"][-1]["content"]
    ids = re.findall(r"(?m)^(e\d+) \|", prompt) or re.findall(r'"id": "(e\d+)"', prompt)
    even = int(hashlib.sha256(prompt.encode()).hexdigest(), 16) % 2 == 0
    ops = [{"op": "delete", "id": ids[0]}] if ids and even else []
    return Reply(content=json.dumps({"ops": ops}), delay=delay, usage=(100, 10))


def files_containing(folder: Path, needle: str) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


def keys_of(path: Path) -> list[tuple[str, str, int, int]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return [(d["case_id"], d["mode"], d["t"], d["repeat"]) for d in lines]


def closed_port_url() -> str:
    """The base URL of a port on 127.0.0.1 that nothing listens on (bound, then closed)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def sum_lines(path: Path) -> dict[str, float]:
    """Usage summed over every line of a predictions file, computed apart from the runner."""
    total = {"prompt_tokens": 0, "completion_tokens": 0, "calls": 0, "cost_usd": 0.0}
    for text in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(text)
        usage = d.get("usage") or {}
        total["prompt_tokens"] += usage.get("prompt_tokens", 0)
        total["completion_tokens"] += usage.get("completion_tokens", 0)
        total["calls"] += d.get("requests", 0)
        if d.get("requests") and d.get("cached", 0) < d["requests"]:
            total["cost_usd"] += d.get("cost_usd", 0.0)
    return total
