"""Hugging Face export/import: lossless round trip, table contents, the card, offline loading."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

pytest.importorskip("pyarrow")
import pyarrow.parquet as pq  # noqa: E402

from fixtures import TINY  # noqa: E402
from proevent.agents import build_observation  # noqa: E402
from proevent.cli import app  # noqa: E402
from proevent.integrations.hf import CASES_PARQUET, QUESTIONS_PARQUET, export_hf, import_hf  # noqa: E402
from proevent.integrations.hf_card import field_descriptions  # noqa: E402
from proevent.io import FormatError, dumps_line, load_dataset, sha256_file, write_dataset  # noqa: E402
from proevent.model import Case, Timetable  # noqa: E402


def _same_files(a: Path, b: Path) -> None:
    assert (a / "cases.jsonl").read_bytes() == (b / "cases.jsonl").read_bytes()
    assert (a / "dataset.json").read_bytes() == (b / "dataset.json").read_bytes()


def test_round_trip_of_tiny_is_byte_identical(tmp_path: Path) -> None:
    result = export_hf(TINY, tmp_path / "hf")
    assert (result.cases, result.questions) == (5, 14)
    assert sorted(p.name for p in (tmp_path / "hf").iterdir()) == [
        "README.md", "cases.parquet", "dataset.json", "questions.parquet"]
    import_hf(tmp_path / "hf", tmp_path / "back")
    _same_files(TINY, tmp_path / "back")


def test_questions_table_holds_each_step_with_the_gold_timetable_before_it(tmp_path: Path) -> None:
    export_hf(TINY, tmp_path / "hf")
    rows = pq.read_table(tmp_path / "hf" / QUESTIONS_PARQUET).to_pylist()
    ds = load_dataset(TINY)
    assert [r["question_id"] for r in rows] == [f"{c.case_id}/{t}" for c, t in ds.questions()]
    # examples/README.md: the questions without gold operations are tiny-01 t3, tiny-02 t2, tiny-05 t2
    assert sorted(r["question_id"] for r in rows if not r["needs_action"]) == ["tiny-01/3", "tiny-02/2", "tiny-05/2"]
    by_id = {r["question_id"]: r for r in rows}
    case = ds.case("tiny-01")
    q2 = by_id["tiny-01/2"]
    assert q2["timetable_before"] == [e.model_dump(mode="json") for e in case.steps[0].gold_timetable]
    assert by_id["tiny-01/1"]["timetable_before"] == [e.model_dump(mode="json") for e in case.initial_timetable]
    assert q2["messages"] == [m.model_dump(mode="json") for m in case.steps[1].messages]
    assert q2["chats"] == [c.model_dump(mode="json") for c in case.chats]
    assert q2["gold_timetable"] == [e.model_dump(mode="json") for e in case.steps[1].gold_timetable]
    assert by_id["tiny-01/1"]["gold_op_types"] == ["insert", "insert"]
    assert by_id["tiny-01/1"]["n_messages"] == 5
    assert sum(r["n_gold_ops"] for r in rows) == 13
    assert [r["op"] for r in json.loads(q2["gold_ops"])] == ["update"]


def test_each_question_carries_the_k_earlier_messages_an_agent_sees(tmp_path: Path) -> None:
    """``context`` is the observation's: per chat with news, its last K messages of earlier steps."""
    export_hf(TINY, tmp_path / "hf", context_messages=2)
    table = pq.read_table(tmp_path / "hf" / QUESTIONS_PARQUET)
    assert table.schema.metadata[b"proevent.context_messages"] == b"2"
    rows = {r["question_id"]: r for r in table.to_pylist()}
    ds = load_dataset(TINY)
    # tiny-01 step 2: news in c1 only; step 1 had three c1 messages, K=2 keeps the last two (by hand:
    # the same pair tests/agents/test_agent_protocol.py checks)
    c1_before = [m.model_dump(mode="json") for m in ds.case("tiny-01").steps[0].messages if m.chat_id == "c1"]
    assert rows["tiny-01/2"]["context"] == c1_before[-2:]
    assert rows["tiny-01/1"]["context"] == []  # nothing came before step 1
    for case, t in ds.questions():
        obs = build_observation(case, t, Timetable(case.timetable_before(t)), mode="single", context_messages=2)
        want = [m.model_dump(mode="json") for u in obs.chats for m in u.context]
        assert rows[f"{case.case_id}/{t}"]["context"] == want, (case.case_id, t)
    export_hf(TINY, tmp_path / "hf0", context_messages=0)
    assert all(not r["context"] for r in pq.read_table(tmp_path / "hf0" / QUESTIONS_PARQUET).to_pylist())


def test_questions_nest_events_messages_and_chats_and_keep_gold_ops_as_json(tmp_path: Path) -> None:
    export_hf(TINY, tmp_path / "hf")
    schema = pq.read_schema(tmp_path / "hf" / QUESTIONS_PARQUET)
    for name in ("timetable_before", "gold_timetable", "context", "messages", "chats"):
        assert str(schema.field(name).type).startswith("list<element: struct<"), name
    assert str(schema.field("timetable_before").type.value_type.field("participants").type) == "list<element: string>"
    assert str(schema.field("gold_ops").type) == "string"


def test_cases_table_has_convenience_columns(tmp_path: Path) -> None:
    export_hf(TINY, tmp_path / "hf")
    rows = pq.read_table(tmp_path / "hf" / CASES_PARQUET).to_pylist()
    assert [r["case_id"] for r in rows] == ["tiny-01", "tiny-02", "tiny-03", "tiny-04", "tiny-05"]
    assert [r["n_steps"] for r in rows] == [3, 3, 2, 3, 3]
    assert rows[0]["category"] == "leisure" and rows[0]["extra"] == "{}"


def test_card_has_statistics_every_field_and_a_licence_placeholder(tmp_path: Path) -> None:
    export_hf(TINY, tmp_path / "hf")
    card = (tmp_path / "hf" / "README.md").read_text(encoding="utf-8")
    assert card.startswith("---\nlicense: other\n")
    assert "| cases | 5 |" in card and "| gold operations | 13 |" in card and "| — delete | 2 |" in card
    assert "Licence placeholder: choose a licence before publishing" in card
    assert 'load_dataset("parquet"' in card
    assert "pypi.org" not in card and "pip install 'proevent[hf]'" not in card
    assert "proevent is not on a package index; install it from" in card
    assert "its 20 earlier messages" in card and "a feature holds one type" in card
    assert "- Generator: seed 0 (the full record is `generator` in `dataset.json`)" in card
    for table, names in (("questions", QUESTIONS_PARQUET), ("cases", CASES_PARQUET)):
        schema = pq.read_schema(tmp_path / "hf" / names)
        meanings = field_descriptions()[table]
        assert set(meanings) == set(schema.names), table
        for name in schema.names:
            assert f"| `{name}` |" in card


def test_cases_parquet_alone_is_enough(tmp_path: Path) -> None:
    export_hf(TINY, tmp_path / "hf")
    (tmp_path / "hf" / "dataset.json").unlink()
    import_hf(tmp_path / "hf" / CASES_PARQUET, tmp_path / "back")
    _same_files(TINY, tmp_path / "back")


def test_unknown_fields_and_free_form_values_survive(tmp_path: Path) -> None:
    """Fields outside the format (ignored by readers, kept by the export), odd meta values, and
    update values of every type come back exactly, in the original key order."""
    src = tmp_path / "src"
    src.mkdir()
    lines = []
    for raw in (json.loads(line) for line in (TINY / "cases.jsonl").read_text(encoding="utf-8").splitlines()):
        raw = {"x_note": {"a": [1, 2.5, None]}, **raw, "x_tail": "ü"}
        raw["meta"] = {**raw["meta"], "weird": [{"k": True}, 1e-9], "negotiation_turns": "three"}
        lines.append(dumps_line(raw))
    (src / "cases.jsonl").write_text("".join(lines), encoding="utf-8")
    manifest = json.loads((TINY / "dataset.json").read_text())
    manifest["sha256"]["cases.jsonl"] = sha256_file(src / "cases.jsonl")
    (src / "dataset.json").write_text(json.dumps(manifest, indent=2) + "\n")
    export_hf(src, tmp_path / "hf")
    import_hf(tmp_path / "hf", tmp_path / "back")
    _same_files(src, tmp_path / "back")
    first = pq.read_table(tmp_path / "hf" / CASES_PARQUET).to_pylist()[0]
    assert first["negotiation_turns"] is None  # not an int: the convenience column stays empty
    assert json.loads(first["extra"]) == {"x_note": {"a": [1, 2.5, None]}, "x_tail": "ü"}


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_json_leaf = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False) | _text
_json = st.recursive(_json_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
                     max_leaves=8)


@st.composite
def _cases(draw: st.DrawFn) -> list[Case]:
    base = load_dataset(TINY).cases
    out = []
    for k, case in enumerate(draw(st.lists(st.sampled_from(base), min_size=1, max_size=4))):
        data = case.model_dump(mode="json")
        data["case_id"] = f"c{k}-{draw(_text)}"
        data["user"] = draw(_text)
        data["meta"] = draw(st.dictionaries(_text, _json, max_size=4))
        data["timezone"] = draw(st.none() | st.sampled_from(["Europe/Paris", "Asia/Tokyo"]))
        for step in data["steps"]:
            for msg in step["messages"]:
                msg["text"] = draw(_text)
            for op in step["gold_ops"]:
                if op["op"] == "update" and op["attribute"] in ("location", "description"):
                    op["value"] = draw(st.none() | _text)
        out.append(Case.model_validate(data))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cases=_cases())
def test_round_trip_property(tmp_path_factory: pytest.TempPathFactory, cases: list[Case]) -> None:
    root = tmp_path_factory.mktemp("prop")
    write_dataset(root / "src", cases, name="prop", version="0", created="2026-11-29T12:00",
                  generator={"seed": 1, "config": {"x": [1, None]}})
    export_hf(root / "src", root / "hf")
    import_hf(root / "hf", root / "back")
    _same_files(root / "src", root / "back")


def test_broken_json_column_is_reported_with_row_and_column(tmp_path: Path) -> None:
    import pyarrow as pa

    export_hf(TINY, tmp_path / "hf")
    path = tmp_path / "hf" / CASES_PARQUET
    table = pq.read_table(path)
    steps = table.column("steps").to_pylist()
    steps[2] = steps[2][:-5]
    table = table.set_column(table.schema.get_field_index("steps"), "steps", pa.array(steps, pa.string()))
    pq.write_table(table, path)
    with pytest.raises(FormatError) as err:
        import_hf(tmp_path / "hf", tmp_path / "back")
    assert err.value.problems[0].startswith("cases.parquet: row 2: steps: not valid JSON")


def test_export_refuses_a_broken_dataset(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "cases.jsonl").write_text((TINY / "cases.jsonl").read_text(encoding="utf-8") + "{oops\n")
    (src / "dataset.json").write_text((TINY / "dataset.json").read_text())
    with pytest.raises(FormatError):
        export_hf(src, tmp_path / "hf")
    assert not (tmp_path / "hf").exists()


def test_cli_export_import_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["export", "hf", str(TINY), str(tmp_path / "hf")])
    assert res.exit_code == 0, res.output
    assert "5 cases and 14 questions" in res.output
    assert runner.invoke(app, ["export", "hf", str(TINY), str(tmp_path / "hf")]).exit_code == 1
    assert runner.invoke(app, ["export", "hf", str(TINY), str(tmp_path / "hf"), "--force"]).exit_code == 0
    res = runner.invoke(app, ["import", "hf", str(tmp_path / "hf"), "--out", str(tmp_path / "back")])
    assert res.exit_code == 0, res.output
    _same_files(TINY, tmp_path / "back")
    res = runner.invoke(app, ["import", "hf", str(tmp_path / "nowhere"), "--out", str(tmp_path / "b2")])
    assert res.exit_code == 1 and "file not found" in res.output


@pytest.mark.slow
def test_datasets_load_dataset_offline(tmp_path: Path) -> None:
    """``datasets`` reads the export without the network: plain Parquet, and the card's configs."""
    pytest.importorskip("datasets")
    export_hf(TINY, tmp_path / "hf")
    script = """
import json, sys
from datasets import load_dataset
folder = sys.argv[1]
q = load_dataset("parquet", data_files={"test": folder + "/questions.parquet"})["test"]
c = load_dataset("parquet", data_files=folder + "/cases.parquet", split="train")
by_config = load_dataset(folder, "cases", split="test")
default = load_dataset(folder, split="test")
print(json.dumps({"questions": q.num_rows, "cases": c.num_rows, "by_config": by_config.num_rows,
                  "default": default.num_rows, "first": q[0]["question_id"],
                  "steps": len(json.loads(c[0]["steps"])),
                  "features": {k: repr(q.features[k]) for k in ("timetable_before", "context", "gold_ops")},
                  "participants": q[1]["timetable_before"][0]["participants"]}))
"""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
           "HF_HOME": str(tmp_path / "hf-home"), "HF_DATASETS_CACHE": str(tmp_path / "hf-cache")}
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path / "hf")], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    features = got.pop("features")
    assert got.pop("participants") == ["Jerry Chen"]  # tiny-01's dentist, the first event before step 2
    assert got == {"questions": 14, "cases": 5, "by_config": 5, "default": 14, "first": "tiny-01/1", "steps": 3}
    # nested features, not strings: a list of event structs, a list of message structs
    assert "'participants': List(Value('string'))" in features["timetable_before"] or \
        "'participants': Sequence(feature=Value(dtype='string'" in features["timetable_before"], features
    assert "'sender': Value(" in features["context"] and features["gold_ops"].startswith("Value("), features
