"""The ``llm`` judge measured on labelled pairs against the scripted server: the prompt it sends,
how verdicts are parsed and counted, its cache, and judge_decisions.jsonl."""

from __future__ import annotations

import json
import re
import shutil

from typer.testing import CliRunner

from fixtures import FLAWED_RUN, TINY
from llm import test_llm_judge
from proevent.cli import app
from proevent.evaluate import get_judge
from proevent.evaluate.placeset import Pair, score_judge
from support.scripted_server import Reply

judge_env = test_llm_judge.judge_env  # the judge's model pointed at the scripted server

PAIRS = [Pair("a", "qualifier_city", "Golden Dragon", "Golden Dragon, Oakland", "dinner with Mei", True),
         Pair("b", "different_room", "Room 4", "Room 4B", "seminar", False),
         Pair("c", "nickname_case", "the Met", "Metropolitan Museum of Art", "art day", True),
         Pair("d", "online", "Zoom", "Teams", "standup", False)]


def _answers(server, verdicts: dict[str, str]) -> None:
    """Answer each prompt by its location B: a JSON verdict, a bare word, or text that says neither."""
    def reply(req):
        prompt = req["messages"][-1]["content"]
        b = re.search(r"Location B: (.*)", prompt).group(1)
        return Reply(verdicts[b])
    server.default = reply


def test_llm_judge_on_labelled_pairs(judge_env) -> None:
    _answers(judge_env, {"Golden Dragon, Oakland": '{"same": true}', "Room 4B": "No.",
                         "Metropolitan Museum of Art": "I cannot tell", "Teams": '{"same": true}'})
    judge = get_judge("llm")
    score = score_judge(judge, PAIRS)
    # a: yes (tp); b: no (tn); c: unparseable, counted different (fn); d: yes though different (fp)
    assert (score.tp, score.tn, score.fn, score.fp) == (1, 1, 1, 1)
    assert score.precision == 0.5 and score.recall == 0.5
    prompts = [r["messages"][-1]["content"] for r in judge_env.requests]
    assert len(prompts) == 4
    assert any("Event: dinner with Mei starting at an unknown time with unknown people" in p for p in prompts)
    assert any("Location A: Room 4\nLocation B: Room 4B" in p for p in prompts)
    notes = {d["b"]: d.get("error") for d in judge.decisions()}
    assert notes["metropolitan museum of art"].startswith("unparseable verdict")
    score_judge(judge, PAIRS)  # decided already: no new request
    assert len(judge_env.requests) == 4
    fresh = get_judge("llm")  # a new judge reads the client's cache on disk for the JSON verdicts
    assert score_judge(fresh, PAIRS).tp == 1
    asked_again = [r["messages"][-1]["content"] for r in judge_env.requests[4:]]
    assert not any("Location B: Golden Dragon, Oakland" in p or "Location B: Teams" in p for p in asked_again)


def test_judge_check_cli_measures_llm_and_evaluate_writes_decisions(judge_env, tmp_path) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"id": p.id, "category": p.category, "gold": p.gold, "pred": p.pred,
                                        "description": p.description, "label": "same" if p.same else "different"})
                            + "\n" for p in PAIRS))
    judge_env.default = lambda req: Reply('{"same": true}')
    result = CliRunner().invoke(app, ["judge-check", "--pairs", str(path), "--json", str(tmp_path / "c.json")])
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "c.json").read_text())
    assert set(report["judges"]) == {"exact", "fuzzy", "places", "llm"}
    assert report["judges"]["llm"]["all"]["recall"] == 1.0 and report["judges"]["llm"]["all"]["precision"] == 0.5
    run_dir = tmp_path / "flawed"
    shutil.copytree(FLAWED_RUN, run_dir)
    result = CliRunner().invoke(app, ["evaluate", str(TINY), str(run_dir), "--judge", "llm", "--no-ci"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in (run_dir / "judge_decisions.jsonl").read_text().splitlines()]
    assert lines and all(d["same"] is True for d in lines)
