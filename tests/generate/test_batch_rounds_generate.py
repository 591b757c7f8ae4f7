"""``proevent generate --realizer llm`` in rounds through batch files equals the same generation
against the live scripted server, byte for byte.

The "model" is a deterministic function of the request: some first answers are not JSON, some
move a proposal to another day (the realiser's check asks again), and some answers to the retry
are wrong again (the attempt is rejected and the pipeline draws the case again). Live, the
scripted server answers with it; in rounds, ``generate --batch-out`` writes the requests, an
"offline runner" applies the same function to each line's ``body`` and ``proevent batch import``
reads its output back, until the command writes the dataset.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from proevent.cli import app
from proevent.cli.batch_cmds import EXIT_PENDING
from support.scripted_server import Reply, _completion_body

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _h(req: dict[str, Any]) -> int:
    return int(hashlib.sha256(json.dumps(req["messages"], sort_keys=True).encode()).hexdigest(), 16)


def _answer(req: dict[str, Any], wrong: bool) -> str:
    """Every line as its draft; ``wrong``: a line that must say its day names another one too."""
    lines = json.loads(req["messages"][1]["content"])["lines"]

    def text(ln: dict[str, Any]) -> str:
        if not wrong or "day" not in ln["must_express"]:
            return ln["draft"]
        day = ln["must_express"]["day"].split("(")[1][:-1]
        return f"{ln['draft']} (actually make it {WEEKDAYS[(WEEKDAYS.index(day) + 3) % 7]}, sorry)"

    return json.dumps({"messages": [{"i": ln["i"], "text": text(ln)} for ln in lines]}, ensure_ascii=False)


def model(req: dict[str, Any]) -> Reply:
    h = _h(req)
    if len(req["messages"]) == 2:  # the first answer for a chat
        if h % 5 == 0:
            return Reply(content="sure! here are the messages")  # no JSON: not cached, asked again
        return Reply(content=_answer(req, wrong=h % 5 in (1, 2)))
    return Reply(content=_answer(req, wrong=h % 2 == 0))  # the retry: often wrong again


def live_reply(req: dict[str, Any]) -> Reply:
    return Reply(raw_body=_completion_body(req, model(req), 0))


def offline_runner(batch_in: Path, batch_out: Path) -> int:
    """Batch API output lines for every request of ``batch_in``, answered by :func:`model`."""
    lines = [json.loads(t) for t in batch_in.read_text(encoding="utf-8").splitlines()]
    with batch_out.open("w", encoding="utf-8") as out:
        for n, line in enumerate(lines):
            body = json.loads(_completion_body(line["body"], model(line["body"]), n))
            out.write(json.dumps({"id": f"b{n}", "custom_id": line["custom_id"],
                                  "response": {"status_code": 200, "body": body}, "error": None}) + "\n")
    return len(lines)


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


def gen_config(tmp_path: Path, server) -> Path:
    path = tmp_path / "gen.toml"
    path.write_text(f'cases = 4\nseed = 3\nmax_attempts = 5\n[llm]\nmodel = "m-120b"\n'
                    f'base_url = "{server.base_url}"\nretries = 1\n')
    return path


def test_generation_in_rounds_equals_the_live_generation(scripted_server, tmp_path, monkeypatch):
    scripted_server.default = live_reply
    common = ["generate", "--config", str(gen_config(tmp_path, scripted_server)), "--realizer", "llm", "-q"]
    monkeypatch.setenv("PROEVENT_CACHE", str(tmp_path / "live.sqlite"))
    live = cli(*common, "--out", str(tmp_path / "live"))
    assert live.exit_code == 0, live.output
    live_bodies = sorted(json.dumps(r, sort_keys=True) for r in scripted_server.requests)
    retries = [r for r in scripted_server.requests if len(r["messages"]) == 4]
    manifest = json.loads((tmp_path / "live" / "dataset.json").read_text())
    # the sample exercises the realiser's retry and the pipeline's attempt loop
    assert retries and manifest["generator"]["rejected"] and manifest["generator"]["realizer_retries"]
    scripted_server.reset()

    monkeypatch.setenv("PROEVENT_CACHE", str(tmp_path / "rounds.sqlite"))
    out = tmp_path / "rounds"
    counts: list[int] = []
    bounds: list[int] = []
    for n in range(1, 30):
        batch_in = tmp_path / f"requests-{n}.jsonl"
        result = cli(*common, "--out", str(out), "--batch-out", str(batch_in))
        if result.exit_code == 0:
            assert not batch_in.exists()
            break
        assert result.exit_code == EXIT_PENDING, result.output
        assert not out.exists()  # nothing of the dataset is written while a case waits
        written = offline_runner(batch_in, tmp_path / f"answers-{n}.jsonl")
        counts.append(written)
        text = " ".join(result.output.split())
        assert f"{batch_in}: {written} requests for " in text and "of the 4 cases" in text
        bounds.append(int(text.split("At most ")[1].split()[0]))
        imported = cli("batch", "import", str(tmp_path / f"answers-{n}.jsonl"))
        assert imported.exit_code == 0 and f"imported {written} answers and 0 errors" in imported.output
    else:
        raise AssertionError("no end after 29 rounds")
    assert scripted_server.requests == []  # nothing was sent in rounds
    rounds = len(counts)
    assert rounds >= 3  # a retry needs the answer before it, a new attempt the rejection before it
    # the bound holds: round k's "at most" covers every round still to come
    assert all(bounds[k] >= rounds - k for k in range(rounds))
    # the same requests: a reply that is not JSON is not cached and is asked again as it is live
    files = [tmp_path / f"requests-{k}.jsonl" for k in range(1, rounds + 1)]
    exported = sorted(json.dumps(json.loads(t)["body"], sort_keys=True)
                      for f in files for t in f.read_text().splitlines())
    assert exported == live_bodies
    for name in ("cases.jsonl", "dataset.json"):
        assert (out / name).read_bytes() == (tmp_path / "live" / name).read_bytes(), name
