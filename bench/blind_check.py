"""Fairness check: a careful reader answers a blind sample of single-step questions, seeing only
what the ``plain`` agent sees; their answers are replayed through the real agent and scored.

``export DATASET --n 60 --seed 0 --out DIR`` draws ``n`` questions with (non-cosmetic) gold and
``--no-gold`` (default ``n // 5``) without, among the steps the agent is asked about (steps with
new messages: ``skip_quiet`` is on by default), and writes

- ``DIR/prompts.jsonl``: ``{"qid": "q017", "messages": [...]}`` per question, exactly the messages
  the ``plain`` strategy sends (default prompt version, default context of K earlier messages,
  the gold S_{t-1} as in ``proevent.runner.core.run_single``); nothing else;
- ``DIR/prompts.md``: the same as text for a person, with the instructions for ``answers.jsonl``;
- ``DIR/key.json``: qid -> case id and step. The reader must never open it.

``score DATASET DIR [--json FILE]`` reads ``DIR/answers.jsonl`` (``{"qid": ..., "content": ...}``),
serves the answers from a replay server on 127.0.0.1 (an OpenAI-compatible
``/v1/chat/completions`` that finds the question by the sha256 of the canonical JSON of the
request's messages; anything else is a 404), runs the ``plain`` agent with its real client against
it, and scores every question with ``score_question`` and the fuzzy comparator. The agent runs with
``repair=false``: the reader answers each question once, so a repair request would be a question
nobody answered; an unusable answer counts as a parse error, an operation that cannot apply as an
invalid prediction. It prints precision and recall (overall and per type), FDR on the questions
without gold, parse errors, and every miss with the gold and the predicted operations.

Usage:
  python bench/blind_check.py export DATASET [--n 60] [--no-gold N] [--seed 0] --out DIR
  python bench/blind_check.py score DATASET DIR [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from pydantic import BaseModel, ConfigDict, ValidationError

from proevent.agents.llm.prompts import PROMPT_VERSION, build_messages
from proevent.agents.protocol import DEFAULT_CONTEXT_MESSAGES, build_observation
from proevent.agents.registry import create_agent
from proevent.evaluate import QuestionScore, comparator_for, is_cosmetic, line_ops, score_question
from proevent.io import Dataset, FormatError, load_dataset
from proevent.io.errors import describe_validation_error
from proevent.io.jsonl import dumps_line, iter_jsonl
from proevent.llm import LLMClient, LLMConfig
from proevent.model import OP_TYPES, AnyOp, Case, PredictionLine, Timetable, op_to_json
from proevent.runner.core import run_single

STRATEGY = "plain"
KEY_FORMAT = "proevent-blind-key/1"
KEY_ENV = "PROEVENT_BLIND_KEY"
"""The dummy API key's environment variable (the replay server needs no key; the client sends one)."""


class PromptLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    qid: str
    messages: list[dict[str, Any]]


class AnswerLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    qid: str
    content: str


class KeyEntry(BaseModel):
    case_id: str
    t: int


class BlindKey(BaseModel):
    """``key.json``: what each qid is, and how the prompts were built."""

    format: str = KEY_FORMAT
    dataset_sha256: str
    seed: int
    prompt_version: str = PROMPT_VERSION
    context_messages: int = DEFAULT_CONTEXT_MESSAGES
    questions: dict[str, KeyEntry]


def canonical_hash(messages: list[dict[str, Any]]) -> str:
    """sha256 of the canonical JSON of a request's messages (sorted keys, no spaces)."""
    text = json.dumps(messages, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def prompt_of(case: Case, t: int, key: BlindKey | None = None) -> list[dict[str, Any]]:
    """Exactly the messages the ``plain`` agent sends for single-step question ``t`` of ``case``."""
    version = key.prompt_version if key else PROMPT_VERSION
    context = key.context_messages if key else DEFAULT_CONTEXT_MESSAGES
    obs = build_observation(case, t, Timetable(case.timetable_before(t)), mode="single",
                            context_messages=context)
    return build_messages(STRATEGY, obs, version)


def scored_gold(case: Case, t: int) -> list[AnyOp]:
    return [op for op in case.steps[t - 1].gold_ops if not is_cosmetic(op)]


def draw(dataset: Dataset, n: int, no_gold: int, seed: int) -> tuple[list[tuple[str, int]], int]:
    """The sample, shuffled: ``n`` questions with gold and ``no_gold`` without, among the steps with
    new messages (the agent answers the others without a request). Also returns how many steps
    with gold have no message (the agent is never asked them; they are left out)."""
    gold, empty, silent = [], [], 0
    for case, t in dataset.questions():
        has_gold = bool(scored_gold(case, t))
        if not case.steps[t - 1].messages:
            silent += has_gold
        else:
            (gold if has_gold else empty).append((case.case_id, t))
    rng = random.Random(seed)
    picked = rng.sample(gold, min(n, len(gold))) + rng.sample(empty, min(no_gold, len(empty)))
    rng.shuffle(picked)
    return picked, silent


def fenced(text: str) -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}text\n{text}\n{fence}"


def answers_help(*examples: str) -> list[str]:
    """The lines of ``prompts.md`` that say how to write ``answers.jsonl``, with example replies."""
    lines = [json.dumps({"qid": f"q{i:03d}", "content": e}, ensure_ascii=False) for i, e in enumerate(examples, 1)]
    return ["Write the answers to `answers.jsonl` beside this file, one line per question, every qid once;",
            "`content` is the reply text itself, as a JSON string:", "", *(f"    {line}" for line in lines), ""]


def render_markdown(prompts: list[PromptLine]) -> str:
    """``prompts.md``: the instructions, then each prompt under ``## qid``."""
    head = [
        f"# Blind check: {len(prompts)} questions",
        "",
        "Each question is the prompt an assistant that keeps someone's timetable receives: a system",
        "message (its instructions) and a user message (the timetable and the chats with news).",
        "Answer each one as that assistant, with exactly what the prompt asks for: the JSON",
        '`{"ops": [...]}` with the operations the new messages settle (an empty list when they settle',
        "nothing). Use only what the prompt shows.",
        "",
        *answers_help('{"ops": []}', '{"ops": [{"op": "delete", "id": "e3"}]}'),
    ]
    body = []
    for p in prompts:
        body.append(f"## {p.qid}\n")
        for m in p.messages:
            body.append(f"### {m.get('role', '?')}\n\n{fenced(str(m.get('content', '')))}\n")
    return "\n".join(head + body)


def export(dataset_path: Path, out: Path, *, n: int, no_gold: int | None, seed: int) -> BlindKey:
    """Write ``prompts.jsonl``, ``prompts.md`` and ``key.json`` of a seeded blind sample."""
    dataset = load_dataset(dataset_path)
    picked, silent = draw(dataset, n, n // 5 if no_gold is None else no_gold, seed)
    if silent:
        print(f"note: {silent} steps with gold have no message (never asked by the agent): left out", file=sys.stderr)
    width = max(3, len(str(len(picked))))
    prompts, questions = [], {}
    for i, (case_id, t) in enumerate(picked, start=1):
        qid = f"q{i:0{width}d}"
        prompts.append(PromptLine(qid=qid, messages=prompt_of(dataset.case(case_id), t)))
        questions[qid] = KeyEntry(case_id=case_id, t=t)
    key = BlindKey(dataset_sha256=dataset.sha256, seed=seed, questions=questions)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "prompts.jsonl").open("w", encoding="utf-8") as fh:
        fh.writelines(dumps_line(p.model_dump()) for p in prompts)
    (out / "prompts.md").write_text(render_markdown(prompts), encoding="utf-8")
    (out / "key.json").write_text(key.model_dump_json(indent=1) + "\n", encoding="utf-8")
    return key


def read_lines(path: Path, model: type[PromptLine] | type[AnswerLine], known: set[str] | None) -> dict[str, Any]:
    """The lines of ``path`` by qid; every problem (bad line, duplicate, unknown or missing qid) named."""
    if not path.exists():
        raise FormatError([f"{path}: file not found"])
    problems: list[str] = []
    out: dict[str, Any] = {}
    for lineno, item in iter_jsonl(path, model, problems):
        where = f"{path.name}:{lineno}: qid"
        if item.qid in out:
            problems.append(f"{where}: {item.qid!r} appears twice")
        elif known is not None and item.qid not in known:
            problems.append(f"{where}: {item.qid!r} is not one of the exported questions")
        out[item.qid] = item
    if known is not None and not problems:
        missing = sorted(known - out.keys())
        if missing:
            more = f" (and {len(missing) - 10} more)" if len(missing) > 10 else ""
            problems.append(f"{path.name}: no answer for {', '.join(missing[:10])}{more}")
    if problems:
        raise FormatError(problems)
    return out


def read_key(path: Path) -> BlindKey:
    try:
        return BlindKey.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        raise FormatError([f"{path}: file not found"]) from None
    except ValidationError as exc:
        raise FormatError(describe_validation_error(path.name, exc)) from None


def completion(content: str, reply_id: str, model: str) -> web.Response:
    """An OpenAI-compatible chat completion whose one choice says ``content`` (no tokens counted)."""
    return web.json_response({
        "id": reply_id, "object": "chat.completion", "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    })


def finish(figures: dict[str, Any], report: Callable[[dict[str, Any]], None], json_out: Path | None) -> int:
    """Print a score's figures and write them to ``json_out`` when given (the exit status: 0)."""
    report(figures)
    if json_out:
        json_out.write_text(json.dumps(figures, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


def failed(problems: list[str]) -> int:
    """Print each problem of bad input on stderr (the exit status: 2)."""
    print("\n".join(f"error: {p}" for p in problems), file=sys.stderr)
    return 2


@dataclass
class ReplayServer:
    """An OpenAI-compatible ``/v1/chat/completions`` on 127.0.0.1 answering recorded replies by the
    hash of the request's messages; ``requests`` records every request: ``(qid or None, hash)``."""

    replies: dict[str, tuple[str, str]]
    """canonical hash -> (qid, content)."""
    requests: list[tuple[str | None, str]] = field(default_factory=list)
    _runner: web.AppRunner | None = None

    async def start(self) -> str:
        """Start serving on a free port; returns the base URL (``http://127.0.0.1:PORT/v1``)."""
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        return f"http://127.0.0.1:{port}/v1"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _chat(self, request: web.Request) -> web.Response:
        try:
            body = await request.json()
            messages = body["messages"]
            digest = canonical_hash(messages)
        except (ValueError, KeyError, TypeError):
            self.requests.append((None, ""))
            return web.json_response({"error": {"message": "expected a JSON body with messages"}}, status=400)
        hit = self.replies.get(digest)
        self.requests.append((hit[0] if hit else None, digest))
        if hit is None:
            message = (f"replay server: no recorded answer for these messages (sha256 {digest[:12]}): "
                       "not one of the exported prompts")
            return web.json_response({"error": {"message": message, "type": "not_found"}}, status=404)
        return completion(hit[1], f"replay-{hit[0]}", body.get("model", "replay"))


@dataclass
class Result:
    qid: str
    case_id: str
    t: int
    score: QuestionScore
    line: PredictionLine


async def replay(
    dataset: Dataset, key: BlindKey, replies: dict[str, tuple[str, str]]
) -> tuple[list[Result], ReplayServer]:
    """Run the ``plain`` agent on every question of ``key`` against a replay server of ``replies``."""
    server = ReplayServer(replies)
    base_url = await server.start()
    os.environ.setdefault(KEY_ENV, "blind-replay")
    config = LLMConfig(model="blind-reader", base_urls=[base_url], api_key_env=KEY_ENV, cache=False,
                       max_retries=0, concurrency=8)
    try:
        async with LLMClient(config) as client:
            agent = create_agent(STRATEGY, client=client, repair=False, prompt_version=key.prompt_version)
            cases = {qid: dataset.case(q.case_id) for qid, q in key.questions.items()}
            lines = await asyncio.gather(*(
                run_single(agent, cases[qid], q.t, repeat=0, context_messages=key.context_messages)
                for qid, q in key.questions.items()))
    finally:
        await server.stop()
    results = [
        Result(qid, q.case_id, q.t, score_question(cases[qid], q.t, line_ops(line), comparator_for(cases[qid]),
                                                   error=line.error), line)
        for (qid, q), line in zip(key.questions.items(), lines, strict=True)
    ]
    return results, server


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def summarise(results: list[Result], server: ReplayServer) -> dict[str, Any]:
    """The figures (metrics spec v1 sums over the sample) and the misses."""
    tot: dict[str, int] = {k: 0 for k in ("p", "g", "m", *(f"{x}_{t}" for x in "pgm" for t in OP_TYPES))}
    for r in results:
        for k, v in r.score.counts().items():
            tot[k] = tot.get(k, 0) + v
    gold_q = [r for r in results if r.score.gold]
    empty_q = [r for r in results if not r.score.gold]
    misses = []
    for r in results:
        if r.score.unmatched_gold or r.score.unmatched_pred or r.line.error:
            misses.append({
                "qid": r.qid, "case_id": r.case_id, "t": r.t,
                "missed_gold": [op_to_json(r.score.gold[j]) for j in r.score.unmatched_gold],
                "predicted": [op_to_json(op) for op in r.score.pred],
                "invalid": {str(i): why for i, why in r.score.invalid_reasons.items()},
                "error": r.line.error, "raw": r.line.raw if r.line.error else None,
            })
    return {
        "questions": len(results), "gold_questions": len(gold_q), "no_gold_questions": len(empty_q),
        "precision": _ratio(tot["m"], tot["p"]), "recall": _ratio(tot["m"], tot["g"]),
        "per_type": {t: {"precision": _ratio(tot[f"m_{t}"], tot[f"p_{t}"]),
                         "recall": _ratio(tot[f"m_{t}"], tot[f"g_{t}"]),
                         "gold": tot[f"g_{t}"], "predicted": tot[f"p_{t}"], "matched": tot[f"m_{t}"]}
                     for t in OP_TYPES},
        "fdr": _ratio(sum(1 for r in empty_q if r.score.pred), len(empty_q)),
        "mnr": _ratio(sum(1 for r in gold_q if not r.score.pred), len(gold_q)),
        "parse_errors": sum(1 for r in results if r.line.error),
        "invalid_ops": sum(len(r.score.invalid) for r in results),
        "requests": len(server.requests), "unknown_requests": sum(1 for q, _ in server.requests if q is None),
        "misses": misses,
    }


def score(dataset_path: Path, folder: Path) -> dict[str, Any]:
    """Replay ``folder/answers.jsonl`` through the ``plain`` agent and score it against the gold."""
    dataset = load_dataset(dataset_path)
    key = read_key(folder / "key.json")
    if key.format != KEY_FORMAT:
        raise FormatError([f"key.json: format: expected {KEY_FORMAT!r}, got {key.format!r}"])
    prompts = read_lines(folder / "prompts.jsonl", PromptLine, set(key.questions))
    answers = read_lines(folder / "answers.jsonl", AnswerLine, set(key.questions))
    problems, replies = [], {}
    for qid, q in key.questions.items():
        try:
            rebuilt = prompt_of(dataset.case(q.case_id), q.t, key)
        except (KeyError, IndexError, ValueError):
            problems.append(f"key.json: questions.{qid}: no step {q.t} of case {q.case_id!r} in {dataset_path}")
            continue
        digest = canonical_hash(prompts[qid].messages)
        if canonical_hash(rebuilt) != digest:
            problems.append(f"prompts.jsonl: {qid}: the dataset no longer gives this prompt (another dataset?)")
        replies[digest] = (qid, answers[qid].content)
    if problems:
        raise FormatError(problems)
    results, server = asyncio.run(replay(dataset, key, replies))
    return summarise(results, server)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.1%}"


def _op(op: Any) -> str:
    return json.dumps(op, ensure_ascii=False, separators=(",", ":"))


def print_report(s: dict[str, Any]) -> None:
    print(f"questions {s['questions']} ({s['gold_questions']} with gold, {s['no_gold_questions']} without); "
          f"requests {s['requests']}, unknown {s['unknown_requests']}")
    print(f"precision {_pct(s['precision'])}  recall {_pct(s['recall'])}  FDR (no gold) {_pct(s['fdr'])}  "
          f"MNR {_pct(s['mnr'])}  parse errors {s['parse_errors']}  invalid ops {s['invalid_ops']}")
    for t, row in s["per_type"].items():
        print(f"  {t:<7} precision {_pct(row['precision']):>6}  recall {_pct(row['recall']):>6}  "
              f"(gold {row['gold']}, predicted {row['predicted']}, matched {row['matched']})")
    print(f"misses ({len(s['misses'])} questions):" if s["misses"] else "misses: none")
    for m in s["misses"]:
        print(f"- {m['qid']} ({m['case_id']} t={m['t']})")
        if m["error"]:
            print(f"    error: {m['error']}; reply: {(m['raw'] or '')[:200]!r}")
        for op in m["missed_gold"]:
            print(f"    gold missed: {_op(op)}")
        if not m["missed_gold"]:
            print("    gold missed: none")
        for i, op in enumerate(m["predicted"]):
            why = m["invalid"].get(str(i))
            print(f"    predicted:   {_op(op)}" + (f"  (invalid: {why})" if why else ""))
        if not m["predicted"]:
            print("    predicted:   none")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("export", help="write a blind sample of prompts (and the key)")
    ex.add_argument("dataset", type=Path)
    ex.add_argument("--n", type=int, default=60, help="questions with gold (default 60)")
    ex.add_argument("--no-gold", type=int, default=None, help="questions without gold (default n // 5)")
    ex.add_argument("--seed", type=int, default=0)
    ex.add_argument("--out", type=Path, required=True)
    sc = sub.add_parser("score", help="replay DIR/answers.jsonl through the plain agent and score it")
    sc.add_argument("dataset", type=Path)
    sc.add_argument("folder", type=Path)
    sc.add_argument("--json", type=Path, default=None, help="also write the figures to FILE")
    args = parser.parse_args(argv)
    try:
        if args.command == "export":
            key = export(args.dataset, args.out, n=args.n, no_gold=args.no_gold, seed=args.seed)
            print(f"{len(key.questions)} questions -> {args.out}/prompts.jsonl, prompts.md (key: key.json)")
            return 0
        figures = score(args.dataset, args.folder)
    except FormatError as exc:
        return failed(exc.problems)
    return finish(figures, print_report, args.json)


if __name__ == "__main__":
    sys.exit(main())
