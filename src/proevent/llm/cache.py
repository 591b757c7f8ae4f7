"""A persistent response cache in SQLite, keyed on server, model, messages, parameters and repeat index.

Besides the answers the client got itself (table ``responses``) the file holds answers imported
from batch output files (table ``imported``, see :mod:`proevent.llm.batchfile`): such an answer is
*taken* once by the client (:meth:`ResponseCache.take`), as if the server had just sent it, and
only then, if usable, becomes an ordinary cached response.

The key holds the configured base URLs (sorted, so replicas listed together share answers), so a
second server that serves a model of the same name is never answered from the first one's cache.

Several runs may share one file (the default is one global file). Every write is its own short
transaction (WAL journal: readers never wait for a writer, a writer waits only for another
single-row write), and all SQLite work of the async API runs in one worker thread per cache, so
waiting for a lock held by another process never blocks the event loop. A killed run loses at most
the row being written, never the file.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
  key TEXT PRIMARY KEY,
  model TEXT NOT NULL,
  created REAL NOT NULL,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS imported (
  key TEXT PRIMARY KEY,
  created REAL NOT NULL,
  source TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  price_factor REAL NOT NULL DEFAULT 1.0
)
"""


class CacheError(ValueError):
    """The cache file cannot be used (not a database, corrupt, unreadable, locked for too long).

    A ``ValueError`` so that the CLI reports it as one plain message, no traceback. The message
    names the file and the way out: ``--no-cache``, or moving the file aside (a new, empty cache
    is then made in its place). The file is never moved or deleted automatically.
    """


def cache_key(model: str, messages: list[dict[str, Any]], params: dict[str, Any], repeat: int,
              server: str | None = None) -> str:
    """sha256 of the canonical JSON of what determines an answer; ``server`` names the endpoint
    (the client passes its sorted base URLs)."""
    blob = json.dumps(
        {"model": model, "messages": messages, "params": params, "repeat": repeat, "server": server},
        sort_keys=True, ensure_ascii=False, separators=(",", ":"),
    )
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def _unusable(path: Path, exc: BaseException) -> CacheError:
    return CacheError(
        f"{path}: the LLM response cache cannot be used ({exc}). Run with --no-cache, or move the file "
        "aside (a new cache is then made in its place)."
    )


def _locked(exc: sqlite3.Error) -> bool:
    return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc).lower()


class ResponseCache:
    """``get``/``put`` of raw response bodies (JSON text), and their async forms ``aget``/``aput``.

    Safe to share between processes. ``busy_timeout_s`` is how long one statement waits for a lock
    held by another connection; after that a read is a miss and a write is skipped (counted in
    ``skipped_writes``): the answer is still returned, it is only not stored.

    Raises:
        CacheError: the file is not a usable SQLite database (also from any later statement that
            finds it corrupt).
    """

    def __init__(self, path: str | Path, *, busy_timeout_s: float = 30.0) -> None:
        self.path = Path(path)
        self.skipped_writes = 0
        self.missed_reads = 0
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=busy_timeout_s, isolation_level=None,
                                       check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise _unusable(self.path, exc) from None
        deadline = time.monotonic() + busy_timeout_s
        while True:
            try:
                self._prepare()
                break
            except sqlite3.Error as exc:
                # Switching a new file to WAL takes an exclusive lock without waiting on the busy
                # timeout: two runs that open one new file at the same moment see "locked" here.
                if _locked(exc) and time.monotonic() < deadline:
                    time.sleep(0.05)
                    continue
                self._db.close()
                raise _unusable(self.path, exc) from None
        self._executor: ThreadPoolExecutor | None = None

    def _prepare(self) -> None:
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._db.execute("SELECT key, body FROM responses LIMIT 1").fetchall()

    # -- synchronous ---------------------------------------------------------------------------
    def get(self, key: str) -> str | None:
        try:
            row = self._db.execute("SELECT body FROM responses WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            if _locked(exc):
                self.missed_reads += 1
                return None
            raise _unusable(self.path, exc) from None
        return row[0] if row else None

    def put(self, key: str, model: str, body: str) -> bool:
        """Store one body in its own transaction; ``False`` when the file stayed locked (not stored)."""
        try:
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, model, created, body) VALUES (?, ?, ?, ?)",
                (key, model, time.time(), body),
            )
        except sqlite3.Error as exc:
            if _locked(exc):
                self.skipped_writes += 1
                return False
            raise _unusable(self.path, exc) from None
        return True

    def put_imported(self, rows: list[tuple[str, str, int, str, float]]) -> set[str]:
        """Store answers of a batch output file: ``(key, source, status, body, price_factor)`` rows,
        ``status`` 200 for an answer (``body`` the chat completion) or the HTTP status of an error
        (``body`` its message), in one transaction. A key the cache already answers is left out (it
        was asked and answered before); returns those keys."""
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                keys = [r[0] for r in rows]
                answered: set[str] = set()
                for i in range(0, len(keys), 500):
                    part = keys[i:i + 500]
                    marks = ",".join("?" * len(part))
                    answered.update(k for (k,) in self._db.execute(
                        f"SELECT key FROM responses WHERE key IN ({marks})", part))
                now = time.time()
                self._db.executemany(
                    "INSERT OR REPLACE INTO imported (key, created, source, status, body, price_factor) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(k, now, src, status, body, factor) for k, src, status, body, factor in rows if k not in answered],
                )
                return answered
        except sqlite3.Error as exc:
            raise _unusable(self.path, exc) from None

    def take(self, key: str, model: str, *, keep: bool = False) -> tuple[int, str, float] | None:
        """An imported answer for ``key`` as ``(status, body, price_factor)``; ``None`` when there is
        none. It is used as a reply the server sent: an answer (status 200) is stored as a cached
        response in the same transaction, so that the same request asked again finds it there (the
        client deletes it again if it is unusable), and it is removed from the imported ones, unless
        ``keep``: then it stays until :meth:`forget_imported` (a runner keeps the answers a question
        took until the question's line is written, because a question waiting for a later request
        is asked again from its start in the next round)."""
        try:
            if self._db.execute("SELECT 1 FROM imported WHERE key = ?", (key,)).fetchone() is None:
                return None  # the common case (nothing imported) takes no write lock
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                row = self._db.execute("SELECT status, body, price_factor FROM imported WHERE key = ?",
                                       (key,)).fetchone()
                if not keep:
                    self._db.execute("DELETE FROM imported WHERE key = ?", (key,))
                if row is not None and row[0] == 200:
                    self._db.execute("INSERT OR REPLACE INTO responses (key, model, created, body) "
                                     "VALUES (?, ?, ?, ?)", (key, model, time.time(), row[1]))
        except sqlite3.Error as exc:
            if _locked(exc):
                self.missed_reads += 1
                return None
            raise _unusable(self.path, exc) from None
        return (int(row[0]), str(row[1]), float(row[2])) if row else None

    def lookup(self, key: str, model: str, *, keep: bool = False) -> tuple[str, Any] | None:
        """One look for ``key``: ``("imported", (status, body, price_factor))`` (see :meth:`take`;
        an imported answer comes first, so a question asked again from its start takes the same
        answers as requests again), else ``("cached", body)``, else ``None``."""
        taken = self.take(key, model, keep=keep)
        if taken is not None:
            return "imported", taken
        body = self.get(key)
        return ("cached", body) if body is not None else None

    def forget_imported(self, keys: list[str]) -> None:
        """Drop imported answers that were taken with ``keep`` (their question is done)."""
        try:
            self._db.executemany("DELETE FROM imported WHERE key = ?", [(k,) for k in keys])
        except sqlite3.Error as exc:
            if not _locked(exc):
                raise _unusable(self.path, exc) from None

    def forget_imported_later(self, keys: list[str]) -> None:
        """:meth:`forget_imported` in the cache's worker thread, without waiting (callable from sync code
        on the event loop; done before :meth:`release` returns)."""
        if keys:
            self._pool().submit(self.forget_imported, list(keys))

    def delete(self, key: str) -> None:
        """Forget a cached response (an imported answer that turned out unusable)."""
        try:
            self._db.execute("DELETE FROM responses WHERE key = ?", (key,))
        except sqlite3.Error as exc:
            if not _locked(exc):
                raise _unusable(self.path, exc) from None

    def pending_imports(self) -> int:
        """Imported answers not taken yet."""
        return int(self._db.execute("SELECT COUNT(*) FROM imported").fetchone()[0])

    def commit(self) -> None:
        """Nothing to do: every ``put`` commits at once. Kept for callers of the batching cache."""

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def release(self) -> None:
        """Stop the worker thread once the writes queued so far are done (a new one starts on the
        next async call); the connection stays open."""
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None

    def close(self) -> None:
        self.release()
        self._db.close()

    # -- asynchronous: the same, in the cache's worker thread -----------------------------------
    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="proevent-cache")
        return self._executor

    async def aget(self, key: str) -> str | None:
        return await asyncio.get_running_loop().run_in_executor(self._pool(), self.get, key)

    async def aput(self, key: str, model: str, body: str) -> bool:
        return await asyncio.get_running_loop().run_in_executor(self._pool(), self.put, key, model, body)

    async def atake(self, key: str, model: str, *, keep: bool = False) -> tuple[int, str, float] | None:
        return await asyncio.get_running_loop().run_in_executor(
            self._pool(), functools.partial(self.take, key, model, keep=keep))

    async def alookup(self, key: str, model: str, *, keep: bool = False) -> tuple[str, Any] | None:
        return await asyncio.get_running_loop().run_in_executor(
            self._pool(), functools.partial(self.lookup, key, model, keep=keep))

    async def aforget_imported(self, keys: list[str]) -> None:
        await asyncio.get_running_loop().run_in_executor(self._pool(), self.forget_imported, keys)

    async def adelete(self, key: str) -> None:
        await asyncio.get_running_loop().run_in_executor(self._pool(), self.delete, key)
