"""Batch files at the client level: the recorded body is the one the live client posts, imported
answers and errors are used as the server's replies, unreadable lines are named, and the ``llm``
judge records through ``PROEVENT_BATCH_OUT`` without any change of its own."""

from __future__ import annotations

import json

import pytest

from fixtures import load_example_run, load_tiny
from proevent.cli.rounds import print_round
from proevent.evaluate import JudgeFailed, evaluate
from proevent.llm import LLMClient, LLMConfig, LLMError, ResponseCache
from proevent.llm.batchfile import BatchRecorder, import_batch_files
from proevent.llm.client import EndpointRefused, PendingError
from proevent.runner.rounds import PendingWork
from support.scripted_server import Reply

MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "plans for saturday? \ud800"}]


def config(server, tmp_path, **kw) -> LLMConfig:
    return LLMConfig(model="scripted", base_urls=[server.base_url], cache_path=tmp_path / "c.sqlite",
                     temperature=0.3, seed=7, max_tokens=50, extra_body={"top_p": 0.9}, backoff_s=0.01, **kw)


def completion(text: str, usage: tuple[int, int] = (11, 3)) -> dict:
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)}}


async def test_the_recorded_body_is_the_live_body_and_the_answer_is_used_as_a_reply(scripted_server, tmp_path):
    scripted_server.default = lambda req: Reply(content='{"ops": []}')
    async with LLMClient(config(scripted_server, tmp_path, cache=False)) as live:
        await live.chat(MESSAGES)
    sent = scripted_server.requests[0]
    batch = tmp_path / "requests.jsonl"
    async with LLMClient(config(scripted_server, tmp_path), recorder=BatchRecorder(batch)) as client:
        with pytest.raises(PendingError, match="custom_id"):
            await client.chat(MESSAGES)
        with pytest.raises(PendingError):
            await client.chat(MESSAGES)  # asked again: still one line
    lines = [json.loads(t) for t in batch.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 1 and lines[0]["method"] == "POST" and lines[0]["url"] == "/v1/chat/completions"
    assert lines[0]["body"] == sent  # model, messages (the lone surrogate as U+FFFD), parameters, JSON mode
    assert len(scripted_server.requests) == 1  # recording sent nothing

    out = tmp_path / "answers.jsonl"
    out.write_text(json.dumps({"custom_id": lines[0]["custom_id"], "response": completion('{"ops": [1]}')}) + "\n")
    cache = ResponseCache(tmp_path / "c.sqlite")
    report = import_batch_files([out], cache, price_factor=0.5)
    cache.close()
    assert (report.answers, report.errors, report.problems) == (1, 0, [])
    cfg = config(scripted_server, tmp_path, price={"input": 1e6, "output": 1e6})
    async with LLMClient(cfg, recorder=None) as client:
        got = await client.chat(MESSAGES)
        again = await client.chat(MESSAGES)
    # a request with its usage, at half the price (11 + 3 tokens at $1 each), then an ordinary cache hit
    assert got.text == '{"ops": [1]}' and not got.cached and got.cost_usd == pytest.approx(7.0)
    assert client.totals.requests == 1 and again.cached and client.totals.cache_hits == 1
    assert len(scripted_server.requests) == 1


async def test_imported_errors_are_the_servers_errors_once(scripted_server, tmp_path):
    cfg = config(scripted_server, tmp_path)
    batch = tmp_path / "requests.jsonl"
    other = [{"role": "user", "content": "another question"}]
    async with LLMClient(cfg, recorder=BatchRecorder(batch)) as client:
        for messages in (MESSAGES, other):
            with pytest.raises(PendingError):
                await client.chat(messages)
    ids = [json.loads(t)["custom_id"] for t in batch.read_text().splitlines()]
    out = tmp_path / "out.jsonl"
    out.write_text("\n".join([
        json.dumps({"id": "b1", "custom_id": ids[0], "response": {"status_code": 400, "body": {
            "error": {"message": "context too long"}}}, "error": None}),
        json.dumps({"id": "b2", "custom_id": ids[1], "response": None, "error": {"code": "model_not_found",
                                                                              "message": "no such model"}}),
        "not json", json.dumps({"response": {}}),
    ]) + "\n")
    cache = ResponseCache(cfg.cache_path)
    report = import_batch_files([out], cache)
    assert (report.answers, report.errors) == (0, 2)
    assert report.problems[0].startswith(f"{out}:3: ") and report.problems[1] == f"{out}:4: custom_id: missing or " \
        "not a string"
    cache.close()
    async with LLMClient(cfg, recorder=BatchRecorder(tmp_path / "round2.jsonl")) as client:
        with pytest.raises(LLMError, match="HTTP 400: context too long") as first:
            await client.chat(MESSAGES)
        assert not isinstance(first.value, (EndpointRefused, PendingError))
        with pytest.raises(LLMError, match="no such model"):
            await client.chat(other)
        with pytest.raises(PendingError):  # used once: asking again goes into the next batch file
            await client.chat(MESSAGES)


def test_an_existing_batch_file_is_never_overwritten(tmp_path):
    path = tmp_path / "requests.jsonl"
    path.write_text("{}\n")
    with pytest.raises(FileExistsError, match="give each round a new file"):
        BatchRecorder(path)
    with pytest.raises(ValueError, match="must be a file"):
        BatchRecorder(tmp_path)


def test_batch_mode_needs_the_cache(scripted_server, tmp_path):
    with pytest.raises(ValueError, match="needs the response cache"):
        LLMClient(config(scripted_server, tmp_path, cache=False), recorder=BatchRecorder(tmp_path / "r.jsonl"))


def test_the_llm_judge_records_through_the_environment(scripted_server, tmp_path, monkeypatch):
    """The judge builds its own client: PROEVENT_BATCH_OUT makes it record, and after the import
    the same evaluation is decided from the answers, as against the live server."""
    monkeypatch.setenv("PROEVENT_JUDGE_MODEL", "judge-model")
    monkeypatch.setenv("PROEVENT_JUDGE_BASE_URL", scripted_server.base_url)
    monkeypatch.setenv("PROEVENT_CACHE", str(tmp_path / "judge.sqlite"))
    batch = tmp_path / "judge-requests.jsonl"
    monkeypatch.setenv("PROEVENT_BATCH_OUT", str(batch))
    ds, run = load_tiny(), load_example_run("flawed")
    with pytest.raises(JudgeFailed, match="not answered yet") as failed:  # pending pairs are not decided
        evaluate(ds, run, judge="llm", ci=False)
    first = failed.value.result
    assert scripted_server.requests == []
    lines = [json.loads(t) for t in batch.read_text().splitlines()]
    assert len(lines) == len(first.judge_decisions) > 0
    assert all("not answered yet" in d.get("error", "") for d in first.judge_decisions)
    out = tmp_path / "judge-answers.jsonl"
    out.write_text("".join(json.dumps({"custom_id": x["custom_id"], "response": completion('{"same": true}')}) + "\n"
                           for x in lines))
    cache = ResponseCache(tmp_path / "judge.sqlite")
    import_batch_files([out], cache)
    cache.close()
    second = evaluate(ds, run, judge="llm", ci=False)
    assert all(d["same"] and "error" not in d for d in second.judge_decisions)
    monkeypatch.delenv("PROEVENT_BATCH_OUT")
    scripted_server.default = lambda req: Reply(content='{"same": true}')
    monkeypatch.setenv("PROEVENT_CACHE", str(tmp_path / "live.sqlite"))
    live = evaluate(ds, run, judge="llm", ci=False)
    assert json.dumps(live.metrics, sort_keys=True) == json.dumps(second.metrics, sort_keys=True)


def _encode(line: dict) -> bytes:
    return json.dumps(line).encode()


def test_a_batch_file_past_the_limits_goes_on_in_parts(tmp_path, capsys):
    path = tmp_path / "requests.jsonl"
    recorder = BatchRecorder(path, max_requests=2)
    for k in range(5):
        recorder.record(f"k{k}", {"n": k}, _encode)
    recorder.record("k1", {"n": 1}, _encode)  # a key written once, in whichever part
    recorder.close()
    parts = [path, tmp_path / "requests.2.jsonl", tmp_path / "requests.3.jsonl"]
    assert recorder.paths == parts and recorder.count == 5 and recorder.repeated == 1
    assert [[json.loads(t)["custom_id"] for t in p.read_text().splitlines()] for p in parts] == [
        ["k0", "k1"], ["k2", "k3"], ["k4"]]
    summary = type("Summary", (), {"batch_requests": 5, "pending": PendingWork(5, 10, 2)})()
    print_round(summary, path)  # the round's message names every part
    said = " ".join(capsys.readouterr().out.split())
    assert said.startswith(f"{path}, {parts[1]}, {parts[2]} (3 files: send each, import every output): 5 requests")
    # bytes: a part of two lines and a little more holds two of these lines
    size = len(_encode({"custom_id": "k0", "method": "POST", "url": "/v1/chat/completions", "body": {"n": 0}})) + 1
    by_size = BatchRecorder(tmp_path / "big.jsonl", max_bytes=2 * size + 5)
    for k in range(3):
        by_size.record(f"k{k}", {"n": k}, _encode)
    by_size.close()
    assert [len(p.read_text().splitlines()) for p in by_size.paths] == [2, 1]
    # a round that finds a part of an earlier round refuses before writing anything
    (tmp_path / "again.2.jsonl").write_text("{}\n")
    with pytest.raises(FileExistsError, match=r"again\.2\.jsonl: the batch file exists"):
        BatchRecorder(tmp_path / "again.jsonl")
    assert not (tmp_path / "again.jsonl").exists()



def test_evaluate_in_batch_mode_names_the_round_to_come(scripted_server, tmp_path, monkeypatch):
    """``proevent evaluate --judge llm`` with PROEVENT_BATCH_OUT: exit 6 with the pairs, the file and
    the one round to come; after the import the same command writes the metrics."""
    from typer.testing import CliRunner

    from fixtures import TINY, copy_run
    from proevent.cli import app
    from proevent.cli.rounds import EXIT_PENDING

    run = copy_run("flawed", tmp_path / "flawed")
    monkeypatch.setenv("PROEVENT_JUDGE_MODEL", "judge-model")
    monkeypatch.setenv("PROEVENT_JUDGE_BASE_URL", scripted_server.base_url)
    monkeypatch.setenv("PROEVENT_CACHE", str(tmp_path / "judge.sqlite"))
    batch = tmp_path / "judge-1.jsonl"
    monkeypatch.setenv("PROEVENT_BATCH_OUT", str(batch))
    r = CliRunner().invoke(app, ["evaluate", str(TINY), str(run), "--judge", "llm", "--no-ci"])
    lines = [json.loads(t) for t in batch.read_text().splitlines()]
    text = " ".join(r.output.split())
    assert r.exit_code == EXIT_PENDING, r.output
    assert (f"the llm judge's requests for {len(lines)} location pairs are in {batch} ({len(lines)} requests); "
            "1 round to come") in text and "metrics.json is unchanged" in text
    assert not (run / "metrics.json").exists() and scripted_server.requests == []
    out = tmp_path / "judge-answers-1.jsonl"
    out.write_text("".join(json.dumps({"custom_id": x["custom_id"], "response": completion('{"same": true}')}) + "\n"
                           for x in lines))
    assert CliRunner().invoke(app, ["batch", "import", str(out)]).exit_code == 0
    monkeypatch.setenv("PROEVENT_BATCH_OUT", str(tmp_path / "judge-2.jsonl"))
    r = CliRunner().invoke(app, ["evaluate", str(TINY), str(run), "--judge", "llm", "--no-ci"])
    assert r.exit_code == 0, r.output
    assert (run / "metrics.json").exists() and not (tmp_path / "judge-2.jsonl").exists()
