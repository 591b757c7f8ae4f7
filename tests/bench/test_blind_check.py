"""bench/blind_check.py on examples/tiny: the export holds exactly the plain agent's prompts and
nothing of the gold; answers replayed through the real plain agent score as hand-computed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from proevent.agents.llm.prompts import build_messages
from proevent.agents.protocol import build_observation
from proevent.io import load_dataset
from proevent.model import Timetable, op_to_json

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "examples" / "tiny"
_spec = importlib.util.spec_from_file_location("blind_check", ROOT / "bench" / "blind_check.py")
assert _spec is not None and _spec.loader is not None
bc = importlib.util.module_from_spec(_spec)
sys.modules["blind_check"] = bc
_spec.loader.exec_module(bc)

# examples/tiny: 13 steps, 11 with gold and messages (13 gold ops: 5 insert, 6 update, 2 delete),
# 2 without gold but with messages (tiny-02 t2, tiny-05 t2), 1 quiet step (tiny-01 t3).
GOLD_QUESTIONS, NO_GOLD = 11, {("tiny-02", 2), ("tiny-05", 2)}


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    out = tmp_path / "q"
    assert bc.main(["export", str(TINY), "--n", "100", "--no-gold", "5", "--seed", "0", "--out", str(out)]) == 0
    return out


def _key(folder: Path) -> dict[str, tuple[str, int]]:
    data = json.loads((folder / "key.json").read_text())
    return {qid: (q["case_id"], q["t"]) for qid, q in data["questions"].items()}


def _write_answers(folder: Path, answers: dict[str, str]) -> None:
    lines = [json.dumps({"qid": qid, "content": text}) for qid, text in answers.items()]
    (folder / "answers.jsonl").write_text("\n".join(lines) + "\n")


def _gold_answers(folder: Path) -> dict[str, str]:
    """What a perfect reader writes: the gold operations as the plain agent outputs them."""
    ds = load_dataset(TINY)
    return {qid: json.dumps({"ops": [op_to_json(op) for op in ds.case(c).steps[t - 1].gold_ops]})
            for qid, (c, t) in _key(folder).items()}


def test_export_holds_exactly_the_plain_prompts_and_no_gold(exported: Path) -> None:
    key = _key(exported)
    assert len(key) == GOLD_QUESTIONS + len(NO_GOLD)
    assert NO_GOLD <= set(key.values()) and ("tiny-01", 3) not in key.values()
    ds = load_dataset(TINY)
    lines = [json.loads(x) for x in (exported / "prompts.jsonl").read_text().splitlines()]
    assert [x["qid"] for x in lines] == sorted(key) == [f"q{i:03d}" for i in range(1, 14)]
    for line in lines:
        assert set(line) == {"qid", "messages"}
        case_id, t = key[line["qid"]]
        case = ds.case(case_id)
        before = case.initial_timetable if t == 1 else case.steps[t - 2].gold_timetable
        obs = build_observation(case, t, Timetable(before), mode="single", context_messages=20)
        assert line["messages"] == build_messages("plain", obs)
    for name in ("prompts.jsonl", "prompts.md"):
        text = (exported / name).read_text()
        assert "tiny-0" not in text and "gold" not in text
    md = (exported / "prompts.md").read_text()
    assert md.count("\n## q") == 13 and "answers.jsonl" in md and "### system" in md and "### user" in md


def test_export_is_seeded(tmp_path: Path) -> None:
    for name, seed in (("a", 0), ("b", 0), ("c", 1)):
        bc.export(TINY, tmp_path / name, n=4, no_gold=None, seed=seed)
    a, b, c = ((tmp_path / n / "prompts.jsonl").read_bytes() for n in "abc")
    assert a == b and a != c
    key = _key(tmp_path / "a")
    assert len(key) == 4 and not NO_GOLD & set(key.values())  # 4 // 5 = 0 questions without gold


def test_gold_answers_score_perfectly(exported: Path, tmp_path: Path) -> None:
    _write_answers(exported, _gold_answers(exported))
    out = tmp_path / "figures.json"
    assert bc.main(["score", str(TINY), str(exported), "--json", str(out)]) == 0
    s = json.loads(out.read_text())
    assert (s["precision"], s["recall"], s["fdr"], s["mnr"]) == (1.0, 1.0, 0.0, 0.0)
    assert (s["parse_errors"], s["invalid_ops"], s["misses"]) == (0, 0, [])
    assert (s["requests"], s["unknown_requests"], s["gold_questions"], s["no_gold_questions"]) == (13, 0, 11, 2)
    assert {t: (r["gold"], r["matched"]) for t, r in s["per_type"].items()} == {
        "insert": (5, 5), "update": (6, 6), "delete": (2, 2)}


def test_one_wrong_value_one_overreaction_one_parse_error(exported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers = _gold_answers(exported)
    qid = {v: k for k, v in _key(exported).items()}
    wrong = {"op": "update", "id": "e1", "attribute": "location", "value": "Conference Room C"}  # gold: ... B
    answers[qid["tiny-04", 2]] = json.dumps({"ops": [wrong]})
    extra = {"op": "insert", "event": {"start": "2026-07-05T10:00", "end": None, "location": None,
                                       "participants": ["Jerry Chen"], "description": "x"}}
    answers[qid["tiny-05", 2]] = json.dumps({"ops": [extra]})  # no gold here: a false detection
    answers[qid["tiny-03", 2]] = "I think they cancelled?"  # gold: delete e1; no JSON
    _write_answers(exported, answers)
    s = bc.score(TINY, exported)
    # matched 13 - 2 = 11; predicted 11 right + 1 wrong update + 1 extra insert = 13; gold 13.
    assert (s["precision"], s["recall"]) == (pytest.approx(11 / 13), pytest.approx(11 / 13))
    per = {t: (r["precision"], r["recall"]) for t, r in s["per_type"].items()}
    assert per == {"insert": (pytest.approx(5 / 6), 1.0), "update": (pytest.approx(5 / 6), pytest.approx(5 / 6)),
                   "delete": (1.0, 0.5)}
    assert (s["fdr"], s["mnr"], s["parse_errors"], s["unknown_requests"]) == (0.5, pytest.approx(1 / 11), 1, 0)
    misses = {m["qid"]: m for m in s["misses"]}
    assert set(misses) == {qid["tiny-04", 2], qid["tiny-05", 2], qid["tiny-03", 2]}
    assert misses[qid["tiny-04", 2]]["predicted"] == [wrong]
    assert misses[qid["tiny-03", 2]]["missed_gold"] == [{"op": "delete", "id": "e1"}]
    bc.print_report(s)
    printed = capsys.readouterr().out
    assert "precision 84.6%  recall 84.6%" in printed and "FDR (no gold) 50.0%" in printed
    assert '"value":"Conference Room C"' in printed and "unparseable answer" in printed


async def test_replay_server_answers_recorded_messages_only() -> None:
    known = [{"role": "user", "content": "hi"}]
    server = bc.ReplayServer({bc.canonical_hash(known): ("q001", '{"ops": []}')})
    base = await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            async def post(messages: list[dict[str, Any]]) -> tuple[int, Any]:
                async with session.post(f"{base}/chat/completions", json={"model": "m", "messages": messages}) as r:
                    return r.status, await r.json()

            status, body = await post([{"content": "hi", "role": "user"}])  # key order does not matter
            assert status == 200 and body["choices"][0]["message"]["content"] == '{"ops": []}'
            status, body = await post([{"role": "user", "content": "hello"}])
            assert status == 404 and "not one of the exported prompts" in body["error"]["message"]
    finally:
        await server.stop()
    assert [q for q, _ in server.requests] == ["q001", None]


def test_bad_answers_are_named_by_file_and_line(exported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (exported / "answers.jsonl").write_text('{"qid": "q001", "content": "{}"}\n{"qid": "q001"}\n{"qid": "q999", '
                                            '"content": ""}\n')
    assert bc.main(["score", str(TINY), str(exported)]) == 2
    err = capsys.readouterr().err
    assert "answers.jsonl:2: content: Field required" in err
    assert "answers.jsonl:3: qid: 'q999' is not one of the exported questions" in err
    _write_answers(exported, {"q001": "{}"})
    assert bc.main(["score", str(TINY), str(exported)]) == 2
    assert "answers.jsonl: no answer for q002, q003" in capsys.readouterr().err


def test_prompts_the_dataset_no_longer_gives_are_refused(exported: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_answers(exported, _gold_answers(exported))
    path = exported / "prompts.jsonl"
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    first["messages"][1]["content"] += " "
    path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    assert bc.main(["score", str(TINY), str(exported)]) == 2
    assert "prompts.jsonl: q001: the dataset no longer gives this prompt" in capsys.readouterr().err
