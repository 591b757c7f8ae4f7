"""bench/judge_blind.py on five hand-made pairs: the export holds exactly the ``llm`` judge's
requests and no label; answers replayed through the real judge score as hand-computed."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_load("blind_check")
jb = _load("judge_blind")

PAIRS = [  # id, gold, pred, label
    ("p1", "Green Cafe, 5th Ave", "green cafe on 5th", "same"),
    ("p2", "Room 4", "Room 4B", "different"),
    ("p3", "Rosa's", "rosa's", "same"),  # equal once normalised: decided without a request
    ("p4", "Hilton, Room 204", "Hilton", "same"),
    ("p5", "Golden Dragon, Oakland", "Golden Dragon, Berkeley", "different"),
]


@pytest.fixture
def pairs(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(
        json.dumps({"id": i, "category": "typo", "gold": g, "pred": p, "description": "dinner with Sam",
                    "label": label}) + "\n" for i, g, p, label in PAIRS), encoding="utf-8")
    return path


def _answer(folder: Path, verdicts: dict[str, str]) -> None:
    """Answer each prompt by the Location B it names (``verdicts``: B -> reply text)."""
    lines = []
    for row in map(json.loads, (folder / "prompts.jsonl").read_text(encoding="utf-8").splitlines()):
        text = row["messages"][-1]["content"]
        b = text.split("Location B: ", 1)[1].split("\n", 1)[0]
        lines.append(json.dumps({"qid": row["qid"], "content": verdicts[b]}) + "\n")
    (folder / "answers.jsonl").write_text("".join(lines), encoding="utf-8")


def test_the_export_is_the_judges_requests_without_labels(tmp_path: Path, pairs: Path) -> None:
    out = tmp_path / "q"
    assert jb.main(["export", str(pairs), "--out", str(out)]) == 0
    rows = [json.loads(line) for line in (out / "prompts.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["qid"] for r in rows] == ["q001", "q002", "q003", "q004"]  # p3 needs no request
    assert all(len(r["messages"]) == 1 and r["messages"][0]["role"] == "user" for r in rows)
    text = (out / "prompts.md").read_text(encoding="utf-8")
    assert "Location A: Room 4\nLocation B: Room 4B" in text and "dinner with Sam" in text
    exported = text + (out / "prompts.jsonl").read_text(encoding="utf-8")
    assert "label" not in exported and not any(f'"{i}"' in exported for i, *_ in PAIRS)
    assert json.loads((out / "key.json").read_text())["files"].keys() == {"pairs.jsonl"}


def test_replayed_answers_score_as_hand_computed(tmp_path: Path, pairs: Path, capsys) -> None:
    out = tmp_path / "q"
    jb.main(["export", str(pairs), "--out", str(out)])
    _answer(out, {"green cafe on 5th": '{"same": true}', "Room 4B": '{"same": false}',
                  "Hilton": '{"same": false}', "Golden Dragon, Berkeley": "perhaps"})
    figures = jb.score([pairs], out)
    row = figures["sets"]["pairs.jsonl"]
    # said same: p1 (right), p3 (normalised equal, right); p4 missed; p5's unparseable verdict is "different".
    assert (row["llm"]["tp"], row["llm"]["fp"], row["llm"]["fn"], row["llm"]["tn"]) == (2, 0, 1, 2)
    assert row["llm"]["precision"] == 1.0 and row["llm"]["recall"] == pytest.approx(2 / 3)
    assert [{e["a"], e["b"]} for e in row["judge_errors"]] == [{"golden dragon oakland", "golden dragon berkeley"}]
    assert [w["id"] for w in row["wrong"]] == ["p4"]
    assert figures["unanswered_requests"] == 0
    jb.print_report(figures)
    assert "said different: p4" in capsys.readouterr().out


def test_another_pairs_file_is_refused(tmp_path: Path, pairs: Path, capsys) -> None:
    out = tmp_path / "q"
    jb.main(["export", str(pairs), "--out", str(out)])
    _answer(out, dict.fromkeys(["green cafe on 5th", "Room 4B", "Hilton", "Golden Dragon, Berkeley"],
                               '{"same": true}'))
    pairs.write_text(pairs.read_text().replace("Room 4B", "Room 5"), encoding="utf-8")
    assert jb.main(["score", str(pairs), str(out)]) == 2
    assert "not the file the prompts were exported from" in capsys.readouterr().err


RECORDED = ROOT / "bench" / "data" / "judge_blind"
DATA = ROOT / "src" / "proevent" / "evaluate" / "data"


@pytest.mark.parametrize(("folder", "sets"), [
    # a blind reader's answers to the llm judge's prompts (docs/metrics.md): P / R per labelled set
    ("fresh11_12", {"location_pairs.fresh11.jsonl": (1.0, 101 / 111),
                    "location_pairs.fresh12.jsonl": (105 / 110, 105 / 108)}),
    ("fresh13", {"location_pairs.fresh13.jsonl": (101 / 104, 101 / 114)}),
    ("fresh14", {"location_pairs.fresh14.jsonl": (1.0, 87 / 100)}),
])
def test_the_recorded_blind_answers_replay_to_their_figures(folder, sets) -> None:
    figures = jb.score([DATA / name for name in sets], RECORDED / folder)
    assert figures["unanswered_requests"] == 0
    for name, (precision, recall) in sets.items():
        row = figures["sets"][name]
        assert row["judge_errors"] == []
        assert row["llm"]["precision"] == pytest.approx(precision) and row["llm"]["recall"] == pytest.approx(recall)
