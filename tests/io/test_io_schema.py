"""The JSON Schemas: written by ``proevent schema``, valid, versioned, and agreeing with the models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from fixtures import FLAWED_RUN, PERFECT_RUN, TINY
from proevent.cli import app
from proevent.io.schema import all_schemas
from proevent.model import Case, PredictionLine, parse_op

EXPECTED_FILES = {
    "case.schema.json", "operation.schema.json", "event.schema.json", "chat.schema.json",
    "message.schema.json", "step.schema.json", "dataset.schema.json", "run.schema.json",
    "prediction.schema.json",
}


@pytest.fixture(scope="module")
def schemas(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Draft202012Validator]:
    out = tmp_path_factory.mktemp("schemas")
    result = CliRunner().invoke(app, ["schema", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert {Path(line).name for line in result.stdout.split()} == EXPECTED_FILES
    loaded = {}
    for path in out.iterdir():
        doc = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(doc)
        loaded[path.name.removesuffix(".schema.json")] = Draft202012Validator(doc)
    return loaded


def _errors(validator: Draft202012Validator, instance: object) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(instance)]


def test_files_are_versioned_and_valid(schemas: dict[str, Draft202012Validator]) -> None:
    assert set(schemas) == {name.removesuffix(".schema.json") for name in EXPECTED_FILES}
    for name, validator in schemas.items():
        doc = validator.schema
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert doc["$id"].endswith(f"/v1/{name}.schema.json")
        assert "/1" in doc["title"] or "format 1" in doc["title"]
    assert schemas["case"].schema["title"] == "proevent.case/1"
    assert schemas["dataset"].schema["title"] == "proevent.dataset/1"
    assert schemas["run"].schema["title"] == "proevent.run/1"


def test_schema_command_output_is_deterministic(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert CliRunner().invoke(app, ["schema", "--out", str(out)]).exit_code == 0
    assert {p.name: p.read_bytes() for p in a.iterdir()} == {p.name: p.read_bytes() for p in b.iterdir()}
    assert json.loads((a / "event.schema.json").read_text()) == all_schemas()["event.schema.json"]


def test_example_files_validate(schemas: dict[str, Draft202012Validator]) -> None:
    assert _errors(schemas["dataset"], json.loads((TINY / "dataset.json").read_text())) == []
    n_cases = 0
    for line in (TINY / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        n_cases += 1
        assert _errors(schemas["case"], case) == []
        for chat in case["chats"]:
            assert _errors(schemas["chat"], chat) == []
        for event in case["initial_timetable"]:
            assert _errors(schemas["event"], event) == []
        for step in case["steps"]:
            assert _errors(schemas["step"], step) == []
            for message in step["messages"]:
                assert _errors(schemas["message"], message) == []
            for op in step["gold_ops"]:
                assert _errors(schemas["operation"], op) == []
            for event in step["gold_timetable"]:
                assert _errors(schemas["event"], event) == []
    assert n_cases == 5
    for run in (PERFECT_RUN, FLAWED_RUN):
        assert _errors(schemas["run"], json.loads((run / "run.json").read_text())) == []
        for line in (run / "predictions.jsonl").read_text(encoding="utf-8").splitlines():
            assert _errors(schemas["prediction"], json.loads(line)) == []


GOOD_EVENT = {"start": "2026-03-14T09:00", "end": None, "location": "x", "participants": ["A"], "description": ""}

# Operations on which the schema and the pydantic model must agree (True = valid).
OPERATIONS = [
    ({"op": "insert", "event": GOOD_EVENT}, True),
    ({"op": "insert", "event": {**GOOD_EVENT, "start": "2026-03-14"}}, True),
    ({"op": "insert", "event": {**GOOD_EVENT, "start": "2026-03-14T09:00:59"}}, True),
    ({"op": "insert", "event": {**GOOD_EVENT, "id": "e9", "color": "red"}}, True),  # extra fields ignored
    ({"op": "insert", "event": {**GOOD_EVENT, "start": "2026-03-14 09:00"}}, False),
    ({"op": "insert", "event": {**GOOD_EVENT, "start": "2026-03-14T09:00+01:00"}}, False),
    ({"op": "insert", "event": {k: v for k, v in GOOD_EVENT.items() if k != "location"}}, False),
    ({"op": "insert", "event": {**GOOD_EVENT, "participants": "A"}}, False),
    ({"op": "update", "id": "e1", "attribute": "start", "value": "2026-03-14T10:00"}, True),
    ({"op": "update", "id": "e1", "attribute": "end", "value": None}, True),
    ({"op": "update", "id": "e1", "attribute": "start", "value": 5}, False),
    ({"op": "update", "id": "e1", "attribute": "start", "value": "tomorrow"}, False),
    ({"op": "update", "id": "e1", "attribute": "participants", "value": ["A", "B"]}, True),
    ({"op": "update", "id": "e1", "attribute": "participants", "value": "A, B"}, False),
    ({"op": "update", "id": "e1", "attribute": "location", "value": None}, True),
    ({"op": "update", "id": "e1", "attribute": "location", "value": 3}, False),
    ({"op": "update", "id": "e1", "attribute": "description", "value": "x"}, True),
    ({"op": "update", "id": "e1", "attribute": "room", "value": "x"}, False),
    ({"op": "update", "id": "e1", "attribute": "location"}, False),
    ({"op": "delete", "id": "e1"}, True),
    ({"op": "delete"}, False),
    ({"op": "delete", "id": 1}, False),
    ({"op": "remind", "id": "e1"}, False),
    ({"id": "e1"}, False),
]


@pytest.mark.parametrize(("op", "valid"), OPERATIONS)
def test_operation_schema_agrees_with_the_model(
    schemas: dict[str, Draft202012Validator], op: dict, valid: bool
) -> None:
    model_says = parse_op(op).__class__.__name__ != "InvalidOp"
    schema_says = not _errors(schemas["operation"], op)
    assert model_says == valid
    assert schema_says == valid


def test_case_schema_rejects_what_the_model_rejects(schemas: dict[str, Draft202012Validator]) -> None:
    case = json.loads((TINY / "cases.jsonl").read_text(encoding="utf-8").splitlines()[0])
    bad_format = {**case, "format": "proevent.case/2"}
    date_as_step_start = {**case, "steps": [{**case["steps"][0], "start": "2026-03-09"}, *case["steps"][1:]]}
    for bad in (bad_format, date_as_step_start):
        assert _errors(schemas["case"], bad)
        with pytest.raises(ValueError):
            Case.model_validate(bad)


def test_prediction_schema_keeps_invalid_ops(schemas: dict[str, Draft202012Validator]) -> None:
    line = {"case_id": "c", "mode": "single", "t": 1, "repeat": 0, "ops": [{"op": "remind"}, "garbage"]}
    assert _errors(schemas["prediction"], line) == []
    PredictionLine.model_validate(line)
    assert _errors(schemas["prediction"], {**line, "mode": "both"})
    assert _errors(schemas["prediction"], {**line, "t": 0})
