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
from proevent.cli.rounds import EXIT_PENDING
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


def offline_runner(batch_in: Path, batch_out: Path, *, fail_first: bool = False) -> int:
    """Batch API output lines for every request of ``batch_in``, answered by :func:`model`;
    ``fail_first``: the first line is an error line (a server error) instead."""
    lines = [json.loads(t) for t in batch_in.read_text(encoding="utf-8").splitlines()]
    with batch_out.open("w", encoding="utf-8") as out:
        for n, line in enumerate(lines):
            body = json.loads(_completion_body(line["body"], model(line["body"]), n))
            response = {"status_code": 500, "body": {"error": {"message": "overloaded"}}} if fail_first and n == 0 \
                else {"status_code": 200, "body": body}
            out.write(json.dumps({"id": f"b{n}", "custom_id": line["custom_id"], "response": response,
                                  "error": None}) + "\n")
    return len(lines)


def cli(*args: str):
    return CliRunner().invoke(app, list(args))


def gen_config(tmp_path: Path, server) -> Path:
    path = tmp_path / "gen.toml"
    path.write_text(f'cases = 4\nseed = 3\nmax_attempts = 5\n[llm]\nmodel = "m-120b"\n'
                    f'base_url = "{server.base_url}"\nretries = 1\n')
    return path


def live_generation(server, tmp_path: Path, monkeypatch, common: list[str]) -> list[str]:
    """Generate into ``tmp_path/live`` against the scripted server; the request bodies it sent."""
    server.default = live_reply
    monkeypatch.setenv("PROEVENT_CACHE", str(tmp_path / "live.sqlite"))
    live = cli(*common, "--out", str(tmp_path / "live"))
    assert live.exit_code == 0, live.output
    bodies = sorted(json.dumps(r, sort_keys=True) for r in server.requests)
    server.reset()
    return bodies


def in_rounds(tmp_path: Path, monkeypatch, common: list[str], *, env: bool = False,
              fail_first: int = 0) -> tuple[list[int], list[int], list[str]]:
    """Generate into ``tmp_path/rounds`` through batch files until it is written: the requests of
    each round, each round's bound on the rounds to come, and each round's message. ``env``: the
    file is named by ``$PROEVENT_BATCH_OUT`` instead of ``--batch-out``; ``fail_first``: in that
    round the first answer is an error line."""
    monkeypatch.setenv("PROEVENT_CACHE", str(tmp_path / "rounds.sqlite"))
    out = tmp_path / "rounds"
    counts: list[int] = []
    bounds: list[int] = []
    texts: list[str] = []
    for n in range(1, 30):
        batch_in = tmp_path / f"requests-{n}.jsonl"
        if env:
            monkeypatch.setenv("PROEVENT_BATCH_OUT", str(batch_in))
        result = cli(*common, "--out", str(out), *([] if env else ["--batch-out", str(batch_in)]))
        if result.exit_code == 0:
            assert not batch_in.exists()
            monkeypatch.delenv("PROEVENT_BATCH_OUT", raising=False)
            return counts, bounds, texts
        assert result.exit_code == EXIT_PENDING, result.output
        assert not out.exists()  # nothing of the dataset is written while a case waits
        written = offline_runner(batch_in, tmp_path / f"answers-{n}.jsonl", fail_first=n == fail_first)
        counts.append(written)
        texts.append(" ".join(result.output.split()))
        assert f"{batch_in}: {written} requests for " in texts[-1] and "of the 4 cases" in texts[-1]
        bounds.append(int(texts[-1].split("At most ")[1].split()[0]))
        imported = cli("batch", "import", str(tmp_path / f"answers-{n}.jsonl"))
        errors = int(n == fail_first)
        assert imported.exit_code == 0 and f"imported {written - errors} answers and {errors} errors" in imported.output
    raise AssertionError("no end after 29 rounds")


def exported_bodies(tmp_path: Path, rounds: int) -> list[str]:
    files = [tmp_path / f"requests-{k}.jsonl" for k in range(1, rounds + 1)]
    return sorted(json.dumps(json.loads(t)["body"], sort_keys=True) for f in files for t in f.read_text().splitlines())


def same_dataset(tmp_path: Path) -> None:
    for name in ("cases.jsonl", "dataset.json"):
        assert (tmp_path / "rounds" / name).read_bytes() == (tmp_path / "live" / name).read_bytes(), name


def test_generation_in_rounds_equals_the_live_generation(scripted_server, tmp_path, monkeypatch):
    common = ["generate", "--config", str(gen_config(tmp_path, scripted_server)), "--realizer", "llm", "-q"]
    live_bodies = live_generation(scripted_server, tmp_path, monkeypatch, common)
    manifest = json.loads((tmp_path / "live" / "dataset.json").read_text())
    # the sample exercises the realiser's retry and the pipeline's attempt loop
    assert any('"Fix these problems' in b for b in live_bodies)
    assert manifest["generator"]["rejected"] and manifest["generator"]["realizer_retries"]

    counts, bounds, texts = in_rounds(tmp_path, monkeypatch, common)
    assert scripted_server.requests == []  # nothing was sent in rounds
    rounds = len(counts)
    assert rounds >= 3  # a retry needs the answer before it, a new attempt the rejection before it
    # round 1: every case waits for its first answers; a case may take 5 attempts of 2 requests a chat
    assert "0 cases complete" in texts[0] and bounds[0] == 5 * 2
    # the bound holds: round k's "at most" covers every round still to come
    assert all(bounds[k] >= rounds - k for k in range(rounds))
    # the same requests: a reply that is not JSON is not cached and is asked again, as it is live
    assert exported_bodies(tmp_path, rounds) == live_bodies
    same_dataset(tmp_path)


def test_rounds_through_the_environment_ask_an_error_line_again(scripted_server, tmp_path, monkeypatch):
    common = ["generate", "--config", str(gen_config(tmp_path, scripted_server)), "--realizer", "llm", "-q"]
    live_bodies = live_generation(scripted_server, tmp_path, monkeypatch, common)
    counts, _, _ = in_rounds(tmp_path, monkeypatch, common, env=True, fail_first=1)
    first = json.loads((tmp_path / "requests-1.jsonl").read_text().splitlines()[0])
    second = [json.loads(t) for t in (tmp_path / "requests-2.jsonl").read_text().splitlines()]
    assert first["custom_id"] in {x["custom_id"] for x in second}  # the errored request, asked again
    assert sorted(set(exported_bodies(tmp_path, len(counts)))) == sorted(set(live_bodies))
    assert len(exported_bodies(tmp_path, len(counts))) == len(live_bodies) + 1
    same_dataset(tmp_path)


def test_batch_out_needs_the_llm_realiser_and_a_new_file(tmp_path, scripted_server):
    r = cli("generate", "--out", str(tmp_path / "ds"), "--cases", "1", "--batch-out", str(tmp_path / "b.jsonl"))
    assert r.exit_code == 1 and "--batch-out needs the llm realiser" in r.output
    old = tmp_path / "old.jsonl"
    old.write_text("{}\n")
    r = cli("generate", "--config", str(gen_config(tmp_path, scripted_server)), "--realizer", "llm",
            "--out", str(tmp_path / "ds"), "--batch-out", str(old))
    assert r.exit_code == 1 and "give each round a new file" in r.output
    assert scripted_server.requests == [] and not (tmp_path / "ds").exists()
    assert f"{EXIT_PENDING} (batch mode)" in " ".join(cli("generate", "--help").output.split())
