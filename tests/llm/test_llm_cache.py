"""The response cache shared by concurrent runs, locked by others, or corrupt (issue 12, finding 4)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fixtures import TINY
from proevent.cli import app
from proevent.llm import LLMClient, LLMConfig, ResponseCache
from proevent.llm.cache import CacheError
from support.scripted_server import Reply

SRC = Path(__file__).resolve().parents[2] / "src"


def make_config(server, path: Path, **kw) -> LLMConfig:
    return LLMConfig(model="scripted", base_urls=[server.base_url], backoff_s=0.01, cache=True, cache_path=path,
                     **kw)


def echo(req) -> Reply:
    return Reply(content=json.dumps({"echo": req["messages"][-1]["content"]}), delay=0.005)


def prompts(tag: str, n: int) -> list[list[dict[str, str]]]:
    return [[{"role": "user", "content": f"{tag}{i}"}] for i in range(n)]


async def test_two_clients_on_one_file_both_finish_with_every_answer_stored(scripted_server, tmp_path):
    path = tmp_path / "shared.sqlite"
    scripted_server.default = echo
    a_prompts, b_prompts = prompts("a", 27), prompts("b", 27)

    async def one_run(ps):
        async with LLMClient(make_config(scripted_server, path, concurrency=8)) as client:
            outs = await asyncio.gather(*(client.chat(p) for p in ps))
            return [json.loads(o.text)["echo"] for o in outs], client

    t0 = time.perf_counter()
    (a, ca), (b, cb) = await asyncio.wait_for(asyncio.gather(one_run(a_prompts), one_run(b_prompts)), 20)
    assert time.perf_counter() - t0 < 10
    assert a == [f"a{i}" for i in range(27)] and b == [f"b{i}" for i in range(27)]
    assert ca.cache.skipped_writes == cb.cache.skipped_writes == 0
    assert len(ResponseCache(path)) == 54
    async with LLMClient(make_config(scripted_server, path)) as client:  # a third run: all from the cache
        await asyncio.gather(*(client.chat(p) for p in a_prompts + b_prompts))
        assert client.totals.requests == 0 and client.totals.cache_hits == 54


def test_two_processes_on_one_file_both_finish_with_every_answer_stored(scripted_server, tmp_path):
    path = tmp_path / "shared.sqlite"
    scripted_server.default = echo
    script = textwrap.dedent("""
        import asyncio, json, sys
        from proevent.llm import LLMClient, LLMConfig
        url, path, tag = sys.argv[1:]
        async def main():
            cfg = LLMConfig(model="scripted", base_urls=[url], cache_path=path, concurrency=8)
            async with LLMClient(cfg) as client:
                outs = await asyncio.gather(*(client.chat([{"role": "user", "content": f"{tag}{i}"}])
                                              for i in range(40)))
                assert [json.loads(o.text)["echo"] for o in outs] == [f"{tag}{i}" for i in range(40)]
                print(getattr(client.cache, "skipped_writes", 0))
        asyncio.run(main())
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script, scripted_server.base_url, str(path), tag],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})
             for tag in ("x", "y")]
    results = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    assert [out.strip() for out, _ in results] == ["0", "0"]
    assert len(ResponseCache(path)) == 80


async def test_a_lock_held_by_another_process_never_blocks_the_event_loop(scripted_server, tmp_path):
    path = tmp_path / "c.sqlite"
    ResponseCache(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another run in the middle of a write
    loop = asyncio.get_running_loop()
    loop.call_later(0.5, other.execute, "COMMIT")
    gaps: list[float] = []

    async def ticker():
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.01)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    tick = asyncio.create_task(ticker())
    async with LLMClient(make_config(scripted_server, path)) as client:
        out = await asyncio.wait_for(client.chat([{"role": "user", "content": "q"}]), 10)
    tick.cancel()
    other.close()
    assert out.text == '{"ops": []}'
    assert max(gaps) < 0.25  # the loop kept turning while the write waited for the lock
    assert len(ResponseCache(path)) == 1  # and the answer was stored once the lock was free


async def test_a_lock_held_too_long_costs_the_entry_not_the_answer(scripted_server, tmp_path):
    path = tmp_path / "c.sqlite"
    ResponseCache(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        cache = ResponseCache(path, busy_timeout_s=0.2)
        async with LLMClient(make_config(scripted_server, path), cache=cache) as client:
            out = await client.chat([{"role": "user", "content": "q"}])
        assert out.text == '{"ops": []}' and cache.skipped_writes == 1
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert len(ResponseCache(path)) == 0


@pytest.mark.parametrize("content", [b"this is not a database at all " * 100, b"SQLite format 3\x00" + b"\xff" * 4000])
def test_a_corrupt_cache_file_is_named_with_the_way_out(tmp_path, content):
    path = tmp_path / "llm-cache.sqlite"
    path.write_bytes(content)
    with pytest.raises(CacheError, match=rf"{path}: the LLM response cache cannot be used .*--no-cache"):
        LLMClient(LLMConfig(model="m", cache_path=path))
    assert path.read_bytes() == content  # left as it was


def test_a_corrupt_cache_file_stops_the_cli_with_a_message_and_no_cache_gets_past_it(scripted_server, tmp_path):
    path = tmp_path / "llm-cache.sqlite"
    path.write_bytes(b"garbage" * 500)
    args = ["run", str(TINY), "--agent", "plain", "--model", "scripted", "--base-url", scripted_server.base_url,
            "--no-progress", "--cache-path", str(path)]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "run")])
    assert result.exit_code != 0
    assert str(path) in result.output and "--no-cache" in result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, CacheError)
    ok = CliRunner().invoke(app, [*args, "--no-cache", "--out", str(tmp_path / "run2")])
    assert ok.exit_code == 0, ok.output


def _open_at(path: str, start: float) -> str:
    while time.time() < start:
        pass
    try:
        ResponseCache(path, busy_timeout_s=5).close()
    except CacheError as exc:
        return str(exc)
    return ""


def test_runs_that_open_one_new_file_at_the_same_moment_all_open_it(tmp_path):
    """Switching a new file to WAL does not wait on the busy timeout: before the retry, four
    processes opening one new file at once failed with "locked" in about a third of the rounds."""
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(4) as pool:
        for round_ in range(20):
            path, start = str(tmp_path / f"c{round_}.sqlite"), time.time() + 0.1
            assert pool.starmap(_open_at, [(path, start)] * 4) == ["", "", "", ""]
