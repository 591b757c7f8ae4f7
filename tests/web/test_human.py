from __future__ import annotations

import json
from pathlib import Path

import pytest

from proevent.agents.protocol import build_observation
from proevent.evaluate import evaluate
from proevent.io import load_dataset, load_run
from proevent.model import Timetable, op_to_json
from proevent.runner import RunDriftError, RunLockedError
from proevent.web.config import ServeConfig
from proevent.web.human import DRAFTS_FILE, HumanSession, Item, StaleQuestion, sample_cases


def _session(dataset_dir: Path, out: Path, **kw) -> HumanSession:
    cfg = ServeConfig(dataset=dataset_dir, human="Ann", out=out, **kw)
    return HumanSession.open(load_dataset(dataset_dir), cfg)


def test_sampling_is_seeded(dataset_dir: Path) -> None:
    ds = load_dataset(dataset_dir)
    picks = {tuple(c.case_id for c in sample_cases(ds, 2, seed)) for seed in range(20)}
    assert all(len(p) == 2 and list(p) == sorted(p) for p in picks) and len(picks) > 1
    assert sample_cases(ds, 2, 7) == sample_cases(ds, 2, 7)
    assert [c.case_id for c in sample_cases(ds, None, 0)] == ["pe-001", "pe-002", "pe-003"]


def test_observation_is_the_one_an_agent_sees(dataset_dir: Path, tmp_path: Path) -> None:
    s = _session(dataset_dir, tmp_path / "h", context=1)
    s.submit(Item("pe-001", 1))
    obs = s.observation(Item("pe-001", 2))
    s.close()
    case = load_dataset(dataset_dir).case("pe-001")
    assert obs == build_observation(case, 2, Timetable(case.steps[0].gold_timetable), mode="single",
                                    context_messages=1)
    assert obs.user == "Jerry Chen" and obs.now == "2026-03-09T16:00"
    assert [c.chat.chat_id for c in obs.chats] == ["c1"]  # only chats with new messages
    assert [m.text for m in obs.chats[0].new] == ["works for me", "great, saturday 9-13 at Blue Ridge trailhead"]
    assert [m.sender for m in obs.chats[0].context] == ["Jerry Chen"]  # the last 1 earlier message
    assert [e.id for e in obs.timetable.events] == ["e1", "e2"]


def test_answers_are_validated_saved_and_scored(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "human-ann"
    s = _session(dataset_dir, out)
    ds = load_dataset(dataset_dir)
    assert s.current() == Item("pe-001", 1)
    s.submit(Item("pe-001", 1))  # nothing to do at step 1
    step2 = Item("pe-001", 2)
    with pytest.raises(ValueError, match="unknown id 'e3'"):
        s.add_op(step2, {"op": "delete", "id": "e3"})  # not in S_1
    with pytest.raises(StaleQuestion):
        s.add_op(Item("pe-001", 1), {"op": "delete", "id": "e1"})  # already answered
    s.add_op(step2, op_to_json(ds.case("pe-001").steps[1].gold_ops[0]))
    s.add_op(step2, {"op": "delete", "id": "e1"})
    with pytest.raises(ValueError, match="deleted earlier in this step"):
        s.add_op(step2, {"op": "update", "id": "e1", "attribute": "location", "value": "x"})
    with pytest.raises(ValueError, match="start"):
        s.add_op(step2, {"op": "update", "id": "e2", "attribute": "start", "value": "tomorrow"})
    assert [e.id for e in s.preview(step2).events] == ["e2", "e3"]
    s.remove_op(step2, 1)  # take the delete back
    s.submit(step2)
    assert s.progress() == (2, 8)
    s.close()

    run = load_run(out)
    assert run.manifest.agent == "human:Ann" and run.manifest.dataset.sha256 == ds.sha256
    assert run.manifest.parameters == {"mode": "single", "sample": None, "seed": 0, "context": 20}
    assert [k for k in run.lines] == [("pe-001", "single", 1, 0), ("pe-001", "single", 2, 0)]
    res = evaluate(ds, run, ci=False)
    single = res.metrics["single"]
    assert single["questions"] == 8 and single["missing"] == 6
    assert single["precision"] == 1.0 and single["recall"] == pytest.approx(1 / 5)
    drafts = [json.loads(line) for line in (out / DRAFTS_FILE).read_text().splitlines()]
    assert [len(d["ops"]) for d in drafts] == [1, 2, 1]


def test_resume_restores_answers_and_drafts(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "h"
    s = _session(dataset_dir, out, sample=2, seed=3)
    first = s.current()
    s.submit(first)
    second = s.current()
    s.add_op(second, {"op": "delete", "id": "e1"})
    s.close()
    with (out / DRAFTS_FILE).open("a") as fh:
        fh.write('{"case_id": "pe-0')  # a crash mid-line
    again = _session(dataset_dir, out, sample=2, seed=3)
    assert again.current() == second and again.progress()[0] == 1
    assert again.draft(second) == [{"op": "delete", "id": "e1"}]
    assert load_dataset(out / "sample").manifest.counts.cases == 2
    with pytest.raises(RunLockedError, match="another process"):  # a second server on the same folder
        _session(dataset_dir, out, sample=2, seed=3)
    again.close()
    with pytest.raises(RunDriftError, match=r"differs in: .*agent_description\.seed"):
        _session(dataset_dir, out, sample=2, seed=4)
    with pytest.raises(RunDriftError, match=r"differs in: agent, agent_description\.person"):
        HumanSession.open(load_dataset(dataset_dir),
                          ServeConfig(dataset=dataset_dir, human="Bob", out=out, sample=2, seed=3))


def test_multi_mode_carries_the_persons_own_timetable(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "multi"
    ds = load_dataset(dataset_dir)
    s = _session(dataset_dir, out, mode="multi")
    s.submit(Item("pe-001", 1))
    wrong = {"op": "insert", "event": {"start": "2026-03-14T09:00", "end": "2026-03-14T13:00",
                                       "location": "Blue Ridge", "participants": ["Jerry Chen"],
                                       "description": "hike"}}
    s.add_op(Item("pe-001", 2), wrong)
    s.add_op(Item("pe-001", 2), {"op": "delete", "id": "e2"})
    s.submit(Item("pe-001", 2))
    own = s.timetable(Item("pe-001", 3))
    assert [e.id for e in own.events] == ["e1", "e3"]  # its own history, not the gold S_2
    assert own["e3"].participants == ["Jerry Chen"]
    while (item := s.current()) is not None:  # answer the rest with the gold
        for op in ds.case(item.case_id).steps[item.t - 1].gold_ops:
            try:
                s.add_op(item, op_to_json(op))
            except ValueError:
                pass
        s.submit(item)
    s.close()
    res = evaluate(ds, load_run(out), ci=False)
    multi = res.metrics["multi"]
    assert multi["cases"] == 3 and multi["missing"] == 0
    assert multi["tsr"] == pytest.approx(2 / 3)  # pe-001 went wrong at step 2, the others are gold


def test_a_step_without_messages_is_answered_without_being_shown(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "quiet"
    s = _session(dataset_dir, out)
    for t in (1, 2, 3):  # pe-001: steps 1-3 have messages, step 4 none
        assert s.current() == Item("pe-001", t)
        s.submit(Item("pe-001", t))
    assert s.current() == Item("pe-002", 1) and s.progress() == (4, 8)
    s.close()
    lines = load_run(out).lines
    quiet = lines["pe-001", "single", 4, 0]
    assert quiet.ops == [] and quiet.model_extra["skipped"] == "no new messages"
    assert ("pe-002", "single", 1, 0) not in lines  # nothing written ahead of the person
    again = _session(dataset_dir, out)
    assert again.current() == Item("pe-002", 1) and again.progress() == (4, 8)
    again.close()
    assert len((out / "predictions.jsonl").read_text().splitlines()) == 4  # resuming wrote nothing twice


def test_the_last_answer_can_be_taken_back_and_the_new_line_counts(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "back"
    ds = load_dataset(dataset_dir)
    s = _session(dataset_dir, out)
    assert s.previous() is None
    first, second = Item("pe-001", 1), Item("pe-001", 2)
    s.submit(first)
    s.add_op(second, {"op": "delete", "id": "e1"})
    s.submit(second)
    with pytest.raises(StaleQuestion, match="only the last answer"):
        s.take_back(first)
    assert s.previous() == second
    s.take_back(second)
    assert s.current() == second and s.draft(second) == [{"op": "delete", "id": "e1"}]
    assert s.progress() == (1, 8) and s.previous() == first
    s.remove_op(second, 0)
    s.add_op(second, op_to_json(ds.case("pe-001").steps[1].gold_ops[0]))
    s.submit(second)
    s.close()
    run = load_run(out)
    assert run.duplicates == 1
    assert run.lines["pe-001", "single", 2, 0].ops == [op_to_json(ds.case("pe-001").steps[1].gold_ops[0])]
    again = _session(dataset_dir, out)
    assert again.current() == Item("pe-001", 3) and again.previous() == second
    again.close()


def test_taking_back_passes_over_steps_answered_without_being_shown(dataset_dir: Path, tmp_path: Path) -> None:
    s = _session(dataset_dir, tmp_path / "h")
    for t in (1, 2, 3):
        s.submit(Item("pe-001", t))
    assert s.current() == Item("pe-002", 1) and s.previous() == Item("pe-001", 3)  # step 4 was quiet
    s.take_back(Item("pe-001", 3))
    assert s.current() == Item("pe-001", 3)
    s.submit(Item("pe-001", 3))
    assert s.current() == Item("pe-002", 1)  # the quiet step keeps its answer
    s.close()


def test_a_human_run_folder_resumes_like_an_agent_run_and_evaluates(dataset_dir: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from proevent.cli import app
    from proevent.runner import config_hash

    out = tmp_path / "human-ann"
    s = _session(dataset_dir, out)
    s.submit(Item("pe-001", 1))
    s.add_op(Item("pe-001", 2), {"op": "delete", "id": "e1"})
    s.submit(Item("pe-001", 2))
    s.close()
    with (out / "predictions.jsonl").open("a") as fh:
        fh.write('{"case_id": "pe-001", "mode": "sin')  # the server was killed mid-line
    manifest = json.loads((out / "run.json").read_text())
    assert manifest["identity"]["agent"] == "human:Ann" and manifest["config_hash"] == config_hash(manifest["identity"])
    again = _session(dataset_dir, out)  # the runner's store cuts the torn tail and resumes
    assert again.current() == Item("pe-001", 3) and again.progress() == (2, 8)
    again.close()
    assert (out / "predictions.jsonl").read_text().endswith("\n")
    assert len((out / "predictions.jsonl").read_text().splitlines()) == 2
    cli = CliRunner()
    refused = cli.invoke(app, ["run", str(dataset_dir), "--agent", "null", "--out", str(out), "--no-progress"])
    assert refused.exit_code == 1 and "made with another configuration (differs in: agent" in refused.output
    res = cli.invoke(app, ["evaluate", str(dataset_dir), str(out), "--no-ci"])
    assert res.exit_code == 0, res.output
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["single"]["questions"] == 8 and metrics["single"]["missing"] == 6
    assert metrics["single"]["precision"] == 0.0  # the delete of e1 at step 2 is not gold
