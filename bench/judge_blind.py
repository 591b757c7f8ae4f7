"""The ``llm`` location judge measured with a blind reader as its model: its prompt and its
parsing against the labelled location pairs, with no model endpoint.

``export PAIRS... --out DIR`` runs the real ``llm`` judge over every labelled file against a
recording server on 127.0.0.1 and writes each distinct request it sends (pairs whose normalised
strings are equal are decided without a request, as in an evaluation) to

- ``DIR/prompts.jsonl``: ``{"qid": "q017", "messages": [...]}``, exactly the judge's messages;
- ``DIR/prompts.md``: the same as text for the reader, with the instructions for ``answers.jsonl``;
- ``DIR/key.json``: the files and their sha256, so that scoring reads the same pairs.

The prompts hold the two strings and the event's description, never the label: the reader (a
person, or a helper who sees only ``prompts.md``) answers each as the model would.

``score PAIRS... DIR`` serves ``DIR/answers.jsonl`` (``{"qid": ..., "content": ...}``) from the
replay server of ``blind_check.py`` (found by the sha256 of the request's messages), runs the
``llm`` judge with its real client against it, and prints precision, recall and F1 of "same place"
for it and for ``places`` on each file, the verdicts it could not parse, requests nobody answered,
and every pair the reader's judge decides wrongly.

Usage:
  python bench/judge_blind.py export PAIRS... --out DIR
  python bench/judge_blind.py score PAIRS... DIR [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from blind_check import (
    KEY_ENV,
    AnswerLine,
    PromptLine,
    ReplayServer,
    answers_help,
    canonical_hash,
    completion,
    failed,
    fenced,
    finish,
    read_lines,
)
from pydantic import BaseModel, ValidationError

from proevent.evaluate.judges import get_judge
from proevent.evaluate.placeset import JudgeScore, Pair, load_pairs, score_judge
from proevent.io import FormatError
from proevent.io.errors import describe_validation_error
from proevent.io.jsonl import dumps_line
from proevent.llm import LLMConfig
from proevent.llm.judge import PROMPT_VERSION, LLMJudge

KEY_FORMAT = "proevent-judge-blind-key/1"


class JudgeKey(BaseModel):
    """``key.json``: the labelled files the prompts were drawn from, by sha256."""

    format: str = KEY_FORMAT
    prompt_version: str = PROMPT_VERSION
    files: dict[str, str]


@dataclass
class RecordingServer(ReplayServer):
    """Answers every request ``{"same": false}`` and keeps its messages, in the order first asked."""

    replies: dict[str, tuple[str, str]] = field(default_factory=dict)
    asked: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    async def _chat(self, request: web.Request) -> web.Response:
        messages = (await request.json())["messages"]
        self.asked.setdefault(canonical_hash(messages), messages)
        return completion('{"same": false}', "record", "record")


@contextmanager
def serving(server: ReplayServer) -> Iterator[str]:
    """Run ``server`` on its own event loop in a thread (the judge is called from sync code and
    runs its own loop); yields the base URL."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield asyncio.run_coroutine_threadsafe(server.start(), loop).result()
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


def blind_judge(base_url: str) -> LLMJudge:
    """The real ``llm`` judge, pointed at a local server: no cache, no retries, a dummy key."""
    os.environ.setdefault(KEY_ENV, "blind-replay")
    return LLMJudge(LLMConfig(model="blind-reader", base_urls=[base_url], api_key_env=KEY_ENV, cache=False,
                              max_retries=0, concurrency=8))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def render_markdown(prompts: list[PromptLine]) -> str:
    """``prompts.md``: the instructions, then each prompt under ``## qid``."""
    head = [
        f"# Blind check of the location judge: {len(prompts)} questions",
        "",
        "Each question is the prompt a model receives when it judges whether two location strings",
        "name the same place. Answer each one as that model, with exactly what the prompt asks for,",
        "using only what the prompt shows.",
        "",
        *answers_help('{"same": true}'),
    ]
    body = [f"## {p.qid}\n\n{fenced(str(p.messages[-1].get('content', '')))}\n" for p in prompts]
    return "\n".join(head + body)


def export(files: list[Path], out: Path) -> int:
    """Write the prompts the ``llm`` judge sends for ``files``; returns how many."""
    server = RecordingServer()
    with serving(server) as base_url:
        for path in files:
            score_judge(blind_judge(base_url), load_pairs(path))
    prompts = [PromptLine(qid=f"q{i:03d}", messages=m) for i, m in enumerate(server.asked.values(), start=1)]
    out.mkdir(parents=True, exist_ok=True)
    with (out / "prompts.jsonl").open("w", encoding="utf-8") as fh:
        fh.writelines(dumps_line(p.model_dump()) for p in prompts)
    (out / "prompts.md").write_text(render_markdown(prompts), encoding="utf-8")
    key = JudgeKey(files={p.name: _sha256(p) for p in files})
    (out / "key.json").write_text(key.model_dump_json(indent=1) + "\n", encoding="utf-8")
    return len(prompts)


def _read_key(path: Path) -> JudgeKey:
    try:
        return JudgeKey.model_validate_json(path.read_bytes())
    except FileNotFoundError:
        raise FormatError([f"{path}: file not found"]) from None
    except ValidationError as exc:
        raise FormatError(describe_validation_error(path.name, exc)) from None


def _figures(score: JudgeScore) -> dict[str, Any]:
    return {"precision": score.precision, "recall": score.recall, "f1": score.f1,
            "tp": score.tp, "fp": score.fp, "fn": score.fn, "tn": score.tn}


def _pair(p: Pair) -> dict[str, Any]:
    return {"id": p.id, "category": p.category, "gold": p.gold, "pred": p.pred, "description": p.description,
            "label": "same" if p.same else "different"}


def score(files: list[Path], folder: Path) -> dict[str, Any]:
    """Replay ``folder/answers.jsonl`` as the ``llm`` judge's model over ``files``."""
    key = _read_key(folder / "key.json")
    problems = [f"key.json: format: expected {KEY_FORMAT!r}, got {key.format!r}"] if key.format != KEY_FORMAT else []
    if key.prompt_version != PROMPT_VERSION:
        problems.append(f"key.json: prompt_version: {key.prompt_version!r}, the judge's is {PROMPT_VERSION!r}")
    for path in files:
        if key.files.get(path.name) != _sha256(path):
            problems.append(f"{path}: not the file the prompts were exported from (key.json: files)")
    if problems:
        raise FormatError(problems)
    prompts = read_lines(folder / "prompts.jsonl", PromptLine, None)
    answers = read_lines(folder / "answers.jsonl", AnswerLine, set(prompts))
    replies = {canonical_hash(p.messages): (qid, answers[qid].content) for qid, p in prompts.items()}
    server = ReplayServer(replies)
    places = get_judge("places")
    out: dict[str, Any] = {"prompts": len(prompts), "sets": {}}
    with serving(server) as base_url:
        for path in files:
            pairs = load_pairs(path)
            judge = blind_judge(base_url)
            mine = score_judge(judge, pairs)
            out["sets"][path.name] = {
                "pairs": len(pairs), "same": sum(p.same for p in pairs),
                "llm": _figures(mine), "places": _figures(score_judge(places, pairs)),
                "judge_errors": [{"a": d["a"], "b": d["b"], "error": d["error"]} for d in judge.failures()],
                "wrong": [{**_pair(p), "said": "same" if said else "different"} for p, said in mine.disagreements],
            }
    out["unanswered_requests"] = sum(qid is None for qid, _ in server.requests)
    return out


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.1%}"


def print_report(s: dict[str, Any]) -> None:
    print(f"{s['prompts']} prompts; requests nobody answered: {s['unanswered_requests']}")
    print(f"{'set':<36} {'pairs':>5} {'llm P / R / F1':>24} {'places P / R / F1':>24} {'errors':>6}")
    for name, row in s["sets"].items():
        llm, pl = row["llm"], row["places"]
        print(f"{name:<36} {row['pairs']:>5} {_pct(llm['precision']):>8}{_pct(llm['recall']):>8}{_pct(llm['f1']):>8} "
              f"{_pct(pl['precision']):>8}{_pct(pl['recall']):>8}{_pct(pl['f1']):>8} {len(row['judge_errors']):>6}")
    for name, row in s["sets"].items():
        for e in row["judge_errors"]:
            print(f"  {name}: judge error on {e['a']!r} / {e['b']!r}: {e['error']}")
        for w in row["wrong"]:
            print(f"  {name}: said {w['said']}: {w['id']} [{w['category']}] {w['gold']!r} / {w['pred']!r} "
                  f"({w['description']})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("export", help="write the llm judge's prompts for labelled pair files")
    ex.add_argument("pairs", type=Path, nargs="+")
    ex.add_argument("--out", type=Path, required=True)
    sc = sub.add_parser("score", help="replay DIR/answers.jsonl as the llm judge's model and score it")
    sc.add_argument("pairs", type=Path, nargs="+")
    sc.add_argument("folder", type=Path)
    sc.add_argument("--json", type=Path, default=None, help="also write the figures to FILE")
    args = parser.parse_args(argv)
    try:
        if args.command == "export":
            n = export(args.pairs, args.out)
            print(f"{n} prompts -> {args.out}/prompts.jsonl, prompts.md")
            return 0
        figures = score(args.pairs, args.folder)
    except (FormatError, ValueError) as exc:
        return failed(exc.problems if isinstance(exc, FormatError) else [str(exc)])
    return finish(figures, print_report, args.json)


if __name__ == "__main__":
    sys.exit(main())
