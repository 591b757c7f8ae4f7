"""Helpers for runner tests: a deterministic scripted model and a file scanner."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from support.scripted_server import Reply


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
