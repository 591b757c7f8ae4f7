"""A persistent response cache in SQLite, keyed on model, messages, parameters and repeat index.

The base URL is not part of the key: replicas of one model share answers. Writes are committed
in small batches (WAL journal), so a killed run loses at most the last few entries, never the file.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
  key TEXT PRIMARY KEY,
  model TEXT NOT NULL,
  created REAL NOT NULL,
  body TEXT NOT NULL
)
"""


def cache_key(model: str, messages: list[dict[str, Any]], params: dict[str, Any], repeat: int) -> str:
    """sha256 of the canonical JSON of what determines an answer."""
    blob = json.dumps(
        {"model": model, "messages": messages, "params": params, "repeat": repeat},
        sort_keys=True, ensure_ascii=False, separators=(",", ":"),
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """``get``/``put`` of raw response bodies (JSON text). Safe to share between processes."""

    def __init__(self, path: str | Path, *, commit_every: int = 32, commit_interval_s: float = 1.0) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        self._pending = 0
        self._commit_every = commit_every
        self._commit_interval = commit_interval_s
        self._last_commit = time.monotonic()
        self._in_tx = False

    def get(self, key: str) -> str | None:
        row = self._db.execute("SELECT body FROM responses WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def put(self, key: str, model: str, body: str) -> None:
        if not self._in_tx:
            self._db.execute("BEGIN")
            self._in_tx = True
        self._db.execute(
            "INSERT OR REPLACE INTO responses (key, model, created, body) VALUES (?, ?, ?, ?)",
            (key, model, time.time(), body),
        )
        self._pending += 1
        now = time.monotonic()
        if self._pending >= self._commit_every or now - self._last_commit >= self._commit_interval:
            self.commit()

    def commit(self) -> None:
        if self._in_tx:
            self._db.execute("COMMIT")
            self._in_tx = False
        self._pending = 0
        self._last_commit = time.monotonic()

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        self.commit()
        self._db.close()
