"""Hostile datasets (issue 12, finding 9): each gives one ``file:line: field: message``, exit 1, no traceback.

Every bad copy is ``examples/tiny`` with one defect and its checksum re-computed. The commands are
run through the CLI (``validate`` and ``evaluate``), and once in a real process for the exit status.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fixtures import PERFECT_RUN, copy_run, copy_tiny
from proevent.cli import app
from proevent.io import FormatError, load_dataset, load_run, sha256_file

runner = CliRunner()
Edit = Callable[[list[bytes]], list[bytes]]


def _fix_checksum(folder: Path) -> None:
    manifest = json.loads((folder / "dataset.json").read_text())
    manifest["sha256"]["cases.jsonl"] = sha256_file(folder / "cases.jsonl")
    (folder / "dataset.json").write_text(json.dumps(manifest, indent=2))


def _bad_copy(tmp_path: Path, edit: Edit) -> Path:
    folder = copy_tiny(tmp_path / "tiny")
    path = folder / "cases.jsonl"
    lines = path.read_bytes().split(b"\n")[:-1]
    path.write_bytes(b"".join(line + b"\n" for line in edit(lines)))
    _fix_checksum(folder)
    return folder


def _json_edit(lineno: int, change: Callable[[dict], None]) -> Edit:
    def apply(lines: list[bytes]) -> list[bytes]:
        data = json.loads(lines[lineno - 1])
        change(data)
        lines[lineno - 1] = json.dumps(data, ensure_ascii=False).encode()
        return lines
    return apply


def _raw_edit(lineno: int, old: bytes, new: bytes) -> Edit:
    def apply(lines: list[bytes]) -> list[bytes]:
        assert old in lines[lineno - 1]
        lines[lineno - 1] = lines[lineno - 1].replace(old, new, 1)
        return lines
    return apply


def _steps_t(values: list[int]) -> Callable[[dict], None]:
    def apply(case: dict) -> None:
        for step, t in zip(case["steps"], values, strict=True):
            step["t"] = t
    return apply


def _deep(lines: list[bytes]) -> list[bytes]:
    lines[1] = lines[1][:-1] + b',"meta":{"x":' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
    return lines


# tiny-02 (line 2) has 3 steps, tiny-04 (line 4) too; "Jerry" first appears at byte 58 of line 3.
DEFECTS: dict[str, tuple[Edit, str]] = {
    "step numbers 2, 4, 6": (
        _json_edit(2, _steps_t([2, 4, 6])),
        "cases.jsonl:2: steps.0.t: steps are numbered 1, 2, 3, ... in order: expected 1, got 2 (t = 2, 4, 6)"),
    "duplicate step numbers": (
        _json_edit(4, _steps_t([1, 2, 2])),
        "cases.jsonl:4: steps.2.t: duplicate step numbers: expected 3, got 2 (t = 1, 2, 2)"),
    "a case with no steps": (
        _json_edit(2, lambda case: case.__setitem__("steps", [])),
        "cases.jsonl:2: steps: a case has at least one step"),
    "duplicate case id": (
        _json_edit(3, lambda case: case.__setitem__("case_id", "tiny-01")),
        "cases.jsonl:3: case_id: duplicate case id 'tiny-01' (first on line 1)"),
    "non-UTF-8 bytes": (
        _raw_edit(3, b"Jerry", b"J\xff\xfeerry"),
        "cases.jsonl:3: (line): not valid UTF-8: byte 0xff at byte 58 (invalid start byte)"),
    "a 5,000-digit number": (
        _raw_edit(2, b'"t":1', b'"t":' + b"9" * 5000),
        "cases.jsonl:2: steps.0.t: a 5000-digit number is too large"),
    "an integer beyond 64 bits": (
        _json_edit(1, lambda case: case["meta"].__setitem__("seed", 2**64)),
        "cases.jsonl:1: meta.seed: a 20-digit integer is outside the 64-bit range"),
    "NaN in meta": (
        _raw_edit(1, b'"meta":{', b'"meta":{"rating":NaN,'),
        "cases.jsonl:1: meta.rating: NaN is not a JSON number"),
    "-Infinity in a list": (
        _raw_edit(5, b'"meta":{', b'"meta":{"w":[1,-Infinity],'),
        "cases.jsonl:5: meta.w.1: -Infinity is not a JSON number"),
    "a float that overflows": (
        _raw_edit(5, b'"meta":{', b'"meta":{"w":1e999,'),
        "cases.jsonl:5: meta.w: 1e999 is too large for a number"),
    "a lone surrogate": (
        _raw_edit(1, b"hike on saturday?", b"hike on saturday?\\ud800"),
        "cases.jsonl:1: steps.0.messages.0.text: lone surrogate \\ud800 (not encodable as UTF-8)"),
    "a line nested 100,000 deep": (
        _deep, "cases.jsonl:2: (line): not valid JSON: nested too deeply"),
    "meta nested 900 deep (loads, but could not be written back)": (
        _raw_edit(2, b'"meta":{', b'"meta":{"x":' + b"[" * 900 + b"]" * 900 + b","),
        "cases.jsonl:2: meta: nested more than 32 levels deep"),
    "an empty file": (
        lambda lines: [], "cases.jsonl: (file): no cases (the file holds no line)"),
}


@pytest.mark.parametrize("name", list(DEFECTS))
def test_loader_names_file_line_and_field(tmp_path: Path, name: str) -> None:
    edit, expected = DEFECTS[name]
    with pytest.raises(FormatError) as info:
        load_dataset(_bad_copy(tmp_path, edit))
    assert info.value.problems == [expected]


@pytest.mark.parametrize("name", list(DEFECTS))
@pytest.mark.parametrize("command", ["validate", "evaluate"])
def test_commands_exit_1_with_the_one_message(tmp_path: Path, name: str, command: str) -> None:
    edit, expected = DEFECTS[name]
    folder = _bad_copy(tmp_path, edit)
    run = copy_run("perfect", tmp_path / "run")
    args = [command, str(folder)] + ([str(run), "--no-ci"] if command == "evaluate" else [])
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", expected + "\n")
    assert not (run / "metrics.json").exists()


def test_paired_surrogates_and_escaped_emoji_are_fine(tmp_path: Path) -> None:
    folder = _bad_copy(tmp_path, _raw_edit(1, b"hike on saturday?", b"hike on saturday? \\ud83e\\udd7e"))
    assert load_dataset(folder).cases[0].steps[0].messages[0].text.startswith("hike on saturday? 🥾")


def test_a_cases_file_that_is_a_folder(tmp_path: Path) -> None:
    folder = copy_tiny(tmp_path / "tiny")
    (folder / "cases.jsonl").unlink()
    (folder / "cases.jsonl").mkdir()
    result = runner.invoke(app, ["validate", str(folder)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"{folder / 'cases.jsonl'}: is a folder, not a file\n"


def test_a_manifest_that_is_a_folder_or_not_utf8(tmp_path: Path) -> None:
    folder = copy_tiny(tmp_path / "tiny")
    (folder / "dataset.json").write_bytes(b'{\n "name": "caf\xe9"\n}\n')
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    assert info.value.problems == ["dataset.json:2: (file): not valid UTF-8: byte 0xe9 (invalid continuation byte)"]
    (folder / "dataset.json").unlink()
    (folder / "dataset.json").mkdir()
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    assert info.value.problems == [f"{folder / 'dataset.json'}: is a folder, not a file"]


def test_runs_keep_nan_in_raw_ops_but_name_the_line_of_a_huge_number(tmp_path: Path) -> None:
    """A prediction line holds what the model sent (NaN is an invalid op, scored as such); a number
    Python cannot read is an error with its line."""
    run = copy_run("perfect", tmp_path / "run")
    path = run / "predictions.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace('"ops":[', '"ops":[{"op":"update","id":"e1","attribute":"start","value":NaN},', 1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    first = load_run(run).lines[("tiny-01", "single", 1, 0)]
    assert first.ops[0]["value"] != first.ops[0]["value"]  # NaN kept
    lines[2] = lines[2].replace('"t":', '"t":' + "7" * 5000 + ",\"x\":", 1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_run(run)
    assert info.value.problems == ["predictions.jsonl:3: t: a 5000-digit number is too large"]


def test_the_installed_command_exits_1_without_a_traceback(tmp_path: Path) -> None:
    folder = _bad_copy(tmp_path, DEFECTS["a line nested 100,000 deep"][0])
    script = Path(sys.executable).parent / "proevent"
    cmd = [str(script)] if script.exists() else [sys.executable, "-c", "from proevent.cli import main; main()"]
    proc = subprocess.run([*cmd, "evaluate", str(folder), str(PERFECT_RUN), "--no-ci"],
                          capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (1, "", DEFECTS["a line nested 100,000 deep"][1] + "\n")
